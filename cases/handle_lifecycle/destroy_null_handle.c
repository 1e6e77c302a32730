/* destroy_null_handle — cublasDestroy(NULL).
 *
 * The mistake: cleanup code that destroys a handle whose creation failed
 * (or never happened) — harmless for free(NULL), but is it for cuBLAS?
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasDestroy(NULL) returns CUBLAS_STATUS_NOT_INITIALIZED
 * (free(NULL) is a no-op by the C standard; cublasDestroy(NULL) is a call
 * with a status of its own). Nothing else is affected: the synchronize
 * after it returns cudaSuccess.
 *
 * What a PyTorch user sees: nothing.
 *
 * Why: cublasDestroy checks the handle like every other call.
 *
 * The fix: destroy only handles that cublasCreate filled.
 *
 * References: cuBLAS documentation, cublasDestroy
 * (https://docs.nvidia.com/cuda/cublas/#cublasdestroy).
 *
 * atlas:cause null_handle_destroyed
 */
#include "atlas_cublas.h"

static void destroy(int null)
{
    cublasHandle_t handle = NULL;
    if (!null && !ATLAS_CUBLAS("create", cublasCreate(&handle)))
        return;
    ATLAS_CUBLAS("destroy", cublasDestroy(handle));
}

static void destroy_created(void) { destroy(0); }
static void destroy_null(void) { destroy(1); }

ATLAS_CASE(destroy_created, destroy_null)
