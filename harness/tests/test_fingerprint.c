/* The fingerprint on a machine with the toolkit but no driver — this
 * machine, in CI — is a real environment and must say so. */
#define _GNU_SOURCE
#include "check.h"
#include "process.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

static const char *field(const char *text, const char *key)
{
    static char value[256];
    char needle[64];
    snprintf(needle, sizeof needle, "\n%s=", key);
    char padded[ATLAS_TAIL + 2];
    snprintf(padded, sizeof padded, "\n%s", text);
    const char *at = strstr(padded, needle);
    if (!at)
        return NULL;
    at += strlen(needle);
    snprintf(value, sizeof value, "%.*s", (int)strcspn(at, "\n"), at);
    return value;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_fingerprint ATLAS_FINGERPRINT\n");
        return 99;
    }
    if (access("/proc/driver/nvidia/version", F_OK) == 0 || dlopen("libcuda.so.1", RTLD_NOW)) {
        printf("skip: this machine has an NVIDIA driver; this test is for the no-driver environment\n");
        return 77;
    }
    unsetenv("ATLAS_MODE");
    unsetenv("CUDA_LAUNCH_BLOCKING");
    unsetenv("CUDA_MODULE_LOADING");
    unsetenv("CUBLAS_WORKSPACE_CONFIG");
    char *args[] = {argv[1], NULL};
    struct atlas_end end;
    CHECK_INT(atlas_run_process(args, NULL, 60, &end), 0);
    CHECK_STR(end.text, "exit:0");
    CHECK_STR(field(end.out, "driver"), "none");
    CHECK_STR(field(end.out, "driver_source"), "none");
    CHECK_STR(field(end.out, "cuda"), "none");
    CHECK_STR(field(end.out, "device_count_status"), "cudaErrorInsufficientDriver");
    CHECK_STR(field(end.out, "devices"), "0");
    CHECK_STR(field(end.out, "gpu"), "none");
    CHECK_STR(field(end.out, "cc"), "none");
    CHECK_STR(field(end.out, "pageable"), "none");
    CHECK_STR(field(end.out, "mode"), "default");
    /* the runtime and cuBLAS are still there, and say which they are */
    char cudart[64];
    snprintf(cudart, sizeof cudart, "%s", field(end.out, "cudart") ? field(end.out, "cudart") : "");
    CHECK_STR(field(end.out, "cudart_header"), cudart);
    CHECK(field(end.out, "cublas") && strcmp(field(end.out, "cublas"), "0.0.0") != 0);
    const char *id = field(end.out, "id");
    CHECK(id && strncmp(id, "no-driver_cudart-", 17) == 0);
    CHECK_CONTAINS(id, "_default");
    CHECK_STR(field(end.out, "env.CUDA_LAUNCH_BLOCKING"), "<unset>");

    /* the library files really loaded: the runtime and cuBLAS, never a driver here */
    CHECK_CONTAINS(field(end.out, "library.libcudart"), "/libcudart.so.");
    CHECK(access(field(end.out, "library.libcudart"), R_OK) == 0);
    CHECK_CONTAINS(field(end.out, "library.libcublas"), "/libcublas.so.");
    CHECK_CONTAINS(field(end.out, "library.libcublasLt"), "/libcublasLt.so.");
    CHECK_STR(field(end.out, "library.libcuda"), "none");

    /* the mode follows the variables that change behaviour */
    char blocking[] = "CUDA_LAUNCH_BLOCKING=1";
    char *env[] = {blocking, NULL};
    CHECK_INT(atlas_run_process(args, env, 60, &end), 0);
    CHECK_STR(field(end.out, "mode"), "launch_blocking");
    CHECK_STR(field(end.out, "env.CUDA_LAUNCH_BLOCKING"), "1");
    char help[] = "--help";
    char *with_help[] = {argv[1], help, NULL};
    CHECK_INT(atlas_run_process(with_help, NULL, 60, &end), 0);
    CHECK_STR(end.text, "exit:0");
    CHECK_CONTAINS(end.out, "usage: atlas-fingerprint");
    return check_report();
}
