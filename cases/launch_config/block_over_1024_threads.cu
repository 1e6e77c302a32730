/* block_over_1024_threads — a kernel launched with 1025 threads per block.
 *
 * The mistake: sizing the block by the problem (one thread per element,
 * <<<1, n>>>) instead of splitting the problem into blocks. Every CUDA GPU so
 * far limits a block to 1024 threads (maxThreadsPerBlock).
 *
 * What the program sees: the launch does not happen. The <<<>>> syntax
 * returns nothing, so the error waits in the "last error" slot: it is
 * returned by the next cudaGetLastError() (and cleared by it). It is not
 * sticky: the context stays usable. On the H100 with CUDA 13.0 the code is
 * cudaErrorInvalidValue ("invalid argument") — not
 * cudaErrorInvalidConfiguration ("invalid configuration argument"), which
 * is what most answers about this mistake quote.
 *
 * What a PyTorch user sees: PyTorch chooses its own launch configurations;
 * this mistake comes from custom kernels (not recorded through PyTorch yet).
 *
 * Why: the launch configuration is checked when the launch is submitted,
 * against the device's limits (1024 threads per block; 1024, 1024, 64 per
 * dimension).
 *
 * The fix: blocks of at most 1024 threads (256 is a good default) and a grid
 * of ceil(n / block) blocks, with a bounds check in the kernel.
 *
 * References: CUDA Programming Guide, "Thread Hierarchy" and the table of
 * technical specifications per compute capability
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#features-and-technical-specifications).
 *
 * atlas:cause block_too_large
 */
#include "atlas.h"

enum { ELEMENTS = 1025 };

__global__ void write_index(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i;
}

static void launch_with_block(int block)
{
    int *out = NULL, host[ELEMENTS];
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof host)))
        return;
    int grid = (ELEMENTS + block - 1) / block;
    write_index<<<grid, block>>>(out, ELEMENTS);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy", cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost))) {
        bool all = true;
        for (int i = 0; i < ELEMENTS; i++)
            all = all && host[i] == i;
        atlas_check("result", all, "every element written by the kernel");
    }
    cudaFree(out);
}

static void blocks_of_1024(void) { launch_with_block(1024); }
static void one_block_of_1025(void) { launch_with_block(ELEMENTS); }

ATLAS_CASE(blocks_of_1024, one_block_of_1025)
