/* cudnn_tensor_descriptor_zero_dimension — cudnnSetTensor4dDescriptor with
 * a batch of 0 (and, as the text shows, any dimension <= 0).
 *
 * The mistake: an empty batch (the last, partial batch split across
 * workers; a filter that removed every sample) described to cuDNN as it is.
 *
 * What the program sees (H200, CUDA 13.0, cuDNN 9.14 and PyTorch's wheel
 * alike): cudnnSetTensor4dDescriptor returns CUDNN_STATUS_BAD_PARAM, and
 * cudnnGetLastErrorString names the check: "(n <= 0) || (c <= 0) || (h <= 0)
 * || (w <= 0)". The same without a driver: no GPU is involved.
 *
 * What a PyTorch user sees: nothing today: PyTorch returns empty outputs
 * for empty batches without calling cuDNN (pytorch/pytorch#19599 was the
 * report when it did not).
 *
 * Why: cuDNN does not describe empty tensors; the descriptor call checks
 * each dimension on the host, before any handle or GPU is involved.
 *
 * The fix: skip the layer for an empty batch.
 *
 * References: cuDNN documentation, cudnnSetTensor4dDescriptor
 * (https://docs.nvidia.com/deeplearning/cudnn/api/latest/api/cudnn-graph-library.html#cudnnsettensor4ddescriptor),
 * "CUDNN_STATUS_BAD_PARAM: At least one of the parameters n, c, h, w was
 * negative" (0 is refused too, as recorded); JuliaGPU/CUDA.jl#1477 ("CUDNN: STATUS_BAD_PARAM; Reason:
 * dimA[i] <= 0"), LBANN/lbann#390 and Theano/Theano#5341 (an empty batch).
 *
 * atlas:cause empty_input_given_to_library
 */
#include <cudnn.h>
#include "atlas_libraries.h"

static void describe_batch_of(int n)
{
    cudnnTensorDescriptor_t desc;
    atlas_quantity("cudnn_version", (double)cudnnGetVersion(), "cudnnGetVersion");
    if (!ATLAS_CUDNN("descriptor", cudnnCreateTensorDescriptor(&desc)))
        return;
    ATLAS_CUDNN("set", cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, 3, 8, 8));
    ATLAS_CUDNN("destroy", cudnnDestroyTensorDescriptor(desc));
}

static void batch_of_1(void) { describe_batch_of(1); }
static void batch_of_0(void) { describe_batch_of(0); }

ATLAS_CASE(batch_of_1, batch_of_0)
