/* address_reservation_larger_than_the_device_allows — cuMemAddressReserve
 * asked for more virtual address space than the GPU and the process can
 * give.
 *
 * The mistake: a virtual-memory pool (the CUDA VMM API: reserve a range
 * once, then map physical memory into it as the pool grows) reserves its
 * maximum size up front, and that maximum is a constant picked on one
 * machine. Reserving address space allocates no memory, so a generous
 * constant looks free — until a machine whose address space is smaller
 * refuses it, and the refusal reads as running out of memory. llama.cpp's
 * VMM pool reserved CUDA_POOL_VMM_MAX_SIZE, 64 GB, on every GPU; on an
 * NVIDIA AGX Orin the reservation failed and every run stopped with
 *   CUDA error: out of memory
 * (ggml-org/llama.cpp#4680; PR #4687 reduced the constant to 32 GB).
 *
 * The broken variant reserves 256 TiB (2^48 bytes); the fixed variant
 * reserves llama.cpp's present 32 GiB and frees it. Neither maps any memory.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0):
 * cuMemAddressReserve of 256 TiB returns CUDA_ERROR_OUT_OF_MEMORY (2, "out
 * of memory") at the call, although nothing was to be allocated; not sticky
 * (the harness's probe afterwards succeeds). The fixed variant's 32 GiB is
 * granted at 0x302000000 and freed. Asked one at a time, the H100 granted
 * every reservation from 32 GiB to 96 TiB — more than a thousand times its
 * 80 GB — and refused 127 TiB and more with the same out of memory; the
 * largest single reservation it granted was 126.3 TiB (138865184604160
 * bytes, found by bisection), just under the 128 TiB (2^47) of a 4-level
 * x86-64 process address space. So the 64 GB that failed on the Orin is
 * nowhere near the limit on a discrete GPU, which is why the constant was
 * only ever seen to fail there. Without a driver there is no libcuda.so.1
 * to open (open_driver).
 *
 * What a PyTorch user sees: nothing for this mistake; PyTorch's
 * expandable segments (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True)
 * use the same call but reserve 1 1/8 of the device's total memory per
 * segment (c10/cuda/CUDACachingAllocator.cpp, ExpandableSegment).
 *
 * Why: a reservation must fit in the GPU's virtual address space and, with
 * unified addressing, in the part of the process's address space the driver
 * keeps for GPU ranges; how much that is depends on the GPU, the platform
 * (an integrated GPU such as the Orin's shares the CPU's) and what the
 * process has reserved already. The driver reports a range that does not
 * fit as out of memory although no memory was asked for.
 *
 * The fix: reserve what the pool can really use — no more than the device's
 * memory (cuMemGetInfo's total, or a fraction of it), rounded up to the
 * allocation granularity — and, when the reservation fails, retry smaller or
 * fall back to cudaMalloc (llama.cpp's GGML_CUDA_NO_VMM).
 *
 * References: ggml-org/llama.cpp#4680, "CUDA error: out of memory after
 * b1697" (https://github.com/ggml-org/llama.cpp/issues/4680; the maintainer:
 * "Using a smaller value for CUDA_POOL_VMM_MAX_SIZE may fix it"; the
 * reporter: "After reducing CUDA_POOL_VMM_MAX_SIZE to 32GB, it works");
 * ggml-org/llama.cpp#4687, "cuda: fix vmm oom issue on NVIDIA AGX Orin";
 * CUDA Driver API, cuMemAddressReserve
 * (https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__VA.html):
 * "Reserves a virtual address range based on the given parameters ... The
 * size and address parameters must be a multiple of the host page size",
 * returning among others CUDA_ERROR_INVALID_VALUE and
 * CUDA_ERROR_OUT_OF_MEMORY.
 *
 * atlas:cause vmm_pool_reservation_too_large
 */
#include "driver_api.h"

#define GIB ((size_t)1 << 30)
#define TIB ((size_t)1 << 40)

static void reserve(const struct atlas_driver *driver, const void *size)
{
    const struct atlas_driver cu = *driver;
    size_t bytes = *(const size_t *)size;
    CUdeviceptr range = 0;
    atlas_quantity("reservation_bytes", (double)bytes, "bytes");
    if (CU("reserve", cu.cuMemAddressReserve(&range, bytes, 0, 0, 0))) {
        atlas_note("reserved [0x%llx, 0x%llx)", (unsigned long long)range, (unsigned long long)(range + bytes));
        CU("free_reservation", cu.cuMemAddressFree(range, bytes));
    }
}

static void reserve_32_gib(void)
{
    size_t bytes = 32 * GIB;
    in_primary_context(reserve, &bytes);
}

static void reserve_256_tib(void)
{
    size_t bytes = 256 * TIB;
    in_primary_context(reserve, &bytes);
}

ATLAS_CASE(reserve_32_gib, reserve_256_tib)
