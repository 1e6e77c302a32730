/* memcpy_more_than_allocated — copying 2 MiB out of a 1 MiB allocation.
 *
 * The mistake: a size in elements passed as bytes the other way round, or
 * the size of the whole tensor copied from a slice.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): cudaMemcpy checks the count against
 * the allocation (it knows the allocation's size) and returns
 * cudaErrorInvalidValue at the call; not sticky.
 *
 * What a PyTorch user sees: nothing; copies take their size from tensors.
 *
 * Why: with unified addressing the runtime knows each device allocation's
 * extent.
 *
 * The fix: count = elements × sizeof(element) of the smaller buffer.
 *
 * References: CUDA Runtime API, cudaMemcpy
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:cause memcpy_past_allocation
 */
#include "atlas.h"
#include <stdlib.h>

#define MIB ((size_t)1 << 20)

static void copy_bytes(size_t bytes)
{
    void *device = NULL, *host = malloc(2 * MIB);
    if (!host || !ATLAS_CUDA("alloc", cudaMalloc(&device, MIB))) {
        free(host);
        return;
    }
    ATLAS_CUDA("copy", cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(device);
    free(host);
}

static void the_allocation(void) { copy_bytes(MIB); }
static void twice_the_allocation(void) { copy_bytes(2 * MIB); }

ATLAS_CASE(the_allocation, twice_the_allocation)
