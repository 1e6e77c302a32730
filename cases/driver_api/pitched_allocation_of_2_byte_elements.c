/* pitched_allocation_of_2_byte_elements — cuMemAllocPitch asked to pitch
 * rows of 2-byte elements.
 *
 * The mistake: cuMemAllocPitch's last argument, ElementSizeBytes, is the size
 * of the widest read or write the kernels will make into the rows, and the
 * driver takes only 4, 8 or 16. A wrapper that passes sizeof(element) for an
 * image of ushort (or half, or bytes) asks for 2 (or 1). managedCuda users
 * allocating a CudaPitchedDeviceVariable<ushort> met it as
 *   I get an ErrorInvalidValue exception.
 * (kunzmi/managedCuda#47).
 *
 * What the program sees (one H100 and one H200, driver 580.159.04, CUDA
 * 13.0, every run mode): cuMemAllocPitch returns CUDA_ERROR_INVALID_VALUE
 * (1, "invalid argument") at the call and allocates nothing; nothing is
 * sticky (the harness's probe afterwards succeeds). The fixed variant, with
 * 4, gets a pitch of 2048 bytes for rows of 2000. Without a driver there is
 * no libcuda.so.1 to open (open_driver).
 *
 * What a PyTorch user sees: nothing; PyTorch makes no pitched allocations.
 *
 * Why: the pitch is chosen so that accesses of ElementSizeBytes stay
 * coalesced across rows; the driver documents "ElementSizeBytes ... may be 4,
 * 8 or 16" and refuses the rest rather than guess.
 *
 * The fix: pass 4 (a pitch that suits 4-byte accesses suits 2-byte ones:
 * only the widest access matters), as the fixed variant does; or
 * cudaMallocPitch, which takes no element size.
 *
 * References: kunzmi/managedCuda#47 (https://github.com/kunzmi/managedCuda/issues/47;
 * the maintainer: element sizes of 4, 8 and 16 only); CUDA Driver API,
 * cuMemAllocPitch
 * (https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__MEM.html).
 *
 * atlas:cause pitch_element_size_unsupported
 */
#include "driver_api.h"

enum { WIDTH_BYTES = 1000 * 2, HEIGHT = 1000 };   /* 1000 x 1000 ushort */

static void pitched_rows(const struct atlas_driver *driver, const void *element_size)
{
    const struct atlas_driver cu = *driver;
    CUdeviceptr rows = 0;
    size_t pitch = 0;
    if (CU("alloc_pitch", cu.cuMemAllocPitch(&rows, &pitch, WIDTH_BYTES, HEIGHT, *(const unsigned *)element_size))) {
        atlas_quantity("pitch", (double)pitch, "bytes");
        CU("free", cu.cuMemFree(rows));
    }
}

static void pitch_for_4_byte_accesses(void)
{
    unsigned element_size_bytes = 4;
    in_primary_context(pitched_rows, &element_size_bytes);
}

static void pitch_for_2_byte_elements(void)
{
    unsigned element_size_bytes = 2;
    in_primary_context(pitched_rows, &element_size_bytes);
}

ATLAS_CASE(pitch_for_4_byte_accesses, pitch_for_2_byte_elements)
