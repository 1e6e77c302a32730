/* set_device_flags_after_context_exists — cudaSetDeviceFlags called after
 * the first CUDA call has created the device's context.
 *
 * The mistake: choosing how the host thread waits for the GPU
 * (cudaDeviceScheduleBlockingSync, to stop a synchronize from spinning a CPU
 * core) or cudaDeviceMapHost in a library's init function that runs after
 * the application, or another library, has already used the device. Before
 * CUDA 12 the documented answer was cudaErrorSetOnActiveProcess ("cannot set
 * while device is active in this process"); the CUDA 12 and 13
 * documentation says the flags are overwritten instead.
 *
 * The fixed variant sets cudaDeviceScheduleBlockingSync first, then
 * allocates; the broken variant allocates first. Both then read the flags
 * back with cudaGetDeviceFlags (check flags_applied).
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): nothing goes
 * wrong. cudaSetDeviceFlags after cudaMalloc returns cudaSuccess, and
 * cudaGetDeviceFlags reads back 0xc (cudaDeviceScheduleBlockingSync with
 * cudaDeviceMapHost) exactly as when the flags are set first: the flags are
 * applied to the live context, as the CUDA 12/13 documentation says. The
 * cudaErrorSetOnActiveProcess of older reports is not returned by this
 * runtime; the broken variant is broken only for older runtimes (not
 * measured here).
 *
 * What a PyTorch user sees: nothing of the kind: PyTorch does not expose
 * cudaSetDeviceFlags (no mirror).
 *
 * Why: the scheduling flags belong to the device's primary context; they
 * are fixed when it is created unless the runtime may change them on the
 * live context.
 *
 * The fix: set device flags before any other CUDA call of the process (the
 * fixed variant), and read them back with cudaGetDeviceFlags rather than
 * assuming; code that must run on older runtimes treats
 * cudaErrorSetOnActiveProcess as "already initialized".
 *
 * References: lattice/quda#197 ("ERROR: (CUDA) cannot set while device is
 * active in this process" from cudaSetDeviceFlags(cudaDeviceMapHost) once
 * another library had initialized the device); CUDA Runtime API,
 * cudaSetDeviceFlags
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html):
 * "If the current device has been set and that device has already been
 * initialized, the previous flags are overwritten."
 *
 * atlas:cause device_flags_set_after_init
 */
#include "atlas.h"

static void flags_then_allocation(bool allocate_first)
{
    void *p = NULL;
    unsigned flags = 0;
    if (allocate_first && !ATLAS_CUDA("alloc", cudaMalloc(&p, 256)))
        return;
    ATLAS_CUDA("set_flags", cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    if (!allocate_first && !ATLAS_CUDA("alloc", cudaMalloc(&p, 256)))
        return;
    if (ATLAS_CUDA("get_flags", cudaGetDeviceFlags(&flags))) {
        atlas_quantity("device_flags", flags, "");
        atlas_check("flags_applied", (flags & cudaDeviceScheduleMask) == cudaDeviceScheduleBlockingSync,
                    "cudaGetDeviceFlags: 0x%x (scheduling bits 0x%x, BlockingSync is 0x%x)", flags,
                    flags & cudaDeviceScheduleMask, cudaDeviceScheduleBlockingSync);
    }
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(p);
}

static void flags_set_before_first_call(void) { flags_then_allocation(false); }
static void flags_set_after_context_exists(void) { flags_then_allocation(true); }

ATLAS_CASE(flags_set_before_first_call, flags_set_after_context_exists)
