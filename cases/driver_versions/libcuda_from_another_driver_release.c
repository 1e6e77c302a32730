/* libcuda_from_another_driver_release — the user-space driver of another
 * release (535) first on the library path, under this machine's kernel
 * module (580).
 *
 * The mistake: libcuda.so.1 and libnvidia-ml.so.1 must be the files of the
 * kernel module's own release. A container image or a venv that carries its
 * own copy (compat libraries for another driver, a leftover after a driver
 * upgrade, LD_LIBRARY_PATH pointing into an old install) puts a different
 * release in front of the system's.
 *
 * What the program sees (H200, CUDA 13.0): with driver 535's files first,
 * cudaGetDeviceCount returns cudaErrorInsufficientDriver — libcuda 535 tells
 * the runtime it supports CUDA 12.2 (driver_cuda_version 12020), so the 13.0
 * runtime refuses before the kernel module is even asked — and so does the
 * harness's probe afterwards; NVML 535's nvmlInit_v2 returns
 * NVML_ERROR_LIB_RM_VERSION_MISMATCH (18), recorded as the check nvml_init.
 * A CUDA 12 runtime (12.4 recorded; 11.8 and 12.0 to 12.9 printed the same)
 * does ask the module: cudaGetDeviceCount and the probe return
 * cudaErrorSystemDriverMismatch (803, "system has unsupported display driver
 * / cuda driver combination") — the mismatch itself, the "Error 803" of
 * Jonah-May-OSS/wyoming-whisper-trt#372 after a driver update without a
 * reboot. With the system's files every call succeeds. The notes name the
 * files that answered.
 *
 * What a PyTorch user sees (recorded on the H200 with the same library path,
 * data/results/dev/versions_h200_extra.txt): "RuntimeError: The NVIDIA
 * driver on your system is too old (found version 12020)" at the first CUDA
 * tensor, and nvidia-smi prints "Failed to initialize NVML: Driver/library
 * version mismatch / NVML library version: 535.261".
 *
 * Why: the user-space driver talks to the kernel module through ioctls whose
 * layout belongs to one release, and NVML checks the module's version and
 * refuses another; libcuda is also what tells the runtime which CUDA version
 * the driver supports, so an older libcuda makes a newer runtime refuse
 * first, with the message of a too-old driver.
 *
 * The fix: take libcuda and NVML from the driver installation (the NVIDIA
 * container toolkit mounts them); remove other copies from LD_LIBRARY_PATH;
 * after a driver upgrade, reboot or reload the kernel module.
 *
 * References: intel/llvm#17614, "Failed to initialize NVML: Driver/library
 * version mismatch ... NVML library version: 550.144"
 * (https://github.com/intel/llvm/issues/17614);
 * NVIDIA/ubuntu-packaging-nvidia-driver#3
 * (https://github.com/NVIDIA/ubuntu-packaging-nvidia-driver/issues/3).
 * Needs driver 535's files: harness/toolkit.sh fetch driver-535
 * ($ATLAS_DRIVER_535, default /opt/driver-535/lib).
 *
 * atlas:cause libcuda_kernel_module_mismatch
 */
#include "driver_versions.h"

typedef int (*nvml_init_fn)(void);
typedef int (*nvml_version_fn)(char *, unsigned int);

static void ask_driver_and_nvml(void)
{
    int count = 0, version = 0;
    ATLAS_CUDA("count", cudaGetDeviceCount(&count));
    ATLAS_CUDA("driver_version", cudaDriverGetVersion(&version));
    atlas_quantity("driver_cuda_version", version, "CUDA version x 1000");
    dv_note_loaded("libcuda");

    void *nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!atlas_check("nvml_open", nvml != NULL, "dlopen(libnvidia-ml.so.1): %s", nvml ? "loaded" : dlerror()))
        return;
    nvml_init_fn init = (nvml_init_fn)dlsym(nvml, "nvmlInit_v2");
    nvml_version_fn driver = (nvml_version_fn)dlsym(nvml, "nvmlSystemGetDriverVersion");
    if (!atlas_check("nvml_symbols", init && driver, "nvmlInit_v2 and nvmlSystemGetDriverVersion"))
        return;
    if (dv_nvml("nvml_init", "nvmlInit_v2()", init())) {
        char text[96] = "";
        if (dv_nvml("nvml_driver", "nvmlSystemGetDriverVersion(text, sizeof text)", driver(text, sizeof text)))
            atlas_note("NVML says driver %s", text);
    }
    dv_note_loaded("libnvidia-ml");
}

static void system_driver(void) { ask_driver_and_nvml(); }

static void driver_535_first(void)
{
    dv_relaunch_with_driver_535();
    ask_driver_and_nvml();
}

ATLAS_CASE(system_driver, driver_535_first)
