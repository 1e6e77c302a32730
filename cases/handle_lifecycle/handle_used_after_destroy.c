/* handle_used_after_destroy — cublasSgemm on a handle already destroyed.
 *
 * The mistake: a cleanup path destroys the handle while another path (a
 * callback, a second thread, a cached pointer in a struct) still uses it.
 *
 * What the program sees: a use-after-free of host memory, and no fixed
 * answer. Five runs in a row on the H100 (CUDA 13.0, cuBLAS 13.1) gave
 * CUBLAS_STATUS_NOT_SUPPORTED three times and killed the process with
 * SIGFPE twice: whatever the freed memory holds decides.
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
 *
 * atlas:nondeterministic — a use-after-free: its rules list every outcome seen.
 *
 * atlas:cause cublas_handle_used_after_destroy
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
