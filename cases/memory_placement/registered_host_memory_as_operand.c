/* registered_host_memory_as_operand — malloc'd A works once registered
 * with cudaHostRegister.
 *
 * The mistake (broken variant): malloc'd A handed to cuBLAS as is. The fix
 * shown (fixed variant): the same buffer after cudaHostRegister, which pins
 * and maps it, so the device may read it.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): broken — cublasSgemm returns CUBLAS_STATUS_SUCCESS at the
 * call, the synchronize returns cudaErrorIllegalAddress, and the context is
 * lost (a later cudaMalloc returns it too: sticky). With
 * CUDA_LAUNCH_BLOCKING=1 (H100, 13.0) cublasSgemm itself returns
 * CUBLAS_STATUS_EXECUTION_FAILED; under compute-sanitizer the synchronize
 * returns cudaErrorLaunchFailure. Fixed — CUBLAS_STATUS_SUCCESS and
 * cudaSuccess throughout. cudaHostRegister returns the host pointer's
 * device address through cudaHostGetDevicePointer; with unified addressing
 * it is the same pointer.
 *
 * What a PyTorch user sees: nothing comparable; PyTorch copies CPU tensors.
 *
 * Why: registration page-locks existing memory and maps it for the GPU.
 *
 * The fix: register (and unregister) buffers you cannot allocate yourself,
 * or copy them.
 *
 * References: CUDA Runtime API, cudaHostRegister
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:cause host_pointer_used_on_device
 */
#include "atlas_cublas.h"
#include <stdlib.h>

enum { M = 64, N = 64, K = 64 };

static void gemm_with_malloc_a(int registered)
{
    struct atlas_gemm g;
    float *a = malloc(sizeof(float) * M * K);
    if (!a)
        return;
    for (int i = 0; i < M * K; i++)
        a[i] = 1.0f;
    if (atlas_gemm_begin(&g, M * K)) {
        if (!registered || ATLAS_CUDA("register", cudaHostRegister(a, sizeof(float) * M * K, cudaHostRegisterMapped))) {
            ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                             a, M, g.b, K, &g.beta, g.c, M));
            atlas_gemm_end(&g);
        }
        if (registered)
            cudaHostUnregister(a);
    }
    free(a);
}

static void registered(void) { gemm_with_malloc_a(1); }
static void not_registered(void) { gemm_with_malloc_a(0); }

ATLAS_CASE(registered, not_registered)
