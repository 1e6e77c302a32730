/* atlas-error-names — every status this toolkit's headers and libraries
 * know, with the text they print, as tab-separated lines:
 *
 *   cuda    700  cudaErrorIllegalAddress  an illegal memory access was encountered
 *   cublas  7    CUBLAS_STATUS_INVALID_VALUE  an invalid numeric value was used as an argument
 *
 * No GPU is needed: these are host functions. `explain` uses the table to
 * turn a message's text back into the status behind it. */
#include <stdio.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

int main(void)
{
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
