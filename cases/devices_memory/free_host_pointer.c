/* free_host_pointer — cudaFree on memory from malloc.
 *
 * The mistake: mixing up which allocator owns a buffer (cleanup code that
 * calls cudaFree on everything).
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): cudaFree returns
 * cudaErrorInvalidValue at the call; not sticky (the next synchronize
 * returns cudaSuccess); the host memory is untouched (and still needs
 * free).
 *
 * What a PyTorch user sees: nothing; PyTorch owns its allocations.
 *
 * Why: cudaFree only accepts pointers from cudaMalloc (and NULL).
 *
 * The fix: free() for malloc, cudaFree for cudaMalloc, cudaFreeHost for
 * cudaMallocHost.
 *
 * References: CUDA Runtime API, cudaFree
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:cause free_of_pointer_not_from_cudamalloc
 */
#include "atlas.h"
#include <stdlib.h>

static void cuda_free(int host_pointer)
{
    void *device = NULL, *host = malloc(4096);
    if (!host || !ATLAS_CUDA("alloc", cudaMalloc(&device, 4096))) {
        free(host);
        return;
    }
    ATLAS_CUDA("free", cudaFree(host_pointer ? host : device));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (host_pointer)
        cudaFree(device);
    free(host);
}

static void device_pointer(void) { cuda_free(0); }
static void malloc_pointer(void) { cuda_free(1); }

ATLAS_CASE(device_pointer, malloc_pointer)
