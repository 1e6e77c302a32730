/* cufft_plan_size_zero — cufftPlan1d with a transform size of 0.
 *
 * The mistake: a plan made for an empty signal (an empty batch from a data
 * loader, a window length computed as 0) instead of skipping the transform.
 *
 * What the program sees (H200, CUDA 13.0, cuFFT 12): cufftPlan1d returns
 * CUFFT_INVALID_SIZE. Without a driver it returns CUFFT_INTERNAL_ERROR
 * instead: the driver is checked first.
 *
 * What a PyTorch user sees: torch.fft.fft of an empty signal is refused by
 * PyTorch before cuFFT ("Invalid number of data points (0) specified",
 * recorded with PyTorch 2.11: RuntimeError).
 *
 * Why: a transform of length 0 is not defined; cuFFT checks the size when
 * the plan is made, on the host.
 *
 * The fix: skip the transform (and the plan) for empty input.
 *
 * References: cuFFT documentation, cufftPlan1d
 * (https://docs.nvidia.com/cuda/cufft/#cufftplan1d), "CUFFT_INVALID_SIZE –
 * The nx or batch parameter is not a supported size"; ROCm/hipFFT#185
 * (cuFFT returns CUFFT_INVALID_SIZE for nx = 0, where hipFFT hung).
 *
 * atlas:cause empty_input_given_to_library
 */
#include <cufft.h>
#include "atlas_libraries.h"

static void plan_of_size(int nx)
{
    cufftHandle plan;
    if (ATLAS_CUFFT("plan", cufftPlan1d(&plan, nx, CUFFT_C2C, 1)))
        ATLAS_CUFFT("destroy", cufftDestroy(plan));
}

static void size_256(void) { plan_of_size(256); }
static void size_0(void) { plan_of_size(0); }

ATLAS_CASE(size_256, size_0)
