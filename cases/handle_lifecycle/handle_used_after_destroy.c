/* handle_used_after_destroy — cublasSgemm on a handle already destroyed.
 *
 * The mistake: a cleanup path destroys the handle while another path (a
 * callback, a second thread, a cached pointer in a struct) still uses it.
 *
 * What the program sees: a use-after-free of host memory; the recorded
 * outcome is whatever this cuBLAS does with it — a status, a crash, or a
 * call that appears to work.
 *
 * What a PyTorch user sees: nothing; PyTorch owns its handles.
 *
 * Why: cublasHandle_t points to memory cublasDestroy has freed; no status
 * can reliably report that.
 *
 * The fix: one owner; set the handle to NULL when destroyed (a NULL handle
 * is reported: see null_handle).
 *
 * References: cuBLAS documentation, cublasDestroy
 * (https://docs.nvidia.com/cuda/cublas/#cublasdestroy).
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_after_destroy(int destroyed)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    if (destroyed)
        ATLAS_CUBLAS("destroy_early", cublasDestroy(g.handle));
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(g.a), cudaFree(g.b), cudaFree(g.c);
    if (!destroyed)
        ATLAS_CUBLAS("destroy", cublasDestroy(g.handle));
}

static void destroy_after_use(void) { gemm_after_destroy(0); }
static void use_after_destroy(void) { gemm_after_destroy(1); }

ATLAS_CASE(destroy_after_use, use_after_destroy)
