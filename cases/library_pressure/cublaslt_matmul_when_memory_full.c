/* cublaslt_matmul_when_memory_full — cublasLtCreate and the matmul's
 * workspace after this process has taken all free GPU memory.
 *
 * The mistake: a cuBLASLt handle and its workspace set up lazily, at the
 * first matmul, after memory filled up — the cuBLASLt form of
 * cublas_create_when_memory_full. Unlike cuBLAS, cuBLASLt takes its
 * workspace from the caller, so the caller's cudaMalloc is what fails.
 *
 * What the program sees (H200, CUDA 13.0, cuBLAS 13.1): cublasLtCreate
 * returns CUBLAS_STATUS_ALLOC_FAILED, and the workspace's cudaMalloc
 * cudaErrorMemoryAllocation; nothing is sticky. Set up before filling, the
 * handle and workspace still multiply on the full GPU.
 *
 * What a PyTorch user sees: PyTorch's cuBLASLt path reuses the cuBLAS
 * workspace; the failure surfaces as in cublas_create_when_memory_full.
 *
 * Why: cublasLtCreate itself needs little device memory; the matmul runs
 * with whatever workspace it is given (none, when the allocation failed).
 *
 * The fix: create the handle and allocate the workspace once, early; pass
 * the workspace size you really have to the heuristics.
 *
 * References: cuBLAS documentation, cublasLtCreate and cublasLtMatmul
 * (https://docs.nvidia.com/cuda/cublas/#cublasltcreate);
 * NVIDIA/TransformerEngine#1389 (one cuBLASLt handle per thread, created
 * once) and QwenLM/Qwen3#873 (CUBLAS_STATUS_ALLOC_FAILED at handle
 * creation on a full GPU).
 *
 * atlas:runs-alone — it fills GPU memory.
 *
 * atlas:cause cublaslt_no_memory_left
 */
#include "atlas_cublas.h"
#include <cublasLt.h>

enum { N = 256 };
static const size_t WORKSPACE = 32u << 20;

static void matmul_after_fill(bool set_up_first)
{
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc = NULL;
    cublasLtMatrixLayout_t layout = NULL;
    float *a = NULL, *c = NULL, alpha = 1.0f, beta = 0.0f;
    void *workspace = NULL;
    bool have_handle = false, have_workspace = false;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&a, sizeof(float) * N * N))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&c, sizeof(float) * N * N))
        || !ATLAS_CUDA("zero", cudaMemset(a, 0, sizeof(float) * N * N)))
        goto out;
    if (set_up_first) {
        have_handle = ATLAS_CUBLAS("create", cublasLtCreate(&lt));
        have_workspace = ATLAS_CUDA("workspace", cudaMalloc(&workspace, WORKSPACE));
    }
    atlas_fill_gpu(0);
    if (!set_up_first) {
        have_handle = ATLAS_CUBLAS("create", cublasLtCreate(&lt));
        have_workspace = ATLAS_CUDA("workspace", cudaMalloc(&workspace, WORKSPACE));
    }
    if (have_handle && ATLAS_CUBLAS("descriptor", cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F))
        && ATLAS_CUBLAS("layout", cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, N, N, N))) {
        ATLAS_CUBLAS("matmul", cublasLtMatmul(lt, desc, &alpha, a, layout, a, layout, &beta, c, layout, c, layout,
                                              NULL, have_workspace ? workspace : NULL,
                                              have_workspace ? WORKSPACE : 0, 0));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    atlas_release_gpu();
    cublasLtMatrixLayoutDestroy(layout);
    cublasLtMatmulDescDestroy(desc);
    if (have_handle)
        ATLAS_CUBLAS("destroy", cublasLtDestroy(lt));
out:
    cudaFree(workspace), cudaFree(a), cudaFree(c);
}

static void set_up_before_filling(void) { matmul_after_fill(true); }
static void set_up_after_filling(void) { matmul_after_fill(false); }

ATLAS_CASE(set_up_before_filling, set_up_after_filling)
