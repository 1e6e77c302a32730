/* cudnn_algorithm_search_with_no_free_memory — cudnnFindConvolutionForwardAlgorithm
 * (cuDNN's benchmark of every forward algorithm) with no GPU memory left.
 *
 * The mistake: letting the framework take the whole GPU before the first
 * convolution is tuned. XLA (TensorFlow, JAX, Elixir's Nx through EXLA)
 * preallocates most of the GPU's memory, then benchmarks cuDNN's algorithms
 * for each convolution; the benchmark needs device memory of its own.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0,
 * cuDNN 9.19; 84449165312 bytes filled, 2293760 left): the search itself
 * fails: cudnnFindConvolutionForwardAlgorithm returns
 * CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED (4004) (step find),
 * with no per-algorithm results; nothing is sticky (the probe succeeds).
 * Before the fill the same search returns 8 results, 4 of them usable
 * (algorithms 0, 1, 2 and 5; 5 with a 1418752-byte workspace), and the
 * convolution runs.
 *
 * What a framework user sees: XLA's autotuner (EXLA, elixir-nx/nx#1000,
 * CUDA 11.8, cuDNN 8.7) prints
 *   Failed to determine best cudnn convolution algorithm ... All algorithms
 *   tried ... failed. Falling back to default algorithm. Per-algorithm
 *   errors: Profiling failure on cuDNN engine ...: CUDNN_STATUS_EXECUTION_FAILED
 * No PyTorch mirror: PyTorch's benchmark search (torch.backends.cudnn.benchmark)
 * goes through its own caching allocator and cuDNN's graph API, another
 * path than this legacy call.
 *
 * Why: cudnnFindConvolutionForwardAlgorithm times the algorithms by running
 * them, with device memory it allocates itself (the workspaces; the
 * Ex variant takes the caller's instead); with nothing free that
 * allocation fails, and cuDNN 9 fails the whole search with a status that
 * names it, where XLA's log shows each engine's profiling failure.
 *
 * The fix: leave headroom for autotuning (XLA:
 * XLA_PYTHON_CLIENT_MEM_FRACTION / TF_FORCE_GPU_ALLOW_GROWTH=true /
 * XLA_PYTHON_CLIENT_PREALLOCATE=false), or tune before filling the GPU; or
 * ask cudnnFindConvolutionForwardAlgorithmEx with a workspace you allocated.
 *
 * References: elixir-nx/nx#1000 ("Failed to determine best cudnn convolution
 * algorithm", EXLA on CUDA 11.8 / cuDNN 8.7); jax-ml/jax#8506 (the same
 * message); cuDNN documentation, cudnnFindConvolutionForwardAlgorithm
 * (https://docs.nvidia.com/deeplearning/cudnn/api/latest/api/cudnn-cnn-library.html#cudnnfindconvolutionforwardalgorithm)
 * and cudnnFindConvolutionForwardAlgorithmEx (the same search in a
 * workspace the caller allocated).
 *
 * atlas:runs-alone — it fills GPU memory.
 *
 * atlas:cause cudnn_autotune_no_free_memory
 */
#include <cudnn.h>
#include "atlas_libraries.h"

/* The first layer of the thread's ResNet: 1 × 3 × 224 × 224, 64 filters of
 * 7 × 7, stride 2, padding 3 (output 1 × 64 × 112 × 112). */
enum { IN_C = 3, IN_HW = 224, OUT_C = 64, K = 7, PAD = 3, STRIDE = 2, OUT_HW = 112 };

