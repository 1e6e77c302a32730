/* event_used_after_destroy — cudaEventRecord and cudaEventSynchronize on an
 * event that cudaEventDestroy has already destroyed.
 *
 * The mistake: an event destroyed by one path (a destructor, a cleanup after
 * a timing loop) and recorded or waited on by another that kept the handle.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): cudaEventDestroy
 * returns cudaSuccess; the cudaEventRecord on the destroyed event kills the
 * process with SIGSEGV in every run — no cudaErrorInvalidResourceHandle,
 * which the documentation lists for invalid handles: a destroyed handle is
 * not detected, it is dereferenced.
 *
 * What a PyTorch user sees: nothing: torch.cuda.Event destroys its event only
 * when the Python object dies, so no live reference can hold a dead event.
 *
 * Why: cudaEvent_t is a pointer to the driver's event object; after
 * cudaEventDestroy the pointer is dangling, and the call gets whatever the
 * runtime makes of it.
 *
 * The fix: destroy an event after its last record and wait, and set the
 * variable to NULL; one owner per event. The fixed variant records and
 * synchronizes before it destroys.
 *
 * References: lupinemachines/lupine#526, "Destroyed events remained in the
 * query-prefetch table and could later be sent to the server, where querying
 * the stale handle crashed" (https://github.com/lupinemachines/lupine/pull/526);
 * CUDA Runtime API, cudaEventDestroy
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__EVENT.html):
 * "Destroys the event specified by event".
 *
 * atlas:cause event_used_after_destroy
 */
#include "atlas.h"

#include <stdbool.h>

static void record_and_wait(bool destroy_first)
{
    cudaEvent_t event;
    if (!ATLAS_CUDA("context", cudaFree(0)) || !ATLAS_CUDA("event", cudaEventCreate(&event)))
        return;
    if (destroy_first)
        ATLAS_CUDA("destroy_event", cudaEventDestroy(event));
    ATLAS_CUDA("record", cudaEventRecord(event, 0));
    ATLAS_CUDA("wait", cudaEventSynchronize(event));
    if (!destroy_first)
        ATLAS_CUDA("destroy_event", cudaEventDestroy(event));
}

static void destroyed_after_last_wait(void) { record_and_wait(false); }
static void recorded_after_destroy(void) { record_and_wait(true); }

ATLAS_CASE(destroyed_after_last_wait, recorded_after_destroy)
