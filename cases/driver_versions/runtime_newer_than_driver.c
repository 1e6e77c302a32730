/* runtime_newer_than_driver — a CUDA 13.5 runtime (libcudart from its
 * wheel) first on the library path, under driver 580 (CUDA 13.0).
 *
 * The mistake: pip-installing a newer nvidia-cuda-runtime than the driver's
 * CUDA version (a framework wheel built for 13.x pulls it in), counting on
 * minor-version compatibility for everything.
 *
 * What the program sees (H200 and H100, driver 580, CUDA 13.0; also under
 * compute-sanitizer): nothing fails — count,
 * allocate, copy and synchronize succeed with the 13.5 runtime as with
 * 13.0's, and the runtime says 13050 under a driver that says 13000
 * (quantities runtime_version, driver_version; the notes name the libcudart
 * that answered). The runtime columns of the atlas (cudart 13.1 ... 13.5)
 * run the whole cudart-only corpus this way with 13.0's outcomes.
 *
 * What a PyTorch user sees: the same as the program — a runtime wheel of a
 * newer minor release runs on the older driver of its major release — until
 * something needs what only the newer driver has: the PTX a newer toolkit
 * writes (ptx_from_a_newer_nvrtc) or a newer API ("operation not supported
 * on this driver"; not recorded: PyTorch here is built for 13.0).
 *
 * Why: within a major release the runtime asks the driver only for what the
 * driver's release has (minor-version compatibility); across a major
 * release (a 13.x runtime on a 12.x driver) it refuses at the first call.
 *
 * The fix: nothing for the calls recorded here; for features of the newer
 * release (and for PTX it writes) update the driver, or pin the runtime
 * wheel to the driver's CUDA version.
 *
 * References: NVIDIA/nvbandwidth#61, driver 580 with CUDA 13.2
 * (https://github.com/NVIDIA/nvbandwidth/issues/61); CUDA Compatibility,
 * "Minor Version Compatibility"
 * (https://docs.nvidia.com/deploy/cuda-compatibility/).
 * Needs the 13.5 runtime: harness/toolkit.sh fetch 13.5
 * ($ATLAS_CUDART_NEWER, default /opt/cuda-13.5/lib).
 *
 * atlas:cause runtime_newer_minor_than_driver
 */
#include "driver_versions.h"

static void use_runtime(void)
{
    int runtime = 0, driver = 0, count = 0;
    ATLAS_CUDA("runtime_version", cudaRuntimeGetVersion(&runtime));
    ATLAS_CUDA("driver_version", cudaDriverGetVersion(&driver));
    atlas_quantity("runtime_version", runtime, "CUDA version x 1000");
    atlas_quantity("driver_version", driver, "CUDA version x 1000");
    dv_note_loaded("libcudart");
    if (!ATLAS_CUDA("count", cudaGetDeviceCount(&count)))
        return;
    int host[256] = {0}, back[256] = {0};
    for (int i = 0; i < 256; i++)
        host[i] = i;
    int *device = NULL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&device, sizeof host)))
        return;
    ATLAS_CUDA("copy_in", cudaMemcpy(device, host, sizeof host, cudaMemcpyHostToDevice));
    ATLAS_CUDA("copy_out", cudaMemcpy(back, device, sizeof back, cudaMemcpyDeviceToHost));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    atlas_check("result", memcmp(host, back, sizeof host) == 0, "the copy came back unchanged");
    cudaFree(device);
}

static void runtime_of_the_driver(void) { use_runtime(); }

static void runtime_13_5_first(void)
{
    if (CUDART_VERSION / 1000 != 13)
        atlas_skip("the 13.5 runtime stands in for a CUDA 13 runtime only; this build is of another major version");
    const char *folder = dv_folder_with("ATLAS_CUDART_NEWER", "/opt/cuda-13.5/lib", "libcudart.so.13");
    if (!folder)
        atlas_skip("needs the CUDA 13.5 runtime: harness/toolkit.sh fetch 13.5");
    dv_relaunch_with_library_path(folder, "broken");
    use_runtime();
}

ATLAS_CASE(runtime_of_the_driver, runtime_13_5_first)
