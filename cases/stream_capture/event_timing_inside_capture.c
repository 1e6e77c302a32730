/* event_timing_inside_capture — timing captured work with events recorded
 * inside the capture, then waiting on them after it.
 *
 * The mistake: the usual timing idiom — cudaEventRecord(start, s), the work,
 * cudaEventRecord(stop, s), cudaEventSynchronize(stop), cudaEventElapsedTime
 * — wrapped around the region being captured, so both records become part of
 * the capture.
 *
 * What the program sees (H200, CUDA 13.0): the two cudaEventRecord calls
 * succeed inside the capture in every mode and the graph is made; after
 * cudaStreamEndCapture, cudaEventSynchronize(stop) and cudaEventElapsedTime
 * return cudaErrorInvalidValue — not cudaErrorCapturedEvent — in all three
 * modes, and the error stays in the last-error slot until the next
 * cudaGetLastError. Recorded after the capture, the same events time the
 * work.
 *
 * What a PyTorch user sees: torch.cuda.Event(enable_timing=True).record()
 * inside torch.cuda.graph followed by elapsed_time() after it (not recorded
 * through PyTorch yet).
 *
 * Why: an event recorded in a capturing stream becomes a node of the graph,
 * not a point in time: nothing has run, and the documentation's
 * cudaErrorCapturedEvent is "not permitted on an event which was last
 * recorded in a capturing stream".
 *
 * The fix: record the events around the graph's launch, outside the capture
 * (the fixed variant records them after the capture ends).
 *
 * References: ggml-org/llama.cpp#11804 (quoting the restriction on
 * cudaEventQuery of an event last recorded inside a capture); CUDA Runtime
 * API, cudaEventRecord and cudaEventSynchronize
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__EVENT.html).
 *
 * atlas:cause event_timing_inside_capture
 */
#include "capture.h"

static cudaEvent_t start, stop;

static void record(cudaStream_t stream, const char *mode)
{
    ATLAS_CUDA(capture_step(mode, "record_start"), cudaEventRecord(start, stream));
    ATLAS_CUDA(capture_step(mode, "record_stop"), cudaEventRecord(stop, stream));
}

static void wait_and_time(cudaStream_t stream, const char *mode)
{
    (void)stream;
    float ms = -1.0f;
    ATLAS_CUDA(capture_step(mode, "event_sync"), cudaEventSynchronize(stop));
    ATLAS_CUDA(capture_step(mode, "elapsed"), cudaEventElapsedTime(&ms, start, stop));
}

static void record_then_time(cudaStream_t stream, const char *mode)
{
    record(stream, mode);
    wait_and_time(stream, mode);
}

static void time_with(bool inside)
{
    if (!ATLAS_CUDA("event", cudaEventCreate(&start)))
        return;
    if (ATLAS_CUDA("event", cudaEventCreate(&stop))) {
        if (inside)
            capture_every_mode(record, wait_and_time);
        else
            capture_every_mode(NULL, record_then_time);
        cudaEventDestroy(stop);
    }
    cudaEventDestroy(start);
}

static void events_outside_capture(void) { time_with(false); }
static void events_inside_capture(void) { time_with(true); }

ATLAS_CASE(events_outside_capture, events_inside_capture)
