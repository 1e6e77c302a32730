/* ptx_only_with_jit_disabled — a binary that carries only PTX, run with
 * CUDA_DISABLE_PTX_JIT=1.
 *
 * The mistake: shipping PTX only (-arch=compute_75, CMAKE_CUDA_ARCHITECTURES
 * =75-virtual) to save build time, on a system where JIT compilation is
 * disabled (a locked-down cluster, or to check that a build has SASS).
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; H200 on 11.8 and
 * 12.0 to 13.5, and two H200s on 13.0): with the variable set before CUDA
 * starts, the launch is refused — cudaGetLastError returns
 * cudaErrorJitCompilationDisabled — and the result is wrong because the
 * kernel never ran; not sticky. Without it (fixed variant), the driver
 * compiles the PTX at load time and the kernel runs (result correct). Both
 * variants turn off the driver's JIT cache (CUDA_CACHE_DISABLE=1): a first
 * recording without it ran the "broken" variant successfully, from the
 * machine code that the fixed variant's JIT had left in the cache.
 *
 * What a PyTorch user sees: "no kernel image is available" from extensions
 * built PTX-only, when JIT is disabled (not recorded).
 *
 * Why: PTX needs the driver's JIT; with JIT off only SASS for this GPU can
 * run, and there is none.
 *
 * The fix: include SASS for the target GPUs ("90-real"), keep PTX for the
 * future.
 *
 * References: CUDA Programming Guide, "Just-in-Time Compilation" and
 * CUDA_DISABLE_PTX_JIT (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#just-in-time-compilation).
 *
 * atlas:cuda-architectures=75-virtual
 *
 * atlas:cause ptx_jit_unavailable
 */
#include "atlas.h"
#include <stdlib.h>

__global__ void write_index(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i;
}

static void run_with_jit(int disabled)
{
    int *out = NULL, n = 256, last = -1;
    setenv("CUDA_CACHE_DISABLE", "1", 1); /* no machine code left by an earlier run */
    if (disabled)
        setenv("CUDA_DISABLE_PTX_JIT", "1", 1); /* both read when CUDA initialises */
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&out, n * sizeof(int))))
        return;
    write_index<<<1, n>>>(out, n);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy", cudaMemcpy(&last, out + n - 1, sizeof last, cudaMemcpyDeviceToHost)))
        atlas_check("result", last == n - 1, "last element written");
    cudaFree(out);
}

static void jit_enabled(void) { run_with_jit(0); }
static void jit_disabled(void) { run_with_jit(1); }

ATLAS_CASE(jit_enabled, jit_disabled)
