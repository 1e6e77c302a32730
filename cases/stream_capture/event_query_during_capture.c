/* event_query_during_capture — cudaEventQuery, on an event of other,
 * uncaptured work, while this thread captures.
 *
 * The mistake: a caching allocator or a task scheduler polls events to learn
 * which buffers are free again — here an event recorded on another stream
 * before the capture — and keeps polling during the capture.
 *
 * What the program sees (H200, CUDA 13.0): in the global and thread-local
 * modes cudaEventQuery returns cudaErrorStreamCaptureUnsupported and
 * invalidates the capture (cudaStreamEndCapture:
 * cudaErrorStreamCaptureInvalidated, no graph); in relaxed mode the query
 * succeeds and the graph is made and replays.
 *
 * What a PyTorch user sees: pin_memory() inside torch.cuda.graph used to fail
 * this way, because PyTorch's pinned-memory allocator polls events to reuse
 * blocks (pytorch/pytorch#146924: "cudaEventQuery() is not allowed during
 * stream capture unless we set the thread to relaxed capture mode"); not
 * recorded through PyTorch here.
 *
 * Why: cudaEventQuery is one of the "potentially unsafe" calls the global and
 * thread-local modes forbid in the capturing thread; relaxed permits it,
 * except on an event last recorded inside a capture (cudaErrorCapturedEvent).
 *
 * The fix: poll before or after the capture (the fixed variant queries after
 * it), or let the capturing thread exchange its mode to relaxed around the
 * poll (cudaThreadExchangeStreamCaptureMode).
 *
 * References: pytorch/pytorch#146924 (above); ggml-org/llama.cpp#11804 (the
 * capture modes quoted for a multi-threaded failure); CUDA Runtime API,
 * cudaThreadExchangeStreamCaptureMode
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html):
 * in relaxed mode "the thread is still prohibited from API calls which
 * necessarily conflict with stream capture, for example, attempting
 * cudaEventQuery on an event that was last recorded inside a capture
 * sequence."
 *
 * atlas:cause query_during_capture
 */
#include "capture.h"

static cudaEvent_t other_work;

static void query(cudaStream_t stream, const char *mode)
{
    (void)stream;
    ATLAS_CUDA(capture_step(mode, "event_query"), cudaEventQuery(other_work));
}

static void capture_while_polling(bool during)
{
    cudaStream_t other;
    if (!ATLAS_CUDA("event", cudaEventCreateWithFlags(&other_work, cudaEventDisableTiming)))
        return;
    if (ATLAS_CUDA("stream", cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking))) {
        ATLAS_CUDA("record", cudaEventRecord(other_work, other));
        capture_every_mode(during ? query : NULL, during ? NULL : query);
        cudaStreamDestroy(other);
    }
    cudaEventDestroy(other_work);
}

static void poll_after_capture(void) { capture_while_polling(false); }
static void poll_during_capture(void) { capture_while_polling(true); }

ATLAS_CASE(poll_after_capture, poll_during_capture)
