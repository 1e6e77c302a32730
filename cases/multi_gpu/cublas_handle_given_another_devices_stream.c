/* cublas_handle_given_another_devices_stream — cublasSetStream with a
 * stream of device 1 on a handle (and matrices) of device 0.
 *
 * The mistake: streams and handles kept in separate per-GPU tables, and
 * the index of one used for the other.
 *
 * What the program sees (two H200s with NVLink, CUDA 13.0, driver 580):
 * cublasSetStream accepts the stream (CUBLAS_STATUS_SUCCESS); cublasSgemm
 * returns CUBLAS_STATUS_EXECUTION_FAILED; both synchronizes return
 * cudaErrorIllegalAddress, and both GPUs are lost (cudaMalloc on either:
 * cudaErrorIllegalAddress).
 *
 * What a PyTorch user sees: nothing: PyTorch sets the handle's stream from
 * the current stream of the tensors' device.
 *
 * Why: cublasSetStream stores the stream without checking its device; the
 * kernels of the next call are launched on it.
 *
 * The fix: give a handle only streams of its own device.
 *
 * References: cuBLAS documentation, cublasSetStream
 * (https://docs.nvidia.com/cuda/cublas/#cublassetstream) and "cuBLAS
 * Context" (a handle is tied to the device current at its creation);
 * arrayfire/arrayfire#555 (one handle per GPU).
 *
 * atlas:cause resource_used_on_other_device
 */
#include "atlas_cublas.h"
#include "two_devices.h"

enum { N = 256 };

static void gemm_on_stream_of(int stream_device)
{
    cublasHandle_t handle;
    cudaStream_t stream = NULL;
    float *a = NULL, *c = NULL, alpha = 1.0f, beta = 0.0f;
    if (!atlas_need_two_gpus() || !ATLAS_CUDA("set_stream_device", cudaSetDevice(stream_device))
        || !ATLAS_CUDA("stream", cudaStreamCreate(&stream)) || !ATLAS_CUDA("set_0", cudaSetDevice(0))
        || !ATLAS_CUBLAS("create", cublasCreate(&handle)))
        return;
    if (ATLAS_CUDA("alloc", cudaMalloc((void **)&a, sizeof(float) * N * N))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&c, sizeof(float) * N * N))
        && ATLAS_CUDA("zero", cudaMemset(a, 0, sizeof(float) * N * N))) {
        ATLAS_CUBLAS("set_stream", cublasSetStream(handle, stream));
        ATLAS_CUBLAS("gemm", cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &alpha, a, N, a, N, &beta, c, N));
        ATLAS_CUDA("stream_sync", cudaStreamSynchronize(stream));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    atlas_device_usable(1, "usable_1");
    atlas_device_usable(0, "usable_0");
    cudaFree(a), cudaFree(c);
    ATLAS_CUBLAS("destroy", cublasDestroy(handle));
    cudaStreamDestroy(stream);
}

static void stream_of_device_0(void) { gemm_on_stream_of(0); }
static void stream_of_device_1(void) { gemm_on_stream_of(1); }

ATLAS_CASE(stream_of_device_0, stream_of_device_1)
