/* grid_y_over_65535 — a grid with 65536 blocks in y.
 *
 * The mistake: putting the long dimension (rows, tokens) on grid.y or
 * grid.z. Only grid.x may go up to 2³¹-1; y and z stop at 65535.
 *
 * What the program sees: the launch is refused: cudaGetLastError returns
 * cudaErrorInvalidValue from CUDA 13.0 on (H100 on 13.0; H200 on 13.0 to
 * 13.5) and cudaErrorInvalidConfiguration before it (H100 on 11.8 and 12.4;
 * H200 on 11.8 and 12.0 to 12.9). Not sticky.
 *
 * What a PyTorch user sees: nothing from PyTorch's kernels; custom kernels
 * meet it on large inputs (not recorded through PyTorch).
 *
 * Why: maxGridSize is {2147483647, 65535, 65535}.
 *
 * The fix: the large dimension on x, or a grid-stride loop over y.
 *
 * References: CUDA Programming Guide, technical specifications per compute
 * capability (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#features-and-technical-specifications).
 *
 * atlas:cause grid_dim_over_limit
 */
#include "atlas.h"

__global__ void count(int *n) { atomicAdd(n, 1); }

static void launch_rows(dim3 grid)
{
    int *n = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&n, sizeof(int))) || !ATLAS_CUDA("zero", cudaMemset(n, 0, sizeof(int))))
        return;
    count<<<grid, 1>>>(n);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(n);
}

static void rows_on_x(void) { launch_rows(dim3(65536, 1)); }
static void rows_on_y(void) { launch_rows(dim3(1, 65536)); }

ATLAS_CASE(rows_on_x, rows_on_y)
