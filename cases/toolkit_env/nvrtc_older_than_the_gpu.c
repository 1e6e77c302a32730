/* nvrtc_older_than_the_gpu — NVRTC 11.8 asked to compile for compute_120, an
 * architecture newer than its release knows.
 *
 * The mistake: compiling at run time for "the GPU's architecture" read from
 * the device (cudaGetDeviceProperties' major.minor, as CuPy does) and passing
 * it to an NVRTC older than that GPU. Each NVRTC knows the architectures up
 * to its own release: 11.8 stops at compute_90, so a GeForce RTX 50xx
 * (Blackwell, compute capability 12.0) is beyond it. No GPU here is that new:
 * the architecture is only named, as CuPy names the GPU's, and NVRTC needs no
 * GPU to refuse it.
 *
 * What the program sees (no driver, NVRTC 11.8.89 of Debian's CUDA 11.8, and
 * the same release's wheel with no driver and on the H100 and the H200, also
 * under compute-sanitizer; nvrtcVersion 11.8, quantity nvrtc_version 11080):
 * nvrtcCompileProgram with
 * --gpu-architecture=compute_120 returns NVRTC_ERROR_INVALID_OPTION (5)
 * (step compile), and the program log, printed
 * on stderr, says
 *   nvrtc: error: invalid value for --gpu-architecture (-arch)
 * nvrtcGetSupportedArchs lists 16 architectures, 35 to 90 (quantity
 * highest_arch 90), and the same program compiles (NVRTC_SUCCESS) for
 * compute_90, the highest of them not above 120. No CUDA call is made: the
 * failure is the compiler's option check.
 *
 * What a PyTorch user sees: CuPy (cupy/cupy#1048; CUDA 8.0's NVRTC, which
 * stopped at compute_53, asked for a GTX 1080's compute_61):
 *   NVRTC compilation error: nvrtc: error: invalid value for --gpu-architecture (-arch)
 *   cupy.cuda.nvrtc.NVRTCError: NVRTC_ERROR_INVALID_OPTION (5)
 * PyTorch's JIT fuser compiles with NVRTC too and raises the log itself
 * (PRBonn/MaskPLS#18, PyTorch 1.10 with CUDA 11.3; not recorded here):
 *   RuntimeError: nvrtc: error: invalid value for --gpu-architecture (-arch)
 *
 * Why: NVRTC validates --gpu-architecture against the list built into its
 * release before it compiles anything; a newer GPU's architecture is simply
 * not in that list. (A newer GPU can still run compute_90 PTX: the driver
 * JIT-compiles PTX for newer architectures.)
 *
 * The fix: ask NVRTC what it supports (nvrtcGetNumSupportedArchs and
 * nvrtcGetSupportedArchs, CUDA 11.2 and later) and compile for the highest
 * architecture not above the GPU's, as this case's fixed variant does (CuPy's
 * fix capped the arch at what its CUDA version supports); or use an NVRTC
 * that lists the GPU's architecture (the toolkit's NVRTC 13.0 here lists 75
 * to 121, compute_120 among them).
 *
 * References: cupy/cupy#1048, "cupy.cuda.compiler.CompileException: nvrtc:
 * error" (https://github.com/cupy/cupy/issues/1048); PRBonn/MaskPLS#18
 * (https://github.com/PRBonn/MaskPLS/issues/18); NVRTC User Guide, General
 * Information Query (https://docs.nvidia.com/cuda/nvrtc/index.html):
 * "nvrtcGetSupportedArchs populates the array passed via the output
 * parameter supportedArchs with the architectures supported by NVRTC".
 * Needs NVRTC 11.8 (harness/toolkit.sh fetch nvrtc-11.8, its 23 MB wheel, or
 * fetch 11.8, the whole toolkit; $ATLAS_NVRTC_11_8 names another); opened with
 * dlopen, so the toolkit's own NVRTC does not answer instead.
 *
 * atlas:cause nvrtc_older_than_gpu_arch
 */
#include "nvrtc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A GeForce RTX 50xx: compute capability 12.0. */
enum { THE_GPU_ARCH = 120 };

/* NVRTC opens its builtins by soname when it compiles; outside the system's
 * library folders they are found only when already loaded (what CuPy and
 * PyTorch do for NVRTC wheels): load them first, from NVRTC's own folder. */
