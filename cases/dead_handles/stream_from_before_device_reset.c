/* stream_from_before_device_reset — a stream created before cudaDeviceReset,
 * used after it.
 *
 * The mistake: cudaDeviceReset called to "clean up" or to recover from an
 * error (some error-checking macros do it) while streams made earlier are
 * kept and used again. The reset destroys the primary context and every
 * resource in it: streams, events, allocations. The next runtime call makes a
 * new context, where the old stream does not exist.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): the reset
 * and the cudaMalloc after it (a new context) succeed; then, in most runs,
 * both cudaMemcpyAsync calls on the old stream return
 * cudaErrorInvalidResourceHandle (400), the copies never run (result_wrong:
 * 0 read back), and the new context stays usable (the probe succeeds); in
 * one run of four the first cudaMemcpyAsync killed the process with
 * SIGSEGV instead. The fixed variant, with a stream created after the reset,
 * reads 42 back.
 *
 * What a PyTorch user sees: nothing: PyTorch never resets the device (Torch7's
 * cutorch had a deviceReset, and removed it for this reason: torch/cutorch#129).
 *
 * Why: a cudaStream_t belongs to the context it was created in; the reset
 * destroyed that context, so the handle names an object of a context that no
 * longer exists.
 *
 * The fix: do not reset a device whose resources are still in use; after a
 * reset, create streams (and memory, events, library handles) again, as the
 * fixed variant does.
 *
 * References: DigitalHolography/Holovibes#113, "The origin of the problem is
 * the cudaDeviceReset() which renders some references stale ... old
 * reference to cuda streams are still used" (a segfault;
 * https://github.com/DigitalHolography/Holovibes/pull/113); torch/cutorch#129;
 * CUDA Runtime API, cudaDeviceReset
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html):
 * "Explicitly destroys and cleans up all resources associated with the
 * current device in the current process".
 *
 * atlas:nondeterministic — the broken variant returns a status or dies of
 * SIGSEGV from run to run: its rules list both.
 *
 * atlas:cause stream_used_after_device_reset
 */
#include "atlas.h"

#include <stdbool.h>

static void copy_after_reset(bool recreate)
{
    cudaStream_t stream;
    int *answer = NULL, host = 0, value = 42;
    if (!ATLAS_CUDA("context", cudaFree(0)) || !ATLAS_CUDA("stream", cudaStreamCreate(&stream)))
        return;
    if (!ATLAS_CUDA("reset", cudaDeviceReset()))
        return;
    if (recreate && !ATLAS_CUDA("stream_again", cudaStreamCreate(&stream)))
        return;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&answer, sizeof(int))))
        return;
    ATLAS_CUDA("copy_in", cudaMemcpyAsync(answer, &value, sizeof value, cudaMemcpyHostToDevice, stream));
    ATLAS_CUDA("copy_out", cudaMemcpyAsync(&host, answer, sizeof host, cudaMemcpyDeviceToHost, stream));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    atlas_check("result", host == 42, "value read back: %d (42 expected)", host);
    if (recreate)
        ATLAS_CUDA("destroy_stream", cudaStreamDestroy(stream));
    cudaFree(answer);
}

static void stream_created_again(void) { copy_after_reset(true); }
static void stream_from_before_reset(void) { copy_after_reset(false); }

ATLAS_CASE(stream_created_again, stream_from_before_reset)
