/* create_when_another_process_holds_memory — cublasCreate in a fresh process
 * while another process holds nearly all GPU memory.
 *
 * The mistake: two jobs on one GPU (a notebook kernel still holding its
 * tensors, a second training run). Unlike cublas_create_when_memory_full,
 * this process has no context yet: its own context needs memory too.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): the first failure is creating the context: cudaFree(0)
 * returns cudaErrorMemoryAllocation while the child holds the memory (2–3
 * MiB left free), so cublasCreate is never reached. Not sticky: once the
 * child lets go, the next synchronize returns cudaSuccess. Where the first
 * failure appears is the lesson.
 *
 * What a PyTorch user sees (recorded with PyTorch 2.11 on the H100 and the
 * H200, a first CUDA tensor then a matmul): torch.AcceleratorError,
 *   CUDA error: out of memory
 *   Search for `cudaErrorMemoryAllocation' in https://docs.nvidia.com/...
 * — a CUDA call's cudaErrorMemoryAllocation, as in C (not the allocator's
 * torch.OutOfMemoryError), and no CUBLAS_STATUS error from the matmul.
 *
 * Why: each process has its own context (hundreds of MiB) plus cuBLAS's own
 * allocations; nvidia-smi shows who holds the memory.
 *
 * The fix: one job per GPU, or limit the first (PYTORCH_CUDA_ALLOC_CONF,
 * cudaDeviceSetLimit), or wait for it to exit.
 *
 * References: cuBLAS documentation, cublasCreate
 * (https://docs.nvidia.com/cuda/cublas/#cublascreate).
 *
 * atlas:runs-alone — its child fills GPU memory.
 *
 * atlas:cause gpu_memory_held_by_other_process
 */
#include "atlas_cublas.h"
#include "atlas_memory_holder.h"

static void create_beside(size_t headroom)
{
    struct atlas_holder other;
    int filled = atlas_hold_memory(&other, headroom); /* before any CUDA call here */
    if (filled < 0)
        return;
    if (filled) {
        cublasHandle_t handle;
        if (ATLAS_CUDA("context", cudaFree(0)) && ATLAS_CUBLAS("create", cublasCreate(&handle)))
            cublasDestroy(handle);
    } else {
        atlas_note("the other process could not fill the GPU (no device here?)");
        ATLAS_CUDA("context", cudaFree(0));
    }
    atlas_release_memory(&other);
}

static void leave_headroom(void) { create_beside((size_t)4 << 30); }
static void take_everything(void) { create_beside(0); }

ATLAS_CASE(leave_headroom, take_everything)
