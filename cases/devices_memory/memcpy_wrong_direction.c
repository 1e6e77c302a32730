/* memcpy_wrong_direction — cudaMemcpyHostToDevice with a device source and
 * a host destination.
 *
 * The mistake: the kind does not match the pointers — a copy back to the
 * host written with the kind of the copy in.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): cudaMemcpy returns
 * cudaErrorInvalidValue at the call: with unified addressing the runtime
 * can tell host from device pointers, and it refuses. Not sticky.
 *
 * What a PyTorch user sees: nothing; tensor.cpu() picks the direction.
 *
 * Why: the kind says where each pointer lives; when it lies, the copy engine
 * would read and write the wrong memory.
 *
 * The fix: the right kind, or cudaMemcpyDefault.
 *
 * References: CUDA Runtime API, cudaMemcpy
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:cause memcpy_kind_mismatch
 */
#include "atlas.h"

static void copy_back(enum cudaMemcpyKind kind)
{
    int host[256], *device = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&device, sizeof host)))
        return;
    ATLAS_CUDA("copy", cudaMemcpy(host, device, sizeof host, kind));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(device);
}

static void device_to_host(void) { copy_back(cudaMemcpyDeviceToHost); }
static void host_to_device(void) { copy_back(cudaMemcpyHostToDevice); }

ATLAS_CASE(device_to_host, host_to_device)
