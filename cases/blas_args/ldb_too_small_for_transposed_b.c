/* ldb_too_small_for_transposed_b — transb = CUBLAS_OP_T with ldb < n.
 *
 * The mistake: with op(B) = Bᵀ the stored B is n×k, so ldb must be at least
 * n; keeping the untransposed ldb (k) fails when k < n.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE at the
 * call and cuBLAS prints
 *   ** On entry to SGEMM  parameter number 10 had an illegal value
 * (ldb).
 *
 * What a PyTorch user sees: nothing; PyTorch sets transb and ldb together.
 *
 * Why: for CUBLAS_OP_T on B, ldb >= max(1, n).
 *
 * The fix: ldb = n when B is transposed.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause lda_below_minimum
 */
#include "atlas_cublas.h"

enum { M = 64, N = 96, K = 48 };

static void gemm_transposed_b(int ldb)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * N))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_T, M, N, K,
                                     &g.alpha, g.a, M, g.b, ldb, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void ldb_is_n(void) { gemm_transposed_b(N); }
static void ldb_is_k(void) { gemm_transposed_b(K); }

ATLAS_CASE(ldb_is_n, ldb_is_k)
