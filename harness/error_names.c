/* atlas-error-names — every status this toolkit's headers and libraries
 * know, with the text they print, as tab-separated lines:
 *
 *   cuda    700  cudaErrorIllegalAddress  an illegal memory access was encountered
 *   cublas  7    CUBLAS_STATUS_INVALID_VALUE  an invalid numeric value was used as an argument
 *
 * No GPU is needed: these are host functions. `explain` uses the table to
 * turn a message's text back into the status behind it. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

int main(int argc, char **argv)
{
    if (argc > 1) {
        bool help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0;
        fprintf(help ? stdout : stderr, "usage: atlas-error-names\n"
                "Prints every CUDA runtime (codes 0-1099) and cuBLAS (0-63) status this toolkit knows, with its\n"
                "text: API, code, name, text, tab-separated. Needs no GPU.\n");
        return help ? 0 : 2;
    }
    for (int code = 0; code < 1100; code++) {
        const char *name = cudaGetErrorName((cudaError_t)code);
        if (name && strncmp(name, "cuda", 4) == 0)
            printf("cuda\t%d\t%s\t%s\n", code, name, cudaGetErrorString((cudaError_t)code));
    }
    for (int code = 0; code < 64; code++) {
        const char *name = cublasGetStatusName((cublasStatus_t)code);
        if (name && strncmp(name, "CUBLAS_STATUS_", 14) == 0)
            printf("cublas\t%d\t%s\t%s\n", code, name, cublasGetStatusString((cublasStatus_t)code));
    }
    return 0;
}
