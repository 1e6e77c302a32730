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
 *
 * atlas:cause static_shared_memory_over_48k
 */
#include "atlas.h"
#include "tile_ptx.h"
#include <stdio.h>

enum { THREADS = 256 };

static void load_tile_kernel(int bytes)
{
#if CUDART_VERSION < 12050
    (void)bytes;
    atlas_skip("this case loads PTX with cudaLibraryLoadData, which the runtime has from CUDA 12.5");
#else
    static char ptx[sizeof TILE_PTX + 64], log[2048];
    int floats = bytes / 4;
    float *out = NULL, host[THREADS];
    cudaLibrary_t library;
    cudaKernel_t kernel;
    enum cudaJitOption options[] = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes};
    void *values[] = {log, (void *)(size_t)sizeof log};
    TILE_PTX_FORMAT(ptx, sizeof ptx, bytes);
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
