/* ptx_from_a_newer_nvrtc — PTX written by a newer toolkit's NVRTC (13.2)
 * than the driver's CUDA release (580 = 13.0), loaded with the driver API.
 *
 * The mistake: generating PTX at build time (or at run time with a pip-
 * installed NVRTC, as Triton, CuPy and JIT extensions do) with a toolkit
 * newer than the driver of the machine that loads it, and shipping PTX alone.
 * Each NVRTC writes its own PTX ISA version (13.2 writes .version 9.2), even
 * for a kernel that uses nothing new.
 *
 * What the program sees (H200, CUDA 13.0): cuModuleLoadData returns
 * CUDA_ERROR_UNSUPPORTED_PTX_VERSION for NVRTC 13.2's PTX (.version 9.2;
 * cases/driver_versions/ptx/, made by harness/toolkit.sh ptx) — with every
 * runtime from 11.8 to 13.5 in front of it: the driver decides — where the
 * same kernel from NVRTC 13.0 (.version 9.0) loads and runs. The context
 * stays usable. cases/toolkit_env/ptx_newer_than_driver
 * shows the same refusal for a hand-written .version 9.9 through the
 * runtime; this one is a real toolkit's output.
 *
 * What a PyTorch user sees: "RuntimeError: CUDA error: the provided PTX was
 * compiled with an unsupported toolchain." from a Triton kernel or a JIT
 * extension built with a newer CUDA than the driver (not recorded here).
 *
 * Why: the driver JIT-compiles PTX only up to the ISA version of its own
 * release; minor-version compatibility covers the runtime's API, not PTX.
 *
 * The fix: ship SASS for the GPUs you target (cubin / -gencode code=sm_XX)
 * beside the PTX, generate PTX with the driver's toolkit version or older
 * (pin the NVRTC wheel), or update the driver.
 *
 * References: NVIDIA/nvbandwidth#61, driver 580 and CUDA 13.2:
 * "[cudaErrorUnsupportedPtxVersion] the provided PTX was compiled with an
 * unsupported toolchain" (https://github.com/NVIDIA/nvbandwidth/issues/61);
 * CUDA Driver API, cuModuleLoadData (opened with dlopen, as the runtime does).
 *
 * atlas:cause ptx_newer_than_driver
 */
#include "driver_versions.h"

static void load_and_run(const char *path, const char *fetch)
{
    static char ptx[1 << 16];
    FILE *f = fopen(path, "rb");
    if (!f)
        atlas_skip(fetch);
    size_t n = fread(ptx, 1, sizeof ptx - 1, f);
    fclose(f);
    ptx[n] = '\0';
    char *version = strstr(ptx, ".version ");
    atlas_note("%s: %.12s", path, version ? version : "no .version line");

    struct atlas_driver cu;
    CUmodule module;
    CUfunction noop;
    if (!ATLAS_CUDA("context", cudaFree(0)) || !atlas_driver_open(&cu))
        return;
    if (!DV_CU(&cu, "load", cu.cuModuleLoadData(&module, ptx)))
        return;
    if (DV_CU(&cu, "get_function", cu.cuModuleGetFunction(&noop, module, "noop"))) {
        void *out = NULL;
        void *args[] = {&out};
        DV_CU(&cu, "launch", cu.cuLaunchKernel(noop, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    cu.cuModuleUnload(module);
}

static void ptx_of_nvrtc_13_0(void)
{
    load_and_run("cases/driver_versions/ptx/noop.nvrtc-13.0.ptx",
                 "needs the PTX of NVRTC 13.0: harness/toolkit.sh ptx /usr/local/cuda/lib64/libnvrtc.so.13 "
                 "cases/driver_versions/ptx/noop.nvrtc-13.0.ptx");
}

static void ptx_of_nvrtc_13_2(void)
{
    load_and_run("cases/driver_versions/ptx/noop.nvrtc-13.2.ptx",
                 "needs the PTX of NVRTC 13.2: harness/toolkit.sh fetch nvrtc-13.2 && harness/toolkit.sh ptx "
                 "/opt/nvrtc-13.2/lib/libnvrtc.so.13 cases/driver_versions/ptx/noop.nvrtc-13.2.ptx");
}

ATLAS_CASE(ptx_of_nvrtc_13_0, ptx_of_nvrtc_13_2)
