/* atlas-fingerprint — what this environment is, as key=value lines.
 *
 * Every results file carries this fingerprint and every rule's conditions are
 * evaluated against it. "No driver" and "no device" are fingerprints too, so
 * nothing here may fail hard: the driver and NVML are loaded at run time, and
 * each field falls back to "none" when what it reads is not there.
 *
 *   atlas-fingerprint [--help]
 *
 * It reads $ATLAS_MODE, CUDA_LAUNCH_BLOCKING, CUDA_MODULE_LOADING and
 * CUBLAS_WORKSPACE_CONFIG for the run mode (default: "default").
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

static void put(const char *key, const char *value) { printf("%s=%s\n", key, value); }

static void put_version(const char *key, int v) /* 13000 -> 13.0 */
{
    char text[32] = "none";
    if (v > 0)
        snprintf(text, sizeof text, "%d.%d", v / 1000, (v % 1000) / 10);
    put(key, text);
}

/* The full driver version (580.159.04): NVML first, then the kernel module. */
static void driver_version(char *out, size_t size, const char **source)
{
    snprintf(out, size, "none");
    *source = "none";
    void *nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (nvml) {
        int (*init)(void) = (int (*)(void))dlsym(nvml, "nvmlInit_v2");
        int (*get)(char *, unsigned) = (int (*)(char *, unsigned))dlsym(nvml, "nvmlSystemGetDriverVersion");
        int (*shutdown)(void) = (int (*)(void))dlsym(nvml, "nvmlShutdown");
        if (init && get && init() == 0) {
            if (get(out, (unsigned)size) == 0)
                *source = "nvml";
            if (shutdown)
                shutdown();
        }
    }
    if (strcmp(*source, "none") == 0) {
        FILE *f = fopen("/proc/driver/nvidia/version", "r");
        char line[512];
        if (f && fgets(line, sizeof line, f)) {
            /* NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  <date> */
            for (char *tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
                if (isdigit((unsigned char)tok[0]) && strchr(tok, '.')) {
                    snprintf(out, size, "%s", tok);
                    *source = "procfs";
                    break;
                }
            }
        }
        if (f)
            fclose(f);
    }
}

static void slug(char *s) /* "NVIDIA H100 80GB HBM3_driver-580" -> "nvidia-h100-80gb-hbm3_driver-580" */
{
    for (; *s; s++)
        *s = isalnum((unsigned char)*s) || *s == '.' || *s == '_' ? (char)tolower((unsigned char)*s) : '-';
}

static const char *run_mode(void)
{
    const char *mode = getenv("ATLAS_MODE");
    if (mode && *mode)
        return mode;
    const char *v;
    if ((v = getenv("CUDA_LAUNCH_BLOCKING")) && strcmp(v, "1") == 0)
        return "launch_blocking";
    if ((v = getenv("CUDA_MODULE_LOADING")) && strcmp(v, "EAGER") == 0)
        return "eager_loading";
    if ((v = getenv("CUBLAS_WORKSPACE_CONFIG")) && strcmp(v, ":0:0") == 0)
        return "workspace_0";
    return "default";
}

/* Which files of the libraries the environment is named after were really
 * loaded (after the calls above: the driver and NVML are opened lazily),
 * as library.NAME=PATH lines; collect turns them into "libraries". */
static const char *const watched_libraries[] = {"libcudart", "libcublas", "libcublasLt", "libcuda", "libnvidia-ml"};
static char loaded[sizeof watched_libraries / sizeof *watched_libraries][PATH_MAX];

static int note_library(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size, (void)data;
    const char *base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    for (size_t i = 0; i < sizeof watched_libraries / sizeof *watched_libraries; i++) {
        size_t n = strlen(watched_libraries[i]);
        if (strncmp(base, watched_libraries[i], n) == 0 && strncmp(base + n, ".so", 3) == 0 && !loaded[i][0]
            && !realpath(info->dlpi_name, loaded[i]))
            snprintf(loaded[i], sizeof loaded[i], "%s", info->dlpi_name);
    }
    return 0;
}

