/* cusolver_create_under_an_old_driver — cusolverDnCreate, the first cuSOLVER
 * call, on a machine whose driver is older than the CUDA this cuSOLVER
 * needs.
 *
 * The mistake: a cuSOLVER of CUDA 13 under driver 535 (CUDA 12.2): the
 * handle fails with a cuSOLVER status that never names the driver.
 *
 * What the program sees (H100, driver 580.159.04's kernel module
 * with driver 535.261's libcuda first on the library path; CUDA 13.0):
 * cusolverDnCreate returns CUSOLVER_STATUS_NOT_INITIALIZED (1), as without
 * any driver; cudaDriverGetVersion then reports 12020, and the probe's
 * cudaMalloc returns cudaErrorInsufficientDriver. Under the system's driver
 * 580 (13000) the handle is made.
 *
 * What a PyTorch user sees: PyTorch checks the driver at its first CUDA
 * tensor, before torch.linalg reaches cuSOLVER: "The NVIDIA driver on your
 * system is too old (found version 12020)" (driver_too_old_for_the_runtime's
 * mirror). CuPy and programs calling cuSOLVER themselves see the status
 * below.
 *
 * Why: cusolverDnCreate creates cuBLAS and CUDA resources on the current
 * device; with a driver of an older major release than the runtime, the
 * runtime cannot start.
 *
 * The fix: update the driver (580 or later for CUDA 13), or install the
 * cuSOLVER of the driver's CUDA release.
 *
 * References: invoke-ai/InvokeAI#25 and localminimum/QANet#5 (a library's
 * "NOT_INITIALIZED" at its first call, fixed by a driver update); cuSOLVER
 * documentation, cusolverDnCreate
 * (https://docs.nvidia.com/cuda/cusolver/#cusolverdncreate):
 * "CUSOLVER_STATUS_NOT_INITIALIZED: The CUDA Runtime initialization failed";
 * CUDA Compatibility (https://docs.nvidia.com/deploy/cuda-compatibility/).
 * Needs driver 535's files: harness/toolkit.sh fetch driver-535
 * ($ATLAS_DRIVER_535, default /opt/driver-535/lib).
 *
 * atlas:cause driver_too_old
 */
#include "libraries_old_driver.h"
#include <cusolverDn.h>
#include "atlas_libraries.h"

static void create_handle(void)
{
    cusolverDnHandle_t handle;
    if (ATLAS_CUSOLVER("cusolver_create", cusolverDnCreate(&handle)))
        ATLAS_CUSOLVER("cusolver_destroy", cusolverDnDestroy(handle));
    lod_note_driver();
}

static void under_its_own_driver(void) { create_handle(); }

static void under_driver_535(void)
{
    lod_relaunch_with_driver_535();
    create_handle();
}

ATLAS_CASE(under_its_own_driver, under_driver_535)
