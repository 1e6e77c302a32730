/* host_callback.h — what the two host-callback cases share: a stream that
 * fills a device integer, a host callback enqueued after it, and a wait for
 * that callback that always ends.
 *
 *   run_host_callback(copy_inside, enqueue)
 *       copy_inside false (the fix): the device value is copied to pinned
 *       memory by cudaMemcpyAsync on the stream, before the callback, which
 *       only reads host memory. copy_inside true (the mistake): the callback
 *       itself calls cudaMemcpy. `enqueue` puts the callback on the stream
 *       (cudaLaunchHostFunc or cudaStreamAddCallback) and records the step
 *       "enqueue".
 *
 * Steps: alloc, alloc_pinned, stream, memset, copy_async (fix only),
 * enqueue, callback_copy (the mistake's own call, recorded from the
 * callback's thread when it returns), query (cudaStreamQuery, polled every
 * millisecond for at most WAIT_SECONDS), sync, the checks callback_returned
 * and callback_saw_value.
 *
 * Bounded: a watchdog thread waits WATCHDOG_SECONDS for the main thread to
 * finish; if it has not (a CUDA call stuck in the callback, or the main
 * thread stuck behind it), the watchdog records callback_returned as failed
 * and ends the process with _exit(WATCHDOG_EXIT) — records already written
 * stay (each is one write(2)). The harness's own timeout is a backstop.
 */
#ifndef HOST_CALLBACK_H
#define HOST_CALLBACK_H

#include "atlas.h"
#include <pthread.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

enum { WAIT_SECONDS = 10, WATCHDOG_SECONDS = 20, WATCHDOG_EXIT = 3 };
#define FILLED 0x2a2a2a2a /* what cudaMemsetAsync(…, 0x2a, …) leaves in an int */

struct callback_work {
    int *device;          /* filled by the stream */
    int *pinned;          /* the fix: copied here by the stream, before the callback */
    bool copy_inside;     /* the mistake: the callback copies itself */
    int seen;             /* what the callback read */
    volatile int returned;
};

/* Called by either kind of callback, on the driver's callback thread. */
static void callback_body(struct callback_work *work)
{
    if (work->copy_inside)
        ATLAS_CUDA("callback_copy", cudaMemcpy(&work->seen, work->device, sizeof work->seen, cudaMemcpyDeviceToHost));
    else
        work->seen = *work->pinned;
    __atomic_store_n(&work->returned, 1, __ATOMIC_RELEASE);
}

static pthread_mutex_t watchdog_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watchdog_wake = PTHREAD_COND_INITIALIZER;
static bool main_done;

static void *watchdog(void *unused)
{
    (void)unused;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += WATCHDOG_SECONDS;
    pthread_mutex_lock(&watchdog_lock);
    int waited = 0;
    while (!main_done && waited == 0)
        waited = pthread_cond_timedwait(&watchdog_wake, &watchdog_lock, &deadline);
    bool done = main_done;
    pthread_mutex_unlock(&watchdog_lock);
    if (!done) {
        atlas_check("callback_returned", false, "after %d s the program was still waiting: the callback's CUDA call "
                    "never returned (deadlock); the watchdog ends the process", WATCHDOG_SECONDS);
        _exit(WATCHDOG_EXIT);
    }
    return NULL;
}

typedef void (*enqueue_fn)(cudaStream_t stream, struct callback_work *work);

static void run_host_callback(bool copy_inside, enqueue_fn enqueue)
{
    struct callback_work work = {NULL, NULL, copy_inside, 0, 0};
    cudaStream_t stream = NULL;
    pthread_t dog;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&work.device, sizeof(int))))
        return;
    if (!ATLAS_CUDA("alloc_pinned", cudaMallocHost((void **)&work.pinned, sizeof(int)))
        || !ATLAS_CUDA("stream", cudaStreamCreate(&stream))
        || !ATLAS_CUDA("memset", cudaMemsetAsync(work.device, 0x2a, sizeof(int), stream))
        || (!copy_inside && !ATLAS_CUDA("copy_async", cudaMemcpyAsync(work.pinned, work.device, sizeof(int),
                                                                      cudaMemcpyDeviceToHost, stream))))
        goto out;
    if (pthread_create(&dog, NULL, watchdog, NULL) != 0) {
        atlas_note("pthread_create failed: no watchdog, not running the callback");
        goto out;
    }
    enqueue(stream, &work);
    /* Poll rather than block, so that a stuck callback shows as NotReady. */
    cudaError_t query = cudaErrorNotReady;
    for (int ms = 0; ms < WAIT_SECONDS * 1000 && query == cudaErrorNotReady; ms++) {
        query = cudaStreamQuery(stream);
        if (query == cudaErrorNotReady)
            nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    atlas_cuda_call("query", "cudaStreamQuery(stream), polled", query);
    if (query != cudaErrorNotReady)
        ATLAS_CUDA("sync", cudaStreamSynchronize(stream));
    bool returned = __atomic_load_n(&work.returned, __ATOMIC_ACQUIRE);
    atlas_check("callback_returned", returned, returned ? "the callback returned" : "the callback had not returned after %d s", WAIT_SECONDS);
    if (returned)
        atlas_check("callback_saw_value", work.seen == FILLED, "the callback read 0x%x (0x%x expected)", (unsigned)work.seen, FILLED);
    pthread_mutex_lock(&watchdog_lock);
    main_done = true;
    pthread_cond_signal(&watchdog_wake);
    pthread_mutex_unlock(&watchdog_lock);
    pthread_join(dog, NULL);
    if (!returned) {
        /* The callback still holds the stream: freeing under it could block. */
        atlas_note("the callback never returned; leaving its stream and memory to process exit");
        _exit(WATCHDOG_EXIT);
    }
out:
    if (stream)
        cudaStreamDestroy(stream);
    cudaFreeHost(work.pinned);
    cudaFree(work.device);
}

#endif
