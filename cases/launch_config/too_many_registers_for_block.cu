/* too_many_registers_for_block — 1024 threads of a kernel that needs many
 * registers each.
 *
 * The mistake: the block size chosen without looking at the kernel's
 * register count. A block's threads share the multiprocessor's 65536
 * registers: at more than 64 registers a thread, 1024 threads do not fit.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): the launch is refused:
 * cudaGetLastError returns cudaErrorLaunchOutOfResources ("too many
 * resources requested for launch"); not sticky. The quantity
 * registers_per_thread, read from cudaFuncGetAttributes, is 127.
 *
 * What a PyTorch user sees: custom kernels and extensions report "CUDA
 * error: too many resources requested for launch" (not recorded yet).
 *
 * Why: registers per block = registers per thread × threads, at most 65536.
 *
 * The fix: smaller blocks (the fixed variant uses 256), __launch_bounds__
 * so the compiler limits registers, or cudaOccupancyMaxPotentialBlockSize.
 *
 * References: CUDA Programming Guide, "Multiprocessor Level" and
 * __launch_bounds__ (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#launch-bounds).
 *
 * atlas:cause too_many_registers_for_block
 */
#include "atlas.h"

enum { VALUES = 96 };

/* Many values live at once, so the compiler needs many registers. */
__global__ void heavy(float *out, float seed)
{
    float v[VALUES];
#pragma unroll
    for (int i = 0; i < VALUES; i++)
        v[i] = seed * (i + 1) + threadIdx.x;
#pragma unroll
    for (int round = 0; round < 4; round++)
#pragma unroll
        for (int i = 0; i < VALUES; i++)
            v[i] = v[i] * v[(i + 1) % VALUES] + v[(i + 13) % VALUES];
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < VALUES; i++)
        sum += v[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

static void launch_blocks_of(int threads)
{
    float *out = NULL;
    struct cudaFuncAttributes attributes;
    if (!ATLAS_CUDA("attributes", cudaFuncGetAttributes(&attributes, heavy))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&out, 4096 * sizeof(float))))
        return;
    atlas_quantity("registers_per_thread", attributes.numRegs, "registers");
    heavy<<<4096 / threads, threads>>>(out, 0.5f);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(out);
}

static void blocks_of_256(void) { launch_blocks_of(256); }
static void blocks_of_1024(void) { launch_blocks_of(1024); }

ATLAS_CASE(blocks_of_256, blocks_of_1024)
