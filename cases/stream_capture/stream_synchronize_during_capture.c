/* stream_synchronize_during_capture — cudaStreamSynchronize on a stream
 * that is being captured into a CUDA graph.
 *
 * The mistake: code that waits for its results — a host-side check, a
 * `.item()`, a library routine that synchronizes — is run inside a capture.
 * Captured work does not run until the graph is launched, so there is nothing
 * to wait for.
 *
 * What the program sees (H200, CUDA 13.0): cudaStreamSynchronize returns
 * cudaErrorStreamCaptureUnsupported ("operation not permitted when stream is
 * capturing") in all three modes; the capture is invalidated
 * (cudaStreamIsCapturing: 2), cudaStreamEndCapture returns
 * cudaErrorStreamCaptureInvalidated and no graph, and cudaGetLastError keeps
 * cudaErrorStreamCaptureInvalidated. The context stays usable (the probe
 * succeeds).
 *
 * What a PyTorch user sees: `.item()` inside torch.cuda.graph raises
 *   torch.AcceleratorError: CUDA error: operation not permitted when stream
 *   is capturing
 * and, raised by the end of the `with` block while handling it, the error the
 * user reads last:
 *   torch.AcceleratorError: CUDA error: operation failed due to a previous
 *   error during capture
 * (PyTorch 2.11, recorded by the mirror with the chained first error).
 *
 * Why: synchronizing a capturing stream is never legal, in any capture mode;
 * the call fails and the capture is invalidated, so the end of the capture
 * yields no graph.
 *
 * The fix: synchronize after cudaStreamEndCapture, on the stream the graph is
 * launched on; move host-side checks out of the captured region.
 *
 * References: pytorch/pytorch#78549 (SyncBatchNorm's host sync inside a
 * capture: "operation not permitted when stream is capturing");
 * microsoft/onnxruntime#15002; CUDA Runtime API,
 * cudaErrorStreamCaptureUnsupported
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html):
 * "The operation is not permitted when the stream is capturing."
 *
 * atlas:cause sync_during_capture
 */
#include "capture.h"

static void synchronize(cudaStream_t stream, const char *mode)
{
    ATLAS_CUDA(capture_step(mode, "sync"), cudaStreamSynchronize(stream));
}

static void synchronize_after_capture(void) { capture_every_mode(NULL, synchronize); }
static void synchronize_inside_capture(void) { capture_every_mode(synchronize, NULL); }

ATLAS_CASE(synchronize_after_capture, synchronize_inside_capture)
