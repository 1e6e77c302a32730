/* sentinel_index_read_as_unsigned — an index array that marks "no entry"
 * with -1, gathered by a kernel that reads the index as unsigned.
 *
 * The mistake: padding or missing neighbours written as -1, and a kernel
 * that never checks for the sentinel and takes the index as uint32_t: -1
 * becomes 4294967295, and the gather reads 16 GiB past the table.
 *
 * What the program sees (H200, CUDA 13.0): a clean launch, then
 * cudaErrorIllegalAddress at the synchronize and at every call after it
 * (sticky); three runs out of three. Under compute-sanitizer:
 * cudaErrorLaunchFailure.
 *
 * What a PyTorch user sees: nothing, and the wrong data: in PyTorch
 * indexing -1 is a valid index, the last row — the mirror's gather with two
 * -1 entries raises no error (PyTorch 2.11, H200). With a library kernel
 * that reads indices as unsigned, "CUDA error: an illegal memory access was
 * encountered".
 *
 * Why: -1 converted to a 32-bit unsigned index is 2^32-1; times 4 bytes a
 * float, the address lands where nothing is mapped, and the fault is sticky.
 * As a signed int the same -1 would read the word just before the table,
 * silently.
 *
 * The fix: check the sentinel before using the index (`if (idx < 0)`), or
 * compact the index array on the host; keep indices signed.
 *
 * References: PaddlePaddle/FastDeploy#4218 (an index array defaulted to -1
 * read into a uint32_t: "CUDA error(700): 'cudaErrorIllegalAddress'");
 * CUDA Runtime API, cudaErrorIllegalAddress
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html).
 *
 * atlas:cause kernel_oob_index
 */
#include "atlas.h"
#include <stdint.h>

enum { ROWS = 1024, INDICES = 8 };

__global__ void gather_checked(const float *table, const int *index, float *out)
{
    int i = threadIdx.x;
    out[i] = index[i] < 0 ? 0.0f : table[index[i]];
}

__global__ void gather_unsigned(const float *table, const int *index, float *out)
{
    int i = threadIdx.x;
    out[i] = table[(uint32_t)index[i]];
}

static void gather_with(void (*kernel)(const float *, const int *, float *))
{
    int index[INDICES] = {4, 8, 15, 16, 23, 42, -1, -1}; /* the last two: "no entry" */
    float *table = NULL, *out = NULL;
    int *device_index = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&table, ROWS * sizeof(float)))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&out, INDICES * sizeof(float)))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&device_index, sizeof index))
        || !ATLAS_CUDA("clear", cudaMemset(table, 0, ROWS * sizeof(float)))
        || !ATLAS_CUDA("copy", cudaMemcpy(device_index, index, sizeof index, cudaMemcpyHostToDevice)))
        return;
    kernel<<<1, INDICES>>>(table, device_index, out);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(table), cudaFree(out), cudaFree(device_index);
}

static void sentinel_checked(void) { gather_with(gather_checked); }
static void sentinel_as_unsigned_index(void) { gather_with(gather_unsigned); }

ATLAS_CASE(sentinel_checked, sentinel_as_unsigned_index)
