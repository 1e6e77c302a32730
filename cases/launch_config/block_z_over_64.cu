/* block_z_over_64 — a block of 1×1×65 threads.
 *
 * The mistake: a 3-D block shaped after the data (depth 65) — within 1024
 * threads in total, but blockDim.z is limited to 64.
 *
 * What the program sees: the launch is refused: cudaGetLastError returns
 * cudaErrorInvalidValue from CUDA 13.0 on (H100 on 13.0; H200 on 13.0 to
 * 13.5) and cudaErrorInvalidConfiguration before it (H100 on 11.8 and 12.4;
 * H200 on 11.8 and 12.0 to 12.9); not sticky (the synchronize returns
 * cudaSuccess).
 *
 * What a PyTorch user sees: nothing from PyTorch's kernels.
 *
 * Why: maxThreadsDim is {1024, 1024, 64}.
 *
 * The fix: put the deep dimension on x, or loop over z.
 *
 * References: CUDA Programming Guide, technical specifications
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#features-and-technical-specifications).
 *
 * atlas:cause block_too_large
 */
#include "atlas.h"

__global__ void count(int *n) { atomicAdd(n, 1); }

static void launch_block(dim3 block)
{
    int *n = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&n, sizeof(int))) || !ATLAS_CUDA("zero", cudaMemset(n, 0, sizeof(int))))
        return;
    count<<<1, block>>>(n);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(n);
}

static void depth_on_x(void) { launch_block(dim3(65, 1, 1)); }
static void depth_on_z(void) { launch_block(dim3(1, 1, 65)); }

ATLAS_CASE(depth_on_x, depth_on_z)
