/* driver_api.h — what the cases of this family share: the CUDA driver API as
 * PyCUDA, CuPy, Triton's launcher and Rust's cudarc call it (libcuda opened
 * at run time, each function by its symbol), and one small kernel as PTX.
 *
 *   struct atlas_driver cu; atlas_driver_open(&cu)   (harness/atlas_driver.h)
 *                    libcuda's functions as cu.cuInit, cu.cuMemGetInfo, ...;
 *                    records open_driver and driver_symbols
 *   CU(step, call)   record a driver call's CUresult under its own name
 *   in_primary_context(work, arg)
 *                    libcuda opened, cuInit, device 0's primary context
 *                    retained and made current around work(&cu, arg), then
 *                    unset and released (steps init, device, retain,
 *                    set_current, then unset_current, release)
 *   WRITE_ANSWER_PTX a kernel that stores 42 through its one pointer, with
 *                    its entry's name left to fill in (%s)
 *   write_answer_ready(&l), write_answer_checked(&l), write_answer_done(&l)
 *                    around a case's own cuLaunchKernel of that kernel: the
 *                    setup before it (context, load, lookup, alloc, clear),
 *                    the answer read back after it (sync, copy, result), and
 *                    what was made released (unload)
 */
#ifndef DRIVER_API_H
#define DRIVER_API_H

#include "atlas_driver.h"

#include <stdbool.h>
#include <stdio.h>

#define CU(step, call) atlas_cu_status((step), #call, (call), cu.cuGetErrorName)

/* The setup a PyCUDA or CuPy program has made before its own call: what the
 * cases with one driver call of interest do around it. */
static inline void in_primary_context(void (*work)(const struct atlas_driver *, const void *), const void *arg)
{
    struct atlas_driver cu;
    CUdevice device;
    CUcontext context = NULL;
    if (!atlas_driver_open(&cu))
        return;
    if (!CU("init", cu.cuInit(0)) || !CU("device", cu.cuDeviceGet(&device, 0)) ||
        !CU("retain", cu.cuDevicePrimaryCtxRetain(&context, device)))
        return;
    if (CU("set_current", cu.cuCtxSetCurrent(context))) {
        work(&cu, arg);
        CU("unset_current", cu.cuCtxSetCurrent(NULL));
    }
    CU("release", cu.cuDevicePrimaryCtxRelease(device));
}

/* What nvcc 13.0 -ptx -arch=compute_75 writes for
 *   __global__ void write_answer(int *out) { *out = 42; }
 * (ISA lowered to 7.0, which every driver since CUDA 11.0 compiles). Without
 * extern "C" the entry is the C++ name, _Z12write_answerPi; with it,
 * write_answer. */
#define WRITE_ANSWER_PTX                                                                            \
    ".version 7.0\n.target sm_75\n.address_size 64\n"                                               \
    ".visible .entry %s(.param .u64 out)\n{\n"                                                      \
    "  .reg .b32 %%r<2>;\n  .reg .b64 %%rd<3>;\n"                                                   \
    "  ld.param.u64 %%rd1, [out];\n  cvta.to.global.u64 %%rd2, %%rd1;\n"                           \
    "  mov.u32 %%r1, 42;\n  st.global.u32 [%%rd2], %%r1;\n  ret;\n}\n"

/* What a Numba or PyCUDA launch has made before its cuLaunchKernel: the
 * runtime's context (step context), libcuda opened, WRITE_ANSWER_PTX loaded
 * with its entry write_answer (load, lookup), an int allocated and cleared
 * (alloc, clear). False, with what was made released, where a step failed. */
struct write_answer_launch {
    struct atlas_driver cu;
    CUmodule module;
    CUfunction function;
    int *answer;
};

static inline bool write_answer_ready(struct write_answer_launch *l)
{
    struct atlas_driver cu;
    char ptx[1024];
    l->module = NULL, l->function = NULL, l->answer = NULL;
    if (!ATLAS_CUDA("context", cudaFree(0)) || !atlas_driver_open(&l->cu))
        return false;
    cu = l->cu;
    snprintf(ptx, sizeof ptx, WRITE_ANSWER_PTX, "write_answer");
    if (!CU("load", cu.cuModuleLoadData(&l->module, ptx)))
        return false;
    if (CU("lookup", cu.cuModuleGetFunction(&l->function, l->module, "write_answer"))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&l->answer, sizeof(int)))) {
        if (ATLAS_CUDA("clear", cudaMemset(l->answer, 0, sizeof(int))))
            return true;
        cudaFree(l->answer);
    }
    CU("unload", cu.cuModuleUnload(l->module));
    return false;
}

/* Wait for the launch, read the answer back (sync, copy, result). */
static inline void write_answer_checked(struct write_answer_launch *l)
{
    int value = 0;
    if (ATLAS_CUDA("sync", cudaDeviceSynchronize())
        && ATLAS_CUDA("copy", cudaMemcpy(&value, l->answer, sizeof value, cudaMemcpyDeviceToHost)))
        atlas_check("result", value == 42, "the kernel wrote %d (42 expected)", value);
}

static inline void write_answer_done(struct write_answer_launch *l)
{
    struct atlas_driver cu = l->cu;
    cudaFree(l->answer);
    CU("unload", cu.cuModuleUnload(l->module));
}

#endif
