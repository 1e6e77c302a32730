/* cufft_plan_batch_zero — cufftPlan1d for 256-point transforms, batch 0.
 *
 * The mistake: the batch computed from the data (rows = size / nx) comes out
 * as 0 for a short or empty input, and the plan is made anyway.
 *
 * What the program sees (H200, CUDA 13.0, cuFFT 12): cufftPlan1d returns
 * CUFFT_INVALID_SIZE (without a driver: CUFFT_INTERNAL_ERROR).
 *
 * What a PyTorch user sees: nothing: PyTorch returns an empty result for an
 * empty batch without calling cuFFT.
 *
 * Why: the batch is checked with the size when the plan is made.
 *
 * The fix: skip empty batches.
 *
 * References: cuFFT documentation, cufftPlan1d
 * (https://docs.nvidia.com/cuda/cufft/#cufftplan1d), "batch: Number of
 * transforms of size nx" and "CUFFT_INVALID_SIZE – The nx or batch
 * parameter is not a supported size"; ROCm/hipFFT#185 (hipFFT accepts
 * batch 0 with HIPFFT_SUCCESS).
 *
 * atlas:cause empty_input_given_to_library
 */
#include <cufft.h>
#include "atlas_libraries.h"

static void plan_with_batch(int batch)
{
    cufftHandle plan;
    if (ATLAS_CUFFT("plan", cufftPlan1d(&plan, 256, CUFFT_C2C, batch)))
        ATLAS_CUFFT("destroy", cufftDestroy(plan));
}

static void batch_1(void) { plan_with_batch(1); }
static void batch_0(void) { plan_with_batch(0); }

ATLAS_CASE(batch_1, batch_0)