static void put_libraries(void)
{
    dl_iterate_phdr(note_library, NULL);
    char key[64];
    for (size_t i = 0; i < sizeof watched_libraries / sizeof *watched_libraries; i++) {
        snprintf(key, sizeof key, "library.%s", watched_libraries[i]);
        put(key, loaded[i][0] ? loaded[i] : "none");
    }
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        bool help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0;
        fprintf(help ? stdout : stderr,
                "usage: atlas-fingerprint\n"
                "Prints what this environment is as key=value lines: driver (NVML, else /proc), CUDA versions,\n"
                "cuBLAS, GPU, run mode, the library files loaded, and the id that names its results file.\n"
                "Needs no GPU or driver: what is missing reads \"none\".\n");
        return help ? 0 : 2;
    }
    char driver[96];
    const char *driver_source;
    driver_version(driver, sizeof driver, &driver_source);
    put("driver", driver);
    put("driver_source", driver_source);

    int driver_cuda = 0, runtime = 0;
    cudaDriverGetVersion(&driver_cuda); /* 0 when there is no driver */
    put_version("cuda", driver_cuda);
    cudaRuntimeGetVersion(&runtime);
    put_version("cudart", runtime);
    put_version("cudart_header", CUDART_VERSION);

    int major = 0, minor = 0, patch = 0;
    char text[256];
    cublasGetProperty(MAJOR_VERSION, &major);
    cublasGetProperty(MINOR_VERSION, &minor);
    cublasGetProperty(PATCH_LEVEL, &patch);
    snprintf(text, sizeof text, "%d.%d.%d", major, minor, patch);
    put("cublas", text);
    char cublas[32];
    snprintf(cublas, sizeof cublas, "%s", text);
    snprintf(text, sizeof text, "%d.%d.%d", CUBLAS_VER_MAJOR, CUBLAS_VER_MINOR, CUBLAS_VER_PATCH);
    put("cublas_header", text);

    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    put("device_count_status", cudaGetErrorName(status));
    snprintf(text, sizeof text, "%d", status == cudaSuccess ? count : 0);
    put("devices", text);

    char gpu[256] = "none", cc[16] = "none", memory[32] = "none";
    const char *pageable = "none", *ats = "none", *loading = "none";
    struct cudaDeviceProp prop;
    if (status == cudaSuccess && count > 0 && cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
        snprintf(gpu, sizeof gpu, "%s", prop.name);
        snprintf(cc, sizeof cc, "%d.%d", prop.major, prop.minor);
        snprintf(memory, sizeof memory, "%zu", prop.totalGlobalMem);
        int attr = 0;
        if (cudaDeviceGetAttribute(&attr, cudaDevAttrPageableMemoryAccess, 0) == cudaSuccess)
            pageable = attr ? "yes" : "no";
        if (cudaDeviceGetAttribute(&attr, cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0) == cudaSuccess)
            ats = attr ? "yes" : "no";
    }
    if (status == cudaSuccess) {
        /* cuModuleGetLoadingMode lives in the driver, which may be absent:
         * ask the runtime for it rather than linking libcuda. */
        typedef int (*get_mode_fn)(int *);
        void *fn = NULL;
        cudaError_t looked_up;
#if CUDART_VERSION >= 12050
        enum cudaDriverEntryPointQueryResult found;
        looked_up = cudaGetDriverEntryPointByVersion("cuModuleGetLoadingMode", &fn, 12000, cudaEnableDefault, &found);
        if (found != cudaDriverEntryPointSuccess)
            fn = NULL;
#elif CUDART_VERSION >= 12000
        enum cudaDriverEntryPointQueryResult found;
        looked_up = cudaGetDriverEntryPoint("cuModuleGetLoadingMode", &fn, cudaEnableDefault, &found);
        if (found != cudaDriverEntryPointSuccess)
            fn = NULL;
#else
        looked_up = cudaGetDriverEntryPoint("cuModuleGetLoadingMode", &fn, cudaEnableDefault);
#endif
        if (looked_up == cudaSuccess && fn) {
            int mode = 0;
            if (((get_mode_fn)fn)(&mode) == 0)
                loading = mode == 1 ? "EAGER" : mode == 2 ? "LAZY" : "unknown"; /* CUmoduleLoadingMode */
        }
    }
    put("gpu", gpu);
    put("cc", cc);
    put("memory_bytes", memory);
    put("pageable", pageable);
    put("pageable_uses_host_page_tables", ats);
    put("module_loading", loading);

    static const char *const watched[] = {"CUDA_LAUNCH_BLOCKING", "CUDA_MODULE_LOADING",
                                          "CUBLAS_WORKSPACE_CONFIG", "CUDA_VISIBLE_DEVICES"};
    for (size_t i = 0; i < sizeof watched / sizeof *watched; i++) {
        const char *value = getenv(watched[i]);
        snprintf(text, sizeof text, "env.%s", watched[i]);
        put(text, value ? value : "<unset>");
    }
    const char *mode = run_mode();
    put("mode", mode);

    struct utsname u;
    if (uname(&u) == 0) {
        put("os", u.sysname);
        put("kernel", u.release);
        put("arch", u.machine);
    }

    put_libraries();

    /* The id names the results file: GPU (and how many), driver, runtime,
     * cuBLAS, mode. */
    char who[320];
    if (strcmp(driver, "none") == 0 && driver_cuda == 0)
        snprintf(who, sizeof who, "no-driver");
    else if (strcmp(gpu, "none") == 0)
        snprintf(who, sizeof who, "no-device_driver-%s", driver);
    else if (count > 1)
        snprintf(who, sizeof who, "%dx-%s_driver-%s", count, gpu, driver);
    else
        snprintf(who, sizeof who, "%s_driver-%s", gpu, driver);
    /* CUDA 11's cudaRuntimeGetVersion answers nothing without a driver; the
     * name then uses the version the program was built with (the fields keep
     * what the library said). */
    int named = runtime > 0 ? runtime : CUDART_VERSION;
    char cudart_text[16];
    snprintf(cudart_text, sizeof cudart_text, "%d.%d", named / 1000, (named % 1000) / 10);
    snprintf(text, sizeof text, "%s_cudart-%s_cublas-%s_%s", who, cudart_text, cublas, mode);
    slug(text);
    put("id", text);
    return 0;
}
