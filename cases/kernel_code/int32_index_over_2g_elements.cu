/* int32_index_over_2g_elements — a kernel keeps its element index in an
 * int, over an array of more than 2^31 floats (a little over 8 GiB).
 *
 * The mistake: `int i = blockIdx.x * blockDim.x + threadIdx.x;` — the
 * habit of every tutorial — in a kernel that now sees a tensor of more than
 * 2,147,483,647 elements (a large-vocabulary embedding, a whole dataset on
 * one GPU). The product is computed in 32 bits and stored in a signed int:
 * past 2^31 the index wraps negative, the bound check `i < n` (n is 64-bit)
 * still passes, and the thread writes up to 8 GiB *before* the array.
 *
 * What the program sees (H200, CUDA 13.0): the launch succeeds;
 * cudaDeviceSynchronize returns cudaErrorIllegalAddress, and so does every
 * call after it (the copy back, the probe): the context is lost. The same in
 * three runs out of three. With a long long index the same kernel fills all
 * 2,148,532,224 floats.
 *
 * What a PyTorch user sees: PyTorch's own kernels switch to 64-bit indexing
 * for large tensors, so the mistake comes from extensions and libraries: a
 * TransformerEngine / apex / DeepSpeed multi_tensor_apply over an embedding
 * of more than 2^31 parameters failed with "CUDA Error: an illegal memory
 * access was encountered"; a CuPy RawKernel with an int index over an 8 GB
 * array with "cudaErrorIllegalAddress: an illegal memory access was
 * encountered" at the next synchronize (not recorded: it needs 8 GiB).
 *
 * Why: 2^31 elements of 4 bytes are 8 GiB, which today's GPUs hold easily;
 * the index arithmetic was written when they did not.
 *
 * The fix: a 64-bit index (long long, size_t, int64_t) computed from a
 * 64-bit product: `(long long)blockIdx.x * blockDim.x + threadIdx.x`;
 * sizes and strides passed as 64-bit too.
 *
 * References: cupy/cupy#7539 ("Raw Kernels with Arrays greater 8GB":
 * "Casting the index into long long fixed the code"); chainer/chainer#2530;
 * NVIDIA/TransformerEngine#2918; CUDA Programming Guide, "Thread Hierarchy"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#thread-hierarchy).
 *
 * atlas:runs-alone — it takes a little over 8 GiB of GPU memory.
 *
 * atlas:cause int32_index_overflow
 */
#include "atlas.h"
#include <stdio.h>

static const long long ELEMENTS = (1LL << 31) + (1LL << 20); /* 8 GiB + 4 MiB of floats */
enum { THREADS = 256 };

template <typename Index>
__global__ void set_ones(float *a, long long n)
{
    Index i = (Index)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 1.0f;
}

template <typename Index>
static void set_all_with_index()
{
    size_t free_bytes = 0, total = 0, bytes = (size_t)ELEMENTS * sizeof(float);
    float *a = NULL, last = 0.0f;
    if (!ATLAS_CUDA("free_memory", cudaMemGetInfo(&free_bytes, &total)))
        return;
    if (free_bytes < bytes + ((size_t)1 << 30)) {
        char reason[160];
        snprintf(reason, sizeof reason, "needs %zu bytes of free GPU memory plus 1 GiB; %zu are free",
                 bytes, free_bytes);
        atlas_skip(reason);
    }
    atlas_quantity("elements", (double)ELEMENTS, "floats");
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&a, bytes)))
        return;
    set_ones<Index><<<(unsigned)((ELEMENTS + THREADS - 1) / THREADS), THREADS>>>(a, ELEMENTS);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy_back", cudaMemcpy(&last, a + ELEMENTS - 1, sizeof last, cudaMemcpyDeviceToHost)))
        atlas_check("last_element", last == 1.0f, "a[n-1] = %g (expected 1)", last);
    cudaFree(a);
}

static void index_in_long_long(void) { set_all_with_index<long long>(); }
static void index_in_int(void) { set_all_with_index<int>(); }

ATLAS_CASE(index_in_long_long, index_in_int)
