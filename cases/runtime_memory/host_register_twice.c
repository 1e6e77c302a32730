/* host_register_twice — cudaHostRegister on a range that is already
 * registered.
 *
 * The mistake: two owners pin the same buffer: a pool registered once by its
 * constructor and again by a re-initialisation or a background pre-pinning
 * path, or a buffer from cudaMallocHost (already pinned) handed to code that
 * registers whatever it is given.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): the second cudaHostRegister
 * returns cudaErrorHostMemoryAlreadyRegistered ("part or all of the
 * requested memory range is already mapped"); the memory stays registered by
 * the first call (an async copy from it works, one cudaHostUnregister
 * succeeds). The error waits in the last-error slot: a cudaGetLastError
 * after a later copy and synchronize still returns it. Not sticky.
 *
 * What a PyTorch user sees (PyTorch 2.11 on the H100): torch.cuda.cudart().
 * cudaHostRegister returns the status and raises nothing; the next CUDA
 * operation (torch.ones(4, device="cuda") + 1) raises
 *   torch.AcceleratorError: CUDA error: part or all of the requested memory
 *   range is already mapped
 * because PyTorch's launch check reads the last-error slot — the error is
 * reported at an unrelated line, as sgl-project/sglang#38832 describes.
 *
 * Why: the driver keeps one registration per host range and refuses a
 * second; the memory stays pinned by the first. A runtime error also waits
 * in the last-error slot until cudaGetLastError reads it, so code that never
 * reads the status meets it at a later, unrelated check.
 *
 * The fix: register once and keep track of it (or ask first:
 * cudaPointerGetAttributes says cudaMemoryTypeHost for registered memory);
 * treat cudaErrorHostMemoryAlreadyRegistered as "already pinned" and clear it
 * with cudaGetLastError.
 *
 * References: sgl-project/sglang#38832 (a second cudaHostRegister of a pinned
 * host pool returns cudaErrorHostMemoryAlreadyRegistered, and the uncleared
 * error surfaces at an unrelated later call,
 * https://github.com/sgl-project/sglang/pull/38832); CUDA Runtime API,
 * cudaHostRegister
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "Page-locks the memory range specified by ptr and size".
 *
 * atlas:cause host_memory_registered_twice
 */
#include "atlas.h"
#include <stdlib.h>
#include <string.h>

enum { BYTES = 1 << 20 };

static void pin(int twice)
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
    if (ATLAS_CUDA("register", cudaHostRegister(host, BYTES, cudaHostRegisterDefault))) {
        if (twice)
            ATLAS_CUDA("register_again", cudaHostRegister(host, BYTES, cudaHostRegisterDefault));
        ATLAS_CUDA("copy", cudaMemcpyAsync(device, host, BYTES, cudaMemcpyHostToDevice, 0));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
        ATLAS_CUDA("last_error", cudaGetLastError());
        ATLAS_CUDA("unregister", cudaHostUnregister(host));
    }
    cudaFree(device);
    free(host);
}

static void registered_once(void) { pin(0); }
static void registered_twice(void) { pin(1); }

ATLAS_CASE(registered_once, registered_twice)
