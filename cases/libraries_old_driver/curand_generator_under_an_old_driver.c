/* curand_generator_under_an_old_driver — curandCreateGenerator, the first
 * cuRAND call, on a machine whose driver is older than the CUDA this cuRAND
 * needs.
 *
 * The mistake: a cuRAND of CUDA 13 under driver 535 (CUDA 12.2): the
 * generator fails with a cuRAND status that never names the driver.
 *
 * What the program sees (H100 and H200, driver 580.159.04's kernel module
 * with driver 535.261's libcuda first on the library path; CUDA 13.0):
 * curandCreateGenerator returns CURAND_STATUS_INITIALIZATION_FAILED (203;
 * curand.h: "Initialization of CUDA failed"), as without any driver;
 * cudaDriverGetVersion then reports 12020, and the probe's cudaMalloc
 * returns cudaErrorInsufficientDriver. Under the system's driver 580 (13000)
 * the generator is made.
 *
 * What a PyTorch user sees: PyTorch has its own generators and checks the
 * driver at its first CUDA tensor: "The NVIDIA driver on your system is too
 * old (found version 12020)" (driver_too_old_for_the_runtime's mirror).
 * Caffe ("Cannot create Curand generator. Curand won't be available."), CuPy,
 * CUDA.jl and programs calling cuRAND themselves see the status below.
 *
 * Why: a device generator is made on the current device: curandCreateGenerator
 * needs the runtime and a context, and a driver of an older major release is
 * refused there.
 *
 * The fix: update the driver (580 or later for CUDA 13), or install the
 * cuRAND of the driver's CUDA release.
 *
 * References: CMU-Perceptual-Computing-Lab/openpose#1888 ("Cannot create
 * Curand generator", solved by updating the driver); JuliaGPU/CUDA.jl#2496
 * (CURAND_STATUS_INITIALIZATION_FAILED at curandCreateGenerator when the
 * driver the library loaded was not the one it needed); cuRAND documentation,
 * curandCreateGenerator (https://docs.nvidia.com/cuda/curand/host-api-overview.html);
 * CUDA Compatibility (https://docs.nvidia.com/deploy/cuda-compatibility/).
 * Needs driver 535's files: harness/toolkit.sh fetch driver-535
 * ($ATLAS_DRIVER_535, default /opt/driver-535/lib).
 *
 * atlas:cause driver_too_old
 */
#include "libraries_old_driver.h"
#include <curand.h>
#include "atlas_libraries.h"

static void create_generator(void)
{
    curandGenerator_t generator;
    if (ATLAS_CURAND("curand_create", curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT)))
        ATLAS_CURAND("curand_destroy", curandDestroyGenerator(generator));
    lod_note_driver();
}

static void under_its_own_driver(void) { create_generator(); }

static void under_driver_535(void)
{
    lod_relaunch_with_driver_535();
    create_generator();
}

ATLAS_CASE(under_its_own_driver, under_driver_535)
