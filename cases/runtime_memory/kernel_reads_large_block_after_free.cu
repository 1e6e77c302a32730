/* kernel_reads_large_block_after_free — a kernel reads a 1 GiB block after
 * cudaFree released it.
 *
 * The mistake: the same as kernel_reads_small_block_after_free (a buffer
 * freed before the last kernel that reads it), with a block large enough to
 * get address space of its own.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): cudaFree of the 1 GiB block
 * succeeds and unmaps it; the kernel that reads it launches cleanly
 * (cudaGetLastError returns cudaSuccess), the synchronize returns
 * cudaErrorIllegalAddress, and the context is lost (sticky: the next copy and
 * the probe's cudaMalloc return cudaErrorIllegalAddress too). The same
 * mistake with a 4 KiB block is silent (kernel_reads_small_block_after_free):
 * whether anything notices depends on the block's size. compute-sanitizer
 * reports the reads as out of bounds ("1,585,446,912 bytes before the nearest
 * allocation").
 *
 * What a PyTorch user sees: no mirror (see kernel_reads_small_block_after_free).
 *
 * Why: a large allocation is mapped on its own, and cudaFree of it can
 * unmap it; whether a read afterwards faults or finds memory depends on
 * what the driver did with those pages.
 *
 * The fix: free after the last use; cudaFreeAsync on the stream of the last
 * use; compute-sanitizer's memcheck to find the read.
 *
 * References: sonots/cumo#424 (a kernel read a freed buffer,
 * https://github.com/sonots/cumo/pull/424); CUDA Runtime API, cudaFree
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "Frees the memory space pointed to by devPtr".
 *
 * atlas:cause device_memory_read_after_free
 */
#include "read_after_free.h"

static void free_after_the_kernel(void) { read_block((size_t)1 << 30, false); }
static void free_before_the_kernel(void) { read_block((size_t)1 << 30, true); }

ATLAS_CASE(free_after_the_kernel, free_before_the_kernel)
