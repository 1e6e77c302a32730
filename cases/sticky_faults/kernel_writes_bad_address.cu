/* kernel_writes_bad_address — a kernel writes through a pointer that points
 * nowhere (0x100: an uninitialised or corrupted pointer).
 *
 * The mistake: an index or pointer computed wrongly — out-of-range indices
 * into a device array end up as addresses the GPU has not mapped.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): a clean launch (cudaGetLastError
 * returns cudaSuccess), cudaErrorIllegalAddress at the synchronize, and a
 * context that stays broken (sticky) — the probe after the variant, a
 * cudaMalloc, returns cudaErrorIllegalAddress too. With
 * CUDA_LAUNCH_BLOCKING=1 (H100, 13.0) the launch check already returns it;
 * under compute-sanitizer the synchronize returns cudaErrorLaunchFailure.
 *
 * What a PyTorch user sees: "RuntimeError: CUDA error: an illegal memory
 * access was encountered" from a later operation (not recorded through
 * PyTorch: its indexing asserts first; see device_side_assert).
 *
 * Why: the fault happens while the kernel runs; the host learns at the next
 * synchronizing call, and a faulted context is unusable.
 *
 * The fix: bounds checks in the kernel; compute-sanitizer to find the
 * access; a new process to recover.
 *
 * References: CUDA Runtime API, cudaErrorIllegalAddress
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html).
 *
 * atlas:cause kernel_oob_index
 */
#include "atlas.h"

__global__ void write_one(int *p) { *p = 1; }

static void write_to(int bad)
{
    int *target = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&target, sizeof(int))))
        return;
    write_one<<<1, 1>>>(bad ? (int *)0x100 : target);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(target);
}

static void allocated_address(void) { write_to(0); }
static void address_0x100(void) { write_to(1); }

ATLAS_CASE(allocated_address, address_0x100)
