/* free_in_an_exit_handler — device memory freed by an exit-time cleanup that
 * runs after the CUDA runtime has shut down.
 *
 * The mistake: a cache or a pool kept in a global object (a C++ static, or a
 * handler registered with atexit before CUDA started) frees its device
 * memory when the process exits. The runtime registers its own teardown when
 * it starts, after that object; exit-time handlers run last-registered
 * first, so the runtime is gone by the time the cache's cleanup calls
 * cudaFree. Caffe's static SyncedMemory (luoyetx/mini-caffe#81,
 * BVLC/caffe#6281), LichtFeld-Studio's pinned-memory cache
 * (MrNeRF/LichtFeld-Studio#864: "cudaEventSynchronize failed during cache
 * clear: driver shutting down") and the Video Processing Framework's
 * resource manager (NVIDIA/VideoProcessingFramework#239) all did it.
 *
 * What the program sees (one H100 and one H200, driver 580.159.04, CUDA
 * 13.0, every run mode): the variant itself succeeds; the exit handler's
 * cudaFree returns cudaErrorCudartUnloading (4, "driver shutting down") —
 * the status of the reports — and the process still exits normally. The
 * fixed variant frees before main returns and the handler has nothing left
 * to do.
 *
 * What a PyTorch user sees: nothing from PyTorch itself (its caching
 * allocator does not free at exit); extensions with a static cache meet it.
 *
 * Why: at exit the runtime releases its contexts and unloads; a call after
 * that finds no runtime to serve it. The memory is reclaimed with the process
 * anyway, so the late free does no good either.
 *
 * The fix: release the cache before main returns (the fixed variant; an
 * explicit shutdown call, or an object owned by main), or skip the free when
 * the runtime says it is unloading.
 *
 * References: MrNeRF/LichtFeld-Studio#864 (the merged fix cleans up
 * explicitly before shutdown); luoyetx/mini-caffe#81 and BVLC/caffe#6281
 * (cudaErrorCudartUnloading from a static SyncedMemory); C standard, atexit
 * (handlers run in the reverse order of their registration).
 *
 * atlas:cause cuda_call_after_runtime_unload
 */
#include "atlas.h"
#include <stdlib.h>

enum { BYTES = 1 << 20 };

static void *cache;   /* a global cache's device buffer */

static void release_cache(void)
{
    if (cache) {
        ATLAS_CUDA("free_at_exit", cudaFree(cache));
        cache = NULL;
    }
}

static void cached_buffer(int release_before_exit)
{
    /* the global object comes first: its cleanup is registered before the
     * runtime starts (a static constructed before the first CUDA call) */
    atexit(release_cache);
    if (!ATLAS_CUDA("alloc", cudaMalloc(&cache, BYTES))) {
        cache = NULL;
        return;
    }
    ATLAS_CUDA("use", cudaMemset(cache, 0, BYTES));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (release_before_exit) {   /* an explicit shutdown before main returns */
        ATLAS_CUDA("free", cudaFree(cache));
        cache = NULL;
    }
}

static void released_before_exit(void) { cached_buffer(1); }
static void released_by_exit_handler(void) { cached_buffer(0); }

ATLAS_CASE(released_before_exit, released_by_exit_handler)
