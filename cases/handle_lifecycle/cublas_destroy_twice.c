/* cublas_destroy_twice — cublasDestroy called again on a destroyed handle.
 *
 * The mistake: two owners of one handle (a copied struct, a destructor and
 * an explicit cleanup) each destroy it.
 *
 * What the program sees (H100, CUDA 13.0, cuBLAS 13.1): the process dies
 * inside the second cublasDestroy with SIGABRT, glibc printing
 *   free(): double free detected in tcache 2
 * — no status is ever returned. The harness records the dying process as
 * the outcome.
 *
 * What a PyTorch user sees: nothing — PyTorch owns its handles and destroys
 * them once (or never, at exit).
 *
 * Why: a cublasHandle_t is a pointer to host memory that cublasDestroy
 * frees; using it again is a use-after-free, which no status can reliably
 * report.
 *
 * The fix: one owner per handle; set the handle to NULL after destroying it.
 *
 * References: cuBLAS documentation, cublasDestroy
 * (https://docs.nvidia.com/cuda/cublas/#cublasdestroy).
 *
 * atlas:cause handle_destroyed_twice
 */
#include "atlas_cublas.h"

static void destroy(int twice)
{
    cublasHandle_t handle;
    if (!ATLAS_CUBLAS("create", cublasCreate(&handle)))
        return;
    ATLAS_CUBLAS("destroy", cublasDestroy(handle));
    if (twice)
        ATLAS_CUBLAS("destroy_again", cublasDestroy(handle));
    else
        handle = NULL;
}

static void destroy_once(void) { destroy(0); }
static void destroy_twice(void) { destroy(1); }

ATLAS_CASE(destroy_once, destroy_twice)
