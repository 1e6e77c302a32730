/* cuda_visible_devices_empty — CUDA_VISIBLE_DEVICES set to the empty string.
 *
 * The mistake: a launcher or job script that exports CUDA_VISIBLE_DEVICES=
 * (an unset variable expanded to nothing) — every GPU is hidden.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): cudaGetDeviceCount returns
 * cudaErrorNoDevice (no device), though nvidia-smi shows the GPU; a later
 * cudaMalloc returns it too. Under compute-sanitizer the process then exits
 * 255. Without a driver the same call returns cudaErrorInsufficientDriver
 * instead.
 *
 * What a PyTorch user sees: torch.cuda.is_available() is False, and the
 * first CUDA tensor raises (recorded with PyTorch 2.11 on the H100 and the
 * H200):
 *   RuntimeError: No CUDA GPUs are available
 *
 * Why: the variable filters the devices the driver shows the process; empty
 * means none.
 *
 * The fix: unset it, or list the GPUs (CUDA_VISIBLE_DEVICES=0).
 *
 * References: CUDA Programming Guide, "CUDA Environment Variables"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#cuda-environment-variables).
 *
 * atlas:cause visible_devices_hides_all_gpus
 */
#include "atlas.h"
#include <stdlib.h>

static void count_with_visible(const char *visible)
{
    int count = -1;
    setenv("CUDA_VISIBLE_DEVICES", visible, 1); /* read when CUDA initialises: before any call */
    ATLAS_CUDA("count", cudaGetDeviceCount(&count));
    atlas_quantity("device_count", count, "devices");
}

static void first_gpu(void) { count_with_visible("0"); }
static void empty(void) { count_with_visible(""); }

ATLAS_CASE(first_gpu, empty)
