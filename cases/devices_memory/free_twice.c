/* free_twice — cudaFree twice on the same pointer.
 *
 * The mistake: two owners of one buffer, each freeing it.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): the second cudaFree returns
 * cudaErrorInvalidValue (the runtime tracks allocations, so unlike free()
 * twice this need not crash — unless the address was handed out again in
 * between); not sticky.
 *
 * What a PyTorch user sees: nothing; PyTorch frees through its allocator.
 *
 * Why: the second call names memory that is no longer an allocation.
 *
 * The fix: one owner; set the pointer to NULL after cudaFree (cudaFree(NULL)
 * is a no-op).
 *
 * References: CUDA Runtime API, cudaFree
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:cause device_memory_freed_twice
 */
#include "atlas.h"

static void cuda_free(int twice)
{
    void *device = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc(&device, 1 << 20)))
        return;
    ATLAS_CUDA("free", cudaFree(device));
    if (!twice)
        device = NULL;
    ATLAS_CUDA("free_again", cudaFree(device));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
}

static void null_after_free(void) { cuda_free(0); }
static void same_pointer_again(void) { cuda_free(1); }

ATLAS_CASE(null_after_free, same_pointer_again)
