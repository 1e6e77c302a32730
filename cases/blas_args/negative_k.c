/* negative_k — cublasSgemm called with k = -1 (the inner dimension).
 *
 * The mistake: the shared dimension of A and B computed wrongly — the
 * article's "shapes that do not conform", at its most extreme.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE at the
 * call and cuBLAS prints
 *   ** On entry to SGEMM  parameter number 5 had an illegal value
 * (k). Nothing runs.
 *
 * What a PyTorch user sees: torch.matmul checks that inner dimensions agree
 * before cuBLAS: "RuntimeError: mat1 and mat2 shapes cannot be multiplied".
 *
 * Why: k >= 0 is required; checked on the host.
 *
 * The fix: k is A's columns (op N) and must equal B's rows.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause negative_dimension
 */
#include "atlas_cublas.h"

enum { M = 64, N = 32, K = 48 };

static void gemm_with_inner(int k)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, k,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void inner_positive(void) { gemm_with_inner(K); }
static void inner_negative(void) { gemm_with_inner(-1); }

ATLAS_CASE(inner_positive, inner_negative)
