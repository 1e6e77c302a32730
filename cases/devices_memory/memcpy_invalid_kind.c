/* memcpy_invalid_kind — cudaMemcpy with a kind that is not a cudaMemcpyKind.
 *
 * The mistake: the source and destination swapped with the kind argument
 * (argument order), or a boolean "to device" passed as the kind.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): cudaMemcpy returns
 * cudaErrorInvalidMemcpyDirection at the call; nothing copied; not sticky.
 *
 * What a PyTorch user sees: nothing; tensor.to() picks the kind.
 *
 * Why: kind must be one of HostToHost, HostToDevice, DeviceToHost,
 * DeviceToDevice, Default (0..4).
 *
 * The fix: the enum, or cudaMemcpyDefault and let unified addressing decide.
 *
 * References: CUDA Runtime API, cudaMemcpy
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:cause memcpy_kind_mismatch
 */
#include "atlas.h"

static void copy_with_kind(enum cudaMemcpyKind kind)
{
    int host[64] = {0}, *device = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&device, sizeof host)))
        return;
    ATLAS_CUDA("copy", cudaMemcpy(device, host, sizeof host, kind));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(device);
}

static void host_to_device(void) { copy_with_kind(cudaMemcpyHostToDevice); }
static void kind_seven(void) { copy_with_kind((enum cudaMemcpyKind)7); }

ATLAS_CASE(host_to_device, kind_seven)
