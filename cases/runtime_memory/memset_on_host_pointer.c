/* memset_on_host_pointer — cudaMemset on memory from malloc.
 *
 * The mistake: clearing a buffer with cudaMemset without knowing where it
 * lives (a zeros() helper shared by host and device arrays, a buffer that
 * moved to the host in a refactor). Unlike cudaMemcpy, cudaMemset has no
 * "kind": it assumes device memory.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0; a GPU that does not use the host's
 * page tables): cudaMemset returns cudaErrorInvalidValue at the call; the
 * host buffer is untouched (its first byte is still 7); the error waits in
 * the last-error slot until cudaGetLastError reads it; not sticky.
 *
 * What a PyTorch user sees: nothing of this kind; PyTorch fills host and
 * device tensors with their own kernels.
 *
 * Why: on a GPU that cannot use the host's page tables, pageable memory is
 * not in the device's address space; the runtime checks the pointer before
 * it queues the fill.
 *
 * The fix: memset for host memory, cudaMemset for device (or managed, or
 * mapped pinned) memory; cudaPointerGetAttributes tells which one a pointer is.
 *
 * References: hidet-org/hidet#49 ("Unlike cudaMemcpy, the cudaMemset does
 * not recognize the the device and host memory, but only works for device
 * memory", https://github.com/hidet-org/hidet/pull/49); CUDA Runtime API,
 * cudaMemset
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "Fills the first count bytes of the memory area pointed to by devPtr with
 * the constant byte value value".
 *
 * atlas:cause memset_on_host_pointer
 */
#include "atlas.h"
#include <stdlib.h>
#include <string.h>

enum { BYTES = 4096 };

static void clear(int host_pointer)
{
    void *device = NULL;
    unsigned char *host = malloc(BYTES);
    if (!host)
        return;
    memset(host, 7, BYTES);
    if (!ATLAS_CUDA("alloc", cudaMalloc(&device, BYTES))) {
        free(host);
        return;
    }
    ATLAS_CUDA("memset", cudaMemset(host_pointer ? (void *)host : device, 0, BYTES));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    ATLAS_CUDA("last_error", cudaGetLastError());
    /* 7 if the host buffer was left alone, 0 if the GPU cleared it */
    atlas_quantity("host_first_byte", host[0], "value");
    cudaFree(device);
    free(host);
}

static void device_pointer(void) { clear(0); }
static void malloc_pointer(void) { clear(1); }

ATLAS_CASE(device_pointer, malloc_pointer)
