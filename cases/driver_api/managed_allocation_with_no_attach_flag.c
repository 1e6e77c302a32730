/* managed_allocation_with_no_attach_flag — cuMemAllocManaged called with
 * flags 0.
 *
 * The mistake: cuMemAllocManaged's last argument says which streams may
 * touch the memory at first, and it must be CU_MEM_ATTACH_GLOBAL (1) or
 * CU_MEM_ATTACH_HOST (2). 0, "no flags", reads like the default that most
 * flags arguments have, but here it is not one of the two choices (the
 * runtime's cudaMallocManaged defaults its flags to cudaMemAttachGlobal; the
 * driver call has no default). PyCUDA's managed_empty(..., mem_flags=0)
 * passes it straight through:
 *   pycuda._driver.LogicError: cuMemAllocManaged failed: invalid argument
 * (inducer/pycuda#222).
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0):
 * cuMemAllocManaged returns CUDA_ERROR_INVALID_VALUE (1, "invalid
 * argument") at the call and allocates nothing; not sticky (the harness's
 * probe afterwards succeeds). With CU_MEM_ATTACH_GLOBAL the 4 KiB arrive and
 * the host can write them. Asked directly (4 KiB each), the driver took
 * flags 1 (GLOBAL) and 2 (HOST) and refused 0, 3 (both), 4
 * (CU_MEM_ATTACH_SINGLE, which cuStreamAttachMemAsync takes but this call
 * does not) and 8. Without a driver there is no libcuda.so.1 to open
 * (open_driver).
 *
 * What a PyTorch user sees: nothing; PyTorch allocates no managed memory of
 * its own.
 *
 * Why: the attachment decides whether a device may access the memory while
 * the host does; with neither flag set the driver has nothing to go on and
 * refuses the call instead of choosing.
 *
 * The fix: pass CU_MEM_ATTACH_GLOBAL (accessible from any stream on any
 * device, what cudaMallocManaged does by default), as the fixed variant
 * does, or CU_MEM_ATTACH_HOST; in PyCUDA,
 * mem_flags=cuda.mem_attach_flags.GLOBAL.
 * Only 4 KiB is asked for either way.
 *
 * References: inducer/pycuda#222, "Allocating managed (unified) memory
 * doesn't seem to work" (https://github.com/inducer/pycuda/issues/222; the
 * maintainer: "You've got to pass a flag to specify memory attachment");
 * CUDA Driver API, cuMemAllocManaged
 * (https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__MEM.html):
 * "flags must be one of CU_MEM_ATTACH_GLOBAL or CU_MEM_ATTACH_HOST".
 *
 * atlas:cause managed_alloc_without_attach_flag
 */
#include "driver_api.h"
#include <stdint.h>

enum { BYTES = 4096 };

static void managed_allocation(const struct atlas_driver *driver, const void *attach_flags)
{
    const struct atlas_driver cu = *driver;
    CUdeviceptr managed = 0;
    if (CU("alloc_managed", cu.cuMemAllocManaged(&managed, BYTES, *(const unsigned *)attach_flags))) {
        /* Managed memory is host-accessible: the pointer works as one. */
        ((volatile unsigned char *)(uintptr_t)managed)[0] = 42;
        atlas_check("host_write", ((volatile unsigned char *)(uintptr_t)managed)[0] == 42,
                    "the host wrote and read back the first byte");
        CU("free", cu.cuMemFree(managed));
    }
}

static void attached_globally(void)
{
    unsigned flags = CU_MEM_ATTACH_GLOBAL;
    in_primary_context(managed_allocation, &flags);
}

static void flags_zero(void)
{
    unsigned flags = 0;
    in_primary_context(managed_allocation, &flags);
}

ATLAS_CASE(attached_globally, flags_zero)
