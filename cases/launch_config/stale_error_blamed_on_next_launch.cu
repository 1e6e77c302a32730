/* stale_error_blamed_on_next_launch — an unchecked failed launch is
 * reported after the next, correct one.
 *
 * The mistake: checking only some launches. The error of an unchecked one
 * stays in the last-error slot, and the next check — after a perfectly good
 * kernel — reports it, sending the search to the wrong kernel.
 *
 * What the program sees: broken — the check after the good kernel returns
 * the first kernel's error (cudaErrorInvalidValue from CUDA 13.0 on: H100
 * on 13.0, H200 on 13.0 to 13.5; cudaErrorInvalidConfiguration before it:
 * H100 on 11.8 and 12.4, H200 on 11.8 and 12.0 to 12.9); fixed — checking
 * after each launch puts that error where it belongs, and the second check
 * returns cudaSuccess.
 *
 * What a PyTorch user sees: "CUDA kernel errors might be asynchronously
 * reported at some other API call, so the stacktrace below might be
 * incorrect" — PyTorch's own warning about the same effect.
 *
 * Why: the slot keeps the last error until read.
 *
 * The fix: check every launch (cudaGetLastError right after it).
 *
 * References: CUDA Runtime API, cudaGetLastError
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__ERROR.html).
 *
 * atlas:cause unchecked_error_reported_later
 */
#include "atlas.h"

__global__ void nothing(void) {}

static void two_launches(int check_first)
{
    if (!ATLAS_CUDA("context", cudaFree(0)))
        return;
    nothing<<<1, 2048>>>(); /* refused */
    if (check_first)
        ATLAS_CUDA("check_first", cudaGetLastError());
    nothing<<<1, 32>>>(); /* fine */
    ATLAS_CUDA("check_second", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
}

static void check_each_launch(void) { two_launches(1); }
static void check_only_the_last(void) { two_launches(0); }

ATLAS_CASE(check_each_launch, check_only_the_last)
