/* event_destroy_null — cudaEventDestroy(NULL).
 *
 * The mistake: cleanup code that destroys an event that was never created (a
 * moved-from C++ wrapper whose handle became NULL, a constructor that failed
 * before cudaEventCreate), trusting that destroying "nothing" is harmless, as
 * free(NULL) is.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0):
 * cudaEventDestroy(NULL) returns cudaErrorInvalidResourceHandle (400) — NULL
 * is not "no event" — and the same status is waiting in cudaGetLastError,
 * as taskflow found. Not sticky: the probe after it succeeds.
 *
 * What a PyTorch user sees: nothing: torch.cuda.Event creates its event
 * lazily and destroys it only if it was created.
 *
 * Why: the runtime checks the handle like any other and does not treat NULL
 * as "no event"; the status also lands in the last-error slot, where a later
 * cudaGetLastError finds it far from its cause (taskflow's report).
 *
 * The fix: destroy only events that were created (if (event)
 * cudaEventDestroy(event)), as the fixed variant does, or clear the error.
 *
 * References: taskflow/taskflow#546, "the native handle [becomes] null. This
 * is then passed to cudaEventDestroy, which triggers an
 * InvalidResourceHandle" (https://github.com/taskflow/taskflow/issues/546);
 * CUDA Runtime API, cudaEventDestroy
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__EVENT.html).
 *
 * atlas:cause null_handle_destroyed
 */
#include "atlas.h"

#include <stdbool.h>

static void destroy_event(bool created)
{
    cudaEvent_t event = NULL;
    if (!ATLAS_CUDA("context", cudaFree(0)))
        return;
    if (created && !ATLAS_CUDA("event", cudaEventCreate(&event)))
        return;
    ATLAS_CUDA("destroy_event", cudaEventDestroy(event));
    /* Where the status stays: taskflow found it in cudaGetLastError. */
    ATLAS_CUDA("last_error", cudaGetLastError());
}

static void destroy_created_event(void) { destroy_event(true); }
static void destroy_null_event(void) { destroy_event(false); }

ATLAS_CASE(destroy_created_event, destroy_null_event)
