/* cudnn_batch_norm_per_activation_over_131070_rows — cuDNN's training batch
 * norm of N points × C features in CUDNN_BATCHNORM_PER_ACTIVATION mode (the
 * 2-D (N, C) tensor) with N above 131070.
 *
 * The mistake: normalising a long 2-D batch — a point cloud's features, one
 * row per point, or a BatchNorm1d over a huge batch — with cuDNN in
 * per-activation mode, the mode frameworks pick for a 2-D input. Its
 * statistics are per channel over the N rows; spatial mode over the same
 * data viewed as (N, C, 1) computes the same numbers, but the two modes run
 * different kernels with different limits.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0, cuDNN 9.19):
 * cudnnBatchNormalizationForwardTraining of an N × C × 1 × 1 tensor (C = 32)
 * in per-activation mode returns CUDNN_STATUS_NOT_SUPPORTED (3000) for
 * N = 500000 (step batch_norm), at the call, nothing launched and nothing
 * sticky; the notes find the edge: N = 131070 succeeds, 131071 is refused
 * (as are 880801 and 1000000). The same data in spatial mode (the 3-D view
 * (N, C, 1)) succeeds at every N tried, up to 1000000.
 *
 * What a PyTorch user sees: in PyTorch 0.2 (pytorch/pytorch#2917),
 * BatchNorm1d on (140000, 1) raised "CUDNN_STATUS_NOT_SUPPORTED. This error
 * may appear if you passed in a non-contiguous input" — "The magic number is
 * 131070". PyTorch now keeps 2-D inputs off cuDNN: its mirror beside this
 * file (PyTorch 2.11, H100) raises nothing for either form.
 * NVIDIA/MinkowskiEngine#129 reported the same message for the 3-D view
 * (N, C, 1) with PyTorch 1.4/1.5 and fixed it by normalising the 2-D tensor;
 * with cuDNN 9.19 it is the other way round: spatial mode on the 3-D view
 * accepts 1000000 rows and per-activation mode refuses more than 131070.
 *
 * Why: cuDNN's legacy per-activation batch-norm kernels take at most 131070
 * rows here, where its spatial kernels take a million; the documentation
 * states neither limit, and the call refuses on the host.
 *
 * The fix: normalise a long 2-D batch in spatial mode as N × C × 1 × 1 (the
 * same statistics), split it, or use the framework's own kernels (what
 * PyTorch does today).
 *
 * References: pytorch/pytorch#2917 ("CuDNN batchnorm has batch size limit":
 * "The magic number is 131070. Anything above this batch size fails.");
 * NVIDIA/MinkowskiEngine#129 ("batch norm error with multi gpu training",
 * output = self.bn(input.F.unsqueeze(2)).squeeze(2)); cuDNN documentation,
 * cudnnBatchNormalizationForwardTraining
 * (https://docs.nvidia.com/deeplearning/cudnn/api/latest/api/cudnn-ops-library.html#cudnnbatchnormalizationforwardtraining)
 * and cudnnBatchNormMode_t ("CUDNN_BATCHNORM_PER_ACTIVATION: Normalization
 * is performed per-activation"; "CUDNN_BATCHNORM_SPATIAL: Normalization is
 * performed over N+spatial dimensions").
 *
 * atlas:cause cudnn_batch_norm_too_many_rows
 */
#include <cudnn.h>
#include "atlas_libraries.h"

/* A point cloud of half a million points, 32 features each (below the
 * 880801 up to which PyTorch hands a 3-D training batch norm to cuDNN).
 * The buffers hold the largest size noted (MOST). */
enum { POINTS = 500000, C = 32, MOST = 1000000 };

static const char *status_name(cudnnStatus_t s) { return cudnnGetErrorString(s); }

/* One training-mode batch norm of n × C × 1 × 1 in `mode` (its per-channel
 * parameters are C, or C × 1 × 1 per activation: the same numbers). */
static cudnnStatus_t batch_norm(cudnnHandle_t handle, cudnnBatchNormMode_t mode, int n, float *x, float *y,
                                float *params, cudnnTensorDescriptor_t xd, cudnnTensorDescriptor_t pd)
{
    const float one = 1.0f, zero = 0.0f;
    cudnnStatus_t s = cudnnSetTensor4dDescriptor(xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, C, 1, 1);
    if (s == CUDNN_STATUS_SUCCESS)
        s = cudnnDeriveBNTensorDescriptor(pd, xd, mode);
    if (s == CUDNN_STATUS_SUCCESS)
        s = cudnnBatchNormalizationForwardTraining(handle, mode, &one, &zero, xd, x, xd, y, pd, params, params + C,
                                                   0.1, params + 2 * C, params + 3 * C, 1e-5, params + 4 * C,
                                                   params + 5 * C);
    return s;
}

static void normalise_points(cudnnBatchNormMode_t mode)
{
    cudnnHandle_t handle;
    cudnnTensorDescriptor_t xd = NULL, pd = NULL;
    float *x = NULL, *y = NULL, *params = NULL;
    atlas_quantity("cudnn_version", (double)cudnnGetVersion(), "cudnnGetVersion");
    if (!ATLAS_CUDNN("cudnn_create", cudnnCreate(&handle)))
        return;
    if (ATLAS_CUDNN("descriptor", cudnnCreateTensorDescriptor(&xd))
        && ATLAS_CUDNN("descriptor", cudnnCreateTensorDescriptor(&pd))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&x, sizeof(float) * MOST * C))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&y, sizeof(float) * MOST * C))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&params, sizeof(float) * 6 * C))
        && ATLAS_CUDA("zero", cudaMemset(x, 0, sizeof(float) * MOST * C))
        && ATLAS_CUDA("zero", cudaMemset(params, 0, sizeof(float) * 6 * C))) {
        /* Where the limit lies for this cuDNN: notes, in the same mode. */
        static const int sizes[] = {65535, 65536, 131070, 131071, 880801, 880802, MOST};
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            cudnnStatus_t s = batch_norm(handle, mode, sizes[i], x, y, params, xd, pd);
            cudaError_t e = cudaDeviceSynchronize();
            atlas_note("training batch norm, N = %d: %s, then %s", sizes[i], status_name(s), cudaGetErrorName(e));
        }
        ATLAS_CUDNN("batch_norm", batch_norm(handle, mode, POINTS, x, y, params, xd, pd));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    cudaFree(x), cudaFree(y), cudaFree(params);
    if (pd)
        cudnnDestroyTensorDescriptor(pd);
    if (xd)
        cudnnDestroyTensorDescriptor(xd);
    ATLAS_CUDNN("cudnn_destroy", cudnnDestroy(handle));
}

static void spatial_for_the_3d_view(void) { normalise_points(CUDNN_BATCHNORM_SPATIAL); }
static void per_activation_for_the_2d_tensor(void) { normalise_points(CUDNN_BATCHNORM_PER_ACTIVATION); }

ATLAS_CASE(spatial_for_the_3d_view, per_activation_for_the_2d_tensor)
