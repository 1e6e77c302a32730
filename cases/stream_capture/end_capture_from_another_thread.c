/* end_capture_from_another_thread — cudaStreamEndCapture called by a thread
 * other than the one that began the capture.
 *
 * The mistake: beginning a capture in one thread and ending it in another — a
 * task system that resumes a coroutine or a callback on a different worker
 * thread, a "capture scope" object destroyed elsewhere.
 *
 * What the program sees (H200, CUDA 13.0): in the global and thread-local
 * modes the other thread's cudaStreamEndCapture returns
 * cudaErrorStreamCaptureWrongThread and no graph — and yet the capture is
 * over: the stream no longer captures (cudaStreamIsCapturing: 0), and the
 * capturing thread's own cudaStreamEndCapture returns cudaErrorIllegalState
 * with no graph. The work is lost; a refused end is not harmless. In relaxed
 * mode the other thread's end succeeds and gets the graph; the capturing
 * thread's end then returns cudaErrorIllegalState.
 *
 * What a PyTorch user sees: nothing directly (torch.cuda.graph begins and
 * ends in the same `with` block); seen through frameworks that capture in
 * worker threads.
 *
 * Why: the documentation says only that without cudaStreamCaptureModeRelaxed
 * "this call must be from the same thread as cudaStreamBeginCapture" and
 * lists cudaErrorStreamCaptureWrongThread; what the refused call does to the
 * capture is what the recording shows: it ends it. The capturing thread's
 * cudaErrorIllegalState is not among cudaStreamEndCapture's documented codes.
 *
 * The fix: end the capture in the thread that began it (the fixed variant),
 * or begin it in relaxed mode when it must cross threads.
 *
 * References: NVIDIA/cuda-python#458 (the capture error codes, 900–908, and
 * their messages); CUDA Runtime API, cudaStreamEndCapture
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html):
 * "If the mode argument to cudaStreamBeginCapture was not
 * cudaStreamCaptureModeRelaxed, this call must be from the same thread as
 * cudaStreamBeginCapture."
 *
 * atlas:cause capture_ended_in_another_thread
 */
#include "capture.h"
#include <pthread.h>

static const char *current_mode;
static cudaStream_t capturing;

static void *end_capture(void *unused)
{
    (void)unused;
    cudaGraph_t graph = NULL;
    ATLAS_CUDA(capture_step(current_mode, "other_thread_end"), cudaStreamEndCapture(capturing, &graph));
    atlas_check(capture_step(current_mode, "other_thread_graph"), graph != NULL,
                "the other thread's cudaStreamEndCapture gave %s", graph ? "a graph" : "no graph (NULL)");
    if (graph)
        cudaGraphDestroy(graph);
    ATLAS_CUDA(capture_step(current_mode, "other_thread_last_error"), cudaGetLastError());
    return NULL;
}

static void end_in_other_thread(cudaStream_t stream, const char *mode)
{
    pthread_t thread;
    current_mode = mode;
    capturing = stream;
    if (pthread_create(&thread, NULL, end_capture, NULL) == 0)
        pthread_join(thread, NULL); /* the harness's time limit bounds a thread stuck in the driver */
    else
        atlas_note("pthread_create failed");
}

/* Either way the capturing thread then ends the capture itself (capture.h). */
static void end_in_capturing_thread(void) { capture_every_mode(NULL, NULL); }
static void end_in_another_thread_first(void) { capture_every_mode(end_in_other_thread, NULL); }

ATLAS_CASE(end_in_capturing_thread, end_in_another_thread_first)
