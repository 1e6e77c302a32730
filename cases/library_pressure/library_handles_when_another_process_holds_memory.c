/* library_handles_when_another_process_holds_memory — a fresh process
 * creates the context and a handle (or plan) of each CUDA library while
 * another process holds nearly all GPU memory.
 *
 * The mistake: two jobs on one GPU — a notebook still holding its tensors,
 * a second training run, a leftover process. Unlike the *_when_memory_full
 * cases this process has no context yet, and a context needs memory too.
 * Every library then reports the same cause in its own words.
 *
 * What the program sees (H200, CUDA 13.0): with 4 GiB left everything
 * succeeds. With nothing left, creating the context (cudaFree(0)) returns
 * cudaErrorMemoryAllocation, and then each library says it differently:
 * cublasCreate CUBLAS_STATUS_NOT_INITIALIZED, cublasLtCreate
 * CUBLAS_STATUS_INTERNAL_ERROR, cusolverDnCreate
 * CUSOLVER_STATUS_INTERNAL_ERROR, cufftPlan1d CUFFT_INTERNAL_ERROR,
 * cudnnCreate CUDNN_STATUS_INTERNAL_ERROR. Not one says "out of memory".
 *
 * What a PyTorch user sees: "CUDA error: out of memory" at the first CUDA
 * call, or, when the context fits, a library's own status at its first
 * call (cublas_create_when_memory_full, cusolver_create_when_memory_full,
 * cudnn_create_when_memory_full).
 *
 * Why: each process has its own context plus each library's own
 * allocations; nvidia-smi shows who holds the memory.
 *
 * The fix: one job per GPU, or limit the first one, or wait for it to exit.
 *
 * References: cuBLAS, cuSOLVER, cuFFT and cuDNN documentation of
 * cublasCreate, cusolverDnCreate, cufftPlan1d and cudnnCreate
 * (https://docs.nvidia.com/cuda/cusolver/#cusolverdncreate, ...);
 * create_when_another_process_holds_memory (cuBLAS alone);
 * flexflow/flexflow-train#51 (CUDNN_STATUS_NOT_INITIALIZED when the
 * framework had taken the memory cuDNN needed).
 *
 * atlas:runs-alone — its child fills GPU memory.
 *
 * atlas:cause gpu_memory_held_by_other_process
 */
#include "atlas_cublas.h"
#include <cublasLt.h>
#include <cudnn.h>
#include <cufft.h>
#include <cusolverDn.h>
#include "atlas_libraries.h"
#include "atlas_memory_holder.h"

/* Each library in turn; none is skipped because another failed. */
static void create_each_library(void)
{
    cublasHandle_t blas;
    cublasLtHandle_t lt;
    cusolverDnHandle_t solver;
    cufftHandle plan;
    cudnnHandle_t dnn;
    atlas_quantity("cudnn_version", (double)cudnnGetVersion(), "cudnnGetVersion");
    ATLAS_CUDA("context", cudaFree(0));
    if (ATLAS_CUBLAS("cublas_create", cublasCreate(&blas)))
        cublasDestroy(blas);
    if (ATLAS_CUBLAS("cublaslt_create", cublasLtCreate(&lt)))
        cublasLtDestroy(lt);
    if (ATLAS_CUSOLVER("cusolver_create", cusolverDnCreate(&solver)))
        cusolverDnDestroy(solver);
    if (ATLAS_CUFFT("cufft_plan", cufftPlan1d(&plan, 1 << 20, CUFFT_C2C, 16)))
        cufftDestroy(plan);
    if (ATLAS_CUDNN("cudnn_create", cudnnCreate(&dnn)))
        cudnnDestroy(dnn);
}

static void create_beside(size_t headroom)
{
    struct atlas_holder other;
    int filled = atlas_hold_memory(&other, headroom); /* before any CUDA call here */
    if (filled < 0)
        return;
    if (!filled)
        atlas_note("the other process could not fill the GPU (no device here?)");
    create_each_library();
    atlas_release_memory(&other);
}

static void leave_headroom(void) { create_beside((size_t)4 << 30); }
static void take_everything(void) { create_beside(0); }

ATLAS_CASE(leave_headroom, take_everything)
