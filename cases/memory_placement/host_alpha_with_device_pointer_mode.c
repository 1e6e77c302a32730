/* host_alpha_with_device_pointer_mode — the handle is in
 * CUBLAS_POINTER_MODE_DEVICE, but alpha is a host variable.
 *
 * The mistake: the reverse of device_alpha_with_host_pointer_mode — a
 * handle shared with code that switched it to device mode, used by code that
 * passes &alpha.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): in device mode the kernel reads *alpha on the GPU. A host
 * stack address is not mapped there: cublasSgemm returns
 * CUBLAS_STATUS_SUCCESS at the call, the synchronize returns
 * cudaErrorIllegalAddress, and the context is lost (a later cudaMalloc
 * returns it too: sticky). With CUDA_LAUNCH_BLOCKING=1 (H100, 13.0)
 * cublasSgemm itself returns CUBLAS_STATUS_EXECUTION_FAILED; under
 * compute-sanitizer the synchronize returns cudaErrorLaunchFailure.
 *
 * What a PyTorch user sees: nothing; PyTorch manages pointer modes.
 *
 * Why: the pointer mode is a property of the handle, not of the call.
 *
 * The fix: scalars in device memory while the handle is in device mode, or
 * set the mode back to HOST.
 *
 * References: cuBLAS documentation, cublasSetPointerMode
 * (https://docs.nvidia.com/cuda/cublas/#cublassetpointermode).
 *
 * atlas:cause scalar_pointer_mode_mismatch
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_in_device_mode(int alpha_on_device)
{
    struct atlas_gemm g;
    float *scalars = NULL, host_scalars[2] = {1.0f, 0.0f};
    if (!atlas_gemm_begin(&g, M * K))
        return;
    if (ATLAS_CUDA("alloc_scalars", cudaMalloc((void **)&scalars, sizeof host_scalars))
        && ATLAS_CUDA("copy_scalars", cudaMemcpy(scalars, host_scalars, sizeof host_scalars, cudaMemcpyHostToDevice))
        && ATLAS_CUBLAS("set_mode", cublasSetPointerMode(g.handle, CUBLAS_POINTER_MODE_DEVICE))) {
        const float *alpha = alpha_on_device ? &scalars[0] : &host_scalars[0];
        const float *beta = alpha_on_device ? &scalars[1] : &host_scalars[1];
        ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, alpha,
                                         g.a, M, g.b, K, beta, g.c, M));
    }
    atlas_gemm_end(&g);
    cudaFree(scalars);
}

static void scalars_on_device(void) { gemm_in_device_mode(1); }
static void scalars_on_host(void) { gemm_in_device_mode(0); }

ATLAS_CASE(scalars_on_device, scalars_on_host)
