/* cudnn_create_under_an_old_driver — cudnnCreate, the first cuDNN call, on
 * a machine whose driver is older than the CUDA the cuDNN build needs.
 *
 * The mistake: installing a framework (and its cuDNN) built for a newer CUDA
 * than the driver supports — here cuDNN 9 for CUDA 13 under driver 535
 * (CUDA 12.2) — and reading the error as a cuDNN problem. TensorFlow 1.x
 * printed it as
 *   could not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED
 *   possibly insufficient driver version: 384.69.0
 * and the fix in every such thread was a driver update.
 *
 * What the program sees (H100, driver 580.159.04's kernel module
 * with driver 535.261's libcuda first on the library path; CUDA 13.0, cuDNN
 * 9.19): cudnnCreate returns CUDNN_STATUS_NOT_INITIALIZED (1001), and
 * cudnnGetLastErrorString says only "cudaGetDeviceCount(&count) !=
 * cudaSuccess"; cudaDriverGetVersion then reports 12020 (quantity
 * driver_cuda_version) and the probe's cudaMalloc returns
 * cudaErrorInsufficientDriver. The same status as without any driver (this
 * project's machine without a GPU): the status does not tell the two apart.
 * Under the system's driver 580 (13000) cudnnCreate succeeds.
 *
 * What a PyTorch user sees: PyTorch checks the driver at its first CUDA
 * tensor, before any cuDNN call, and raises "The NVIDIA driver on your
 * system is too old (found version 12020)" (driver_too_old_for_the_runtime's
 * mirror). Older stacks reached cuDNN first: InvokeAI#25 (PyTorch, 2022)
 * reported CUDNN_STATUS_NOT_INITIALIZED, solved by a driver update, and
 * TensorFlow 1.5 printed the lines quoted above (QANet#5).
 *
 * Why: cuDNN creates its handle on the current device through the CUDA
 * runtime and driver; when the driver is too old for the runtime, no
 * context can be made and the handle cannot be initialised.
 *
 * The fix: update the driver to one of the CUDA major release the framework
 * was built for (nvidia-smi's "CUDA Version" is the newest it supports), or
 * install the build of the driver's release.
 *
 * References: invoke-ai/InvokeAI#25 ("CUDNN_STATUS_NOT_INITIALIZED - SOLVED:
 * Update your GPU" driver); localminimum/QANet#5 ("could not create cudnn
 * handle: CUDNN_STATUS_NOT_INITIALIZED ... possibly insufficient driver
 * version: 384.69.0", fixed by driver 387.34); cuDNN documentation,
 * cudnnCreate
 * (https://docs.nvidia.com/deeplearning/cudnn/api/latest/api/cudnn-graph-library.html#cudnncreate);
 * CUDA Compatibility (https://docs.nvidia.com/deploy/cuda-compatibility/).
 * Needs driver 535's files: harness/toolkit.sh fetch driver-535
 * ($ATLAS_DRIVER_535, default /opt/driver-535/lib).
 *
 * atlas:cause driver_too_old
 */
#include "libraries_old_driver.h"
#include <cudnn.h>
#include "atlas_libraries.h"

static void create_handle(void)
{
    cudnnHandle_t handle;
    atlas_quantity("cudnn_version", (double)cudnnGetVersion(), "cudnnGetVersion");
    if (ATLAS_CUDNN("cudnn_create", cudnnCreate(&handle)))
        ATLAS_CUDNN("cudnn_destroy", cudnnDestroy(handle));
    lod_note_driver();
}

static void under_its_own_driver(void) { create_handle(); }

static void under_driver_535(void)
{
    lod_relaunch_with_driver_535();
    create_handle();
}

ATLAS_CASE(under_its_own_driver, under_driver_535)
