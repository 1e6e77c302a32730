/* device_synchronize_during_capture — cudaDeviceSynchronize while a stream
 * is being captured.
 *
 * The mistake: a "wait for everything" — cudaDeviceSynchronize,
 * torch.cuda.synchronize() — inside a captured region, often in a helper that
 * does not know a capture is under way (timing code, a debug check,
 * preprocessing on another path).
 *
 * What the program sees (H200, CUDA 13.0): cudaDeviceSynchronize returns
 * cudaErrorStreamCaptureUnsupported in all three modes — relaxed included —
 * and the capture is invalidated: cudaStreamEndCapture returns
 * cudaErrorStreamCaptureInvalidated and no graph, and cudaGetLastError keeps
 * cudaErrorStreamCaptureInvalidated. The context stays usable.
 *
 * What a PyTorch user sees: torch.cuda.synchronize() inside torch.cuda.graph
 * raises
 *   torch.AcceleratorError: CUDA error: operation not permitted when stream
 *   is capturing
 * and, raised by the end of the `with` block while handling it, the error the
 * user reads last:
 *   torch.AcceleratorError: CUDA error: operation failed due to a previous
 *   error during capture
 * (PyTorch 2.11, recorded by the mirror with the chained first error).
 *
 * Why: a device-wide synchronize waits on every stream, the capturing one
 * included, which is illegal; the relaxed mode only permits "potentially
 * unsafe" calls, not ones that conflict with the capture.
 *
 * The fix: no device-wide synchronize while any stream of the device is
 * capturing; synchronize the streams you need after the capture ends.
 *
 * References: NVIDIA/TensorRT#2888 ("cudaErrorStreamCaptureUnsupported in
 * cudagraph in multi-threads": cudaDeviceSynchronize breaks the capture in
 * either mode); CUDA Runtime API, cudaStreamBeginCapture
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html).
 *
 * atlas:cause sync_during_capture
 */
#include "capture.h"

static void synchronize_device(cudaStream_t stream, const char *mode)
{
    (void)stream;
    ATLAS_CUDA(capture_step(mode, "device_sync"), cudaDeviceSynchronize());
}

static void synchronize_device_after_capture(void) { capture_every_mode(NULL, synchronize_device); }
static void synchronize_device_inside_capture(void) { capture_every_mode(synchronize_device, NULL); }

ATLAS_CASE(synchronize_device_after_capture, synchronize_device_inside_capture)
