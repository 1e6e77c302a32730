/* static_shared_memory_over_48k — a kernel whose __shared__ arrays total
 * 56008 bytes, compiled at run time (PTX loaded and JIT-compiled by the
 * driver, as numba, CuPy, Triton and NVRTC users do).
 *
 * The mistake: static shared memory (`__shared__ float tile[...]`, numba's
 * cuda.shared.array) over 48 KiB a block. The portable limit for static
 * shared memory is 48 KiB (0xc000); more is meant to be dynamic shared
 * memory raised with cudaFuncSetAttribute (see
 * dynamic_shared_memory_over_default_limit).
 *
 * What the program sees (H200, CUDA 13.0, driver 580): nothing goes wrong —
 * a finding. The driver's JIT compiles the 56008 bytes for sm_90,
 * cudaLibraryLoadData, cudaLibraryGetKernel, the launch (without any
 * opt-in) and the synchronize return cudaSuccess, and the kernel reads back
 * what it wrote; three runs out of three, and compute-sanitizer reports no
 * error. Offline, ptxas 13.0 refuses the same PTX for sm_90:
 *   ptxas error : Entry function 'tile_sum' uses too much shared data
 *   (0xdac8 bytes, 0xc000 max)
 * So here the 48 KiB limit is the offline compiler's, not the driver's: the
 * same kernel fails to build with nvcc, and fails to load on GPUs whose
 * blocks cannot have more than 48 KiB of shared memory (the GTX 1060 of the
 * numba report, compute capability 6.1).
 *
 * What a PyTorch user sees: a Triton or extension kernel that builds or
 * loads on one GPU and not on another (not recorded); numba users saw
 * "LinkerError: [999] Call to cuLinkComplete results in CUDA_ERROR_UNKNOWN"
 * with the ptxas line above.
 *
 * Why: the size is fixed in the code, so whichever compiler turns the PTX
 * into machine code decides; on a 48 KiB GPU no compiler can accept it.
 *
 * The fix: declare the array `extern __shared__` (dynamic), raise
 * cudaFuncAttributeMaxDynamicSharedMemorySize and pass the size at launch;
 * or shrink the tiles to 48 KiB (the fixed variant: 49152 bytes, which
 * ptxas accepts too).
 *
 * References: numba/numba#3350 ("uses too much shared data (0xdac8 bytes,
 * 0xc000 max)"); CUDA Programming Guide, "Shared Memory" under compute
 * capability 9.0 and the table of technical specifications
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#shared-memory-9-0).
 */
#include "atlas.h"
#include <stdio.h>

enum { THREADS = 256 };

/* What nvcc -ptx writes for
 *   __shared__ float tile[BYTES / 4];
 *   for (i = threadIdx.x; i < BYTES / 4; i += blockDim.x) tile[i] = i;
 *   __syncthreads();
 *   out[threadIdx.x] = tile[BYTES / 4 - 1 - threadIdx.x];
 * with BYTES filled in. */
static const char PTX[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry tile_sum(.param .u64 out)\n{\n"
    "  .reg .pred %%p<3>;\n  .reg .f32 %%f<3>;\n  .reg .b32 %%r<14>;\n  .reg .b64 %%rd<5>;\n"
    "  .shared .align 4 .b8 tile[%d];\n"
    "  ld.param.u64 %%rd1, [out];\n  mov.u32 %%r1, %%tid.x;\n"
    "  setp.gt.s32 %%p1, %%r1, %d;\n  @%%p1 bra DONE;\n"
    "  mov.u32 %%r2, %%ntid.x;\n  mov.u32 %%r6, tile;\n  mov.u32 %%r13, %%r1;\n"
    "LOOP:\n  shl.b32 %%r5, %%r13, 2;\n  add.s32 %%r7, %%r6, %%r5;\n  cvt.rn.f32.s32 %%f1, %%r13;\n"
    "  st.shared.f32 [%%r7], %%f1;\n  add.s32 %%r13, %%r13, %%r2;\n  setp.lt.s32 %%p2, %%r13, %d;\n"
    "  @%%p2 bra LOOP;\n"
    "DONE:\n  bar.sync 0;\n  mov.u32 %%r8, %d;\n  sub.s32 %%r9, %%r8, %%r1;\n  shl.b32 %%r10, %%r9, 2;\n"
    "  mov.u32 %%r11, tile;\n  add.s32 %%r12, %%r11, %%r10;\n  ld.shared.f32 %%f2, [%%r12];\n"
    "  cvta.to.global.u64 %%rd2, %%rd1;\n  mul.wide.u32 %%rd3, %%r1, 4;\n  add.s64 %%rd4, %%rd2, %%rd3;\n"
    "  st.global.f32 [%%rd4], %%f2;\n  ret;\n}\n";

static void load_tile_kernel(int bytes)
{
#if CUDART_VERSION < 12050
    (void)bytes;
    atlas_skip("this case loads PTX with cudaLibraryLoadData, which the runtime has from CUDA 12.5");
#else
    static char ptx[sizeof PTX + 64], log[2048];
    int floats = bytes / 4;
    float *out = NULL, host[THREADS];
    cudaLibrary_t library;
    cudaKernel_t kernel;
    enum cudaJitOption options[] = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes};
    void *values[] = {log, (void *)(size_t)sizeof log};
    snprintf(ptx, sizeof ptx, PTX, bytes, floats - 1, floats, floats - 1);
    atlas_quantity("static_shared_bytes", bytes, "bytes");
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof host)))
        return;
    bool loaded = ATLAS_CUDA("load_ptx", cudaLibraryLoadData(&library, ptx, options, values, 2, NULL, NULL, 0));
    if (log[0])
        atlas_note("JIT error log: %s", log);
    if (loaded && ATLAS_CUDA("get_kernel", cudaLibraryGetKernel(&kernel, library, "tile_sum"))) {
        void *args[] = {&out};
        ATLAS_CUDA("launch", cudaLaunchKernel((const void *)kernel, dim3(1), dim3(THREADS), args, 0, 0));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
        if (ATLAS_CUDA("copy_back", cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost)))
            atlas_check("tile", host[0] == (float)(floats - 1), "out[0] = %g (expected %d)", host[0], floats - 1);
    }
    if (loaded)
        cudaLibraryUnload(library);
    cudaFree(out);
#endif
}

static void tiles_of_48_kib(void) { load_tile_kernel(48 * 1024); }
static void tiles_of_56008_bytes(void) { load_tile_kernel(56008); }

ATLAS_CASE(tiles_of_48_kib, tiles_of_56008_bytes)
