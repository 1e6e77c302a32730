/* cudnn_create_when_memory_full — cudnnCreate after this process has taken
 * all free GPU memory.
 *
 * The mistake: the cuDNN handle is created at the first convolution, after
 * the framework filled the GPU with weights and activations — the source of
 * many "Could not create cudnn handle" reports.
 *
 * What the program sees (H200, CUDA 13.0, cuDNN 9.14 and PyTorch's wheel
 * alike): cudnnCreate returns CUDNN_STATUS_INTERNAL_ERROR, and
 * cudnnGetLastErrorString says why: "cudaStreamCreateWithFlags(
 * &ctx->streamPool[0][i], 0x01) != cudaSuccess" — neither the NOT_INITIALIZED
 * of older reports nor ALLOC_FAILED. Nothing is sticky.
 *
 * What a PyTorch user sees: the first cuDNN operation after memory filled
 * up raises
 *   RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR
 * (recorded with PyTorch 2.11 on an H200).
 *
 * Why: cudnnCreate initialises the library on the current device and
 * allocates device memory; with nothing free it fails, and the status says
 * so only indirectly.
 *
 * The fix: run one small cuDNN operation early (warm-up), or leave
 * headroom (TensorFlow: allow_growth / a memory limit; PyTorch: smaller
 * batches).
 *
 * References: cuDNN documentation, cudnnCreate
 * (https://docs.nvidia.com/deeplearning/cudnn/api/latest/api/cudnn-graph-library.html#cudnncreate);
 * tensorflow/tensorflow#45779 and haotian-liu/LLaVA#392 ("Could not create
 * cudnn handle: CUDNN_STATUS_NOT_INITIALIZED", found to be out of memory).
 *
 * atlas:runs-alone — it fills GPU memory.
 *
 * atlas:cause cudnn_handle_no_memory_left
 */
#include <cudnn.h>
#include "atlas_libraries.h"

enum { C = 16, H = 32, W = 32 };

static void relu_after_fill(bool create_first)
{
    cudnnHandle_t handle;
    cudnnTensorDescriptor_t desc = NULL;
    cudnnActivationDescriptor_t relu = NULL;
    float *x = NULL, alpha = 1.0f, beta = 0.0f;
    bool have_handle = false;
    atlas_quantity("cudnn_version", (double)cudnnGetVersion(), "cudnnGetVersion");
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&x, sizeof(float) * C * H * W))
        || !ATLAS_CUDA("zero", cudaMemset(x, 0, sizeof(float) * C * H * W))
        || !ATLAS_CUDNN("descriptor", cudnnCreateTensorDescriptor(&desc))
        || !ATLAS_CUDNN("shape", cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, C, H, W))
        || !ATLAS_CUDNN("activation", cudnnCreateActivationDescriptor(&relu))
        || !ATLAS_CUDNN("relu", cudnnSetActivationDescriptor(relu, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0)))
        goto out;
    if (create_first)
        have_handle = ATLAS_CUDNN("create", cudnnCreate(&handle));
    atlas_fill_gpu(0);
    if (!create_first)
        have_handle = ATLAS_CUDNN("create", cudnnCreate(&handle));
    if (have_handle) {
        ATLAS_CUDNN("forward", cudnnActivationForward(handle, relu, &alpha, desc, x, &beta, desc, x));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    atlas_release_gpu();
    if (have_handle)
        ATLAS_CUDNN("destroy", cudnnDestroy(handle));
out:
    if (relu)
        cudnnDestroyActivationDescriptor(relu);
    if (desc)
        cudnnDestroyTensorDescriptor(desc);
    cudaFree(x);
}

static void create_before_filling(void) { relu_after_fill(true); }
static void create_after_filling(void) { relu_after_fill(false); }

ATLAS_CASE(create_before_filling, create_after_filling)
