/* pinned_host_memory_as_operand — A in cudaMallocHost (pinned) memory
 * works where malloc'd memory faults.
 *
 * The mistake (broken variant): A from malloc. The fix shown (fixed
 * variant): A from cudaMallocHost, which the GPU maps, so a kernel can read
 * it over the bus — slowly, but correctly.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): broken — cublasSgemm returns CUBLAS_STATUS_SUCCESS at the
 * call, the synchronize returns cudaErrorIllegalAddress, and the context is
 * lost (a later cudaMalloc returns it too: sticky). With
 * CUDA_LAUNCH_BLOCKING=1 (H100, 13.0) cublasSgemm itself returns
 * CUBLAS_STATUS_EXECUTION_FAILED; under compute-sanitizer the synchronize
 * returns cudaErrorLaunchFailure. Fixed — CUBLAS_STATUS_SUCCESS and
 * cudaSuccess throughout.
 *
 * What a PyTorch user sees: pinned CPU tensors (pin_memory()) are still CPU
 * tensors to torch.matmul: "Expected all tensors to be on the same device".
 *
 * Why: pinned memory is page-locked and mapped into the device's address
 * space (with unified addressing the same pointer works on both sides).
 *
 * The fix: for repeated use, copy to the device; pinned memory is for fast
 * copies and zero-copy access of data read once.
 *
 * References: CUDA Runtime API, cudaMallocHost
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html);
 * CUDA Programming Guide, "Mapped Memory".
 *
 * atlas:cause host_pointer_used_on_device
 */
#include "atlas_cublas.h"
#include <stdlib.h>

enum { M = 64, N = 64, K = 64 };

static void gemm_with_host_a(int pinned)
{
    struct atlas_gemm g;
    float *a = NULL;
    if (pinned ? !ATLAS_CUDA("pin", cudaMallocHost((void **)&a, sizeof(float) * M * K))
               : !(a = malloc(sizeof(float) * M * K)))
        return;
    for (int i = 0; i < M * K; i++)
        a[i] = 1.0f;
    if (atlas_gemm_begin(&g, M * K)) {
        ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                         a, M, g.b, K, &g.beta, g.c, M));
        atlas_gemm_end(&g);
    }
    if (pinned)
        cudaFreeHost(a);
    else
        free(a);
}

static void pinned(void) { gemm_with_host_a(1); }
static void from_malloc(void) { gemm_with_host_a(0); }

ATLAS_CASE(pinned, from_malloc)
