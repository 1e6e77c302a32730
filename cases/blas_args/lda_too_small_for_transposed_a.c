/* lda_too_small_for_transposed_a — transa = CUBLAS_OP_T, but lda sized as
 * if A were not transposed.
 *
 * The mistake: with op(A) = Aᵀ, the stored A is k×m, so lda must be at least
 * k, not m. Switching transa without switching lda is the classic slip when
 * feeding row-major data to column-major cuBLAS.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE at the
 * call and cuBLAS prints
 *   ** On entry to SGEMM  parameter number 8 had an illegal value
 * (lda). Nothing runs.
 *
 * What a PyTorch user sees: nothing — PyTorch picks transa and lda together
 * from the tensor's strides.
 *
 * Why: for CUBLAS_OP_T the rule is lda >= max(1, k).
 *
 * The fix: lda = rows of A as stored: k when transposed.
 *
 * References: cuBLAS documentation, cublas<t>gemm, the lda parameter
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause lda_below_minimum
 */
#include "atlas_cublas.h"

enum { M = 64, N = 32, K = 48 };

static void gemm_transposed_a(int lda)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, lda, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void lda_is_k(void) { gemm_transposed_a(K); }
static void lda_below_k(void) { gemm_transposed_a(K - 1); }

ATLAS_CASE(lda_is_k, lda_below_k)
