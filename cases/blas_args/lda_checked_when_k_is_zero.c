/* lda_checked_when_k_is_zero — k = 0 (an empty inner dimension) with lda = 0.
 *
 * The mistake: "A is empty, so its leading dimension cannot matter". With
 * k = 0 the product is just C = beta·C, but the leading dimensions are
 * checked before cuBLAS looks at k. Empty tensors in a batch (zero tokens,
 * zero features) hit this.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): lda is still checked when k is zero: cublasSgemm returns
 * CUBLAS_STATUS_INVALID_VALUE at the call and cuBLAS prints
 *   ** On entry to SGEMM  parameter number 8 had an illegal value
 *
 * What a PyTorch user sees: PyTorch handles empty products itself (fills
 * with zeros) and passes lda >= 1, so nothing.
 *
 * Why: the documented rule is lda >= max(1, m) for op N, independent of k.
 *
 * The fix: keep lda >= max(1, rows) even for empty operands.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause lda_below_minimum
 */
#include "atlas_cublas.h"

enum { M = 64, N = 32 };

static void gemm_empty_inner(int lda)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * N))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, 0,
                                     &g.alpha, g.a, lda, g.b, 1, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void lda_is_m(void) { gemm_empty_inner(M); }
static void lda_is_zero(void) { gemm_empty_inner(0); }

ATLAS_CASE(lda_is_m, lda_is_zero)
