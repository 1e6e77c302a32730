/* blocking_memcpy_during_capture — a synchronous cudaMemcpy while a stream
 * is being captured.
 *
 * The mistake: uploading a parameter with cudaMemcpy (which runs on the
 * legacy default stream and waits for it) in the middle of work being
 * captured on another stream; the copy was meant to be part of the graph.
 *
 * What the program sees (H200, CUDA 13.0): in every mode — global,
 * thread_local, relaxed — cudaMemcpy returns cudaErrorStreamCaptureImplicit
 * ("operation would make the legacy stream depend on a capturing blocking
 * stream"), the capture is invalidated (cudaStreamIsCapturing: 2), and
 * cudaStreamEndCapture returns cudaErrorStreamCaptureInvalidated with no
 * graph; cudaGetLastError then still holds cudaErrorStreamCaptureInvalidated.
 * The context stays usable. With cudaMemcpyAsync on the capturing stream the
 * graph is made and replays.
 *
 * What a PyTorch user sees: PyTorch's copies go to the current stream, the
 * capturing one, and then wait for it: `.item()` inside torch.cuda.graph
 * fails with "operation not permitted when stream is capturing" (chained
 * under "operation failed due to a previous error during capture"; see the
 * mirror of stream_synchronize_during_capture) — a
 * cudaErrorStreamCaptureUnsupported, not the cudaErrorStreamCaptureImplicit
 * of cudaMemcpy here.
 *
 * Why: the legacy default stream synchronizes implicitly with every blocking
 * stream, the capturing one included, and the copy waits for it: it would
 * make uncaptured work depend on captured work.
 *
 * The fix: cudaMemcpyAsync on the capturing stream (the fixed variant), from
 * pinned memory, so the copy becomes a node of the graph and runs at each
 * replay.
 *
 * References: aws/aws-ofi-nccl#1342 (cuMemcpy on the legacy stream failing
 * inside a capture, fixed with an async copy) and NVIDIA/warp#653 (error 906
 * from a host copy inside a capture); CUDA Runtime API, cudaStreamIsCapturing
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html):
 * "When a blocking stream is capturing, the legacy stream is in an unusable
 * state until the blocking stream capture is terminated."
 *
 * atlas:cause sync_during_capture
 */
#include "capture.h"

static void copy_async(cudaStream_t stream, const char *mode)
{
    ATLAS_CUDA(capture_step(mode, "copy"), cudaMemcpyAsync(capture_device_buffer, capture_pinned_buffer, CAPTURE_BYTES,
                                                          cudaMemcpyHostToDevice, stream));
}

static void copy_blocking(cudaStream_t stream, const char *mode)
{
    (void)stream;
    ATLAS_CUDA(capture_step(mode, "copy"),
               cudaMemcpy(capture_device_buffer, capture_pinned_buffer, CAPTURE_BYTES, cudaMemcpyHostToDevice));
}

static void async_copy_on_capturing_stream(void) { capture_every_mode(copy_async, NULL); }
static void blocking_copy(void) { capture_every_mode(copy_blocking, NULL); }

ATLAS_CASE(async_copy_on_capturing_stream, blocking_copy)
