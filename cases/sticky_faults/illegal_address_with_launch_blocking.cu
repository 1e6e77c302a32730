/* illegal_address_with_launch_blocking — the same fault with
 * CUDA_LAUNCH_BLOCKING=1: where does it surface now?
 *
 * The mistake: none; this is the debugging setting PyTorch's message
 * recommends ("For debugging consider passing CUDA_LAUNCH_BLOCKING=1").
 * With it, every launch waits for its kernel, so the error should be seen
 * at (or right after) the faulting launch instead of at a later call.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0, with the variable set before CUDA
 * starts): the launch check (cudaGetLastError) already returns
 * cudaErrorIllegalAddress, and so do the synchronize and a later cudaMalloc
 * (sticky). Under compute-sanitizer (H100, 13.0) all three return
 * cudaErrorLaunchFailure.
 *
 * What a PyTorch user sees: with CUDA_LAUNCH_BLOCKING=1, the stack trace of
 * an illegal access points at the faulting operation.
 *
 * Why: launches become synchronous; the fault is known when the launch
 * returns.
 *
 * The fix: use it to find the kernel, then fix the kernel; it slows
 * everything down.
 *
 * References: CUDA Programming Guide, "CUDA Environment Variables"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#cuda-environment-variables).
 *
 * atlas:cause earlier_kernel_fault
 */
#include "atlas.h"
#include <stdlib.h>

__global__ void write_one(int *p) { *p = 1; }

static void write_blocking(int bad)
{
    int *target = NULL;
    setenv("CUDA_LAUNCH_BLOCKING", "1", 1); /* before CUDA initialises */
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&target, sizeof(int))))
        return;
    write_one<<<1, 1>>>(bad ? (int *)0x100 : target);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(target);
}

static void good_kernel(void) { write_blocking(0); }
static void faulting_kernel(void) { write_blocking(1); }

ATLAS_CASE(good_kernel, faulting_kernel)
