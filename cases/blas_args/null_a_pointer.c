/* null_a_pointer — cublasSgemm with A = NULL and non-zero sizes.
 *
 * The mistake: an allocation that failed unchecked (cudaMalloc left the
 * pointer NULL) is passed on as an operand.
 *
 * What the program sees: this case measures whether cuBLAS checks A at all.
 * If it does not, the call succeeds and the kernel faults on address 0: an
 * illegal address at the next synchronize, sticky.
 *
 * What a PyTorch user sees: nothing comparable; tensors always have storage.
 *
 * Why: the documented INVALID_VALUE conditions are about sizes, leading
 * dimensions and scalars; matrix pointers are dereferenced on the device.
 *
 * The fix: check every cudaMalloc.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause null_pointer_argument
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_with_a(int null)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, null ? NULL : g.a, M, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void a_allocated(void) { gemm_with_a(0); }
static void a_null(void) { gemm_with_a(1); }

ATLAS_CASE(a_allocated, a_null)
