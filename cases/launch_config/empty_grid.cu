/* empty_grid — a kernel launched with a grid of 0 blocks.
 *
 * The mistake: grid = n / block for n = 0 (an empty batch, an empty tensor),
 * or integer division that rounds a small n down to 0.
 *
 * What the program sees: the launch is refused: cudaGetLastError returns
 * cudaErrorInvalidValue from CUDA 13.0 on (H100 on 13.0; H200 on 13.0 to
 * 13.5) and cudaErrorInvalidConfiguration before it (H100 on 11.8 and 12.4;
 * H200 on 11.8 and 12.0 to 12.9). The error waits in the last-error slot
 * for cudaGetLastError. It is not sticky.
 *
 * What a PyTorch user sees: PyTorch's own kernels return early on empty
 * tensors — the mirror (softmax over an empty batch, PyTorch 2.11 on the
 * H100 and the H200) raises nothing; "RuntimeError: CUDA error: invalid
 * configuration argument" is what users of custom kernels report for an
 * empty input.
 *
 * Why: every grid dimension must be at least 1.
 *
 * The fix: return early when n == 0; round up: grid = (n + block - 1) / block.
 *
 * References: CUDA Programming Guide, "Execution Configuration"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#execution-configuration).
 *
 * atlas:cause empty_grid_launch
 */
#include "atlas.h"

__global__ void touch(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

static void launch_for(int n)
{
    int *p = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&p, 1024 * sizeof(int))))
        return;
    touch<<<n / 256, 256>>>(p); /* rounds down: 255 elements -> 0 blocks */
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(p);
}

static void n_of_512(void) { launch_for(512); }
static void n_of_255(void) { launch_for(255); }

ATLAS_CASE(n_of_512, n_of_255)
