/* device_ordinal_counted_from_one — cudaSetDevice(2) meant as "the second
 * GPU" on a machine with two.
 *
 * The mistake: numbering GPUs from 1 (a job script's GPU list, a "GPU 2 of
 * 2" in a log), then not checking cudaSetDevice's status. The work goes on
 * — on the device that was current before.
 *
 * What the program sees (two H200s with NVLink, CUDA 13.0, driver 580):
 * cudaSetDevice(2) returns cudaErrorInvalidDevice; cudaGetDevice still says
 * 0, and the allocation that follows succeeds — on GPU 0 (the check on its
 * device: result_wrong). Nothing is sticky.
 *
 * What a PyTorch user sees: torch.cuda.set_device(2) on two GPUs raises
 *   torch.AcceleratorError: CUDA error: invalid device ordinal
 * (recorded with PyTorch 2.11 on two H200s.)
 *
 * Why: ordinals run from 0 to cudaGetDeviceCount() - 1; a failed
 * cudaSetDevice leaves the current device as it was.
 *
 * The fix: ordinals from 0, checked against the count; check
 * cudaSetDevice; see invalid_device_ordinal for the one-GPU form.
 *
 * References: CUDA Runtime API, cudaSetDevice
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html),
 * "cudaErrorInvalidDevice"; magic-research/bubogpt#11 (two GPUs numbered
 * the wrong way, work on the wrong device).
 *
 * atlas:cause device_ordinal_past_visible_count
 */
#include "two_devices.h"

static void select_second_gpu_as(int ordinal)
{
    void *p = NULL;
    int current = -1;
    struct cudaPointerAttributes where;
    if (!atlas_need_two_gpus())
        return;
    ATLAS_CUDA("set", cudaSetDevice(ordinal));
    ATLAS_CUDA("get", cudaGetDevice(&current));
    atlas_quantity("current_device", current, "ordinal");
    if (!ATLAS_CUDA("alloc", cudaMalloc(&p, 1 << 20)))
        return;
    if (ATLAS_CUDA("attributes", cudaPointerGetAttributes(&where, p)))
        atlas_check("on_second_gpu", where.device == 1, "the allocation is on device %d", where.device);
    cudaFree(p);
}

static void second_gpu_is_1(void) { select_second_gpu_as(1); }
static void second_gpu_is_2(void) { select_second_gpu_as(2); }

ATLAS_CASE(second_gpu_is_1, second_gpu_is_2)
