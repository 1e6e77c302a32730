/* ldb_smaller_than_k — B (k×n, not transposed) given ldb < k.
 *
 * The mistake: passing B's column count (n) as its leading dimension — the
 * row-major habit — when n < k.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE at the
 * call and cuBLAS prints
 *   ** On entry to SGEMM  parameter number 10 had an illegal value
 * (ldb). Nothing runs.
 *
 * What a PyTorch user sees: nothing; PyTorch derives ldb from strides.
 *
 * Why: for CUBLAS_OP_N on B, ldb >= max(1, k).
 *
 * The fix: ldb = rows of B as stored.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause lda_below_minimum
 */
#include "atlas_cublas.h"

enum { M = 64, N = 32, K = 48 };

static void gemm_with_ldb(int ldb)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, M, g.b, ldb, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void ldb_is_k(void) { gemm_with_ldb(K); }
static void ldb_is_n(void) { gemm_with_ldb(N); }

ATLAS_CASE(ldb_is_k, ldb_is_n)
