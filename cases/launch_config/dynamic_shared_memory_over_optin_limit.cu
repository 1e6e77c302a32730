/* dynamic_shared_memory_over_optin_limit — opting in to more dynamic shared
 * memory than the GPU has per block.
 *
 * The mistake: a tile size tuned on one GPU (or computed from the data)
 * needs more shared memory than sharedMemPerBlockOptin of this one.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): cudaFuncSetAttribute itself returns
 * cudaErrorInvalidValue (the opt-in limit is 232448 bytes on both GPUs),
 * and the launch that follows is refused too: cudaGetLastError returns
 * cudaErrorInvalidValue. Not sticky.
 *
 * What a PyTorch user sees: Triton reports "out of resource: shared memory,
 * Required: N, Hardware limit: M" for such kernels (not recorded yet).
 *
 * Why: the opt-in limit is a property of the GPU
 * (cudaDevAttrMaxSharedMemoryPerBlockOptin).
 *
 * The fix: query the limit and size tiles to fit (fixed variant asks for
 * exactly the limit).
 *
 * References: CUDA Runtime API, cudaFuncSetAttribute
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__EXECUTION.html).
 *
 * atlas:cause shared_memory_over_gpu_limit
 */
#include "atlas.h"

__global__ void use_shared(int *out)
{
    extern __shared__ int buffer[];
    buffer[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = buffer[threadIdx.x];
}

static void launch_beyond_limit(int extra)
{
    int limit = 0, *out = NULL;
    if (!ATLAS_CUDA("limit", cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&out, 256 * sizeof(int))))
        return;
    atlas_quantity("shared_memory_per_block_optin", limit, "bytes");
    int bytes = limit + extra;
    ATLAS_CUDA("opt_in", cudaFuncSetAttribute(use_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    use_shared<<<1, 256, bytes>>>(out);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(out);
}

static void exactly_the_limit(void) { launch_beyond_limit(0); }
static void one_kib_over(void) { launch_beyond_limit(1024); }

ATLAS_CASE(exactly_the_limit, one_kib_over)
