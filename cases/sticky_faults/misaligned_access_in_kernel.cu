/* misaligned_access_in_kernel — a kernel reads a float through an address
 * that is not a multiple of 4 (a byte buffer reinterpreted).
 *
 * The mistake: casting a char pointer with an odd offset (a packed record,
 * a header of odd length) to float* or int* on the device.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): a clean launch (cudaGetLastError
 * returns cudaSuccess), cudaErrorMisalignedAddress at the synchronize, and
 * a context lost (sticky: a later cudaMalloc returns it too) — like an
 * illegal address. With CUDA_LAUNCH_BLOCKING=1 (H100, 13.0) the launch
 * check already returns cudaErrorMisalignedAddress; under compute-sanitizer
 * the synchronize returns cudaErrorLaunchFailure.
 *
 * What a PyTorch user sees: "CUDA error: misaligned address" from custom
 * kernels (not recorded yet).
 *
 * Why: GPU loads must be aligned to their size; a misaligned access is a
 * fault, not a slow path.
 *
 * The fix: memcpy the bytes into an aligned variable, or align the data.
 *
 * References: CUDA Programming Guide, "Device Memory Accesses"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#device-memory-accesses).
 *
 * atlas:cause misaligned_access_in_kernel
 */
#include "atlas.h"

__global__ void read_float(const char *bytes, int offset, float *out)
{
    *out = *(const float *)(bytes + offset);
}

static void read_at(int offset)
{
    char *bytes = NULL;
    float *out = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&bytes, 64)) || !ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof(float))))
        return;
    read_float<<<1, 1>>>(bytes, offset, out);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(bytes), cudaFree(out);
}

static void offset_4(void) { read_at(4); }
static void offset_1(void) { read_at(1); }

ATLAS_CASE(offset_4, offset_1)