static void tune_and_convolve(bool fill_first)
{
    cudnnHandle_t handle;
    cudnnTensorDescriptor_t xd = NULL, yd = NULL;
    cudnnFilterDescriptor_t wd = NULL;
    cudnnConvolutionDescriptor_t cd = NULL;
    float *x = NULL, *w = NULL, *y = NULL, one = 1.0f, zero = 0.0f;
    void *workspace = NULL;
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int returned = 0;
    atlas_quantity("cudnn_version", (double)cudnnGetVersion(), "cudnnGetVersion");
    /* The handle and the tensors exist before memory fills (as in the
     * framework): only the search comes after. */
    if (!ATLAS_CUDNN("cudnn_create", cudnnCreate(&handle)))
        return;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&x, sizeof(float) * IN_C * IN_HW * IN_HW))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&w, sizeof(float) * OUT_C * IN_C * K * K))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&y, sizeof(float) * OUT_C * OUT_HW * OUT_HW))
        || !ATLAS_CUDA("zero", cudaMemset(x, 0, sizeof(float) * IN_C * IN_HW * IN_HW))
        || !ATLAS_CUDA("zero", cudaMemset(w, 0, sizeof(float) * OUT_C * IN_C * K * K))
        || !ATLAS_CUDNN("descriptor", cudnnCreateTensorDescriptor(&xd))
        || !ATLAS_CUDNN("descriptor", cudnnCreateTensorDescriptor(&yd))
        || !ATLAS_CUDNN("descriptor", cudnnCreateFilterDescriptor(&wd))
        || !ATLAS_CUDNN("descriptor", cudnnCreateConvolutionDescriptor(&cd))
        || !ATLAS_CUDNN("shape", cudnnSetTensor4dDescriptor(xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, IN_C, IN_HW, IN_HW))
        || !ATLAS_CUDNN("shape", cudnnSetTensor4dDescriptor(yd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, OUT_C, OUT_HW, OUT_HW))
        || !ATLAS_CUDNN("shape", cudnnSetFilter4dDescriptor(wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, OUT_C, IN_C, K, K))
        || !ATLAS_CUDNN("shape", cudnnSetConvolution2dDescriptor(cd, PAD, PAD, STRIDE, STRIDE, 1, 1,
                                                                 CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT)))
        goto out;
    if (fill_first)
        atlas_fill_gpu(0);
    if (ATLAS_CUDNN("find", cudnnFindConvolutionForwardAlgorithm(handle, xd, wd, cd, yd, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                                 &returned, perf))) {
        int usable = 0, first = -1;
        for (int i = 0; i < returned; i++) {
            atlas_note("algorithm %d: %s, %.3f ms, workspace %zu B", (int)perf[i].algo,
                       cudnnGetErrorString(perf[i].status), perf[i].time, perf[i].memory);
            if (perf[i].status == CUDNN_STATUS_SUCCESS && usable++ == 0)
                first = i;
        }
        atlas_quantity("algorithms_returned", returned, "perfResults");
        atlas_quantity("algorithms_usable", usable, "perfResults with status CUDNN_STATUS_SUCCESS");
        atlas_check("usable_algorithm", usable > 0, "%d of %d algorithms ran in the search", usable, returned);
        /* What XLA does next: the best one, or a default with no workspace. */
        cudnnConvolutionFwdAlgo_t algo = first >= 0 ? perf[first].algo : CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
        size_t bytes = first >= 0 ? perf[first].memory : 0;
        atlas_note("forward with algorithm %d, workspace %zu B", (int)algo, bytes);
        if (bytes == 0 || ATLAS_CUDA("workspace", cudaMalloc(&workspace, bytes))) {
            ATLAS_CUDNN("forward", cudnnConvolutionForward(handle, &one, xd, x, wd, w, cd, algo, workspace, bytes,
                                                           &zero, yd, y));
            ATLAS_CUDA("sync", cudaDeviceSynchronize());
        }
    }
    atlas_release_gpu();
out:
    cudaFree(workspace);
    if (cd)
        cudnnDestroyConvolutionDescriptor(cd);
    if (wd)
        cudnnDestroyFilterDescriptor(wd);
    if (yd)
        cudnnDestroyTensorDescriptor(yd);
    if (xd)
        cudnnDestroyTensorDescriptor(xd);
    cudaFree(x), cudaFree(w), cudaFree(y);
    ATLAS_CUDNN("cudnn_destroy", cudnnDestroy(handle));
}

static void search_before_filling(void) { tune_and_convolve(false); }
static void search_after_filling(void) { tune_and_convolve(true); }

ATLAS_CASE(search_before_filling, search_after_filling)
