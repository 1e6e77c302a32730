/* handles_leaked_until_creation_fails — cublasCreate in a loop, never
 * cublasDestroy, until creation fails.
 *
 * The mistake: creating a cuBLAS handle per call (per layer, per request)
 * and never destroying it. Each handle holds device memory (its workspace
 * and internal state), so the leak is of GPU memory, found only when it
 * runs out.
 *
 * What the program sees: many creations succeed, then cublasCreate returns
 * CUBLAS_STATUS_ALLOC_FAILED. On the H100 (80 GB, CUDA 13.0, cuBLAS 13.1)
 * one handle took 68 MiB of device memory and 1256 leaked handles fit.
 * Nothing is sticky: once handles are destroyed, creation works again.
 *
 * What a PyTorch user sees: PyTorch keeps one handle per device and thread,
 * so the leak comes from extensions; the next handle PyTorch itself creates
 * fails as in cublas_create_when_memory_full.
 *
 * Why: cublasCreate allocates on the device; CUBLAS_WORKSPACE_CONFIG changes
 * how much.
 *
 * The fix: create one handle per thread and device, reuse it, and destroy it
 * at the end (or destroy each handle when done with it).
 *
 * References: cuBLAS documentation, cublasCreate and "cuBLAS workspace"
 * (https://docs.nvidia.com/cuda/cublas/#cublascreate,
 * https://docs.nvidia.com/cuda/cublas/#cublassetworkspace).
 *
 * atlas:runs-alone — it takes GPU memory until there is none.
 * atlas:timeout=240
 *
 * atlas:cause library_handles_leaked
 */
#include "atlas_cublas.h"
#include <stdlib.h>

enum { MAX_HANDLES = 50000 };

/* Device bytes the first handle takes. */
static size_t bytes_of_one_handle(void)
{
    size_t before, after, total;
    cublasHandle_t handle;
    if (!ATLAS_CUDA("meminfo", cudaMemGetInfo(&before, &total)) || !ATLAS_CUBLAS("create", cublasCreate(&handle)))
        return 0;
    cudaMemGetInfo(&after, &total);
    cublasDestroy(handle);
    atlas_quantity("bytes_per_handle", (double)(before - after), "bytes");
    return before - after;
}

static void leak_handles(void)
{
    cublasHandle_t *handles = malloc(sizeof *handles * MAX_HANDLES);
    int created = 0;
    size_t free_before, free_after, total;
    if (!handles || !ATLAS_CUDA("context", cudaFree(0)) || !bytes_of_one_handle()) {
        free(handles);
        return;
    }
    cudaMemGetInfo(&free_before, &total);
    cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
    while (created < MAX_HANDLES && (status = cublasCreate(&handles[created])) == CUBLAS_STATUS_SUCCESS)
        created++;
    cudaMemGetInfo(&free_after, &total);
    atlas_quantity("handles_created", created, "handles");
    atlas_quantity("average_bytes_per_leaked_handle", created ? (double)(free_before - free_after) / created : 0, "bytes");
    if (status != CUBLAS_STATUS_SUCCESS)
        atlas_cublas_call("exhausted", "cublasCreate(&handles[created]) after the loop's last success", status);
    else
        atlas_note("no failure within %d handles", MAX_HANDLES);
    while (created > 0)
        cublasDestroy(handles[--created]);
    /* Destroying them gives the memory back: creation works again. */
    cublasHandle_t again;
    if (ATLAS_CUBLAS("create_after_destroy", cublasCreate(&again)))
        cublasDestroy(again);
    free(handles);
}

/* Twice as many creations as leaked handles would fit, each destroyed
 * after use. */
static void destroy_each_handle(void)
{
    size_t free_bytes, total, per_handle;
    if (!ATLAS_CUDA("context", cudaFree(0)) || !(per_handle = bytes_of_one_handle()))
        return;
    cudaMemGetInfo(&free_bytes, &total);
    size_t rounds = 2 * (free_bytes / per_handle);
    if (rounds > MAX_HANDLES)
        rounds = MAX_HANDLES;
    size_t done = 0;
    cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
    for (; done < rounds; done++) {
        cublasHandle_t handle;
        if ((status = cublasCreate(&handle)) != CUBLAS_STATUS_SUCCESS)
            break;
        cublasDestroy(handle);
    }
    atlas_quantity("handles_created", (double)done, "handles");
    atlas_cublas_call("create_loop", "cublasCreate + cublasDestroy, more times than leaked handles fit", status);
}

ATLAS_CASE(destroy_each_handle, leak_handles)
