/* driver_missing_not_checked — a program that uses the GPU without first
 * asking whether there is one.
 *
 * The mistake: assuming a driver (a CI runner, a laptop, a container started
 * without the GPU runtime). The first CUDA call fails — the program must
 * notice there, not at some later allocation.
 *
 * What the program sees (no driver; CUDA 11.8, 12.4 and 13.0 runtimes
 * alike): cudaGetDeviceCount returns cudaErrorInsufficientDriver ("CUDA
 * driver version is insufficient for CUDA runtime version", the same text
 * as a too-old driver) and every later call does too. The fixed variant
 * checks and takes the CPU path; the broken one carries on to cudaMalloc,
 * which returns cudaErrorInsufficientDriver again. With a GPU (H100 on
 * 11.8, 12.4 and 13.0; H200 on 11.8 and 12.0 to 13.5), both return
 * cudaSuccess: this case's lesson is written by the no-driver column.
 *
 * What a PyTorch user sees: torch.cuda.is_available() is False; the first
 * CUDA tensor raises "RuntimeError: Found no NVIDIA driver on your system"
 * (not recorded: the GPU machine has a driver).
 *
 * Why: the runtime needs libcuda.so.1, which comes with the driver, not the
 * toolkit.
 *
 * The fix: check cudaGetDeviceCount's status (or is_available()) once, and
 * choose the CPU path.
 *
 * References: CUDA Runtime API, cudaGetDeviceCount and
 * cudaErrorInsufficientDriver (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html).
 *
 * atlas:cause no_nvidia_driver
 */
#include "atlas.h"

static void use_gpu(int check_first)
{
    int count = 0;
    void *p = NULL;
    if (!ATLAS_CUDA("count", cudaGetDeviceCount(&count)) && check_first) {
        atlas_note("no usable GPU: taking the CPU path");
        return;
    }
    if (ATLAS_CUDA("alloc", cudaMalloc(&p, 1 << 20)))
        cudaFree(p);
}

static void check_then_use(void) { use_gpu(1); }
static void use_unchecked(void) { use_gpu(0); }

ATLAS_CASE(check_then_use, use_unchecked)
