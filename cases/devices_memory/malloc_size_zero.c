/* malloc_size_zero — cudaMalloc of 0 bytes, then a write through it.
 *
 * The mistake: an empty input (n = 0) allocates n·sizeof(float) bytes and the
 * code carries on: the "allocation" succeeds, but what pointer comes back,
 * and what can be done with it?
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): cudaMalloc(&p, 0) returns
 * cudaSuccess but sets p to NULL (the check step), and a 4-byte cudaMemset
 * through it returns cudaErrorInvalidValue; not sticky.
 *
 * What a PyTorch user sees: empty tensors are legal everywhere (numel 0);
 * PyTorch never launches work on them.
 *
 * Why: a zero-byte allocation has no memory behind it.
 *
 * The fix: handle n == 0 before allocating; never write through a
 * zero-byte allocation.
 *
 * References: CUDA Runtime API, cudaMalloc
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:cause zero_byte_allocation_used
 */
#include "atlas.h"

static void allocate_elements(size_t n)
{
    int *p = (int *)0x1;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&p, n * sizeof(int))))
        return;
    atlas_check("pointer", p != NULL, "cudaMalloc(%zu bytes) gave %s", n * sizeof(int), p ? "a pointer" : "NULL");
    ATLAS_CUDA("memset", cudaMemset(p, 0, sizeof(int)));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(p);
}

static void one_element(void) { allocate_elements(1); }
static void zero_elements(void) { allocate_elements(0); }

ATLAS_CASE(one_element, zero_elements)
