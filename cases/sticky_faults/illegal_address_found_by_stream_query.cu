/* illegal_address_found_by_stream_query — the fault of a kernel noticed by
 * polling cudaStreamQuery instead of synchronizing.
 *
 * The mistake: none in the polling; the lesson is where the error surfaces.
 * Code that polls (to overlap host work) sees a kernel's fault at the first
 * query after it happens — which may be many calls after the launch.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): polled until it stops answering
 * cudaErrorNotReady ("still running"), cudaStreamQuery returns
 * cudaErrorIllegalAddress instead of cudaSuccess; the context is lost (a
 * later cudaMalloc returns it too). With CUDA_LAUNCH_BLOCKING=1 (H100,
 * 13.0) the launch check already returns cudaErrorIllegalAddress; under
 * compute-sanitizer the query returns cudaErrorLaunchFailure.
 *
 * What a PyTorch user sees: torch.cuda.Stream.query() (or an event's
 * query) raising the illegal-address error (not recorded yet).
 *
 * Why: queries report the stream's state, errors included.
 *
 * The fix: check the launch and the query; restart the process after a
 * sticky error.
 *
 * References: CUDA Runtime API, cudaStreamQuery
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html).
 *
 * atlas:cause earlier_kernel_fault
 */
#include "atlas.h"
#include <time.h>

__global__ void write_one(int *p) { *p = 1; }

static void poll_after(int bad)
{
    int *target = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&target, sizeof(int))))
        return;
    write_one<<<1, 1>>>(bad ? (int *)0x100 : target);
    ATLAS_CUDA("launch", cudaGetLastError());
    /* Poll for at most 10 s; cudaErrorNotReady is "still running", not a failure. */
    cudaError_t status = cudaErrorNotReady;
    struct timespec pause = {0, 1000000};
    for (int i = 0; i < 10000 && status == cudaErrorNotReady; i++) {
        status = cudaStreamQuery(0);
        if (status == cudaErrorNotReady)
            nanosleep(&pause, NULL);
    }
    atlas_cuda_call("query", "cudaStreamQuery(0) until not cudaErrorNotReady", status);
    cudaFree(target);
}

static void good_kernel(void) { poll_after(0); }
static void faulting_kernel(void) { poll_after(1); }

ATLAS_CASE(good_kernel, faulting_kernel)
