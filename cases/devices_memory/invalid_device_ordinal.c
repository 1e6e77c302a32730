/* invalid_device_ordinal — cudaSetDevice(n) on a machine with n GPUs.
 *
 * The mistake: devices are numbered from 0, so the last is count - 1. The
 * usual cause is a hard-coded ordinal ("cuda:1") on a one-GPU machine, or
 * CUDA_VISIBLE_DEVICES hiding GPUs the code still names.
 *
 * What the program sees: cudaSetDevice fails at the call and the current
 * device stays what it was; the error is not sticky, and later calls on the
 * old device work.
 *
 * Recorded (H100, CUDA 13.0): cudaErrorInvalidDevice.
 *
 * What a PyTorch user sees (torch.zeros(1, device="cuda:1") on one GPU):
 *   torch.AcceleratorError: CUDA error: invalid device ordinal
 *   GPU device may be out of range, do you have enough GPUs?
 *
 * Why: the ordinal is checked against the devices this process can see.
 *
 * The fix: take the ordinal from cudaGetDeviceCount (or
 * torch.cuda.device_count()), and check CUDA_VISIBLE_DEVICES.
 *
 * References: CUDA Runtime API, cudaSetDevice
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html).
 *
 * atlas:cause device_ordinal_past_visible_count
 */
#include "atlas.h"

static void set_device(int past_the_last)
{
    int count = 0;
    void *p = NULL;
    if (!ATLAS_CUDA("count", cudaGetDeviceCount(&count)))
        return;
    ATLAS_CUDA("set", cudaSetDevice(past_the_last ? count : count - 1));
    /* The error does not stick: the current device still works. */
    if (ATLAS_CUDA("alloc", cudaMalloc(&p, 1 << 20)))
        cudaFree(p);
}

static void last_device(void) { set_device(0); }
static void device_count_as_ordinal(void) { set_device(1); }

ATLAS_CASE(last_device, device_count_as_ordinal)
