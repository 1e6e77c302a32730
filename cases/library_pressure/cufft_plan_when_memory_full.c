/* cufft_plan_when_memory_full — cufftCreate and cufftMakePlan1d after this
 * process has taken all free GPU memory.
 *
 * The mistake: plans made on demand, at the first transform of each size,
 * while the GPU is full of data. A plan needs a work area, and for sizes
 * that are not products of small primes (Bluestein's algorithm) a large one.
 *
 * What the program sees (H200, CUDA 13.0, cuFFT 12): cufftCreate succeeds;
 * cufftMakePlan1d returns CUFFT_ALLOC_FAILED, as documented (the plan made
 * before filling had a 128 000 000-byte work area and still ran on the full
 * GPU). Nothing is sticky.
 *
 * What a PyTorch user sees: torch.fft.fft of a new size after memory filled
 * up raises
 * torch.OutOfMemoryError rather than a cuFFT status: PyTorch allocates
 * cuFFT's work area (and the output) from its own caching allocator. (A
 * first mirror ran out of memory on the output tensor in both variants, so
 * none is kept.)
 *
 * Why: cufftMakePlan allocates the plan's work area (unless
 * cufftSetAutoAllocation(plan, 0)); with nothing free it fails.
 *
 * The fix: make plans before filling memory (or reuse them), leave
 * headroom, or manage the work area yourself (cufftSetAutoAllocation,
 * cufftSetWorkArea) from memory you reserved.
 *
 * References: cuFFT documentation, cufftMakePlan1d
 * (https://docs.nvidia.com/cuda/cufft/#cufftmakeplan1d),
 * "CUFFT_ALLOC_FAILED – The allocation of GPU resources for the plan
 * failed"; cupy/cupy#1063 and cupy/cupy#3777 (CUFFT_ALLOC_FAILED from
 * cufftMakePlan1d with most of the GPU taken).
 *
 * atlas:runs-alone — it fills GPU memory.
 *
 * atlas:cause cufft_plan_no_memory
 */
#include <cufft.h>
#include "atlas_libraries.h"

enum { NX = 999983 /* prime: Bluestein, a large work area */, BATCH = 4 };

static void transform_after_fill(bool plan_first)
{
    cufftHandle plan;
    cufftComplex *data = NULL;
    size_t work = 0;
    bool have_plan = false;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&data, sizeof(cufftComplex) * NX * BATCH))
        || !ATLAS_CUDA("zero", cudaMemset(data, 0, sizeof(cufftComplex) * NX * BATCH)))
        goto out;
    if (plan_first)
        have_plan = ATLAS_CUFFT("create", cufftCreate(&plan))
                    && ATLAS_CUFFT("make_plan", cufftMakePlan1d(plan, NX, CUFFT_C2C, BATCH, &work));
    atlas_fill_gpu(0);
    if (!plan_first)
        have_plan = ATLAS_CUFFT("create", cufftCreate(&plan))
                    && ATLAS_CUFFT("make_plan", cufftMakePlan1d(plan, NX, CUFFT_C2C, BATCH, &work));
    atlas_quantity("work_area_bytes", (double)work, "bytes");
    if (have_plan) {
        ATLAS_CUFFT("exec", cufftExecC2C(plan, data, data, CUFFT_FORWARD));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    atlas_release_gpu();
    if (have_plan)
        ATLAS_CUFFT("destroy", cufftDestroy(plan));
out:
    cudaFree(data);
}

static void plan_before_filling(void) { transform_after_fill(true); }
static void plan_after_filling(void) { transform_after_fill(false); }

ATLAS_CASE(plan_before_filling, plan_after_filling)
