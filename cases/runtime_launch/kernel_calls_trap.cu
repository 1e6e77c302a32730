/* kernel_calls_trap — a kernel stops itself with __trap().
 *
 * The mistake: __trap() as a kernel's "abort" for a condition it cannot
 * handle — written by hand, or emitted by a compiler (Triton lowers
 * unreachable code to trap; Julia's CUDA.jl used it for exceptions on older
 * GPUs; the CUDA headers' own pipeline and barrier helpers abort with it).
 * Nothing tells the host which condition or which thread.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): the launch
 * check returns cudaSuccess; the synchronize returns cudaErrorLaunchFailure,
 * "unspecified launch failure" (719) — the status of the older reports, and
 * nothing names the trap. It is sticky: cudaGetLastError, a new cudaMalloc,
 * a cudaMemset, a launch that does not trap and its synchronize all return
 * cudaErrorLaunchFailure, and so does the probe.
 *
 * What a PyTorch user sees: nothing directly: PyTorch's kernels report with
 * device-side asserts (see device_side_assert), not __trap(); a trapping
 * kernel reaches PyTorch users through custom extensions (no mirror).
 *
 * Why: a trap ends the kernel with an error the hardware reports for the
 * whole context, like a fault; it carries no message.
 *
 * The fix: report conditions through an error flag in device memory that
 * the host checks (or assert(), which at least prints where); treat a
 * context that saw a trap as lost: restart the process.
 *
 * References: JuliaGPU/CUDA.jl#606 ("unspecified launch failure (code 719,
 * ERROR_LAUNCH_FAILED)"; the maintainer: "It's just a property of CUDA that
 * errors are sticky and require a restart of the process"); CUDA C++
 * Programming Guide
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#trap-function):
 * "A trap operation can be initiated by calling the __trap() function from
 * any device thread. The execution of the kernel is aborted and an interrupt
 * is raised in the host program."
 *
 * atlas:cause kernel_trap
 */
#include "atlas.h"

__global__ void checked_store(const int *bad, int *out)
{
    if (*bad)
        __trap();
    *out = 42;
}

static void store_with(int bad_value)
{
    int *bad = NULL, *out = NULL, *again = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&bad, sizeof(int))) || !ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof(int)))
        || !ATLAS_CUDA("copy", cudaMemcpy(bad, &bad_value, sizeof bad_value, cudaMemcpyHostToDevice)))
        goto out;
    checked_store<<<1, 1>>>(bad, out);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    ATLAS_CUDA("last_error", cudaGetLastError());
    /* Is it sticky? A new allocation and a launch that does not trap. */
    if (ATLAS_CUDA("alloc_after", cudaMalloc((void **)&again, sizeof(int))))
        cudaFree(again);
    ATLAS_CUDA("copy_after", cudaMemset(bad, 0, sizeof(int)));
    checked_store<<<1, 1>>>(bad, out);
    ATLAS_CUDA("launch_after", cudaGetLastError());
    ATLAS_CUDA("sync_after", cudaDeviceSynchronize());
out:
    cudaFree(bad);
    cudaFree(out);
}

static void condition_false(void) { store_with(0); }
static void condition_true_traps(void) { store_with(1); }

ATLAS_CASE(condition_false, condition_true_traps)
