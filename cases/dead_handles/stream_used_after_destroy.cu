/* stream_used_after_destroy — work queued on a stream that cudaStreamDestroy
 * has already destroyed.
 *
 * The mistake: a stream kept in a struct, a cache or a second thread's
 * variable after its owner destroyed it (a per-request stream freed when the
 * request ends, a pool that hands out a stream it already released). The
 * handle still holds its old value; nothing in it says the stream is gone.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): cudaStreamDestroy
 * returns cudaSuccess, and the launch on the destroyed stream kills the
 * process with SIGSEGV inside the runtime, in every run (4 of 4): no status is returned, the
 * cudaMemcpyAsync after it is never reached. The fixed variant runs the
 * kernel and reads 42 back.
 *
 * What a PyTorch user sees: PyTorch owns the streams of its pool and never
 * destroys them; the mistake reaches PyTorch through torch.cuda.ExternalStream
 * wrapping a stream another library has destroyed (not mirrored here).
 *
 * Why: cudaStream_t is a pointer to the driver's stream object. cudaStreamDestroy
 * releases the object (after its work completes); a later call receives a
 * pointer to freed host memory, and what it finds there decides.
 *
 * The fix: one owner; set the variable to NULL when the stream is destroyed
 * and never destroy a stream another component may still use (or give each
 * user its own stream). The fixed variant queues the same work before it
 * destroys the stream.
 *
 * References: rapidsai/rmm#649, "Stream handles are reused aggressively by
 * CUDA driver. It's possible to get the same handle value for a new stream
 * immediately after" destroying one (https://github.com/rapidsai/rmm/issues/649);
 * CUDA Runtime API, cudaStreamDestroy
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html):
 * "Destroys and cleans up the asynchronous stream specified by stream".
 *
 * atlas:cause stream_used_after_destroy
 */
#include "atlas.h"

__global__ void write_answer(int *out) { *out = 42; }

static void work_on_stream(bool destroy_first)
{
    cudaStream_t stream;
    int *answer = NULL, host = 0;
    if (!ATLAS_CUDA("context", cudaFree(0)) || !ATLAS_CUDA("alloc", cudaMalloc((void **)&answer, sizeof(int)))
        || !ATLAS_CUDA("stream", cudaStreamCreate(&stream)))
        return;
    if (destroy_first)
        ATLAS_CUDA("destroy_stream", cudaStreamDestroy(stream));
    write_answer<<<1, 1, 0, stream>>>(answer);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("copy", cudaMemcpyAsync(&host, answer, sizeof host, cudaMemcpyDeviceToHost, stream));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    atlas_check("result", host == 42, "answer read back: %d (42 expected)", host);
    if (!destroy_first)
        ATLAS_CUDA("destroy_stream", cudaStreamDestroy(stream));
    cudaFree(answer);
}

static void destroyed_after_use(void) { work_on_stream(false); }
static void used_after_destroy(void) { work_on_stream(true); }

ATLAS_CASE(destroyed_after_use, used_after_destroy)
