/* recursion_deeper_than_default_stack — a recursive device function run
 * 100 calls deep with the default per-thread stack.
 *
 * The mistake: recursion (a tree walk, a parser, a sort) in a kernel,
 * without raising cudaLimitStackSize. The compiler cannot size a recursive
 * kernel's stack (`nvcc -Xptxas -v` reports one call's frame — 88 bytes
 * here — not the depth; with separate compilation nvlink warns "Stack size
 * for entry function ... cannot be statically determined"), so each thread
 * gets the default, 1 KiB: here about 8.8 KB are needed.
 *
 * What the program sees (H200, CUDA 13.0): the launch succeeds, and the
 * synchronize returns cudaErrorIllegalAddress — nothing says "stack" — and
 * so does every call after it (sticky); three runs out of three. Under
 * compute-sanitizer: cudaErrorLaunchFailure. The quantity stack_limit_bytes
 * is what cudaDeviceGetLimit reports before the launch: 1024.
 *
 * What a PyTorch user sees: "CUDA error: an illegal memory access was
 * encountered" from an extension with a recursive kernel (not recorded;
 * under a debugger or sanitizer "unspecified launch failure").
 *
 * Why: the stack overflows into memory the thread does not own; the
 * hardware stops the kernel and the context is lost.
 *
 * The fix: cudaDeviceSetLimit(cudaLimitStackSize, bytes) before the launch
 * (the fixed variant sets 16 KiB: depth × frame, with margin) — it reserves
 * that much for every resident thread, so keep it small; better, replace
 * the recursion with a loop and an explicit stack.
 *
 * References: kokkos/kokkos#2214 (a recursive function: "Invalid __local__
 * write", then "unspecified launch failure"; raising the stack with
 * cudaDeviceSetLimit fixed it); CUDA Runtime API, cudaDeviceSetLimit
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html).
 *
 * atlas:cause recursion_overflows_default_stack
 */
#include "atlas.h"

enum { DEPTH = 100 };

/* Each level keeps a small array alive across the call below it. */
__device__ __noinline__ int depth_sum(int depth, int seed)
{
    volatile int frame[8];
    for (int i = 0; i < 8; i++)
        frame[i] = seed + i;
    int below = depth == 0 ? 0 : depth_sum(depth - 1, seed + 1);
    return below + frame[(seed + depth) & 7];
}

__global__ void walk(int *out, int depth) { *out = depth_sum(depth, threadIdx.x); }

static void walk_with_stack(size_t stack_bytes)
{
    int *out = NULL, result = 0;
    size_t limit = 0;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof(int))))
        return;
    if (stack_bytes)
        ATLAS_CUDA("set_stack", cudaDeviceSetLimit(cudaLimitStackSize, stack_bytes));
    if (ATLAS_CUDA("get_stack", cudaDeviceGetLimit(&limit, cudaLimitStackSize)))
        atlas_quantity("stack_limit_bytes", (double)limit, "bytes");
    walk<<<1, 32>>>(out, DEPTH);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy_back", cudaMemcpy(&result, out, sizeof result, cudaMemcpyDeviceToHost)))
        atlas_quantity("result", result, "");
    cudaFree(out);
}

static void stack_raised_to_16_kib(void) { walk_with_stack(16 << 10); }
static void default_stack(void) { walk_with_stack(0); }

ATLAS_CASE(stack_raised_to_16_kib, default_stack)
