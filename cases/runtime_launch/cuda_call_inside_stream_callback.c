/* cuda_call_inside_stream_callback — a callback added with
 * cudaStreamAddCallback calls cudaMemcpy to read the result it was queued
 * behind.
 *
 * The mistake: the same as cuda_call_inside_host_func through the older
 * (deprecated, still shipped) callback API, whose callback also receives the
 * stream's status: reading the result from inside the callback, because the
 * callback "knows" the work is done.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): the callback's
 * status argument is cudaSuccess; its cudaMemcpy returns
 * cudaErrorNotPermitted at once (no deadlock), the callback returns, the
 * stream completes, and the value was never read (result_wrong: 0x0). Not
 * sticky: the context stays usable.
 *
 * What a PyTorch user sees: nothing of the kind: PyTorch exposes no stream
 * callbacks (no mirror). Met through Numba's Stream.add_callback, CuPy's
 * Stream.add_callback and C++ extensions.
 *
 * Why: the callback runs on a driver thread in stream order; a blocking CUDA
 * call made there waits for work that is waiting for the callback. (The
 * status argument reports an error of the stream's earlier work, or
 * cudaSuccess; it is recorded as callback_status.)
 *
 * The fix: queue the copy on the stream before the callback
 * (cudaMemcpyAsync into pinned memory) and only read host memory in the
 * callback (the fixed variant); better, use cudaLaunchHostFunc, which
 * replaces cudaStreamAddCallback.
 *
 * References: NVIDIA/numba-cuda#317 (test-suite deadlocks: stream callbacks
 * run "in a CUDA driver managed thread" while another thread waits in the
 * driver); CUDA Runtime API, cudaStreamAddCallback
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html):
 * "Callbacks must not make any CUDA API calls. Attempting to use CUDA APIs
 * may result in cudaErrorNotPermitted."
 *
 * atlas:cause cuda_call_in_host_callback
 */
#include "host_callback.h"
#include <pthread.h>

static void CUDART_CB stream_callback(cudaStream_t stream, cudaError_t status, void *data)
{
    (void)stream;
    atlas_cuda_call("callback_status", "the callback's status argument", status);
    callback_body(data);
}

static void add_callback(cudaStream_t stream, struct callback_work *work)
{
    ATLAS_CUDA("enqueue", cudaStreamAddCallback(stream, stream_callback, work, 0));
}

static void copy_queued_before_callback(void) { run_host_callback(false, add_callback); }
static void copy_made_inside_callback(void) { run_host_callback(true, add_callback); }

ATLAS_CASE(copy_queued_before_callback, copy_made_inside_callback)
