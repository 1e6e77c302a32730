/* cusolver_create_when_memory_full — cusolverDnCreate after this process
 * has taken all free GPU memory.
 *
 * The mistake: the solver handle is created lazily, at the first
 * factorisation, after a framework's allocator (or the program) has filled
 * the GPU — the cuSOLVER form of cublas_create_when_memory_full.
 *
 * What the program sees (H200, CUDA 13.0, cuSOLVER 12): cusolverDnCreate
 * returns CUSOLVER_STATUS_INTERNAL_ERROR (7) — not the
 * CUSOLVER_STATUS_ALLOC_FAILED the documentation lists for resources that
 * could not be allocated. Nothing is sticky: freeing memory is enough. A
 * handle created before filling still factorises on a full GPU.
 *
 * What a PyTorch user sees: the first torch.linalg call after memory filled
 * up raises
 *   RuntimeError: cusolver error: CUSOLVER_STATUS_INTERNAL_ERROR, when
 *   calling `cusolverDnCreate(handle)`. If you keep seeing this error, you
 *   may use `torch.backends.cuda.preferred_linalg_library()` ...
 * (recorded with PyTorch 2.11 on an H200: the "cusolver error: 7" of the
 * report below).
 *
 * Why: a cuSOLVER handle creates a cuBLAS handle and allocates device memory
 * of its own; with nothing free, creation fails.
 *
 * The fix: create the handle early (PyTorch: one small linalg call at
 * start-up), or leave headroom.
 *
 * References: cuSOLVER documentation, cusolverDnCreate
 * (https://docs.nvidia.com/cuda/cusolver/#cusolverdncreate),
 * "CUSOLVER_STATUS_ALLOC_FAILED: the resources could not be allocated";
 * jzhangbs/Vis-MVSNet#38 ("cusolver error: 7, when calling
 * cusolverDnCreate(handle)", asked whether it was memory) and
 * agis85/multimodal_segmentation#14 (cusolverDnCreate failing next to a
 * full GPU).
 *
 * atlas:runs-alone — it fills GPU memory.
 *
 * atlas:cause cusolver_create_no_memory_left
 */
#include <cusolverDn.h>
#include "atlas_libraries.h"

enum { N = 64, WORK_FLOATS = 1 << 20 };

static void factorise_after_fill(bool create_first)
{
    cusolverDnHandle_t handle;
    float a[N * N] = {0}, *d_a = NULL, *work = NULL;
    int *ipiv = NULL, *info = NULL, lwork = 0, h_info = -1;
    bool have_handle = false;
    for (int i = 0; i < N; i++)
        a[i + i * N] = 2.0f;
    /* Everything the factorisation needs is allocated before memory fills:
     * the only difference is when the handle is created. */
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&d_a, sizeof a))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&work, sizeof(float) * WORK_FLOATS))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&ipiv, sizeof(int) * N))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&info, sizeof(int)))
        || !ATLAS_CUDA("upload", cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice)))
        goto out;
    if (create_first)
        have_handle = ATLAS_CUSOLVER("create", cusolverDnCreate(&handle));
    atlas_fill_gpu(0);
    if (!create_first)
        have_handle = ATLAS_CUSOLVER("create", cusolverDnCreate(&handle));
    if (have_handle) {
        if (ATLAS_CUSOLVER("buffer_size", cusolverDnSgetrf_bufferSize(handle, N, N, d_a, N, &lwork))
            && lwork <= WORK_FLOATS) {
            ATLAS_CUSOLVER("getrf", cusolverDnSgetrf(handle, N, N, d_a, N, work, ipiv, info));
            if (ATLAS_CUDA("sync", cudaDeviceSynchronize())
                && cudaMemcpy(&h_info, info, sizeof h_info, cudaMemcpyDeviceToHost) == cudaSuccess)
                atlas_check("info", h_info == 0, "devInfo = %d", h_info);
        }
    }
    atlas_release_gpu();
    if (have_handle)
        ATLAS_CUSOLVER("destroy", cusolverDnDestroy(handle));
out:
    cudaFree(d_a), cudaFree(work), cudaFree(ipiv), cudaFree(info);
}

static void create_before_filling(void) { factorise_after_fill(true); }
static void create_after_filling(void) { factorise_after_fill(false); }

ATLAS_CASE(create_before_filling, create_after_filling)
