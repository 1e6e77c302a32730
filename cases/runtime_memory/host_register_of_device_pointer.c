/* host_register_of_device_pointer — cudaHostRegister given a device pointer.
 *
 * The mistake: code that decides by itself which memory is host memory gets
 * it wrong and pins a cudaMalloc'd buffer. UCX's memory-type cache took a
 * CUDA allocation for host memory and passed it to cudaHostRegister
 * (openucx/ucx#4393: "cudaHostRegister(address, length, 0x01) is failed.
 * ret:invalid argument"); the developers fixed the detection.
 *
 * What the program sees (one H100 and one H200, driver 580.159.04, CUDA
 * 13.0, every run mode): cudaHostRegister returns cudaErrorInvalidValue
 * ("invalid argument", the status of the report), which waits in the
 * last-error slot; not sticky: the copy afterwards succeeds.
 *
 * What a PyTorch user sees: nothing; PyTorch knows where its tensors live.
 *
 * Why: cudaHostRegister page-locks host pages; a device address names no
 * host page to lock.
 *
 * The fix: ask the runtime what the pointer is (cudaPointerGetAttributes:
 * cudaMemoryTypeDevice) and register only host memory (the fixed variant
 * registers a malloc'd buffer).
 *
 * References: openucx/ucx#4393 (https://github.com/openucx/ucx/issues/4393);
 * CUDA Runtime API, cudaHostRegister
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:cause host_register_given_device_pointer
 */
#include "atlas.h"
#include <stdlib.h>

enum { BYTES = 1 << 20 };

static void register_buffer(int device_pointer)
{
    void *device = NULL, *host = NULL, *target;
    if (!ATLAS_CUDA("alloc", cudaMalloc(&device, BYTES)))
        return;
    if (!(host = aligned_alloc(4096, BYTES))) {
        cudaFree(device);
        return;
    }
    target = device_pointer ? device : host;
    if (ATLAS_CUDA("register", cudaHostRegister(target, BYTES, cudaHostRegisterDefault)))
        ATLAS_CUDA("unregister", cudaHostUnregister(target));
    ATLAS_CUDA("last_error", cudaGetLastError());
    ATLAS_CUDA("copy", cudaMemcpy(device, host, BYTES, cudaMemcpyHostToDevice));
    cudaFree(device);
    free(host);
}

static void host_buffer(void) { register_buffer(0); }
static void device_buffer(void) { register_buffer(1); }

ATLAS_CASE(host_buffer, device_buffer)
