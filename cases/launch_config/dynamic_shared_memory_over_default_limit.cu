/* dynamic_shared_memory_over_default_limit — 48 KiB + 4 bytes of dynamic
 * shared memory without opting in.
 *
 * The mistake: the GPU has far more shared memory per block than 48 KiB
 * (about 227 KiB on Hopper), but a kernel gets more than 48 KiB only after
 * cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, n).
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): the launch is refused:
 * cudaGetLastError returns cudaErrorInvalidValue. Not sticky.
 *
 * What a PyTorch user sees: from Triton or custom kernels, an "out of
 * resource: shared memory" error (not recorded through PyTorch yet).
 *
 * Why: 48 KiB is the default limit for dynamic shared memory; beyond it the
 * kernel must opt in.
 *
 * The fix: cudaFuncSetAttribute before the launch (fixed variant).
 *
 * References: CUDA Programming Guide, "Shared Memory" for compute capability
 * 9.0 (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#shared-memory-9-0).
 *
 * atlas:cause dynamic_shared_memory_not_opted_in
 */
#include "atlas.h"

__global__ void use_shared(int *out)
{
    extern __shared__ int buffer[];
    buffer[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buffer[threadIdx.x];
}

static void launch_with_shared(int opt_in)
{
    const int bytes = 48 * 1024 + 4;
    int *out = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&out, 256 * sizeof(int))))
        return;
    if (opt_in)
        ATLAS_CUDA("opt_in", cudaFuncSetAttribute(use_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    use_shared<<<1, 256, bytes>>>(out);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(out);
}

static void opted_in(void) { launch_with_shared(1); }
static void default_limit(void) { launch_with_shared(0); }

ATLAS_CASE(opted_in, default_limit)
