/* allocations_until_out_of_memory — cudaMalloc of 1 GiB blocks, never
 * freed, until one fails.
 *
 * The mistake: a buffer allocated per iteration (per batch, per request) and
 * never freed. Device memory does not grow back until the process frees it
 * or exits.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): many 1 GiB allocations succeed
 * (blocks_allocated: 78 GiB on the H100, 139 GiB on the H200), then
 * cudaMalloc returns cudaErrorMemoryAllocation and cudaGetLastError returns
 * it again. Not sticky: after freeing, the next cudaMalloc returns
 * cudaSuccess.
 *
 * What a PyTorch user sees: torch.OutOfMemoryError ("CUDA out of memory.
 * Tried to allocate 1.00 GiB ...") after memory crept up over iterations.
 *
 * Why: each cudaMalloc takes device memory until cudaFree.
 *
 * The fix: free each buffer when done (fixed variant: allocate and free,
 * twice as many times), or allocate once and reuse.
 *
 * References: CUDA Runtime API, cudaMalloc
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:runs-alone — it takes all GPU memory.
 *
 * atlas:cause oom_eval_outputs_accumulated_on_gpu
 */
#include "atlas.h"

enum { MAX_BLOCKS = 1024 };
#define GIB ((size_t)1 << 30)

static void leak_blocks(void)
{
    static void *blocks[MAX_BLOCKS];
    int n = 0;
    cudaError_t status = cudaSuccess;
    if (!ATLAS_CUDA("context", cudaFree(0)))
        return;
    while (n < MAX_BLOCKS && (status = cudaMalloc(&blocks[n], GIB)) == cudaSuccess)
        n++;
    atlas_quantity("blocks_allocated", n, "GiB");
    if (status != cudaSuccess)
        atlas_cuda_call("exhausted", "cudaMalloc(&blocks[n], 1 GiB) after the last success", status);
    ATLAS_CUDA("last_error", cudaGetLastError());
    while (n > 0)
        cudaFree(blocks[--n]);
    void *again = NULL;
    if (ATLAS_CUDA("alloc_after_free", cudaMalloc(&again, GIB)))
        cudaFree(again);
}

static void free_each_block(void)
{
    size_t free_bytes, total;
    if (!ATLAS_CUDA("context", cudaFree(0)) || !ATLAS_CUDA("meminfo", cudaMemGetInfo(&free_bytes, &total)))
        return;
    size_t rounds = 2 * (total / GIB), done = 0;
    cudaError_t status = cudaSuccess;
    for (; done < rounds && done < 2 * MAX_BLOCKS; done++) {
        void *block;
        if ((status = cudaMalloc(&block, GIB)) != cudaSuccess)
            break;
        cudaFree(block);
    }
    atlas_quantity("blocks_allocated", (double)done, "GiB");
    atlas_cuda_call("alloc_loop", "cudaMalloc + cudaFree of 1 GiB, twice the GPU's size", status);
}

ATLAS_CASE(free_each_block, leak_blocks)
