/* cusparse_create_under_an_old_driver — cusparseCreate, the first cuSPARSE
 * call, on a machine whose driver is older than the CUDA this cuSPARSE
 * needs.
 *
 * The mistake: a cuSPARSE of CUDA 13 under driver 535 (CUDA 12.2): the
 * handle fails with a cuSPARSE status that never names the driver.
 *
 * What the program sees (H100 and H200, driver 580.159.04's kernel module
 * with driver 535.261's libcuda first on the library path; CUDA 13.0):
 * cusparseCreate returns CUSPARSE_STATUS_NOT_INITIALIZED (1) and cuSPARSE
 * prints " ** On entry to cusparseCreate(): CUDA context cannot be
 * initialized" on stderr; the same status as without any driver.
 * cudaDriverGetVersion then reports 12020, and the probe's cudaMalloc
 * returns cudaErrorInsufficientDriver. Under the system's driver 580 (13000)
 * the handle is made.
 *
 * What a PyTorch user sees: PyTorch checks the driver at its first CUDA
 * tensor, before a sparse operation reaches cuSPARSE: "The NVIDIA driver on
 * your system is too old (found version 12020)"
 * (driver_too_old_for_the_runtime's mirror). CuPy, VexCL and programs calling
 * cuSPARSE themselves see the status below.
 *
 * Why: cusparseCreate initialises the CUDA runtime on the current device;
 * with a driver of an older major release than the runtime, the runtime
 * cannot start, and cuSPARSE reports only that it is not initialised.
 *
 * The fix: update the driver (580 or later for CUDA 13), or install the
 * cuSPARSE of the driver's CUDA release.
 *
 * References: ddemidov/vexcl#168 ("CUSPARSE Error (1 -
 * CUSPARSE_STATUS_NOT_INITIALIZED)", the maintainer: "drivers incompatible
 * with runtime"); cuSPARSE documentation, cusparseCreate
 * (https://docs.nvidia.com/cuda/cusparse/#cusparsecreate):
 * "CUSPARSE_STATUS_NOT_INITIALIZED: the CUDA Runtime initialization failed";
 * CUDA Compatibility (https://docs.nvidia.com/deploy/cuda-compatibility/).
 * Needs driver 535's files: harness/toolkit.sh fetch driver-535
 * ($ATLAS_DRIVER_535, default /opt/driver-535/lib).
 *
 * atlas:cause driver_too_old
 */
#include "libraries_old_driver.h"
#include <cusparse.h>
#include "atlas_libraries.h"

static void create_handle(void)
{
    cusparseHandle_t handle;
    if (ATLAS_CUSPARSE("cusparse_create", cusparseCreate(&handle)))
        ATLAS_CUSPARSE("cusparse_destroy", cusparseDestroy(handle));
    lod_note_driver();
}

static void under_its_own_driver(void) { create_handle(); }

static void under_driver_535(void)
{
    lod_relaunch_with_driver_535();
    create_handle();
}

ATLAS_CASE(under_its_own_driver, under_driver_535)
