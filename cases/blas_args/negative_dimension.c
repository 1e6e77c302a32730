/* negative_dimension — cublasSgemm called with m = -1.
 *
 * The mistake: a size computed by subtraction (rows - offset, end - begin)
 * goes negative, or a 64-bit size above INT_MAX wraps when passed to the
 * 32-bit int parameters of the classic API.
 *
 * What the program sees (H100, CUDA 13.0): CUBLAS_STATUS_INVALID_VALUE at
 * the call, and "On entry to SGEMM  parameter number 3 had an illegal value"
 * (m). Nothing is launched and the context stays usable.
 *
 * What a PyTorch user sees: PyTorch refuses the tensor before any cuBLAS call:
 *   RuntimeError: Trying to create tensor with negative dimension -1: [-1, 48]
 *
 * Why: m, n and k must be >= 0; the check is on the host.
 *
 * The fix: validate sizes before the call; for sizes above INT_MAX use the
 * 64-bit API (cublasSgemm_64) or split the product.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm) and the 64-bit
 * integer interface (https://docs.nvidia.com/cuda/cublas/#bit-integer-interface).
 *
 * atlas:cause negative_dimension
 */
#include "atlas_cublas.h"

enum { M = 64, N = 32, K = 48 };

static void gemm_with_rows(int m)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, m, N, K,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void rows_positive(void) { gemm_with_rows(M); }
static void rows_negative(void) { gemm_with_rows(-1); }

ATLAS_CASE(rows_positive, rows_negative)
