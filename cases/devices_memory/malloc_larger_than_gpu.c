/* malloc_larger_than_gpu — cudaMalloc of more bytes than the GPU has.
 *
 * The mistake: sizing a buffer from the problem without asking the device
 * (a batch size too large, elements confused with bytes).
 *
 * What the program sees: cudaMalloc fails at the call; the error also sits
 * in the "last error" slot until cudaGetLastError reads and clears it, which
 * is how a later, unrelated check can report it. It is not sticky.
 *
 * Recorded (H100, CUDA 13.0): cudaErrorMemoryAllocation at the call, the
 * same from the first cudaGetLastError, then cudaSuccess.
 *
 * What a PyTorch user sees: PyTorch's caching allocator reports the failed
 * cudaMalloc with its own message and accounting:
 *   torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 80.18 GiB.
 *   GPU 0 has a total capacity of 79.18 GiB of which 78.66 GiB is free. ...
 *
 * Why: device memory is allocated eagerly; there is no overcommit.
 *
 * The fix: ask cudaMemGetInfo what is free, and size the work to fit
 * (smaller batches, chunks, lower precision).
 *
 * References: CUDA Runtime API, cudaMalloc and cudaGetLastError
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:cause allocation_larger_than_gpu
 */
#include "atlas.h"

static void allocate(int too_much)
{
    size_t free_bytes = 0, total = 0;
    void *p = NULL;
    if (!ATLAS_CUDA("meminfo", cudaMemGetInfo(&free_bytes, &total)))
        return;
    atlas_quantity("total_memory", (double)total, "bytes");
    size_t fits = free_bytes / 2 < (256u << 20) ? free_bytes / 2 : (256u << 20);
    size_t ask = too_much ? total + (1ull << 30) : fits;
    ATLAS_CUDA("alloc", cudaMalloc(&p, ask));
    ATLAS_CUDA("last_error", cudaGetLastError());
    ATLAS_CUDA("last_error_again", cudaGetLastError());
    cudaFree(p);
}

static void size_from_free_memory(void) { allocate(0); }
static void more_than_total_memory(void) { allocate(1); }

ATLAS_CASE(size_from_free_memory, more_than_total_memory)