static void *open_with_its_builtins(const char *path)
{
    char builtins[4096];
    const char *slash = strrchr(path, '/');
    snprintf(builtins, sizeof builtins, "%.*slibnvrtc-builtins.so.11.8", slash ? (int)(slash - path + 1) : 0, path);
    return dlopen(builtins, RTLD_NOW | RTLD_GLOBAL) ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
}

static bool open_nvrtc_11_8(struct nvrtc *n)
{
    /* $ATLAS_NVRTC_11_8, else Debian's CUDA 11.8 toolkit, else NVRTC 11.8's wheel */
    const char *given = getenv("ATLAS_NVRTC_11_8");
    const char *places[] = {given && *given ? given : "/opt/cuda-11.8/usr/lib/x86_64-linux-gnu/libnvrtc.so",
                            "/opt/nvrtc-11.8/lib/libnvrtc.so.11.2"};
    for (int i = 0; i < (given && *given ? 1 : 2); i++) {
        void *lib = open_with_its_builtins(places[i]);
        if (lib) {
            atlas_note("loaded %s", places[i]);
            return nvrtc_take(n, lib, places[i]);
        }
    }
    atlas_skip("needs NVRTC 11.8: harness/toolkit.sh fetch nvrtc-11.8 (or fetch 11.8, "
               "or ATLAS_NVRTC_11_8=<path of its libnvrtc.so>)");
}

/* The highest architecture this NVRTC lists that is not above `gpu`: the cap
 * CuPy's fix applies. 0 when it lists none. */
static int highest_supported_arch(const struct nvrtc *n, int gpu)
{
    int count = 0, archs[128], best = 0;
    if (!nvrtc_step(n, "supported_archs", "nvrtcGetNumSupportedArchs(&count)", n->num_archs(&count)))
        return 0;
    if (count < 1 || count > (int)(sizeof archs / sizeof *archs)
        || !nvrtc_step(n, "supported_archs", "nvrtcGetSupportedArchs(archs)", n->archs(archs)))
        return 0;
    atlas_note("nvrtcGetSupportedArchs: %d architectures, %d to %d", count, archs[0], archs[count - 1]);
    atlas_quantity("highest_arch", archs[count - 1], "nvrtcGetSupportedArchs, last");
    for (int i = 0; i < count; i++)
        if (archs[i] <= gpu && archs[i] > best)
            best = archs[i];
    return best;
}

/* Compile the one-kernel program for compute_<arch>, and print the program
 * log on stderr as NVRTC wrote it. */
static void compile_for(const struct nvrtc *n, int arch)
{
    char option[64];
    snprintf(option, sizeof option, "--gpu-architecture=compute_%d", arch);
    const char *options[] = {option};
    nvrtcProgram program;
    if (!nvrtc_step(n, "create_program", "nvrtcCreateProgram", n->create(&program, program_source, "noop.cu", 0, NULL, NULL)))
        return;
    char text[128];
    snprintf(text, sizeof text, "nvrtcCompileProgram(%s)", option);
    nvrtc_step(n, "compile", text, n->compile(program, 1, options));
    size_t size = 0;
    static char log[1 << 14];
    if (n->log_size(program, &size) == NVRTC_SUCCESS && size > 1 && size <= sizeof log
        && n->log(program, log) == NVRTC_SUCCESS)
        fprintf(stderr, "%s%s", log, log[size - 2] == '\n' ? "" : "\n");
    n->destroy(&program);
}

static void arch_capped_at_what_nvrtc_supports(void)
{
    struct nvrtc n;
    if (!open_nvrtc_11_8(&n))
        return;
    int arch = highest_supported_arch(&n, THE_GPU_ARCH);
    if (atlas_check("cap", arch > 0, "an architecture at or below compute_%d in nvrtcGetSupportedArchs", THE_GPU_ARCH))
        compile_for(&n, arch);
}

static void arch_of_the_gpu_as_it_is(void)
{
    struct nvrtc n;
    if (!open_nvrtc_11_8(&n))
        return;
    highest_supported_arch(&n, THE_GPU_ARCH);
    compile_for(&n, THE_GPU_ARCH);
}

ATLAS_CASE(arch_capped_at_what_nvrtc_supports, arch_of_the_gpu_as_it_is)
