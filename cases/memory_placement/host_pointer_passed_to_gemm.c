/* host_pointer_passed_to_gemm — A lives in malloc'd host memory, B and C on
 * the GPU, and cublasSgemm is given all three.
 *
 * The mistake: forgetting the cudaMemcpy (or, in PyTorch terms, the .cuda())
 * for one operand. cuBLAS cannot tell a host pointer from a device pointer:
 * it checks sizes and leading dimensions, not where memory lives.
 *
 * What the program sees depends on whether the GPU can read pageable host
 * memory (the fingerprint's "pageable" field: HMM or ATS). On the H100
 * recorded (pageable=no, CUDA 13.0) cublasSgemm returns CUBLAS_STATUS_SUCCESS
 * — the kernel is only queued — and the fault surfaces at the next
 * synchronize as cudaErrorIllegalAddress, which is sticky: the context is
 * lost. Where pageable memory is addressable the product may simply be
 * computed from host memory; no such machine is recorded yet.
 *
 * What a PyTorch user sees: PyTorch checks devices before cuBLAS:
 *   RuntimeError: Expected all tensors to be on the same device, but got mat2
 *   is on cuda:0, different from other tensors on cpu (when checking argument
 *   in method wrapper_CUDA_mm)
 * The article's claim that this yields CUBLAS_STATUS_INVALID_VALUE is not
 * what cuBLAS or PyTorch do.
 *
 * Why: a device pointer and a host pointer are both just addresses; the GPU
 * faults only when it dereferences an address its page tables do not map.
 *
 * The fix: copy A to device memory (cudaMalloc + cudaMemcpy), or use pinned
 * (cudaMallocHost) or managed memory, which the GPU may address.
 *
 * References: CUDA Programming Guide, "Unified Memory" / "System Allocated
 * Memory" (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#system-allocator);
 * cuBLAS documentation, general description, "the data must be in device memory"
 * (https://docs.nvidia.com/cuda/cublas/#data-layout).
 *
 * atlas:cause host_pointer_used_on_device
 */
#include "atlas_cublas.h"
#include <stdlib.h>

enum { M = 256, N = 256, K = 256 };

static void gemm_with_a_on_host(int a_on_host)
{
    struct atlas_gemm g;
    float *host_a = calloc(M * K, sizeof(float));
    if (!host_a || !atlas_gemm_begin(&g, M * K)) {
        free(host_a);
        return;
    }
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                     a_on_host ? host_a : g.a, M, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
    free(host_a);
}

static void a_copied_to_device(void) { gemm_with_a_on_host(0); }
static void a_left_on_host(void) { gemm_with_a_on_host(1); }

ATLAS_CASE(a_copied_to_device, a_left_on_host)
