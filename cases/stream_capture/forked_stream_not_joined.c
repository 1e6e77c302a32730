/* forked_stream_not_joined — work forked onto a second stream during a
 * capture and never joined back before the capture ends.
 *
 * The mistake: a capture that uses two streams — the capturing stream records
 * an event, a side stream waits on it (which pulls the side stream into the
 * capture) and does some work — but the capturing stream never waits for the
 * side stream again before cudaStreamEndCapture.
 *
 * What the program sees (H200, CUDA 13.0): every call inside the capture
 * succeeds; in all three modes cudaStreamEndCapture returns
 * cudaErrorStreamCaptureUnjoined ("capturing stream has unjoined work") and
 * no graph, and cudaGetLastError keeps cudaErrorStreamCaptureUnjoined. Joined
 * back, the graph is made and replays.
 *
 * What a PyTorch user sees: the end of torch.cuda.graph raises "CUDA error:
 * capturing stream has unjoined work" when a side stream used inside the
 * graph is not waited on (deepseek-ai/DeepEP#62).
 *
 * Why: every stream that joined a capture must be joined back to the origin
 * stream so the graph has one end; work left dangling on the side stream has
 * nowhere to go.
 *
 * The fix: record an event on the side stream after its work and make the
 * capturing stream wait on it before ending the capture (the fixed variant);
 * PyTorch: torch.cuda.current_stream().wait_stream(side).
 *
 * References: deepseek-ai/DeepEP#62 ("Capture cuda graph failed: CUDA error:
 * capturing stream has unjoined work"); CUDA Runtime API,
 * cudaErrorStreamCaptureUnjoined
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html):
 * "The capture sequence contains a fork that was not joined to the primary
 * stream."
 *
 * atlas:cause capture_stream_unjoined
 */
#include "capture.h"

static cudaStream_t side;
static cudaEvent_t forked, side_done;
static bool join_back;

static void fork_to_side_stream(cudaStream_t stream, const char *mode)
{
    if (!ATLAS_CUDA(capture_step(mode, "fork_record"), cudaEventRecord(forked, stream))
        || !ATLAS_CUDA(capture_step(mode, "fork_wait"), cudaStreamWaitEvent(side, forked, 0)))
        return;
    ATLAS_CUDA(capture_step(mode, "side_work"), cudaMemsetAsync(capture_device_buffer, 0, CAPTURE_BYTES, side));
    if (join_back) {
        ATLAS_CUDA(capture_step(mode, "join_record"), cudaEventRecord(side_done, side));
        ATLAS_CUDA(capture_step(mode, "join_wait"), cudaStreamWaitEvent(stream, side_done, 0));
    }
}

static void capture_with_side_stream(bool join)
{
    join_back = join;
    if (!ATLAS_CUDA("event", cudaEventCreateWithFlags(&forked, cudaEventDisableTiming)))
        return;
    if (ATLAS_CUDA("event", cudaEventCreateWithFlags(&side_done, cudaEventDisableTiming))) {
        if (ATLAS_CUDA("side_stream", cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking))) {
            capture_every_mode(fork_to_side_stream, NULL);
            cudaStreamDestroy(side);
        }
        cudaEventDestroy(side_done);
    }
    cudaEventDestroy(forked);
}

static void side_stream_joined_back(void) { capture_with_side_stream(true); }
static void side_stream_left_unjoined(void) { capture_with_side_stream(false); }

ATLAS_CASE(side_stream_joined_back, side_stream_left_unjoined)
