/* cuda_visible_devices_names_missing_gpu — CUDA_VISIBLE_DEVICES=7 on a
 * machine without a GPU 7.
 *
 * The mistake: a job script written for an 8-GPU node run on a smaller one,
 * or a scheduler's GPU index used on a machine numbered differently.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): cudaGetDeviceCount returns
 * cudaErrorNoDevice: the driver stops at the first invalid entry of the
 * list, which here is the only one. Under compute-sanitizer the process
 * then exits 255.
 *
 * What a PyTorch user sees (recorded with PyTorch 2.11 on the H100 and the
 * H200): the first CUDA tensor raises
 *   RuntimeError: No CUDA GPUs are available
 *
 * Why: entries that name no GPU end the list; nothing after them is visible.
 *
 * The fix: check nvidia-smi -L against the list; use UUIDs.
 *
 * References: CUDA Programming Guide, "CUDA Environment Variables"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#cuda-environment-variables).
 *
 * atlas:cause visible_devices_names_missing_gpu
 */
#include "atlas.h"
#include <stdlib.h>

static void count_with_visible(const char *visible)
{
    int count = -1;
    setenv("CUDA_VISIBLE_DEVICES", visible, 1);
    ATLAS_CUDA("count", cudaGetDeviceCount(&count));
    atlas_quantity("device_count", count, "devices");
}

static void gpu_zero(void) { count_with_visible("0"); }
static void gpu_seven(void) { count_with_visible("7"); }

ATLAS_CASE(gpu_zero, gpu_seven)
