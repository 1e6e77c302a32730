/* cufft_plan_under_an_old_driver — cufftPlan1d, the first cuFFT call, on a
 * machine whose driver is older than the CUDA this cuFFT needs.
 *
 * The mistake: a cuFFT of CUDA 13 under driver 535 (CUDA 12.2): the plan
 * fails, and cuFFT's status says nothing of a driver.
 *
 * What the program sees (H100, driver 580.159.04's kernel module
 * with driver 535.261's libcuda first on the library path; CUDA 13.0):
 * cufftPlan1d returns CUFFT_INTERNAL_ERROR (5) — neither
 * CUFFT_SETUP_FAILED ("the cuFFT library failed to initialize") nor
 * CUFFT_INVALID_DEVICE, and the same status as without any driver;
 * cudaDriverGetVersion then reports 12020, and the probe's cudaMalloc
 * returns cudaErrorInsufficientDriver. Under the system's driver 580
 * (13000) the plan is made.
 *
 * What a PyTorch user sees: PyTorch checks the driver at its first CUDA
 * tensor, before torch.fft reaches cuFFT: "The NVIDIA driver on your system
 * is too old (found version 12020)" (driver_too_old_for_the_runtime's
 * mirror). CuPy and programs calling cuFFT themselves see the status below.
 *
 * Why: the plan is made on the current device: cuFFT needs the runtime and a
 * context, and a driver of an older major release is refused there.
 *
 * The fix: update the driver (580 or later for CUDA 13), or install the
 * cuFFT of the driver's CUDA release.
 *
 * References: invoke-ai/InvokeAI#25 and localminimum/QANet#5 (a library's
 * first call failing under a driver too old, fixed by updating it); cuFFT
 * documentation, cufftPlan1d (https://docs.nvidia.com/cuda/cufft/#cufftplan1d);
 * CUDA Compatibility (https://docs.nvidia.com/deploy/cuda-compatibility/).
 * Needs driver 535's files: harness/toolkit.sh fetch driver-535
 * ($ATLAS_DRIVER_535, default /opt/driver-535/lib).
 *
 * atlas:cause driver_too_old
 */
#include "libraries_old_driver.h"
#include <cufft.h>
#include "atlas_libraries.h"

enum { N = 1024 };

static void make_plan(void)
{
    cufftHandle plan;
    if (ATLAS_CUFFT("cufft_plan", cufftPlan1d(&plan, N, CUFFT_C2C, 1)))
        ATLAS_CUFFT("cufft_destroy", cufftDestroy(plan));
    lod_note_driver();
}

static void under_its_own_driver(void) { make_plan(); }

static void under_driver_535(void)
{
    lod_relaunch_with_driver_535();
    make_plan();
}

ATLAS_CASE(under_its_own_driver, under_driver_535)
