/* capture_legacy_default_stream — cudaStreamBeginCapture on stream 0.
 *
 * The mistake: capturing "the" stream — the legacy default stream, 0 or
 * cudaStreamLegacy — because that is where the program's work already goes.
 *
 * What the program sees (H200, CUDA 13.0): cudaStreamBeginCapture(0, mode)
 * returns cudaErrorStreamCaptureUnsupported in all three modes, and the error
 * also stays in the last-error slot for the next cudaGetLastError. Nothing
 * else is affected.
 *
 * What a PyTorch user sees: PyTorch refuses before asking CUDA:
 *   RuntimeError: CUDA graphs must be captured on a non-default stream.
 *   (However, after capture, it's ok to replay them on the default stream.)
 * (PyTorch 2.11, recorded by the mirror).
 *
 * Why: the legacy stream synchronizes implicitly with all blocking streams of
 * the context, so what it depends on cannot be captured: the runtime does not
 * capture it at all.
 *
 * The fix: capture a stream you created (the fixed variant), and queue the
 * work there; or use cudaStreamPerThread.
 *
 * References: cupy/cupy#4567 ("the capturing stream has to be non-blocking
 * (thus it can't be the legacy default stream)"); CUDA Runtime API,
 * cudaStreamBeginCapture
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html),
 * "Capture may not be initiated if stream is cudaStreamLegacy".
 *
 * atlas:cause capture_on_legacy_default_stream
 */
#include "capture.h"

static void capture_on(bool legacy)
{
    cudaStream_t stream = 0;
    if (!capture_setup())
        return;
    if (legacy || ATLAS_CUDA("stream", cudaStreamCreate(&stream))) {
        capture_every_mode_on(stream, NULL, NULL);
        if (stream)
            cudaStreamDestroy(stream);
    }
    capture_teardown();
}

static void capture_created_stream(void) { capture_on(false); }
static void capture_stream_0(void) { capture_on(true); }

ATLAS_CASE(capture_created_stream, capture_stream_0)
