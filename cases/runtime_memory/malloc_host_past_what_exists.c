/* malloc_host_past_what_exists — cudaMallocHost of twice the machine's
 * physical memory.
 *
 * The mistake: sizing a pinned staging buffer, a host KV cache or a pinned
 * array from the data (or from the GPU's memory) without asking how much RAM
 * the host has; pinned memory cannot be swapped, so it must really exist.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0; 125.9 GiB of RAM, asking for
 * 251.7 GiB): cudaMallocHost returns cudaErrorMemoryAllocation ("out of
 * memory") at once — in 0.16 ms, so nothing was pinned first — and the
 * error sits in the last-error slot once. Not sticky. The status is the one a
 * full GPU gives: nothing says it was the host's memory.
 *
 * What a PyTorch user sees (PyTorch 2.11 on the H100): torch.empty(n,
 * pin_memory=True) with n twice the RAM raises
 *   torch.AcceleratorError: CUDA error: out of memory
 * (not torch.OutOfMemoryError, which PyTorch raises for device memory).
 *
 * Why: cudaMallocHost page-locks host memory; the status names memory
 * without saying it is the host's.
 *
 * The fix: size pinned buffers from the host's free memory (and keep them a
 * small part of it), pin a bounded staging buffer and stream through it, or
 * use pageable or managed memory for data larger than RAM.
 *
 * One call, bounded: it asks for 2 × sysconf(_SC_PHYS_PAGES) pages and frees
 * what it gets.
 *
 * References: ashalliants/ninfer-3090#25 ("cudaMallocHost failed:
 * cudaErrorMemoryAllocation: out of memory ... Every word of that points at
 * the GPU. It is not the GPU",
 * https://github.com/ashalliants/ninfer-3090/pull/25); CUDA Runtime API,
 * cudaMallocHost
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "Allocates size bytes of host memory that is page-locked and accessible to
 * the device".
 *
 * atlas:cause pinned_host_memory_past_ram
 */
#include "atlas.h"
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void pin_host(int twice_the_ram)
{
    size_t physical = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    size_t ask = twice_the_ram ? 2 * physical : (size_t)64 << 20;
    void *host = NULL;
    atlas_quantity("physical_memory", (double)physical, "bytes");
    atlas_quantity("asked", (double)ask, "bytes");
    if (!ATLAS_CUDA("context", cudaFree(0)))
        return;
    double start = now();
    ATLAS_CUDA("malloc_host", cudaMallocHost(&host, ask));
    atlas_quantity("malloc_host_seconds", now() - start, "s");
    ATLAS_CUDA("last_error", cudaGetLastError());
    ATLAS_CUDA("last_error_again", cudaGetLastError());
    if (host)
        ATLAS_CUDA("free_host", cudaFreeHost(host));
}

static void size_below_the_ram(void) { pin_host(0); }
static void twice_the_ram(void) { pin_host(1); }

ATLAS_CASE(size_below_the_ram, twice_the_ram)
