/* managed_memory_as_operand — A in cudaMallocManaged memory works where
 * malloc'd memory faults.
 *
 * The mistake (broken variant): malloc'd A. The fix shown (fixed variant):
 * A from cudaMallocManaged, written by the CPU and read by the GPU, migrated
 * on demand.
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
 * What a PyTorch user sees: nothing comparable.
 *
 * Why: managed memory is one allocation addressable from both sides.
 *
 * The fix: managed (small sizes: never more managed memory than the GPU has
 * free) or explicit device memory.
 *
 * References: CUDA Programming Guide, "Unified Memory Programming"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#um-unified-memory-programming-hd).
 *
 * atlas:cause host_pointer_used_on_device
 */
#include "atlas_cublas.h"
#include <stdlib.h>

enum { M = 64, N = 64, K = 64 };

static void gemm_with_a_from(int managed)
{
    struct atlas_gemm g;
    float *a = NULL;
    if (managed ? !ATLAS_CUDA("managed", cudaMallocManaged((void **)&a, sizeof(float) * M * K, cudaMemAttachGlobal))
                : !(a = malloc(sizeof(float) * M * K)))
        return;
    for (int i = 0; i < M * K; i++)
        a[i] = 1.0f;
    if (atlas_gemm_begin(&g, M * K)) {
        ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                         a, M, g.b, K, &g.beta, g.c, M));
        atlas_gemm_end(&g);
    }
    if (managed)
        cudaFree(a);
    else
        free(a);
}

static void managed(void) { gemm_with_a_from(1); }
static void from_malloc(void) { gemm_with_a_from(0); }

ATLAS_CASE(managed, from_malloc)
