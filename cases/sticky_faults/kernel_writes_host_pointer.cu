/* kernel_writes_host_pointer — a kernel writes through a pointer from malloc.
 *
 * The mistake: passing a host buffer to a kernel, for instance the output
 * array of a CPU code path that was ported without its cudaMalloc.
 *
 * What the program sees: the launch itself succeeds (cudaGetLastError is
 * clean: nothing is checked about pointers at launch). The fault happens
 * while the kernel runs, and surfaces at the next synchronizing call as
 * cudaErrorIllegalAddress — unless the GPU can address pageable host memory
 * (the fingerprint's "pageable" field), in which case the write lands in
 * host memory. An illegal address is sticky: every later call in this
 * process fails, and the only way back is a new process.
 *
 * Recorded on the H100 (pageable=no, CUDA 13.0): launch clean, then
 * cudaErrorIllegalAddress at cudaDeviceSynchronize, and the context unusable.
 *
 * What a PyTorch user sees: "CUDA error: an illegal memory access was
 * encountered", raised by whichever later operation synchronizes (not
 * recorded through PyTorch yet: a PyTorch program cannot hand a kernel a
 * malloc pointer without a custom extension).
 *
 * Why: kernels run asynchronously; the host learns of the fault only when it
 * next waits for the device, and a faulting context cannot be trusted again.
 *
 * The fix: allocate the buffer with cudaMalloc (or cudaMallocHost /
 * cudaMallocManaged, which the GPU may address) and copy results back.
 *
 * References: CUDA Programming Guide, "Error Checking" and "Asynchronous
 * Concurrent Execution" (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#error-checking);
 * CUDA Runtime API, cudaErrorIllegalAddress
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html).
 *
 * atlas:cause host_pointer_used_on_device
 */
#include "atlas.h"
#include <stdlib.h>

enum { ELEMENTS = 1 << 20 };

__global__ void write_index(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i;
}

static void into_device_memory(void)
{
    int *out = NULL, *host = (int *)malloc(sizeof(int) * ELEMENTS);
    if (!host || !ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof(int) * ELEMENTS))) {
        free(host);
        return;
    }
    write_index<<<ELEMENTS / 256, 256>>>(out, ELEMENTS);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy", cudaMemcpy(host, out, sizeof(int) * ELEMENTS, cudaMemcpyDeviceToHost)))
        atlas_check("result", host[ELEMENTS - 1] == ELEMENTS - 1, "last element written");
    cudaFree(out);
    free(host);
}

static void into_malloc_memory(void)
{
    int *host = (int *)calloc(ELEMENTS, sizeof(int));
    if (!host)
        return;
    write_index<<<ELEMENTS / 256, 256>>>(host, ELEMENTS);
    if (ATLAS_CUDA("launch", cudaGetLastError())) {
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
        atlas_check("result", host[ELEMENTS - 1] == ELEMENTS - 1, "last element written");
    }
    free(host);
}

ATLAS_CASE(into_device_memory, into_malloc_memory)
