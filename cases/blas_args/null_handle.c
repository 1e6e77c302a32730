/* null_handle — cublasSgemm with a NULL handle.
 *
 * The mistake: using a handle whose creation failed (its status unchecked),
 * or one never created — a global initialised lazily on another path.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemm returns CUBLAS_STATUS_NOT_INITIALIZED at the
 * call (a NULL handle is checked; a dangling one is not — see
 * handle_used_after_destroy).
 *
 * What a PyTorch user sees: nothing; PyTorch creates handles itself. A
 * failed creation shows up as in cublas_create_when_memory_full.
 *
 * Why: every cuBLAS call first checks that the handle is initialised.
 *
 * The fix: check cublasCreate's status; never use a handle it did not fill.
 *
 * References: cuBLAS documentation, cublasCreate and "CUBLAS_STATUS_NOT_INITIALIZED"
 * (https://docs.nvidia.com/cuda/cublas/#cublasstatus-t).
 *
 * atlas:cause null_handle_used
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_with_handle(int null)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(null ? NULL : g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void created_handle(void) { gemm_with_handle(0); }
static void null(void) { gemm_with_handle(1); }

ATLAS_CASE(created_handle, null)
