/* kernel_reads_small_block_after_free — a kernel reads a 4 KiB block after
 * cudaFree released it.
 *
 * The mistake: a buffer freed while work that reads it is still to be
 * launched: a cleanup moved too early, an object destroyed before the
 * stream's last kernel, a pointer cached past its owner's lifetime.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): nothing. With an 8-byte allocation
 * still live, a 4 KiB block freed with cudaFree and then read by a kernel:
 * launch, synchronize and every later call return cudaSuccess, and the
 * kernel reads the freed block's old contents (the sum of the sampled words
 * is exactly what it was before the free). compute-sanitizer's memcheck
 * reports each read, as "Invalid __global__ read of size 4 bytes ... is out
 * of bounds and is 505 bytes after the nearest allocation" — it does not say
 * "freed". Compare kernel_reads_large_block_after_free.
 *
 * What a PyTorch user sees: no mirror: Python code cannot free a tensor's
 * memory while holding the tensor, and the caching allocator keeps freed
 * blocks mapped for reuse (the same mistake made across streams without
 * record_stream reads a block already handed to another tensor).
 *
 * Why: small allocations are carved out of larger chunks the driver maps
 * once; freeing one block need not unmap the chunk, so a read through the
 * stale pointer can find mapped memory — with whatever it holds now.
 *
 * The fix: free after the last use (cudaFree waits for the device only when
 * it returns the memory; cudaFreeAsync on the stream that used it orders the
 * free after the work); compute-sanitizer's memcheck reports the read.
 *
 * References: sonots/cumo#424 (a kernel read a buffer freed earlier, which
 * only compute-sanitizer reported, https://github.com/sonots/cumo/pull/424);
 * CUDA Runtime API, cudaFree
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "Frees the memory space pointed to by devPtr, which must have been
 * returned by a previous call to one of the following memory allocation
 * APIs".
 *
 * atlas:cause device_memory_read_after_free
 */
#include "read_after_free.h"

static void free_after_the_kernel(void) { read_block(4096, false); }
static void free_before_the_kernel(void) { read_block(4096, true); }

ATLAS_CASE(free_after_the_kernel, free_before_the_kernel)
