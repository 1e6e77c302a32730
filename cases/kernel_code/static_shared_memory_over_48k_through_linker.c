/* static_shared_memory_over_48k_through_linker — the 56008 bytes of static
 * shared memory of static_shared_memory_over_48k, compiled by the driver's
 * linker (cuLinkCreate, cuLinkAddData, cuLinkComplete), as numba does.
 *
 * The mistake: static shared memory (numba's cuda.shared.array,
 * `__shared__ float tile[...]`) over 48 KiB a block (0xc000). More is meant
 * to be dynamic shared memory raised with cudaFuncSetAttribute.
 *
 * What the program sees (H200, CUDA 13.0, driver 580): cuLinkCreate and
 * cuLinkAddData succeed; cuLinkComplete returns CUDA_ERROR_INVALID_SOURCE
 * and its error log says
 *   error   : Entry function 'tile_sum' uses too much shared data (0xdac8 bytes, 0xc000 max)
 * — numba's very line, with another status (its driver said
 * CUDA_ERROR_UNKNOWN). Nothing is loaded and the context stays usable.
 * A finding: static_shared_memory_over_48k hands the same PTX to the same
 * driver through cudaLibraryLoadData, and that JIT accepts the 56008 bytes
 * and the kernel runs correctly; only the linker path enforces 48 KiB.
 *
 * What a PyTorch user sees: nothing of this path (PyTorch does not link PTX
 * with cuLink*); numba users on a GTX 1060 (compute capability 6.1) saw
 *   numba.cuda.cudadrv.driver.LinkerError: [999] Call to cuLinkComplete results in CUDA_ERROR_UNKNOWN error   : Entry function'_ZN6cudapy8__main__12itr_cuda$241E5ArrayIfLi1E1C7mutable7alignedE5ArrayIfLi1E1C7mutable7alignedE5ArrayIfLi2E1C7mutable7alignedE5ArrayIdLi1E1C7mutable7alignedE5ArrayIfLi1E1C7mutable7alignedE5ArrayIfLi2E1C7mutable7alignedE' uses too much shared data (0xdac8 bytes, 0xc000 max)
 *
 * Why: the size is fixed in the code, so the compiler that turns the PTX
 * into machine code for this GPU decides. The linker checks it against the
 * 48 KiB static limit and reports the refusal through cuLinkComplete's
 * status and the error log, not at a launch; the module-load JIT, measured
 * on the same driver, does not refuse it.
 *
 * The fix: declare the array `extern __shared__` (dynamic; numba:
 * cuda.shared.array(0, ...) and the launch's dynamic shared memory size),
 * raise cudaFuncAttributeMaxDynamicSharedMemorySize where the GPU allows
 * more than 48 KiB; or shrink the tiles to 48 KiB (the fixed variant: 49152
 * bytes).
 *
 * References: numba/numba#3350, "CUDA shared array size limitations"
 * (https://github.com/numba/numba/issues/3350); CUDA Driver API, Module
 * Management, cuLinkComplete
 * (https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__MODULE.html).
 *
 * atlas:cause static_shared_memory_over_48k
 */
#include "atlas_driver.h"
#include "tile_ptx.h"
#include <stdio.h>
#include <string.h>

enum { THREADS = 256, LOG = 4096 };

#if CUDART_VERSION >= 12050
/* The driver API through the runtime's entry points: a case linked to
 * libcuda would not start at all without a driver. Each pointer is named
 * after its function, so the records name the call a user would paste. */
static struct atlas_driver cu;

static bool open_driver_api(void)
{
    return atlas_driver_entries(&cu, "cudaGetDriverEntryPointByVersion(cuLink*, cuModule*, cuLaunchKernel)");
}

#define CU(step, call) atlas_cu_status((step), #call, (call), cu.cuGetErrorName)

/* The linker's log as numba shows it: after the status, on stderr. */
static void say_log(const char *which, const char *log)
{
    if (!log[0])
        return;
    atlas_note("linker %s log: %s", which, log);
    fprintf(stderr, "%s\n", log);
}
#endif

static void link_tile_kernel(int bytes)
{
#if CUDART_VERSION < 12050
    (void)bytes;
    atlas_skip("this case reaches the driver's linker with cudaGetDriverEntryPointByVersion, which the runtime has "
               "from CUDA 12.5");
#else
    static char ptx[sizeof TILE_PTX + 64], error_log[LOG], info_log[LOG];
    int floats = bytes / 4;
    float *out = NULL, host[THREADS];
    TILE_PTX_FORMAT(ptx, sizeof ptx, bytes);
    atlas_quantity("static_shared_bytes", bytes, "bytes");
    if (!ATLAS_CUDA("context", cudaFree(0)) || !open_driver_api())
        return;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof host)))
        return;

    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {error_log, (void *)(size_t)LOG, info_log, (void *)(size_t)LOG};
    CUlinkState link;
    void *cubin = NULL;
    size_t cubin_size = 0;
    CUmodule module;
    CUfunction function;
    if (CU("link_create", cu.cuLinkCreate(4, options, values, &link))) {
        bool added = CU("link_add_ptx", cu.cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx, strlen(ptx) + 1, "tile.ptx",
                                                         0, NULL, NULL));
        bool linked = added && CU("link_complete", cu.cuLinkComplete(link, &cubin, &cubin_size));
        say_log("error", error_log);
        say_log("info", info_log);
        if (linked) {
            atlas_quantity("cubin_bytes", (double)cubin_size, "bytes");
            /* the cubin belongs to the link state: load it before destroying that */
            if (CU("module_load", cu.cuModuleLoadData(&module, cubin))) {
                if (CU("get_function", cu.cuModuleGetFunction(&function, module, "tile_sum"))) {
                    void *args[] = {&out};
                    CU("launch", cu.cuLaunchKernel(function, 1, 1, 1, THREADS, 1, 1, 0, NULL, args, NULL));
                    ATLAS_CUDA("sync", cudaDeviceSynchronize());
                    if (ATLAS_CUDA("copy_back", cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost)))
                        atlas_check("tile", host[0] == (float)(floats - 1), "out[0] = %g (expected %d)", host[0],
                                    floats - 1);
                }
                cu.cuModuleUnload(module);
            }
        }
        cu.cuLinkDestroy(link);
    }
    cudaFree(out);
#endif
}

static void tiles_of_48_kib(void) { link_tile_kernel(48 * 1024); }
static void tiles_of_56008_bytes(void) { link_tile_kernel(56008); }

ATLAS_CASE(tiles_of_48_kib, tiles_of_56008_bytes)
