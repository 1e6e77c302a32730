/* uninitialised_stream_variable — a cudaStream_t variable that was never
 * assigned, passed to a launch and a cudaMemcpyAsync.
 *
 * The mistake: a stream variable declared but never given a stream (an
 * off-by-one in the loop that creates an array of streams, a constructor path
 * that skips cudaStreamCreate). Its value is whatever the stack or heap held.
 * Real garbage differs from run to run; to make the case deterministic, the
 * broken variant fills the variable with a fixed non-pointer pattern,
 * 0xdeadbeefdeadbeef, as stack garbage might be. (Garbage that happens to be
 * 0 is the legacy default stream, and the mistake goes unnoticed.)
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): the launch on
 * the garbage stream 0xdeadbeefdeadbeef kills the process with SIGSEGV in
 * every run: the runtime dereferences the value; no
 * cudaErrorInvalidResourceHandle. (lattice/quda's unassigned stream got
 * "invalid resource handle" in 2013: what garbage holds decides.) PyTorch,
 * given the same number as torch.cuda.ExternalStream (the mirror), raises
 * RuntimeError: "Unrecognized stream stream -2401053088876216593 on device
 * cuda:0 (I didn't recognize the stream type, PRIORITY 7 with the value
 * \u0007)" — it decodes the number before CUDA sees it.
 *
 * What a PyTorch user sees: the mistake reaches PyTorch through
 * torch.cuda.ExternalStream(ptr) given a number that is not a stream (not
 * mirrored here).
 *
 * Why: cudaStream_t is a pointer to the driver's stream object; the runtime
 * has no table of valid streams to look a garbage value up in, so what the
 * call does with it decides between a status and a crash.
 *
 * The fix: initialise every stream variable (to NULL, the default stream, or
 * with cudaStreamCreate) before any use, as the fixed variant does.
 *
 * References: lattice/quda#125, an off-by-one in stream initialisation:
 * "ERROR: (CUDA) invalid resource handle" (https://github.com/lattice/quda/pull/125);
 * taskflow/taskflow#546; CUDA Runtime API, cudaStreamCreate
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html).
 *
 * atlas:cause stream_never_created
 */
#include "atlas.h"

#include <stdint.h>
#include <string.h>

__global__ void write_answer(int *out) { *out = 42; }

static void work_on(cudaStream_t stream, bool created)
{
    int *answer = NULL, host = 0;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&answer, sizeof(int))))
        return;
    write_answer<<<1, 1, 0, stream>>>(answer);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("copy", cudaMemcpyAsync(&host, answer, sizeof host, cudaMemcpyDeviceToHost, stream));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    atlas_check("result", host == 42, "answer read back: %d (42 expected)", host);
    if (created)
        ATLAS_CUDA("destroy_stream", cudaStreamDestroy(stream));
    cudaFree(answer);
}

static void stream_created(void)
{
    cudaStream_t stream;
    if (ATLAS_CUDA("context", cudaFree(0)) && ATLAS_CUDA("stream", cudaStreamCreate(&stream)))
        work_on(stream, true);
}

static void stream_never_assigned(void)
{
    cudaStream_t stream;
    /* What an unassigned variable might hold: fixed here, so every run is
     * the same. */
    uintptr_t garbage = (uintptr_t)0xdeadbeefdeadbeefull;
    memcpy(&stream, &garbage, sizeof stream);
    atlas_note("stream variable holds %p (never assigned)", (void *)stream);
    if (ATLAS_CUDA("context", cudaFree(0)))
        work_on(stream, false);
}

ATLAS_CASE(stream_created, stream_never_assigned)
