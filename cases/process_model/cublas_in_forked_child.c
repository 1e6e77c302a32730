/* cublas_in_forked_child — a process that has used cuBLAS forks, and the
 * child creates its own cuBLAS handle.
 *
 * The mistake: the parent runs a matrix product (loading a model, a warm-up)
 * and then forks workers that each create a cuBLAS handle — a pre-fork
 * inference server, multiprocessing workers that run torch.matmul.
 *
 * What the program sees (H200, CUDA 13.0, cuBLAS 13.1): the child's
 * cublasCreate returns CUBLAS_STATUS_NOT_INITIALIZED; forked before the
 * parent's first call, the child creates its handle and multiplies. The
 * parent's own handle and context are unaffected either way.
 *
 * What a PyTorch user sees: the child's first CUDA operation, the matmul
 * included, raises "Cannot re-initialize CUDA in forked subprocess" before
 * cuBLAS is reached (the mirror records it).
 *
 * Why: the child inherits a copy of the parent's memory, including the
 * runtime's belief that CUDA is initialised, but not a usable context; cuBLAS
 * needs one to create its handle. A fresh handle does not help.
 *
 * The fix: fork before any CUDA or cuBLAS call (the fixed variant), or start
 * workers with spawn / fork+exec and create the handle in each worker.
 *
 * References: BBC-Esq/VectorDB-Plugin#112 (the start method as the fix); the
 * CUDA C++ guideline CUDA-1.6, "A call to fork must be immediately followed
 * to a call to exec"
 * (https://doc.qt.io/axivion/reference/analysis_configuration/CUDA-1.6.html):
 * "Any use of CUDA after a call to fork and before a subsequent call to exec
 * has undefined behavior"; cuBLAS documentation, cublasCreate
 * (https://docs.nvidia.com/cuda/cublas/#cublascreate).
 *
 * atlas:cause fork_after_cuda_init
 */
#include "atlas_cublas.h"
#include "child.h"

enum { N = 64 };

/* One small product by `who` ("parent" or "child"): create a handle, C = A·B
 * on zeroed buffers, synchronize; steps are named who_create, who_alloc,
 * who_gemm, who_sync. */
static void gemm(const char *who)
{
    char create[32], alloc[32], product[32], sync[32];
    snprintf(create, sizeof create, "%s_create", who);
    snprintf(alloc, sizeof alloc, "%s_alloc", who);
    snprintf(product, sizeof product, "%s_gemm", who);
    snprintf(sync, sizeof sync, "%s_sync", who);
    cublasHandle_t handle;
    float *a = NULL;
    const float alpha = 1.0f, beta = 0.0f;
    if (!ATLAS_CUBLAS(create, cublasCreate(&handle)))
        return;
    if (ATLAS_CUDA(alloc, cudaMalloc((void **)&a, sizeof(float) * 3 * N * N))
        && ATLAS_CUDA(alloc, cudaMemset(a, 0, sizeof(float) * 3 * N * N))) {
        /* A, B and C side by side in one zeroed buffer */
        ATLAS_CUBLAS(product, cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &alpha, a, N, a + N * N, N,
                                          &beta, a + 2 * N * N, N));
        ATLAS_CUDA(sync, cudaDeviceSynchronize());
    }
    cudaFree(a);
    cublasDestroy(handle);
}

static void child_gemm(void) { gemm("child"); }

static void fork_around_parent_gemm(bool parent_first)
{
    if (parent_first)
        gemm("parent");
    run_in_child(child_gemm);
    if (!parent_first)
        gemm("parent");
}

static void fork_before_parent_uses_cublas(void) { fork_around_parent_gemm(false); }
static void fork_after_parent_used_cublas(void) { fork_around_parent_gemm(true); }

ATLAS_CASE(fork_before_parent_uses_cublas, fork_after_parent_used_cublas)
