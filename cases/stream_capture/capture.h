/* capture.h — what the stream_capture cases share: one stream capture in
 * each capture mode, recorded step by step, so that a case shows only the
 * call it makes inside (or, fixed, outside) the capture.
 *
 * For each mode — global, thread_local, relaxed — capture_every_mode runs:
 *   <mode>_begin         cudaStreamBeginCapture(stream, mode)
 *   <mode>_memset        the captured work: cudaMemsetAsync on the stream
 *   during(stream, mode) the case's call inside the capture
 *   <mode>_is_capturing  cudaStreamIsCapturing (the status is the quantity
 *                        <mode>_capture_status: 0 none, 1 active,
 *                        2 invalidated)
 *   <mode>_end           cudaStreamEndCapture
 *   <mode>_graph         a check: did cudaStreamEndCapture return a graph?
 *   <mode>_last_error    cudaGetLastError: what the capture left behind
 *   after(stream, mode)  the case's call after the capture
 *   <mode>_instantiate, <mode>_replay, <mode>_replay_sync, <mode>_replayed
 *                        when there is a graph: run it, check it wrote memory
 *   capture_after_replay(stream, mode)  a case's own check of the replay
 * and records the setup as "alloc" (device buffer, pinned host buffer) and
 * "stream". Name a case's own steps with capture_step(mode, "what").
 *
 * Every capture is ended before the next begins and before the variant
 * returns, so the harness's probe tests the context, not a capture in
 * progress.
 */
#ifndef STREAM_CAPTURE_CAPTURE_H
#define STREAM_CAPTURE_CAPTURE_H

#include "atlas.h"
#include <stdio.h>

enum { CAPTURE_BYTES = 1 << 20 };

typedef void (*capture_hook)(cudaStream_t stream, const char *mode);

struct capture_mode {
    enum cudaStreamCaptureMode mode;
    const char *name;
};

static const struct capture_mode capture_modes[] = {
    {cudaStreamCaptureModeGlobal, "global"},
    {cudaStreamCaptureModeThreadLocal, "thread_local"},
    {cudaStreamCaptureModeRelaxed, "relaxed"},
};

/* Set by a case that checks what else the replayed graph did. */
static capture_hook capture_after_replay;

/* Buffers a case may use inside its capture: device memory and pinned host
 * memory of CAPTURE_BYTES each, set up by capture_every_mode. */
static void *capture_device_buffer, *capture_pinned_buffer;
static unsigned char *capture_memset_target;

/* "global" + "sync" → "global_sync". Records copy the name at once, so a
 * small ring of buffers is enough. */
static inline const char *capture_step(const char *mode, const char *what)
{
    static char names[8][64];
    static int next;
    char *name = names[next++ % 8];
    snprintf(name, sizeof names[0], "%s_%s", mode, what);
    return name;
}

static inline void capture_replay(cudaGraph_t graph, cudaStream_t stream, const char *mode, unsigned char value)
{
    cudaGraphExec_t exec;
    unsigned char first = 0;
    if (!ATLAS_CUDA(capture_step(mode, "instantiate"), cudaGraphInstantiateWithFlags(&exec, graph, 0)))
        return;
    cudaMemset(capture_memset_target, 0, CAPTURE_BYTES);
    cudaDeviceSynchronize();
    if (ATLAS_CUDA(capture_step(mode, "replay"), cudaGraphLaunch(exec, stream))
        && ATLAS_CUDA(capture_step(mode, "replay_sync"), cudaStreamSynchronize(stream))
        && cudaMemcpy(&first, capture_memset_target, 1, cudaMemcpyDeviceToHost) == cudaSuccess)
        atlas_check(capture_step(mode, "replayed"), first == value, "the replayed memset wrote %u, expected %u",
                    first, value);
    if (capture_after_replay)
        capture_after_replay(stream, mode);
    cudaGraphExecDestroy(exec);
}

static inline void capture_in_mode(const struct capture_mode *m, unsigned char value, cudaStream_t stream,
                                   capture_hook during, capture_hook after)
{
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    cudaGraph_t graph = NULL;
    if (!ATLAS_CUDA(capture_step(m->name, "begin"), cudaStreamBeginCapture(stream, m->mode))) {
        ATLAS_CUDA(capture_step(m->name, "last_error"), cudaGetLastError());
        return;
    }
    ATLAS_CUDA(capture_step(m->name, "memset"), cudaMemsetAsync(capture_memset_target, value, CAPTURE_BYTES, stream));
    if (during)
        during(stream, m->name);
    ATLAS_CUDA(capture_step(m->name, "is_capturing"), cudaStreamIsCapturing(stream, &status));
    atlas_quantity(capture_step(m->name, "capture_status"), (double)status, "cudaStreamCaptureStatus");
    ATLAS_CUDA(capture_step(m->name, "end"), cudaStreamEndCapture(stream, &graph));
    atlas_check(capture_step(m->name, "graph"), graph != NULL, "cudaStreamEndCapture gave %s",
                graph ? "a graph" : "no graph (NULL)");
    ATLAS_CUDA(capture_step(m->name, "last_error"), cudaGetLastError());
    if (after)
        after(stream, m->name);
    if (graph) {
        capture_replay(graph, stream, m->name, value);
        cudaGraphDestroy(graph);
    }
}

/* Capture on `stream` (0: the legacy default stream) once per mode. */
static inline void capture_every_mode_on(cudaStream_t stream, capture_hook during, capture_hook after)
{
    for (int i = 0; i < 3; i++)
        capture_in_mode(&capture_modes[i], (unsigned char)(0x11 * (i + 1)), stream, during, after);
}

static inline bool capture_setup(void)
{
    if (!ATLAS_CUDA("alloc", cudaMalloc(&capture_device_buffer, 2 * CAPTURE_BYTES)))
        return false;
    capture_memset_target = (unsigned char *)capture_device_buffer + CAPTURE_BYTES;
    if (!ATLAS_CUDA("alloc", cudaMallocHost(&capture_pinned_buffer, CAPTURE_BYTES))) {
        cudaFree(capture_device_buffer);
        return false;
    }
    return true;
}

static inline void capture_teardown(void)
{
    cudaFreeHost(capture_pinned_buffer);
    cudaFree(capture_device_buffer);
}

/* The usual shape: a new (blocking) stream, one capture per mode. */
static inline void capture_every_mode(capture_hook during, capture_hook after)
{
    cudaStream_t stream;
    if (!capture_setup())
        return;
    if (ATLAS_CUDA("stream", cudaStreamCreate(&stream))) {
        capture_every_mode_on(stream, during, after);
        cudaStreamDestroy(stream);
    }
    capture_teardown();
}

#endif
