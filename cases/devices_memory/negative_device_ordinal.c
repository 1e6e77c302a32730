/* negative_device_ordinal — cudaSetDevice(-1).
 *
 * The mistake: "-1 means no GPU / the CPU" carried over from a framework
 * convention (local_rank = -1 when not distributed) into cudaSetDevice.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): cudaSetDevice(-1) returns
 * cudaErrorInvalidDevice at the call; the current device is unchanged and
 * later calls work (the synchronize returns cudaSuccess).
 *
 * What a PyTorch user sees: torch.device("cuda", -1) is refused by PyTorch
 * itself ("Device index must not be negative"; see the mirror).
 *
 * Why: ordinals run from 0 to count - 1.
 *
 * The fix: map "no GPU" to the CPU path before calling CUDA.
 *
 * References: CUDA Runtime API, cudaSetDevice
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html).
 *
 * atlas:cause negative_device_ordinal
 */
#include "atlas.h"

static void set_device(int ordinal)
{
    void *p = NULL;
    if (!ATLAS_CUDA("context", cudaFree(0)))
        return;
    ATLAS_CUDA("set", cudaSetDevice(ordinal));
    if (ATLAS_CUDA("alloc", cudaMalloc(&p, 1 << 20)))
        cudaFree(p);
}

static void device_zero(void) { set_device(0); }
static void minus_one(void) { set_device(-1); }

ATLAS_CASE(device_zero, minus_one)
