/* kernel_looked_up_by_its_source_name — a kernel written in C++ without
 * extern "C", compiled, loaded, and then looked up under the name it has in
 * the source.
 *
 * The mistake: CUDA C++ gives a __global__ function C++ linkage, so the
 * compiler mangles its name with its parameter types: write_answer(int *) is
 * the entry _Z12write_answerPi in the PTX and cubin. cuModuleGetFunction (and
 * CuPy's RawModule.get_function, cudarc's load_function, Numba's and
 * Taichi's loaders) looks the name up exactly as given. Code compiled at run
 * time with NVRTC, or loaded from a .ptx/.cubin file, is found only under
 * the name the module really has; a misspelled name fails the same way.
 *
 * What the program sees (one H200, driver 580.159.04, runtimes 11.8, 12.4
 * and 13.0): the
 * module loads; cuModuleGetFunction(module, "write_answer") returns
 * CUDA_ERROR_NOT_FOUND (500, "named symbol not found"), while the mangled
 * name is found (lookup_mangled). Nothing is sticky. The fixed variant's
 * kernel is declared extern "C": its entry is write_answer, the lookup
 * succeeds, and the launch writes 42.
 *
 * What a PyTorch user sees: nothing from PyTorch itself (its kernels are
 * compiled in and launched through the runtime). Users of the driver API see
 * the status with the library's wording: Rust's candle (over cudarc)
 *   Error: Cuda(Load { cuda: DriverError(CUDA_ERROR_NOT_FOUND,
 *   "named symbol not found"), module_name: "ucopy_64" })
 * (huggingface/candle#1168: the f64 copy kernel asked for as ucopy_64 instead
 * of ucopy_f64), Taichi
 *   CUDA Error CUDA_ERROR_NOT_FOUND: named symbol not found while calling
 *   module_get_function (cuModuleGetFunction)
 * (taichi-dev/taichi#1280); CuPy raises CUDADriverError with the same status.
 *
 * Why: a module is a table of symbols; the driver compares bytes. C++
 * linkage exists so that overloads and template instances get distinct
 * names, and templated kernels cannot be extern "C" at all.
 *
 * The fix: declare kernels that are looked up by name extern "C" (CuPy's
 * RawKernel documentation does), or ask the compiler for the lowered name —
 * nvrtcAddNameExpression and nvrtcGetLoweredName, CuPy's
 * RawModule(name_expressions=[...]) — and look that up; check the spelling
 * against the module's entries (cuobjdump -symbols, or the .entry lines of
 * the PTX).
 *
 * References: huggingface/candle#1168, fixed by candle#1170
 * (https://github.com/huggingface/candle/issues/1168); taichi-dev/taichi#1280;
 * cupy/cupy#9667 (a template instance found only by its mangled name,
 * _Z6kernelIfEvPT_); NVRTC documentation, Accessing Lowered Names
 * (https://docs.nvidia.com/cuda/nvrtc/index.html#accessing-lowered-names);
 * CUDA Driver API, cuModuleGetFunction
 * (https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__MODULE.html),
 * "If no function of that name exists, *hfunc is set to NULL and
 * CUDA_ERROR_NOT_FOUND is returned".
 *
 * atlas:cause kernel_symbol_name_mismatch
 */
#include "driver_api.h"

#include <stdio.h>

#define MANGLED_NAME "_Z12write_answerPi" /* write_answer(int *) with C++ linkage */

static void look_up_write_answer(const char *entry_in_module)
{
    struct atlas_driver cu;
    CUmodule module = NULL;
    CUfunction function = NULL;
    char ptx[1024];
    int *answer = NULL, value = 0;
    if (!ATLAS_CUDA("context", cudaFree(0)) || !atlas_driver_open(&cu))
        return;
    snprintf(ptx, sizeof ptx, WRITE_ANSWER_PTX, entry_in_module);
    if (!CU("load", cu.cuModuleLoadData(&module, ptx)))
        return;

    if (CU("lookup", cu.cuModuleGetFunction(&function, module, "write_answer"))) {
        void *arguments[] = {&answer};
        if (ATLAS_CUDA("alloc", cudaMalloc((void **)&answer, sizeof(int)))
            && ATLAS_CUDA("clear", cudaMemset(answer, 0, sizeof(int)))
            && CU("launch", cu.cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, NULL, arguments, NULL))
            && ATLAS_CUDA("sync", cudaDeviceSynchronize())
            && ATLAS_CUDA("copy", cudaMemcpy(&value, answer, sizeof value, cudaMemcpyDeviceToHost)))
            atlas_check("result", value == 42, "the kernel wrote %d (42 expected)", value);
        cudaFree(answer);
    } else {
        /* The kernel is there, under its C++ name. */
        CU("lookup_mangled", cu.cuModuleGetFunction(&function, module, MANGLED_NAME));
    }
    CU("unload", cu.cuModuleUnload(module));
}

static void kernel_declared_extern_c(void) { look_up_write_answer("write_answer"); }
static void kernel_with_cpp_linkage(void) { look_up_write_answer(MANGLED_NAME); }

ATLAS_CASE(kernel_declared_extern_c, kernel_with_cpp_linkage)
