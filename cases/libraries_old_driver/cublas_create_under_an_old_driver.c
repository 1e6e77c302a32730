/* cublas_create_under_an_old_driver — cublasCreate, the first cuBLAS call,
 * on a machine whose driver is older than the CUDA this cuBLAS needs.
 *
 * The mistake: a cuBLAS of CUDA 13 (a cu13x wheel, a CUDA 13 container)
 * under driver 535 (CUDA 12.2): the handle fails and the status names
 * cuBLAS, not the driver.
 *
 * What the program sees (H100, driver 580.159.04's kernel module
 * with driver 535.261's libcuda first on the library path; CUDA 13.0, cuBLAS
 * 13.1): cublasCreate returns CUBLAS_STATUS_NOT_INITIALIZED (1) — the
 * status it gives without any driver too; cudaDriverGetVersion then reports
 * 12020 (quantity driver_cuda_version), the loaded libcuda is 535's, and the
 * probe's cudaMalloc returns cudaErrorInsufficientDriver. Under the
 * system's driver 580 (13000) cublasCreate succeeds.
 *
 * What a PyTorch user sees: PyTorch checks the driver at its first CUDA
 * tensor, before cuBLAS is reached: "The NVIDIA driver on your system is too
 * old (found version 12020)" (driver_too_old_for_the_runtime's mirror).
 * Libraries calling cuBLAS themselves report the status below: CTranslate2
 * raised "cuBLAS failed with status CUBLAS_STATUS_NOT_INITIALIZED" when its
 * wheel's cuBLAS (CUDA 10.2) met a driver older than 440.33
 * (OpenNMT/CTranslate2#311).
 *
 * Why: cublasCreate initialises the CUDA runtime and makes the context on
 * the current device; a driver of an older major release than the runtime
 * is refused there, and cuBLAS reports only that it could not initialise.
 *
 * The fix: update the driver (580 or later for CUDA 13), or install the
 * cuBLAS of the driver's CUDA release.
 *
 * References: OpenNMT/CTranslate2#311 (CUBLAS_STATUS_NOT_INITIALIZED, a
 * cuBLAS newer than the driver; fixed by a wheel of the driver's CUDA);
 * invoke-ai/InvokeAI#25 and localminimum/QANet#5 (a library's
 * "NOT_INITIALIZED" at its first call, fixed by a driver update); cuBLAS
 * documentation, cublasCreate (https://docs.nvidia.com/cuda/cublas/#cublascreate);
 * CUDA Compatibility (https://docs.nvidia.com/deploy/cuda-compatibility/).
 * Needs driver 535's files: harness/toolkit.sh fetch driver-535
 * ($ATLAS_DRIVER_535, default /opt/driver-535/lib).
 *
 * atlas:cause driver_too_old
 */
#include "libraries_old_driver.h"
#include "atlas_cublas.h"

static void create_handle(void)
{
    cublasHandle_t handle;
    if (ATLAS_CUBLAS("cublas_create", cublasCreate(&handle)))
        ATLAS_CUBLAS("cublas_destroy", cublasDestroy(handle));
    lod_note_driver();
}

static void under_its_own_driver(void) { create_handle(); }

static void under_driver_535(void)
{
    lod_relaunch_with_driver_535();
    create_handle();
}

ATLAS_CASE(under_its_own_driver, under_driver_535)
