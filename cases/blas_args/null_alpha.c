/* null_alpha — cublasSgemm with alpha = NULL.
 *
 * The mistake: passing the scalar by value-that-is-a-pointer wrongly, or a
 * NULL "use default" as in some BLAS wrappers. cuBLAS has no default alpha.
 *
 * What the program sees: the recorded status at the call.
 *
 * What a PyTorch user sees: nothing; PyTorch always passes alpha.
 *
 * Why: alpha and beta are required; NULL is rejected on the host.
 *
 * The fix: pass the address of a float (or of device memory with
 * CUBLAS_POINTER_MODE_DEVICE).
 *
 * References: cuBLAS documentation, cublas<t>gemm, "CUBLAS_STATUS_INVALID_VALUE"
 * conditions (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_with_alpha(int null)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     null ? NULL : &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void alpha_given(void) { gemm_with_alpha(0); }
static void alpha_null(void) { gemm_with_alpha(1); }

ATLAS_CASE(alpha_given, alpha_null)
