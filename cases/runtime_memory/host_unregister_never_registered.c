/* host_unregister_never_registered — cudaHostUnregister of host memory that
 * was never registered.
 *
 * The mistake: cleanup that unregisters every buffer, also the ones whose
 * registration was skipped, failed, or was done on another pointer (the
 * outer of a double pointer, an interior address).
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): cudaHostUnregister returns
 * cudaErrorHostMemoryNotRegistered ("pointer does not correspond to a
 * registered memory region") at the call; the error waits in the last-error
 * slot (a cudaGetLastError after the next synchronize returns it). Not
 * sticky.
 *
 * What a PyTorch user sees (PyTorch 2.11 on the H100): torch.cuda.cudart().
 * cudaHostUnregister returns the status and raises nothing; the next CUDA
 * operation raises
 *   torch.AcceleratorError: CUDA error: pointer does not correspond to a
 *   registered memory region
 * from its launch check, at a line that has nothing to do with registration.
 *
 * Why: the driver finds no registration starting at that address; nothing
 * is unpinned (nothing was pinned).
 *
 * The fix: unregister exactly the base addresses that cudaHostRegister
 * accepted, once each; record registrations where they are made.
 *
 * References: openucx/ucx#9716 ("cudaHostUnregister(address)() failed:
 * pointer does not correspond to a registered memory region",
 * https://github.com/openucx/ucx/issues/9716); CUDA Runtime API,
 * cudaHostUnregister
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "The base address must be the same one specified to cudaHostRegister()".
 *
 * atlas:cause host_memory_unregistered_but_never_registered
 */
#include "atlas.h"
#include <stdlib.h>
#include <string.h>

enum { BYTES = 1 << 20 };

static void unpin(int registered)
{
    void *device = NULL;
    char *host = aligned_alloc(4096, BYTES);
    if (!host)
        return;
    memset(host, 7, BYTES);
    if (!ATLAS_CUDA("alloc", cudaMalloc(&device, BYTES))) {
        free(host);
        return;
    }
    if (registered)
        ATLAS_CUDA("register", cudaHostRegister(host, BYTES, cudaHostRegisterDefault));
    ATLAS_CUDA("copy", cudaMemcpy(device, host, BYTES, cudaMemcpyHostToDevice));
    ATLAS_CUDA("unregister", cudaHostUnregister(host));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    ATLAS_CUDA("last_error", cudaGetLastError());
    cudaFree(device);
    free(host);
}

static void registered_first(void) { unpin(1); }
static void never_registered(void) { unpin(0); }

ATLAS_CASE(registered_first, never_registered)
