/* legacy_stream_work_during_capture — asynchronous work queued on the
 * legacy default stream (stream 0) while another stream is capturing.
 *
 * The mistake: one call inside the captured region forgets its stream
 * argument — cudaMemsetAsync(p, 0, n) or a kernel launched <<<grid, block>>>
 * without a stream — so it goes to stream 0 instead of the capturing stream.
 *
 * What the program sees (H200, CUDA 13.0): in every mode the cudaMemsetAsync
 * on stream 0 returns cudaErrorStreamCaptureImplicit, and
 * cudaStreamEndCapture returns cudaErrorStreamCaptureInvalidated with no
 * graph (cudaGetLastError keeps it). On the capturing stream the same call is
 * captured and replays.
 *
 * What a PyTorch user sees: work a library sends to the default stream during
 * capture raises "operation would make the legacy stream depend on a
 * capturing blocking stream" (pytorch/pytorch#15623, from autograd).
 *
 * Why: the legacy stream synchronizes implicitly with every blocking stream;
 * queuing work on it would make it wait for captured work that never runs.
 *
 * The fix: pass the capturing stream to every call (the fixed variant);
 * create capture streams with cudaStreamNonBlocking; build with
 * --default-stream per-thread.
 *
 * References: pytorch/pytorch#15623 (the message above during capture); CUDA
 * Runtime API, cudaStreamIsCapturing
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html):
 * "When a blocking stream is capturing, the legacy stream is in an unusable
 * state until the blocking stream capture is terminated."
 *
 * atlas:cause legacy_stream_work_during_capture
 */
#include "capture.h"

static void clear_on(cudaStream_t stream, const char *mode)
{
    ATLAS_CUDA(capture_step(mode, "clear"), cudaMemsetAsync(capture_device_buffer, 0, CAPTURE_BYTES, stream));
}

static void clear_on_capturing_stream(cudaStream_t stream, const char *mode) { clear_on(stream, mode); }
static void clear_on_stream_0(cudaStream_t stream, const char *mode)
{
    (void)stream;
    clear_on(0, mode);
}

static void work_on_capturing_stream(void) { capture_every_mode(clear_on_capturing_stream, NULL); }
static void work_on_legacy_stream(void) { capture_every_mode(clear_on_stream_0, NULL); }

ATLAS_CASE(work_on_capturing_stream, work_on_legacy_stream)
