/* device_count_before_fork — the parent only asks how many GPUs there are,
 * then forks; the child uses CUDA.
 *
 * The mistake: "I only counted the devices, I never touched the GPU" — a
 * launcher calls cudaGetDeviceCount (torch.cuda.is_available(),
 * get_device_module().device_count()) to decide how many workers to fork,
 * then forks them.
 *
 * What the program sees (H200, CUDA 13.0): RECORDED-BELOW
 *
 * What a PyTorch user sees: torch.cuda.device_count() asks NVML where it
 * can and leaves CUDA uninitialised, so forking after it works; other paths
 * that call the runtime's count do not (pytorch/pytorch#190708: "CUDA error:
 * initialization error" in the child). The mirror records PyTorch 2.11.
 *
 * Why: cudaGetDeviceCount initialises the driver (cuInit) without creating a
 * context; the driver's state does not survive fork() either.
 *
 * The fix: count with NVML (nvmlDeviceGetCount) or from
 * CUDA_VISIBLE_DEVICES before forking, or count in the children, or spawn.
 *
 * References: pytorch/pytorch#83973 ("Implement torch.cuda.device_count
 * without poison") and #15734; CUDA C++ Programming Guide, "Initialization"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#initialization).
 */
#include "child.h"

static void child_uses_cuda(void)
{
    void *p = NULL;
    if (ATLAS_CUDA("child_alloc", cudaMalloc(&p, 1 << 20)))
        cudaFree(p);
}

static void count_then_fork(bool count_before_fork)
{
    int count = -1;
    if (count_before_fork)
        ATLAS_CUDA("parent_count", cudaGetDeviceCount(&count));
    run_in_child(child_uses_cuda);
    if (!count_before_fork)
        ATLAS_CUDA("parent_count", cudaGetDeviceCount(&count));
    atlas_quantity("device_count", count, "devices");
}

static void count_after_forking(void) { count_then_fork(false); }
static void count_before_forking(void) { count_then_fork(true); }

ATLAS_CASE(count_after_forking, count_before_forking)
