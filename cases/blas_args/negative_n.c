/* negative_n — cublasSgemm called with n = -1 (the columns of B and C).
 *
 * The mistake: as negative_dimension, for the other output dimension: a
 * batch or sequence length computed by subtraction that went below zero.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE at the
 * call (the argument check is on the host) and cuBLAS prints
 *   ** On entry to SGEMM  parameter number 4 had an illegal value
 * (n); nothing is launched and the context stays usable.
 *
 * What a PyTorch user sees: a negative size never reaches cuBLAS:
 *   RuntimeError: Trying to create tensor with negative dimension ...
 *
 * Why: n >= 0 is required; cuBLAS validates it before choosing a kernel.
 *
 * The fix: validate sizes before the call.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause negative_dimension
 */
#include "atlas_cublas.h"

enum { M = 64, N = 32, K = 48 };

static void gemm_with_columns(int n)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, n, K,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void columns_positive(void) { gemm_with_columns(N); }
static void columns_negative(void) { gemm_with_columns(-1); }

ATLAS_CASE(columns_positive, columns_negative)
