/* malloc_in_another_thread_during_capture — a second thread calls
 * cudaMalloc while the first is capturing.
 *
 * The mistake: one thread captures a graph while another keeps working — a
 * data-loading thread allocating its next batch, a communication watchdog, a
 * second model being served — and the capture uses the default global mode.
 *
 * What the program sees (H200, CUDA 13.0): in global mode the other thread's
 * cudaMalloc returns cudaErrorStreamCaptureUnsupported (and its own
 * cudaGetLastError holds it), and that refusal invalidates the capturing
 * thread's capture: cudaStreamEndCapture returns
 * cudaErrorStreamCaptureInvalidated and no graph, and the capturing thread's
 * cudaGetLastError holds cudaErrorStreamCaptureInvalidated. In thread-local
 * and relaxed mode the allocation succeeds and the graph replays.
 *
 * What a PyTorch user sees: torch.cuda.graph captures with
 * capture_error_mode="global" by default; a new, large tensor made by another
 * thread meanwhile (a cudaMalloc) fails with
 *   torch.AcceleratorError: CUDA error: operation not permitted when stream
 *   is capturing
 * and, raised by the end of the `with` block while handling it, the error the
 * user reads last:
 *   torch.AcceleratorError: CUDA error: operation failed due to a previous
 *   error during capture
 * (PyTorch 2.11, recorded by the mirror with the chained first error). With
 * capture_error_mode="thread_local" the same program runs.
 *
 * Why: in global mode a capture forbids "potentially unsafe" calls in every
 * thread of the process, because they might synchronize with the captured
 * work; thread_local forbids them only in the capturing thread, relaxed
 * nowhere.
 *
 * The fix: capture in cudaStreamCaptureModeThreadLocal when other threads
 * must carry on (and keep their work off the capturing stream), or allocate
 * before the capture (the fixed variant allocates after it).
 *
 * References: pytorch/pytorch#175425 (a worker thread's pinned allocation
 * breaking the main thread's capture with "operation failed due to a previous
 * error"; the fix is "thread_local"); ggml-org/llama.cpp#11804; CUDA Runtime
 * API, cudaStreamBeginCapture and cudaThreadExchangeStreamCaptureMode
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html).
 *
 * atlas:cause malloc_during_capture
 */
#include "capture.h"
#include <pthread.h>

static const char *current_mode;

static void *allocate(void *unused)
{
    (void)unused;
    void *p = NULL;
    if (ATLAS_CUDA(capture_step(current_mode, "other_thread_malloc"), cudaMalloc(&p, 1 << 20)))
        cudaFree(p);
    ATLAS_CUDA(capture_step(current_mode, "other_thread_last_error"), cudaGetLastError());
    return NULL;
}

/* The capturing thread waits for the other one, so "during" is certain. */
static void allocate_in_other_thread(cudaStream_t stream, const char *mode)
{
    (void)stream;
    pthread_t thread;
    current_mode = mode;
    if (pthread_create(&thread, NULL, allocate, NULL) == 0)
        pthread_join(thread, NULL); /* the harness's time limit bounds a thread stuck in the driver */
    else
        atlas_note("pthread_create failed");
}

static void other_thread_allocates_after(void) { capture_every_mode(NULL, allocate_in_other_thread); }
static void other_thread_allocates_during(void) { capture_every_mode(allocate_in_other_thread, NULL); }

ATLAS_CASE(other_thread_allocates_after, other_thread_allocates_during)
