/* nccl_init_under_an_old_driver — ncclCommInitAll for one GPU, the first
 * NCCL call that needs a device, on a machine whose driver is older than the
 * CUDA this NCCL needs.
 *
 * The mistake: an NCCL built for CUDA 13 (PyTorch's cu13x wheel brings one)
 * under driver 535 (CUDA 12.2): the communicator fails, and NCCL's status
 * names CUDA only in general terms.
 *
 * What the program sees (H100, driver 580.159.04's kernel module
 * with driver 535.261's libcuda first on the library path; CUDA 13.0, NCCL
 * 2.28.9): ncclCommInitAll for device 0 returns ncclUnhandledCudaError (1),
 * "unhandled cuda error (run with NCCL_DEBUG=INFO for details)", as
 * without any driver; cudaDriverGetVersion then reports 12020, and the
 * probe's cudaMalloc returns cudaErrorInsufficientDriver. Under the
 * system's driver 580 (13000) the one-rank communicator is made.
 *
 * What a PyTorch user sees: PyTorch checks the driver at its first CUDA
 * tensor, before torch.distributed reaches NCCL: "The NVIDIA driver on your
 * system is too old (found version 12020)" (driver_too_old_for_the_runtime's
 * mirror).
 *
 * Why: a communicator is made on devices: NCCL queries and sets them through
 * the CUDA runtime, which refuses a driver of an older major release.
 *
 * The fix: update the driver (580 or later for CUDA 13), or install the NCCL
 * (and framework) of the driver's CUDA release.
 *
 * References: invoke-ai/InvokeAI#25 and localminimum/QANet#5 (a library's
 * first call failing under a driver too old, fixed by updating it); NCCL
 * documentation, ncclCommInitAll
 * (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/api/comms.html#ncclcomminitall);
 * CUDA Compatibility (https://docs.nvidia.com/deploy/cuda-compatibility/).
 * Needs driver 535's files: harness/toolkit.sh fetch driver-535
 * ($ATLAS_DRIVER_535, default /opt/driver-535/lib).
 *
 * atlas:cause driver_too_old
 */
#include "libraries_old_driver.h"
#include <nccl.h>
#include "atlas_libraries.h"

static void init_one_rank(void)
{
    int version = 0, devices[1] = {0};
    ncclComm_t comm;
    if (ncclGetVersion(&version) == ncclSuccess)
        atlas_quantity("nccl_version", version, "ncclGetVersion");
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    if (ATLAS_NCCL("nccl_init", ncclCommInitAll(&comm, 1, devices)))
        ATLAS_NCCL("nccl_destroy", ncclCommDestroy(comm));
    lod_note_driver();
}

static void under_its_own_driver(void) { init_one_rank(); }

static void under_driver_535(void)
{
    lod_relaunch_with_driver_535();
    init_one_rank();
}

ATLAS_CASE(under_its_own_driver, under_driver_535)
