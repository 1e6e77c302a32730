/* device_alpha_with_host_pointer_mode — alpha lives in device memory, but
 * the handle is in the default CUBLAS_POINTER_MODE_HOST.
 *
 * The mistake: keeping scalars on the device (to avoid a synchronize) and
 * forgetting cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE).
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): in host mode cuBLAS reads *alpha on the CPU, at the call;
 * a device address is not mapped on the host, so the process itself dies of
 * SIGSEGV inside cublasSgemm. No status is returned. Under
 * compute-sanitizer (H100, 13.0) the process exits with status 11 instead.
 *
 * What a PyTorch user sees: nothing; PyTorch manages pointer modes.
 *
 * Why: the pointer mode says which side dereferences alpha and beta.
 *
 * The fix: set CUBLAS_POINTER_MODE_DEVICE for device scalars.
 *
 * References: cuBLAS documentation, cublasSetPointerMode and
 * "Scalar Parameters" (https://docs.nvidia.com/cuda/cublas/#scalar-parameters).
 *
 * atlas:cause scalar_pointer_mode_mismatch
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_with_device_alpha(int device_mode)
{
    struct atlas_gemm g;
    float *alpha = NULL, one = 1.0f;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    if (ATLAS_CUDA("alloc_alpha", cudaMalloc((void **)&alpha, sizeof *alpha))
        && ATLAS_CUDA("copy_alpha", cudaMemcpy(alpha, &one, sizeof one, cudaMemcpyHostToDevice))) {
        float *beta = alpha; /* only read; any device float works, and 1·C is fine for C = 0 */
        if (device_mode)
            ATLAS_CUBLAS("set_mode", cublasSetPointerMode(g.handle, CUBLAS_POINTER_MODE_DEVICE));
        ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, alpha,
                                         g.a, M, g.b, K, beta, g.c, M));
    }
    atlas_gemm_end(&g);
    cudaFree(alpha);
}

static void device_pointer_mode(void) { gemm_with_device_alpha(1); }
static void host_pointer_mode(void) { gemm_with_device_alpha(0); }

ATLAS_CASE(device_pointer_mode, host_pointer_mode)
