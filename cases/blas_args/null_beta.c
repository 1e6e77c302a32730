/* null_beta — cublasSgemm with beta = NULL.
 *
 * The mistake: "C is not read, so beta does not matter" — it is still a
 * required argument.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE at the
 * call, without a message; the context stays usable.
 *
 * What a PyTorch user sees: nothing; PyTorch always passes beta.
 *
 * Why: beta is required; NULL is rejected on the host.
 *
 * The fix: pass &zero.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause null_pointer_argument
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_with_beta(int null)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, M, g.b, K, null ? NULL : &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void beta_given(void) { gemm_with_beta(0); }
static void beta_null(void) { gemm_with_beta(1); }

ATLAS_CASE(beta_given, beta_null)
