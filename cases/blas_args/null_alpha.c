/* null_alpha — cublasSgemm with alpha = NULL.
 *
 * The mistake: passing the scalar by value-that-is-a-pointer wrongly, or a
 * NULL "use default" as in some BLAS wrappers. cuBLAS has no default alpha.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE at the
 * call, without a message; the context stays usable.
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
 *
 * atlas:cause null_pointer_argument
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
