/* event_recorded_on_another_devices_stream — an event created on device 0
 * recorded on a stream of device 1.
 *
 * The mistake: one pool of events for all GPUs, or an event created before
 * switching devices. Waiting on another device's event is allowed
 * (cudaStreamWaitEvent across devices is how GPUs order their work), so
 * recording it there is assumed to be allowed too.
 *
 * What the program sees (two H200s with NVLink, CUDA 13.0, driver 580):
 * cudaEventRecord returns cudaErrorInvalidResourceHandle at the call; the
 * event stays unrecorded (cudaEventSynchronize on it returns at once with
 * cudaSuccess), and both GPUs stay usable.
 *
 * What a PyTorch user sees: torch.cuda.Event records lazily on the first
 * record() and checks the stream's device:
 * "Event device ... does not match recording stream's device" (not
 * recorded through PyTorch here).
 *
 * Why: an event belongs to the context it was created in; cudaEventRecord
 * requires the event and the stream to be on the same device.
 *
 * The fix: create events per device (with that device current) and record
 * each on its own device's streams; wait on them from anywhere.
 *
 * References: CUDA Runtime API, cudaEventRecord
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__EVENT.html),
 * "event and stream must be on the same CUDA context" (as quoted in
 * rapidsai/rmm#1306, which hit cudaErrorInvalidResourceHandle from exactly
 * this); NVIDIA/cuCascade#189; CUDA Programming Guide, "Stream and Event
 * Behavior".
 *
 * atlas:cause resource_used_on_other_device
 */
#include "two_devices.h"

static void record_event_made_on(int event_device)
{
    cudaEvent_t event = NULL;
    cudaStream_t stream = NULL;
    void *p = NULL;
    if (!atlas_need_two_gpus() || !ATLAS_CUDA("set_event_device", cudaSetDevice(event_device))
        || !ATLAS_CUDA("event", cudaEventCreate(&event)))
        return;
    if (ATLAS_CUDA("set_1", cudaSetDevice(1)) && ATLAS_CUDA("stream", cudaStreamCreate(&stream))
        && ATLAS_CUDA("alloc", cudaMalloc(&p, 1 << 20))
        && ATLAS_CUDA("work", cudaMemsetAsync(p, 0, 1 << 20, stream))) {
        ATLAS_CUDA("record", cudaEventRecord(event, stream));
        ATLAS_CUDA("event_sync", cudaEventSynchronize(event));
        ATLAS_CUDA("stream_sync", cudaStreamSynchronize(stream));
    }
    atlas_device_usable(1, "usable_1");
    atlas_device_usable(0, "usable_0");
    cudaFree(p);
    if (stream)
        cudaStreamDestroy(stream);
    cudaEventDestroy(event);
}

static void event_of_the_streams_device(void) { record_event_made_on(1); }
static void event_of_the_other_device(void) { record_event_made_on(0); }

ATLAS_CASE(event_of_the_streams_device, event_of_the_other_device)
