/* nvrtc_arch_older_than_it_supports — NVRTC 13.0 asked to compile for
 * compute_61 (a GeForce GTX 1080), an architecture its release has dropped.
 *
 * The mistake: compiling at run time for "the GPU's architecture" with an
 * NVRTC newer than the GPU's support window. Each CUDA release drops old
 * architectures: 11.0 dropped compute_30 (Kepler's first), 12.0 compute_35
 * and 37, 13.0 everything before Turing (compute_50 to compute_72). CuPy and
 * PyTorch's JIT ask NVRTC for the device's own compute capability, so an old
 * GPU with a new toolkit gets an error before any code runs. The architecture
 * is only named here: NVRTC needs no GPU to refuse it.
 * (cases/toolkit_env/nvrtc_older_than_the_gpu is the other end of the window:
 * an NVRTC too old for a new GPU.)
 *
 * What the program sees (NVRTC 13.0 of the toolkit, with no driver and on
 * the H100 with driver 580.159.04; nvrtcVersion 13.0): nvrtcCompileProgram
 * with --gpu-architecture=compute_61 returns NVRTC_ERROR_INVALID_OPTION (5)
 * (step compile) and the log says
 *   nvrtc: error: invalid value for --gpu-architecture (-arch)
 * — the words an architecture too new gets. nvrtcGetSupportedArchs lists 12
 * architectures, 75 to 121 (quantity lowest_listed_arch 75); compiling for
 * each of 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72 is refused, and 75 is
 * the oldest accepted (quantity oldest_accepted_arch 75): the list and the
 * compiler agree. compute_75 compiles (NVRTC_SUCCESS).
 *
 * What a PyTorch user sees: CuPy 13.6 with CUDA 13.0 on a GTX 1080
 * (cupy/cupy#9475):
 *   NVRTC_ERROR_INVALID_OPTION (5)
 *   nvrtc: error: invalid value for --gpu-architecture (-arch)
 * PyTorch's own wheels for CUDA 13 carry no kernels for these GPUs either
 * (not recorded here).
 *
 * Why: NVRTC validates --gpu-architecture against the list built into its
 * release; architectures dropped from the toolkit are no longer in it, and
 * the message does not say "too old" — the same words as for a too-new one.
 *
 * The fix: an NVRTC (toolkit, wheel) whose nvrtcGetSupportedArchs still lists
 * the GPU's architecture — CUDA 12.x for compute_50 to compute_72 — or a GPU
 * this toolkit supports; check the list before compiling, as both variants do.
 * The fixed variant compiles for compute_75 (a T4), the oldest that NVRTC 13.0
 * accepts.
 *
 * References: cupy/cupy#9475, "GTX 1080 | NVRTC_ERROR_INVALID_OPTION (5) &&
 * nvrtc: error: invalid value for --gpu-architecture (-arch)"
 * (https://github.com/cupy/cupy/issues/9475); NVIDIA/jitify#75 (compute_30
 * with CUDA 11.0: "NVRTC error: NVRTC_ERROR_INVALID_OPTION",
 * https://github.com/NVIDIA/jitify/issues/75); NVRTC
 * User Guide, Supported Compile Options
 * (https://docs.nvidia.com/cuda/nvrtc/index.html). Uses the toolkit's own
 * NVRTC (libnvrtc.so.13), opened with dlopen.
 *
 * atlas:cause nvrtc_newer_than_gpu_arch
 */
#include "nvrtc.h"

#include <stdio.h>
#include <string.h>

static bool open_nvrtc(struct nvrtc *n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/libnvrtc.so.13", ATLAS_CUDA_LIBRARY_DIR);
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        atlas_skip("needs the toolkit's NVRTC 13 (libnvrtc.so.13)");
    return nvrtc_take(n, lib, path);
}

/* Compile for compute_<arch>; the status, and the log on stderr when asked. */
static nvrtcResult compile_for(const struct nvrtc *n, int arch, bool print_log)
{
    char option[64];
    snprintf(option, sizeof option, "--gpu-architecture=compute_%d", arch);
    const char *options[] = {option};
    nvrtcProgram program;
    nvrtcResult created = n->create(&program, program_source, "noop.cu", 0, NULL, NULL);
    if (created != NVRTC_SUCCESS)
        return created;
    nvrtcResult status = n->compile(program, 1, options);
    size_t size = 0;
    static char log[1 << 14];
    if (print_log && n->log_size(program, &size) == NVRTC_SUCCESS && size > 1 && size <= sizeof log
        && n->log(program, log) == NVRTC_SUCCESS)
        fprintf(stderr, "%s%s", log, log[size - 2] == '\n' ? "" : "\n");
    n->destroy(&program);
    return status;
}

/* What this NVRTC lists, and the oldest architecture it really accepts, found
 * by compiling for each of a fixed list of old ones (Kepler to Ampere). */
static void measure_the_window(const struct nvrtc *n)
{
    int count = 0, archs[128];
    if (nvrtc_step(n, "supported_archs", "nvrtcGetNumSupportedArchs(&count)", n->num_archs(&count))
        && count >= 1 && count <= (int)(sizeof archs / sizeof *archs)
        && nvrtc_step(n, "supported_archs", "nvrtcGetSupportedArchs(archs)", n->archs(archs))) {
        atlas_note("nvrtcGetSupportedArchs: %d architectures, %d to %d", count, archs[0], archs[count - 1]);
        atlas_quantity("lowest_listed_arch", archs[0], "nvrtcGetSupportedArchs, first");
    }
    static const int tried[] = {30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80};
    int oldest = 0;
    char refused[256] = "";
    for (size_t i = 0; i < sizeof tried / sizeof *tried; i++) {
        if (compile_for(n, tried[i], false) == NVRTC_SUCCESS) {
            oldest = tried[i];
            break;
        }
        snprintf(refused + strlen(refused), sizeof refused - strlen(refused), " %d", tried[i]);
    }
    atlas_note("refused:%s", refused[0] ? refused : " none");
    atlas_quantity("oldest_accepted_arch", oldest, "compute_XX, first of 30..80 that compiles (0: none)");
}

static void compile_and_record(int arch)
{
    struct nvrtc n;
    if (!open_nvrtc(&n))
        return;
    measure_the_window(&n);
    char text[96];
    snprintf(text, sizeof text, "nvrtcCompileProgram(--gpu-architecture=compute_%d)", arch);
    nvrtc_step(&n, "compile", text, compile_for(&n, arch, true));
}

/* A Tesla T4 (7.5) and a GeForce GTX 1080 (6.1). */
static void arch_the_toolkit_supports(void) { compile_and_record(75); }
static void arch_the_toolkit_dropped(void) { compile_and_record(61); }

ATLAS_CASE(arch_the_toolkit_supports, arch_the_toolkit_dropped)
