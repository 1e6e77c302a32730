/* grid_rounded_up_without_bound_check — the grid is rounded up to whole
 * blocks, and the kernel does not check its index against n.
 *
 * The mistake: `blocks = (n + threads - 1) / threads` launches up to
 * threads-1 surplus threads; without `if (i < n)` they write past the end
 * of the array. Here n = 1025 floats in blocks of 1024: 1023 surplus
 * threads write 4092 bytes past the end.
 *
 * What the program sees (H200, CUDA 13.0): no error at all — launch,
 * synchronize and copy back return cudaSuccess and the context stays
 * usable — but 896 of the 1025 floats of the next cudaMalloc'd buffer are
 * overwritten (the check `neighbour` records result_wrong): cudaMalloc put
 * it 4608 bytes after the array (the quantity neighbour_offset_bytes), well
 * within reach. The same in three runs out of three. Under compute-sanitizer
 * the same run reports 101 errors and the synchronize returns
 * cudaErrorLaunchFailure.
 *
 * What a PyTorch user sees: nothing from PyTorch's own kernels, which check
 * their bounds; a custom kernel (numba forall, a CUDA extension) with this
 * mistake typically raises no error at all, or "an illegal memory access was
 * encountered" only when the surplus threads reach unmapped memory.
 *
 * Why: cudaMalloc hands out memory from larger pages, so the bytes just past
 * an allocation are usually mapped — padding, or another buffer — and the
 * hardware has nothing to fault on. Only compute-sanitizer (memcheck), which
 * knows each allocation's size, reports "Invalid __global__ write".
 *
 * The fix: `if (i < n) return;` at the top of every kernel whose grid is
 * rounded up (or a grid-stride loop `for (i = ...; i < n; i += stride)`);
 * run the tests under compute-sanitizer.
 *
 * References: numba/numba#7284 (a forall kernel without the bound check,
 * found by compute-sanitizer: "Invalid __global__ read of size 8 bytes ...
 * Address ... is out of bounds"; the test passed without it);
 * NVIDIA/cuCollections#539; CUDA Programming Guide, "Thread Hierarchy"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#thread-hierarchy).
 *
 * atlas:cause kernel_oob_index
 */
#include "atlas.h"

enum { N = 1025, THREADS = 1024, MARK = 7 };

__global__ void fill_checked(float *x, int n, float value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = value;
}

__global__ void fill_unchecked(float *x, int n, float value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    (void)n;
    x[i] = value;
}

static void fill_with(void (*kernel)(float *, int, float))
{
    float *x = NULL, *neighbour = NULL, host[N];
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&x, N * sizeof(float)))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&neighbour, N * sizeof(float)))
        || !ATLAS_CUDA("clear", cudaMemset(neighbour, MARK, N * sizeof(float))))
        return;
    atlas_quantity("neighbour_offset_bytes", (double)((char *)neighbour - (char *)x), "bytes");
    kernel<<<(N + THREADS - 1) / THREADS, THREADS>>>(x, N, 2.0f);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    /* The array itself is right either way; what lies past it may not be. */
    if (ATLAS_CUDA("copy_back", cudaMemcpy(host, neighbour, sizeof host, cudaMemcpyDeviceToHost))) {
        int changed = 0;
        for (int i = 0; i < N; i++) {
            unsigned char *bytes = (unsigned char *)&host[i];
            changed += bytes[0] != MARK || bytes[1] != MARK || bytes[2] != MARK || bytes[3] != MARK;
        }
        atlas_check("neighbour", changed == 0, "%d of the neighbouring buffer's %d floats overwritten", changed, N);
    }
    cudaFree(x), cudaFree(neighbour);
}

static void kernel_checks_bound(void) { fill_with(fill_checked); }
static void kernel_without_bound_check(void) { fill_with(fill_unchecked); }

ATLAS_CASE(kernel_checks_bound, kernel_without_bound_check)
