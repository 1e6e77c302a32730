/* ldc_smaller_than_rows — C (m×n) given ldc < m.
 *
 * The mistake: the output's leading dimension copied from an input, or set
 * to n (row-major habit).
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE at the
 * call and cuBLAS prints
 *   ** On entry to SGEMM  parameter number 13 had an illegal value
 * (ldc).
 *
 * What a PyTorch user sees: nothing; PyTorch allocates C itself.
 *
 * Why: ldc >= max(1, m) always (C is never transposed).
 *
 * The fix: ldc = m.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause lda_below_minimum
 */
#include "atlas_cublas.h"

enum { M = 64, N = 32, K = 48 };

static void gemm_with_ldc(int ldc)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, g.c, ldc));
    atlas_gemm_end(&g);
}

static void ldc_is_m(void) { gemm_with_ldc(M); }
static void ldc_is_n(void) { gemm_with_ldc(N); }

ATLAS_CASE(ldc_is_m, ldc_is_n)
