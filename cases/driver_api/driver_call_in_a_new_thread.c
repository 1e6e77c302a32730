/* driver_call_in_a_new_thread — the main thread uses the runtime, then a
 * second thread launches a kernel (and asks about a buffer) through the
 * driver API without ever having a context made current.
 *
 * The mistake: the current context belongs to a thread, not to the process.
 * The runtime makes the primary context current in each thread on that
 * thread's first runtime call that needs it; the driver API never does. A
 * thread that only calls the driver — Triton's launcher on the autograd
 * thread, CuPy's kernel launch with memory from its pool, a worker of a
 * thread pool — finds no context current although the program has one.
 *
 * What the program sees (one H200, driver 580.159.04, runtimes 11.8, 12.4
 * and 13.0): in the
 * main thread cudaFree(0), cudaMalloc, cuModuleLoadData and
 * cuModuleGetFunction succeed. In the new thread cuCtxGetCurrent says none
 * is current (context_current 0); cuMemGetAddressRange on the main thread's
 * buffer and cuLaunchKernel of the main thread's function both return
 * CUDA_ERROR_INVALID_CONTEXT (201, "invalid device context"), so the answer
 * is never written. Nothing is sticky. The fixed variant's thread calls
 * cudaSetDevice(0) first; then both calls succeed and the answer is 42.
 *
 * What a PyTorch user sees: with Triton before 3.2, a Triton kernel
 * (torch.compile's, or a library's) first launched on a thread other than
 * the one that compiled or loaded it — the autograd thread in backward —
 * raises
 *   RuntimeError: Triton Error [CUDA]: invalid device context
 * (triton-lang/triton#3729, allenai/OLMo#700, microsoft/onnxruntime#18764).
 * Triton 3.2 makes the primary context current before launching
 * (triton-lang/triton#3731, #5276): the mirror (driver_call_in_a_new_thread.py,
 * PyTorch 2.11 and the Triton it installs, on the H200) launches from a new
 * thread without error and the answer is written. CuPy users saw
 *   CUDADriverError: CUDA_ERROR_INVALID_CONTEXT: invalid device context
 * when a new thread reused pooled memory and so made no runtime call before
 * launching (cupy/cupy#72); Transformer Engine's NVRTC kernels failed the
 * same way on the autograd thread (NVIDIA/TransformerEngine#734).
 *
 * Why: a CUfunction and a device pointer belong to a context, but a call
 * acts on the calling thread's current context, and this thread has none.
 *
 * The fix: make the context current in every thread before its first driver
 * call — a runtime call that binds it (cudaSetDevice, as here; cudaFree(0);
 * CuPy's fix #606 calls cudaMemGetInfo, having found that cudaGetDevice does
 * not bind it), or cuDevicePrimaryCtxRetain + cuCtxSetCurrent (Triton's fix).
 *
 * References: triton-lang/triton#3729, "Cuda context not properly
 * initialized in side threads when no compilation is needed"
 * (https://github.com/triton-lang/triton/issues/3729; ngimel: "all it's
 * missing is strategically placed cudaFree(0)"), fixed by #3731 and #5276;
 * cupy/cupy#72, fixed by cupy/cupy#606; NVIDIA/cuda-samples#96 (cudaMalloc
 * in one thread, cuMemGetAddressRange in another: "invalid device context");
 * CUDA Runtime API, Interactions with the CUDA Driver API
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DRIVER.html),
 * "The function cudaSetDevice() makes the primary context for the specified
 * device current to the calling thread by calling cuCtxSetCurrent()".
 *
 * atlas:cause no_current_context
 */
#include "driver_api.h"

#include <pthread.h>
#include <stdio.h>

struct work {
    struct atlas_driver cu;
    CUfunction function;
    int *answer;
    bool bind_first;
};

static void *in_the_new_thread(void *argument)
{
    struct work *w = argument;
    struct atlas_driver cu = w->cu;
    CUcontext current = NULL;
    CUdeviceptr base = 0;
    size_t size = 0;
    if (w->bind_first)
        ATLAS_CUDA("set_device", cudaSetDevice(0));
    if (CU("get_current", cu.cuCtxGetCurrent(&current)))
        atlas_quantity("context_current", current != NULL, "bool");

    CU("address_range", cu.cuMemGetAddressRange(&base, &size, (CUdeviceptr)w->answer));
    void *arguments[] = {&w->answer};
    CU("launch", cu.cuLaunchKernel(w->function, 1, 1, 1, 1, 1, 1, 0, NULL, arguments, NULL));
    return NULL;
}

static void launch_from_a_new_thread(bool bind_first)
{
    struct work w = {.bind_first = bind_first};
    struct atlas_driver cu;
    CUmodule module = NULL;
    char ptx[1024];
    int answer = 0;
    if (!ATLAS_CUDA("context", cudaFree(0)) || !ATLAS_CUDA("alloc", cudaMalloc((void **)&w.answer, sizeof(int))))
        return;
    if (atlas_driver_open(&cu)) {
        w.cu = cu;
        snprintf(ptx, sizeof ptx, WRITE_ANSWER_PTX, "write_answer");
        if (CU("load", cu.cuModuleLoadData(&module, ptx))
            && CU("get_function", cu.cuModuleGetFunction(&w.function, module, "write_answer"))
            && ATLAS_CUDA("clear", cudaMemset(w.answer, 0, sizeof(int)))) {
            pthread_t thread;
            if (atlas_check("thread", pthread_create(&thread, NULL, in_the_new_thread, &w) == 0, "pthread_create")) {
                pthread_join(thread, NULL); /* the thread makes two calls and returns */
                if (ATLAS_CUDA("sync", cudaDeviceSynchronize())
                    && ATLAS_CUDA("copy", cudaMemcpy(&answer, w.answer, sizeof answer, cudaMemcpyDeviceToHost)))
                    atlas_check("result", answer == 42, "the kernel wrote %d (42 expected)", answer);
            }
        }
        if (module)
            CU("unload", cu.cuModuleUnload(module));
    }
    cudaFree(w.answer);
}

static void thread_binds_the_context_first(void) { launch_from_a_new_thread(true); }
static void thread_calls_the_driver_only(void) { launch_from_a_new_thread(false); }

ATLAS_CASE(thread_binds_the_context_first, thread_calls_the_driver_only)
