/* device_reset_after_illegal_address — cudaDeviceReset after a sticky
 * error, hoping to carry on.
 *
 * The mistake: treating a sticky error like an ordinary one: reset the
 * device and continue in the same process.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): after the synchronize returns
 * cudaErrorIllegalAddress, cudaDeviceReset returns cudaSuccess — but a
 * fresh cudaMalloc afterwards returns cudaErrorDevicesUnavailable, and so
 * does the probe after it: this driver (580.159.04) does not let the
 * process back in after a reset. Under compute-sanitizer (H100, 13.0) the
 * same, with cudaErrorLaunchFailure at the synchronize.
 *
 * What a PyTorch user sees: PyTorch offers no reset; after an illegal
 * access every CUDA call raises until the process exits.
 *
 * Why: the documentation calls these errors unrecoverable for the process
 * ("the process must be terminated and relaunched").
 *
 * The fix: restart the process (a worker pool that replaces dead workers).
 *
 * References: CUDA Runtime API, cudaErrorIllegalAddress and cudaDeviceReset
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html).
 *
 * atlas:cause device_reset_after_sticky_error
 */
#include "atlas.h"

__global__ void write_one(int *p) { *p = 1; }

static void reset_after(int bad)
{
    int *target = NULL;
    void *again = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&target, sizeof(int))))
        return;
    write_one<<<1, 1>>>(bad ? (int *)0x100 : target);
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    ATLAS_CUDA("reset", cudaDeviceReset());
    if (ATLAS_CUDA("alloc_after_reset", cudaMalloc(&again, 1 << 20)))
        cudaFree(again);
}

static void good_kernel(void) { reset_after(0); }
static void faulting_kernel(void) { reset_after(1); }

ATLAS_CASE(good_kernel, faulting_kernel)
