/* cuda_visible_devices_set_after_init — CUDA_VISIBLE_DEVICES changed by the
 * program itself after CUDA has started.
 *
 * The mistake: os.environ["CUDA_VISIBLE_DEVICES"] = "..." (setenv in C) in
 * the middle of a program — after an import that already touched the GPU,
 * after torch.cuda.is_available() — to choose or hide GPUs. Here the program
 * hides every GPU (an empty list) to run a CPU-only phase.
 *
 * What the program sees (H200, CUDA 13.0): set after cudaFree(0), the empty
 * list changes nothing — cudaGetDeviceCount still says 1 and cudaMalloc still
 * succeeds (the check gpus_hidden fails). Set before the first call, the same
 * list hides the GPU: cudaFree(0), cudaGetDeviceCount and every later call
 * return cudaErrorNoDevice.
 *
 * What a PyTorch user sees: nothing: the GPU the variable was meant to hide
 * (or not to choose) is used anyway, and torch.cuda.device_count() keeps its
 * old answer. Set before the first CUDA call, the same empty list makes the
 * first CUDA tensor raise "No CUDA GPUs are available" (the mirror records
 * both).
 *
 * Why: the driver reads the variable once, when CUDA initialises (cuInit);
 * later changes to the environment are never consulted.
 *
 * The fix: set it before the first CUDA call — in the shell or launcher
 * (CUDA_VISIBLE_DEVICES=1 python train.py), or at the very top of the program
 * before importing anything that may initialise CUDA — or choose devices with
 * cudaSetDevice / torch.cuda.set_device instead.
 *
 * References: pytorch/pytorch#9158 ("setting CUDA_VISIBLE_DEVICES just has no
 * effect") and #23544; CUDA C++ Programming Guide, "CUDA Environment
 * Variables"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#cuda-environment-variables).
 *
 * atlas:cause visible_devices_changed_after_init
 */
#include "atlas.h"
#include <stdlib.h>

static void hide_gpus(bool after_init)
{
    int count = -1;
    if (after_init && !ATLAS_CUDA("init", cudaFree(0)))
        return; /* no CUDA to start: nothing to hide it from */
    setenv("CUDA_VISIBLE_DEVICES", "", 1); /* meant: no GPU from here on */
    if (!after_init)
        ATLAS_CUDA("init", cudaFree(0));
    ATLAS_CUDA("count", cudaGetDeviceCount(&count));
    atlas_quantity("device_count", count, "devices");
    void *p = NULL;
    bool allocated = cudaMalloc(&p, 256) == cudaSuccess;
    cudaGetLastError(); /* the refused allocation is the point when hidden, not an error to keep */
    atlas_check("gpus_hidden", !allocated, "after hiding every GPU, cudaMalloc %s", allocated ? "still works" : "fails");
    cudaFree(p);
}

static void set_before_first_cuda_call(void) { hide_gpus(false); }
static void set_after_cuda_started(void) { hide_gpus(true); }

ATLAS_CASE(set_before_first_cuda_call, set_after_cuda_started)
