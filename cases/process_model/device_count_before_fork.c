/* device_count_before_fork — the parent only asks how many GPUs there are,
 * then forks; the child uses CUDA.
 *
 * The mistake: "I only counted the devices, I never touched the GPU" — a
 * launcher calls cudaGetDeviceCount (torch.cuda.is_available(),
 * get_device_module().device_count()) to decide how many workers to fork,
 * then forks them.
 *
 * What the program sees (H200, CUDA 13.0): after the parent's
 * cudaGetDeviceCount alone — no allocation, no context — the child's first
 * cudaMalloc returns cudaErrorInitializationError, exactly as after a full
 * initialisation (fork_after_cuda_init). Counting after the fork, the child
 * allocates normally.
 *
 * What a PyTorch user sees: nothing: with PyTorch 2.11 the mirror's worker,
 * forked after torch.cuda.device_count(), makes its CUDA tensor — PyTorch
 * counts without initialising CUDA since pytorch/pytorch#83973. Paths that do
 * call the runtime first still break the worker (pytorch/pytorch#190708:
 * "CUDA error: initialization error").
 *
 * Why: cudaGetDeviceCount initialises the driver (cuInit) without creating a
 * context, and that state does not survive fork() either — the guideline
 * below uses exactly this, a device count before fork(), as its bad example.
 *
 * The fix: count with NVML (nvmlDeviceGetCount) or from CUDA_VISIBLE_DEVICES
 * before forking, or count in the children, or spawn.
 *
 * References: pytorch/pytorch#83973 ("Implement torch.cuda.device_count
 * without poison") and #15734; the CUDA C++ guideline CUDA-1.6, "A call to
 * fork must be immediately followed to a call to exec"
 * (https://doc.qt.io/axivion/reference/analysis_configuration/CUDA-1.6.html):
 * "Any use of CUDA after a call to fork and before a subsequent call to exec
 * has undefined behavior".
 *
 * atlas:cause fork_after_cuda_init
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
