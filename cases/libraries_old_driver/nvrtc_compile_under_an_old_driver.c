/* nvrtc_compile_under_an_old_driver — nvrtcCompileProgram on a machine whose
 * driver is older than the CUDA this NVRTC belongs to, then the first CUDA
 * call.
 *
 * The mistake: blaming the run-time compiler for an old driver. NVRTC is a
 * compiler library: it turns CUDA C++ into PTX on the host and never talks
 * to the driver, so under driver 535 (CUDA 12.2) an NVRTC of CUDA 13
 * compiles as usual; the failure comes at the first call that needs the
 * driver (a context, or loading the PTX).
 *
 * What the program sees (H100, driver 580.159.04's kernel module
 * with driver 535.261's libcuda first on the library path; NVRTC 13.0.88):
 * nvrtcCreateProgram and nvrtcCompileProgram return NVRTC_SUCCESS and
 * produce 520 bytes of PTX, exactly as under the system's driver and as
 * without any driver; the first CUDA call after it, cudaGetDeviceCount
 * (step count), returns cudaErrorInsufficientDriver, and
 * cudaDriverGetVersion reports 12020.
 *
 * What a PyTorch user sees: PyTorch checks the driver at its first CUDA
 * tensor, before its JIT (jiterator, torch.cuda.jiterator) reaches NVRTC:
 * "The NVIDIA driver on your system is too old (found version 12020)"
 * (driver_too_old_for_the_runtime's mirror).
 *
 * Why: NVRTC needs no GPU and no driver (the CUDA documentation: "NVRTC is
 * a runtime compilation library for CUDA C++"; it outputs PTX, loaded
 * afterwards through the driver). The CUDA runtime checks the driver's
 * version at its first call and refuses one of an older major release.
 *
 * The fix: update the driver (580 or later for CUDA 13), or use the NVRTC
 * and runtime of the driver's CUDA release (its PTX must also be one the
 * driver can JIT-compile: ptx_newer_than_driver).
 *
 * References: invoke-ai/InvokeAI#25 and localminimum/QANet#5 (a library
 * blamed, the driver too old); NVRTC User Guide
 * (https://docs.nvidia.com/cuda/nvrtc/index.html); CUDA Compatibility
 * (https://docs.nvidia.com/deploy/cuda-compatibility/).
 * NVRTC is opened with dlopen (by its soname, as CuPy and PyTorch do), so
 * nothing is linked that the build would have to find.
 * Needs driver 535's files: harness/toolkit.sh fetch driver-535
 * ($ATLAS_DRIVER_535, default /opt/driver-535/lib).
 *
 * atlas:cause driver_too_old
 */
#include "libraries_old_driver.h"
#include <nvrtc.h>

static const char program_source[] = "extern \"C\" __global__ void noop(int *out) { if (out) *out = 1; }\n";

struct nvrtc {
    const char *(*error_string)(nvrtcResult);
    nvrtcResult (*create)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                          const char *const *);
    nvrtcResult (*compile)(nvrtcProgram, int, const char *const *);
    nvrtcResult (*ptx_size)(nvrtcProgram, size_t *);
    nvrtcResult (*destroy)(nvrtcProgram *);
};

static bool nvrtc_step(const struct nvrtc *n, const char *step, const char *text, nvrtcResult status)
{
    return atlas_record_call(step, "nvrtc", text, (long)status, n->error_string(status), status == NVRTC_SUCCESS);
}

/* The toolkit's own NVRTC, by the soname of this build's CUDA release. */
static bool open_nvrtc(struct nvrtc *n)
{
    char soname[64];
    snprintf(soname, sizeof soname, "libnvrtc.so.%d", CUDART_VERSION / 1000);
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        atlas_skip("needs the toolkit's NVRTC (libnvrtc.so.<major>) on the library path");
    *(void **)&n->error_string = dlsym(lib, "nvrtcGetErrorString");
    *(void **)&n->create = dlsym(lib, "nvrtcCreateProgram");
    *(void **)&n->compile = dlsym(lib, "nvrtcCompileProgram");
    *(void **)&n->ptx_size = dlsym(lib, "nvrtcGetPTXSize");
    *(void **)&n->destroy = dlsym(lib, "nvrtcDestroyProgram");
    dv_note_loaded("libnvrtc");
    return atlas_check("symbols", n->error_string && n->create && n->compile && n->ptx_size && n->destroy,
                       "nvrtcGetErrorString ... nvrtcDestroyProgram in %s", soname);
}

static void compile_then_count(void)
{
    struct nvrtc n;
    nvrtcProgram program;
    int count = 0;
    if (open_nvrtc(&n)
        && nvrtc_step(&n, "nvrtc_create", "nvrtcCreateProgram", n.create(&program, program_source, "noop.cu", 0, NULL, NULL))) {
        size_t ptx = 0;
        if (nvrtc_step(&n, "nvrtc_compile", "nvrtcCompileProgram(program, 0, NULL)", n.compile(program, 0, NULL))
            && n.ptx_size(program, &ptx) == NVRTC_SUCCESS)
            atlas_quantity("ptx_bytes", (double)ptx, "nvrtcGetPTXSize");
        n.destroy(&program);
    }
    /* The first call that needs the driver: where the old driver shows. */
    ATLAS_CUDA("count", cudaGetDeviceCount(&count));
    lod_note_driver();
}

static void under_its_own_driver(void) { compile_then_count(); }

static void under_driver_535(void)
{
    lod_relaunch_with_driver_535();
    compile_then_count();
}

ATLAS_CASE(under_its_own_driver, under_driver_535)
