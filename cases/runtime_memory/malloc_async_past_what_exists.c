/* malloc_async_past_what_exists — cudaMallocAsync of more bytes than the
 * GPU has, then the stream's synchronize.
 *
 * The mistake: sizing a stream-ordered allocation from the problem without
 * asking the device (as with cudaMalloc), and trusting that an "async"
 * allocation reports its failure later, at the synchronize.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0):
 * cudaMallocAsync of 80.2 GiB on a 79.2 GiB GPU returns cudaErrorMemoryAllocation at the call itself and
 * leaves the pointer NULL; the error waits in the last-error slot once; the
 * stream's synchronize returns cudaSuccess — a program that checks only the
 * synchronize never learns that nothing was allocated. Not sticky; afterwards
 * 84.5 GB are free again (as before; cudaMemPoolTrimTo changes nothing).
 * But while the failing call runs (it takes about 1.6 s longer than a
 * successful one), the rest of the GPU is not usable: in a run with
 * ctest -j8, another case started meanwhile could not create its context
 * (its first cudaFree(0) returned cudaErrorMemoryAllocation) — the attempt
 * apparently maps whatever is free before it gives up. Hence runs-alone.
 *
 * What a PyTorch user sees (PyTorch 2.11 on the H100, with
 * PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync):
 *   torch.OutOfMemoryError: Allocation on device 0 would exceed allowed
 *   memory. (out of memory)
 *   Currently allocated     : 0 bytes
 *   Requested               : 80.18 GiB
 *   Device limit            : 79.18 GiB
 *   Free (according to CUDA): 2.19 MiB
 * on a GPU that was empty, in both runs. The C case finds 84.5 GB free after
 * the same failure, so the 2.19 MiB is apparently what PyTorch's pool kept of
 * the failed attempt (PyTorch configures its pool to keep memory; the default
 * pool gives it back) — the message then blames memory that the failed
 * request itself took. Not measured further.
 *
 * Why: the pool can only grow by mapping real device memory, and there is
 * not enough of it.
 *
 * The fix: ask cudaMemGetInfo and size the work to fit; check
 * cudaMallocAsync's own status, not only the synchronize's.
 *
 * References: tensorflow/tensorflow#50699 (cudaMallocAsync out of memory,
 * "If OOM, sync the stream and retry allocation",
 * https://github.com/tensorflow/tensorflow/pull/50699); CUDA Runtime API,
 * cudaMallocAsync
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY__POOLS.html):
 * "Allocates memory with stream ordered semantics".
 *
 * atlas:runs-alone — the failing call takes the GPU's free memory while it runs.
 *
 * atlas:cause malloc_async_past_gpu_memory
 */
#include "atlas.h"

static void allocate_async(int too_much)
{
    size_t free_bytes = 0, total = 0;
    int pools = 0;
    cudaStream_t stream;
    void *p = NULL;
    if (!ATLAS_CUDA("meminfo", cudaMemGetInfo(&free_bytes, &total)))
        return;
    atlas_quantity("total_memory", (double)total, "bytes");
    if (!ATLAS_CUDA("attribute", cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, 0)))
        return;
    if (!pools)
        atlas_skip("this GPU has no stream-ordered memory pools");
    if (!ATLAS_CUDA("stream", cudaStreamCreate(&stream)))
        return;
    size_t fits = free_bytes / 2 < ((size_t)256 << 20) ? free_bytes / 2 : ((size_t)256 << 20);
    size_t ask = too_much ? total + ((size_t)1 << 30) : fits;
    ATLAS_CUDA("malloc_async", cudaMallocAsync(&p, ask, stream));
    atlas_quantity("pointer_returned", p != NULL, "bool");
    ATLAS_CUDA("last_error", cudaGetLastError());
    ATLAS_CUDA("sync", cudaStreamSynchronize(stream));
    /* what the failed attempt left behind: the pool keeps what it mapped
     * until trimmed */
    size_t free_after = 0;
    cudaMemPool_t pool;
    if (ATLAS_CUDA("meminfo_after", cudaMemGetInfo(&free_after, &total)))
        atlas_quantity("free_after", (double)free_after, "bytes");
    if (ATLAS_CUDA("default_pool", cudaDeviceGetDefaultMemPool(&pool, 0))
        && ATLAS_CUDA("trim", cudaMemPoolTrimTo(pool, 0))
        && ATLAS_CUDA("meminfo_after_trim", cudaMemGetInfo(&free_after, &total)))
        atlas_quantity("free_after_trim", (double)free_after, "bytes");
    if (p) {
        ATLAS_CUDA("free_async", cudaFreeAsync(p, stream));
        ATLAS_CUDA("free_sync", cudaStreamSynchronize(stream));
    }
    cudaStreamDestroy(stream);
}

static void size_from_free_memory(void) { allocate_async(0); }
static void more_than_total_memory(void) { allocate_async(1); }

ATLAS_CASE(size_from_free_memory, more_than_total_memory)
