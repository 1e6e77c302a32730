/* host_register_of_cudamallochost_memory — cudaHostRegister on a buffer that
 * cudaMallocHost allocated.
 *
 * The mistake: code that pins whatever buffer it is handed (a transport, a
 * staging pool) is given memory that is pinned already because it came from
 * cudaMallocHost. libgdsync's gds_register_mem refused such a buffer
 * (gpudirect/libgdsync#25: "Error 1 (invalid argument) while register
 * address=..."); the maintainer's answer was to register it as GPU-visible
 * memory instead.
 *
 * What the program sees (one H100 and one H200, driver 580.159.04, CUDA
 * 13.0, every run mode): cudaHostRegister returns cudaErrorInvalidValue (not
 * the cudaErrorHostMemoryAlreadyRegistered of registering one malloc'd range
 * twice, host_register_twice), and the status waits in the last-error slot;
 * not sticky. The buffer stays usable and cudaFreeHost frees it.
 *
 * What a PyTorch user sees: nothing by default; pin_memory() tensors come
 * from PyTorch's own pinned allocator, and registering one again through
 * torch.cuda.cudart().cudaHostRegister returns the same status.
 *
 * Why: cudaMallocHost memory belongs to the driver already (allocated pinned
 * and mapped); cudaHostRegister is for pageable memory the program allocated
 * itself.
 *
 * The fix: register only memory from malloc/mmap (the fixed variant), or ask
 * first: cudaPointerGetAttributes says cudaMemoryTypeHost for memory that is
 * pinned already.
 *
 * References: gpudirect/libgdsync#25
 * (https://github.com/gpudirect/libgdsync/issues/25); CUDA Runtime API,
 * cudaHostRegister
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "Page-locks the memory range specified by ptr and size ... allocated by
 * malloc()".
 *
 * atlas:cause host_memory_already_pinned
 */
#include "atlas.h"
#include <stdlib.h>

enum { BYTES = 1 << 20 };

static void register_buffer(int from_cudamallochost)
{
    void *host = NULL, *device = NULL;
    if (from_cudamallochost) {
        if (!ATLAS_CUDA("alloc_host", cudaMallocHost(&host, BYTES)))
            return;
    } else if (!(host = aligned_alloc(4096, BYTES))) {
        return;
    }
    if (ATLAS_CUDA("register", cudaHostRegister(host, BYTES, cudaHostRegisterDefault))) {
        if (ATLAS_CUDA("alloc", cudaMalloc(&device, BYTES))) {
            ATLAS_CUDA("copy", cudaMemcpy(device, host, BYTES, cudaMemcpyHostToDevice));
            cudaFree(device);
        }
        ATLAS_CUDA("unregister", cudaHostUnregister(host));
    }
    ATLAS_CUDA("last_error", cudaGetLastError());
    if (from_cudamallochost)
        ATLAS_CUDA("free_host", cudaFreeHost(host));
    else
        free(host);
}

static void pageable_buffer(void) { register_buffer(0); }
static void buffer_from_cudamallochost(void) { register_buffer(1); }

ATLAS_CASE(pageable_buffer, buffer_from_cudamallochost)
