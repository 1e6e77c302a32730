/* free_interior_pointer — cudaFree on a pointer into the middle of an
 * allocation.
 *
 * The mistake: freeing a sub-buffer (base + offset) that was carved out of
 * one big allocation, instead of the allocation itself.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): cudaFree returns
 * cudaErrorInvalidValue at the call; not sticky; the allocation survives.
 *
 * What a PyTorch user sees: nothing; views share storage that PyTorch frees.
 *
 * Why: cudaFree takes only the pointer cudaMalloc returned.
 *
 * The fix: free the base pointer once, when every sub-buffer is done.
 *
 * References: CUDA Runtime API, cudaFree
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:cause free_of_pointer_not_from_cudamalloc
 */
#include "atlas.h"

static void cuda_free(int offset)
{
    char *device = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&device, 1 << 20)))
        return;
    ATLAS_CUDA("free", cudaFree(device + offset));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (offset)
        cudaFree(device);
}

static void base_pointer(void) { cuda_free(0); }
static void pointer_256_bytes_in(void) { cuda_free(256); }

ATLAS_CASE(base_pointer, pointer_256_bytes_in)
