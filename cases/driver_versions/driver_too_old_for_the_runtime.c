/* driver_too_old_for_the_runtime — a program built with CUDA 13 on a
 * machine whose driver is of CUDA 12 (driver 535, CUDA 12.2).
 *
 * The mistake: installing a build of a newer CUDA major release than the
 * driver supports — a cu13x PyTorch or CuPy wheel, a binary built with the
 * CUDA 13 toolkit, a container image of CUDA 13 — on a machine whose driver
 * was never updated. Minor-version compatibility (runtime_newer_than_driver)
 * covers a newer runtime of the driver's own major release only.
 *
 * What the program sees (H200, and this project's machine without a GPU;
 * runtime 13.0): the first call that needs the driver, cudaGetDeviceCount,
 * returns cudaErrorInsufficientDriver ("CUDA driver version is insufficient
 * for CUDA runtime version"), and cudaDriverGetVersion says 12020 against
 * the runtime's 13000 (quantities driver_cuda_version, runtime_version; the
 * runtime unloads the libcuda it refused, so only the relaunch note names
 * its folder; the fixed variant's notes name the system's). Measured with driver 535's own
 * user-space driver (libcuda.so.1 535.261) first on the library path: that
 * file is all the runtime consults before refusing, so the kernel module
 * beneath it (the H200's 580, or none) is never reached — the refusal is the
 * one an installed driver 535 gives. With the system's driver every call
 * succeeds.
 *
 * What a PyTorch user sees (the mirror: PyTorch 2.11 built for CUDA 13.0,
 * driver 535's libcuda loaded first): "The NVIDIA driver on your system is
 * too old (found version 12020). Please update your GPU driver ..." at the
 * first CUDA tensor (data/results/dev/versions_h200_extra.txt).
 *
 * Why: each runtime needs a driver at least as new as its major release;
 * the driver reports the newest CUDA it supports (cuDriverGetVersion), and
 * the runtime refuses at its first call when that is of an older major
 * release.
 *
 * The fix: update the driver (580 or later for CUDA 13), or install the
 * build of the driver's CUDA major release (a cu12x wheel, the CUDA 12
 * toolkit); nvidia-smi's "CUDA Version" is the newest the driver supports.
 *
 * References: uzh-rpg/rpg_open_remode#9 and nagadomi/nunif#702 (a driver
 * older than the runtime; updating it fixed both); CUDA Compatibility,
 * "CUDA Toolkit and Corresponding Driver Versions"
 * (https://docs.nvidia.com/deploy/cuda-compatibility/).
 * Needs driver 535's files: harness/toolkit.sh fetch driver-535
 * ($ATLAS_DRIVER_535, default /opt/driver-535/lib).
 *
 * atlas:cause driver_too_old
 */
#include "driver_versions.h"

static void start_cuda(void)
{
    int runtime = 0, driver = 0, count = 0;
    ATLAS_CUDA("runtime_version", cudaRuntimeGetVersion(&runtime));
    atlas_quantity("runtime_version", runtime, "CUDA version x 1000");
    ATLAS_CUDA("driver_version", cudaDriverGetVersion(&driver));
    atlas_quantity("driver_cuda_version", driver, "CUDA version x 1000");
    dv_note_loaded("libcuda");
    ATLAS_CUDA("count", cudaGetDeviceCount(&count));
}

static void drivers_own_release(void) { start_cuda(); }

static void driver_of_cuda_12(void)
{
    if (CUDART_VERSION / 1000 <= 12)
        atlas_skip("driver 535 (CUDA 12.2) is of an older major release only for a CUDA 13 build");
    dv_relaunch_with_driver_535();
    start_cuda();
}

ATLAS_CASE(drivers_own_release, driver_of_cuda_12)
