/* stream_query_during_capture — cudaStreamQuery on the stream being
 * captured.
 *
 * The mistake: polling a stream for completion (a progress loop, an allocator
 * that checks whether a block is still in use, an "is it done yet?" before
 * reusing a buffer) while it is capturing.
 *
 * What the program sees (H200, CUDA 13.0): cudaStreamQuery returns
 * cudaErrorStreamCaptureUnsupported in all three modes, relaxed included, and
 * invalidates the capture: cudaStreamEndCapture returns
 * cudaErrorStreamCaptureInvalidated with no graph, and cudaGetLastError keeps
 * it.
 *
 * What a PyTorch user sees: torch.cuda.current_stream().query() inside
 * torch.cuda.graph raises
 *   torch.AcceleratorError: CUDA error: operation not permitted when stream
 *   is capturing
 * and, raised by the end of the `with` block while handling it, the error the
 * user reads last:
 *   torch.AcceleratorError: CUDA error: operation failed due to a previous
 *   error during capture
 * (PyTorch 2.11, recorded by the mirror with the chained first error).
 *
 * Why: a capturing stream executes nothing, so "has it finished?" has no
 * answer; the query is refused and the capture invalidated.
 *
 * The fix: query after the capture ends, or check cudaStreamIsCapturing first
 * and skip the query while capturing.
 *
 * References: NVIDIA/raft#3121 (a test that relies on "Querying the stream
 * has invalidated the capture"); CUDA Runtime API,
 * cudaErrorStreamCaptureUnsupported
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html):
 * "The operation is not permitted when the stream is capturing."
 *
 * atlas:cause query_during_capture
 */
#include "capture.h"

static void query(cudaStream_t stream, const char *mode)
{
    ATLAS_CUDA(capture_step(mode, "query"), cudaStreamQuery(stream));
}

static void query_after_capture(void) { capture_every_mode(NULL, query); }
static void query_inside_capture(void) { capture_every_mode(query, NULL); }

ATLAS_CASE(query_after_capture, query_inside_capture)
