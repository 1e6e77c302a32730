/* device_side_assert — an assert() in a kernel fails.
 *
 * The mistake: an index out of range caught by a device-side check — how
 * PyTorch's indexing kernels report a bad index (embedding lookups with a
 * token id >= vocabulary size; class labels >= num_classes, which real
 * reports meet most, are class_label_past_num_classes).
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): the launch check returns
 * cudaSuccess, the kernel prints the failed assertion,
 *   device_side_assert.cu:29: void lookup(const int *, int, int *): block: [0,0,0], thread: [0,0,0] Assertion `*index < size` failed.
 * and the next synchronize returns cudaErrorAssert; the context is lost
 * (sticky: a later cudaMalloc returns cudaErrorAssert too). With
 * CUDA_LAUNCH_BLOCKING=1 (H100, 13.0) the launch check itself returns
 * cudaErrorAssert.
 *
 * What a PyTorch user sees (recorded with PyTorch 2.11 on the H100 and the
 * H200; the mirror indexes past the end of an embedding): the kernel prints
 * "Assertion `srcIndex < srcSelectDimSize` failed." and PyTorch raises
 * torch.AcceleratorError, "CUDA error: device-side assert triggered", often
 * from a later call; every CUDA call after it fails.
 *
 * Why: a failed device assert traps the kernel; like an illegal address,
 * it ends the context.
 *
 * The fix: validate indices on the host (or run on the CPU once to get a
 * readable IndexError); TORCH_USE_CUDA_DSA for details.
 *
 * References: CUDA Programming Guide, "Assertion"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#assertion).
 *
 * atlas:cause device_assert_token_id_past_vocab
 */
#include "atlas.h"
#undef NDEBUG /* release builds compile assert() away; this lesson needs it */
#include <assert.h>

__global__ void lookup(const int *index, int size, int *out)
{
    assert(*index < size);
    *out = *index;
}

static void lookup_index(int value)
{
    int *index = NULL, *out = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&index, sizeof(int))) || !ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof(int)))
        || !ATLAS_CUDA("copy", cudaMemcpy(index, &value, sizeof value, cudaMemcpyHostToDevice)))
        return;
    lookup<<<1, 1>>>(index, 10, out);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(index), cudaFree(out);
}

static void index_in_range(void) { lookup_index(3); }
static void index_past_the_end(void) { lookup_index(10); }

ATLAS_CASE(index_in_range, index_past_the_end)
