/* driver_call_before_any_context — the driver API initialised with cuInit,
 * then asked for free memory before any context was created.
 *
 * The mistake: cuInit(0) only loads the driver and finds the GPUs. Almost
 * every other driver call acts on the *current context*, and a thread has
 * none until one is created or made current (cuCtxCreate, or the device's
 * primary context through cuDevicePrimaryCtxRetain + cuCtxSetCurrent). The
 * runtime API does this on the first call that needs it; the driver API
 * never does. PyCUDA's
 *   import pycuda.driver as cuda; cuda.init(); cuda.mem_get_info()
 * is exactly this program.
 *
 * What the program sees (one H200, driver 580.159.04, runtimes 11.8, 12.4
 * and 13.0):
 * cuInit and cuDeviceGet succeed, cuCtxGetCurrent says no context is current
 * (the quantity context_current, 0), and cuMemGetInfo returns
 * CUDA_ERROR_INVALID_CONTEXT (201, "invalid device context"). Nothing is
 * sticky: the harness's probe afterwards, through the runtime, makes the
 * primary context and succeeds. The fixed variant makes the primary context
 * current first; cuMemGetInfo then succeeds. Without a driver there is no
 * libcuda.so.1 to open (open_driver).
 *
 * What a PyTorch user sees: nothing — PyTorch uses the runtime, which makes
 * the context itself. PyCUDA users see
 *   pycuda._driver.LogicError: cuMemGetInfo failed: invalid device context
 * (inducer/pycuda#250 and #251), Haskell's cuda package
 *   CUDA Exception: invalid device context
 * (tmcdonell/cuda#34), SYCL's CUDA plugin
 *   cuMemGetInfo_v2 returned (0xc9)
 * (intel/llvm#7906, where a device query ran before any queue had made a
 * context).
 *
 * Why: memory, modules, streams and launches belong to a context, and the
 * driver does not guess which one is meant: with none current there is
 * nothing to ask. The status says "invalid" although no context was ever
 * given.
 *
 * The fix: make a context current before the first call that needs one —
 * PyCUDA: import pycuda.autoinit, or dev.make_context() (the maintainer's
 * answer in #250, the reporter's fix in #251); C: cuDevicePrimaryCtxRetain
 * and cuCtxSetCurrent, as here (the same context the runtime uses), or
 * cuCtxCreate; a runtime call such as cudaFree(0) also does it for this
 * thread.
 *
 * References: inducer/pycuda#250, "cuMemGetInfo failed"
 * (https://github.com/inducer/pycuda/issues/250; the maintainer: "Import
 * pycuda.autoinit before calling CUDA functions"); inducer/pycuda#251;
 * tmcdonell/cuda#34 ("you did not create a device context"); intel/llvm#7906;
 * CUDA Driver API, Context Management
 * (https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__CTX.html).
 *
 * atlas:cause no_current_context
 */
#include "driver_api.h"

static void free_memory_asked(bool make_context_first)
{
    struct atlas_driver cu;
    CUdevice device;
    CUcontext context = NULL, current = NULL;
    size_t free_bytes = 0, total_bytes = 0;
    if (!atlas_driver_open(&cu))
        return;
    if (!CU("init", cu.cuInit(0)) || !CU("device", cu.cuDeviceGet(&device, 0)))
        return;
    if (make_context_first) {
        if (!CU("retain", cu.cuDevicePrimaryCtxRetain(&context, device)))
            return;
        CU("set_current", cu.cuCtxSetCurrent(context));
    }
    if (CU("get_current", cu.cuCtxGetCurrent(&current)))
        atlas_quantity("context_current", current != NULL, "bool");

    if (CU("mem_get_info", cu.cuMemGetInfo(&free_bytes, &total_bytes)))
        atlas_quantity("free_bytes", (double)free_bytes, "bytes");

    if (context) {
        CU("unset_current", cu.cuCtxSetCurrent(NULL));
        CU("release", cu.cuDevicePrimaryCtxRelease(device));
    }
}

static void context_made_current_first(void) { free_memory_asked(true); }
static void only_cuinit(void) { free_memory_asked(false); }

ATLAS_CASE(context_made_current_first, only_cuinit)
