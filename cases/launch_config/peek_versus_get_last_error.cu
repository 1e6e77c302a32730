/* peek_versus_get_last_error — reading a launch error twice.
 *
 * The mistake: checking a launch with cudaGetLastError in one place (a
 * macro, a logger) and again in another, expecting the same answer — the
 * first call cleared it. cudaPeekAtLastError reads without clearing.
 *
 * What the program sees: after a refused launch (a block of 2048 threads),
 * peek returns the error twice, get returns it once, and the next get says
 * cudaSuccess. After a good launch, all four are cudaSuccess.
 *
 * What a PyTorch user sees: PyTorch checks every launch itself
 * (C10_CUDA_KERNEL_LAUNCH_CHECK uses cudaGetLastError).
 *
 * Why: non-sticky errors live in a per-thread "last error" slot that
 * cudaGetLastError resets.
 *
 * The fix: check once, right after the launch, with cudaGetLastError; use
 * cudaPeekAtLastError only to look.
 *
 * References: CUDA Runtime API, cudaGetLastError and cudaPeekAtLastError
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__ERROR.html).
 *
 * atlas:cause last_error_cleared_by_first_read
 */
#include "atlas.h"

__global__ void nothing(void) {}

static void read_twice(int block)
{
    if (!ATLAS_CUDA("context", cudaFree(0)))
        return;
    nothing<<<1, block>>>();
    ATLAS_CUDA("peek", cudaPeekAtLastError());
    ATLAS_CUDA("peek_again", cudaPeekAtLastError());
    ATLAS_CUDA("get", cudaGetLastError());
    ATLAS_CUDA("get_again", cudaGetLastError());
}

static void good_launch(void) { read_twice(256); }
static void refused_launch(void) { read_twice(2048); }

ATLAS_CASE(good_launch, refused_launch)
