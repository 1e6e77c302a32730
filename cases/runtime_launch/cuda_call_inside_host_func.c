/* cuda_call_inside_host_func — a host function enqueued with
 * cudaLaunchHostFunc calls cudaMemcpy to read the result it was queued
 * behind.
 *
 * The mistake: using a host function as a completion hook that fetches the
 * GPU's result itself (or frees, allocates, synchronizes) — the CUDA
 * documentation forbids any CUDA call in it.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): no deadlock.
 * The cudaMemcpy inside the host function returns cudaErrorNotPermitted at
 * once — the diagnostic the documentation says "is not required" — the host
 * function returns, the stream completes (cudaStreamQuery, then
 * cudaStreamSynchronize: cudaSuccess), and the value was simply never read
 * (result_wrong: 0x0). Not sticky. A program that ignores the status uses
 * whatever was in its buffer. (The watchdog bound — WATCHDOG_SECONDS — was
 * not needed here; another driver may deadlock instead, as in the
 * reference.)
 *
 * What a PyTorch user sees: nothing of the kind: PyTorch has no public way
 * to enqueue a host function on a stream (no mirror). It is met through
 * CuPy's Stream.launch_host_func, Numba's add_callback and C++ extensions.
 *
 * Why: the host function runs on a driver thread, in stream order: work
 * queued after it waits for it. A cudaMemcpy on the legacy default stream
 * must wait for every blocking stream, including the one whose host function
 * is making the call; the driver either refuses the call or waits forever.
 *
 * The fix: queue the copy on the stream before the host function
 * (cudaMemcpyAsync into pinned memory) and let the host function only read
 * host memory or signal another thread, which then makes the CUDA calls
 * (the fixed variant).
 *
 * References: iree-org/iree#15673 (a CUDA call made from a cuLaunchHostFunc
 * callback deadlocked; fixed by moving the work to a thread of its own);
 * CUDA Runtime API, cudaLaunchHostFunc
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__EXECUTION.html):
 * "The host function must not make any CUDA API calls. Attempting to use a
 * CUDA API may result in cudaErrorNotPermitted, but this is not required."
 *
 * atlas:cause cuda_call_in_host_callback
 */
#include "host_callback.h"
#include <pthread.h>

static void CUDART_CB host_func(void *data) { callback_body(data); }

static void launch_host_func(cudaStream_t stream, struct callback_work *work)
{
    ATLAS_CUDA("enqueue", cudaLaunchHostFunc(stream, host_func, work));
}

static void copy_queued_before_host_func(void) { run_host_callback(false, launch_host_func); }
static void copy_made_inside_host_func(void) { run_host_callback(true, launch_host_func); }

ATLAS_CASE(copy_queued_before_host_func, copy_made_inside_host_func)
