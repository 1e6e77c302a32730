/* cublas_create_when_memory_full — cublasCreate after this process has taken
 * all free GPU memory.
 *
 * The mistake: a program (or a framework's caching allocator) fills GPU
 * memory with data first and creates its cuBLAS handle lazily, at the first
 * matrix product. The handle then has nowhere to put its own memory.
 *
 * What the program sees (H100, CUDA 13.0, cuBLAS 13.1): cublasCreate
 * returns CUBLAS_STATUS_ALLOC_FAILED at the call — not the article's
 * CUBLAS_STATUS_INTERNAL_ERROR, nor the NOT_INITIALIZED of older reports.
 * Nothing is sticky: free memory and creation works again.
 *
 * What a PyTorch user sees: the first matmul after memory filled up raises
 *   RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`
 * an out-of-memory error wearing another name.
 *
 * Why: a handle needs device memory of its own at creation.
 *
 * The fix: create the handle before filling memory (PyTorch: run one small
 * matmul early), or leave headroom (smaller batch, lower
 * PYTORCH_CUDA_ALLOC_CONF limits).
 *
 * References: cuBLAS documentation, cublasCreate
 * (https://docs.nvidia.com/cuda/cublas/#cublascreate);
 * pytorch/pytorch issues on CUBLAS_STATUS_NOT_INITIALIZED at cublasCreate.
 *
 * atlas:runs-alone — it fills GPU memory.
 *
 * atlas:cause cublas_create_no_memory_left
 */
#include "atlas_cublas.h"

enum { N = 64 };

static void gemm_after_fill(int create_first)
{
    cublasHandle_t handle;
    float *a = NULL, *c = NULL;
    const float alpha = 1.0f, beta = 0.0f;
    bool have_handle = false;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&a, sizeof(float) * N * N))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&c, sizeof(float) * N * N)))
        return;
    if (create_first)
        have_handle = ATLAS_CUBLAS("create", cublasCreate(&handle));
    atlas_fill_gpu(0);
    if (!create_first)
        have_handle = ATLAS_CUBLAS("create", cublasCreate(&handle));
    if (have_handle) {
        ATLAS_CUBLAS("gemm", cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &alpha, a, N, a, N, &beta, c, N));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    atlas_release_gpu();
    if (have_handle)
        ATLAS_CUBLAS("destroy", cublasDestroy(handle));
    cudaFree(a), cudaFree(c);
}

static void create_before_filling(void) { gemm_after_fill(1); }
static void create_after_filling(void) { gemm_after_fill(0); }

ATLAS_CASE(create_before_filling, create_after_filling)
