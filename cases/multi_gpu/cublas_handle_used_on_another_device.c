/* cublas_handle_used_on_another_device — a cuBLAS handle created with
 * device 0 current, used after cudaSetDevice(1) on matrices of device 1.
 *
 * The mistake: one global handle for a multi-GPU program ("create it once
 * at start-up"), then work moved to the second GPU.
 *
 * What the program sees (two H200s with NVLink, CUDA 13.0, driver 580):
 * cublasSgemm returns CUBLAS_STATUS_EXECUTION_FAILED (its kernel launch
 * failed), cudaDeviceSynchronize returns cudaErrorIllegalAddress, and both
 * GPUs are lost: cudaMalloc on GPU 0 and on GPU 1 returns
 * cudaErrorIllegalAddress (cublasDestroy still returns success).
 *
 * What a PyTorch user sees: nothing: PyTorch keeps one handle per device
 * (and per thread) and picks it by the tensors' device.
 *
 * Why: a handle is bound to the device current when cublasCreate ran; its
 * workspace and stream live there. The cuBLAS documentation leaves the
 * behaviour on another device undefined.
 *
 * The fix: one handle per device, created with that device current, and
 * cudaSetDevice to the handle's device before using it.
 *
 * References: cuBLAS documentation, "cuBLAS Context"
 * (https://docs.nvidia.com/cuda/cublas/#cublas-context): the handle is tied
 * to the device current at cublasCreate, one handle per device for
 * multi-GPU work; arrayfire/arrayfire#555 ("cuBLAS requires one handle per
 * GPU") and davisking/dlib#511 (objects made before switching devices).
 *
 * atlas:cause resource_used_on_other_device
 */
#include "atlas_cublas.h"
#include "two_devices.h"

enum { N = 256 };

static void gemm_on_device_1_with_handle_of(int handle_device)
{
    cublasHandle_t handle;
    float *a = NULL, *c = NULL, alpha = 1.0f, beta = 0.0f;
    if (!atlas_need_two_gpus() || !ATLAS_CUDA("set_handle_device", cudaSetDevice(handle_device))
        || !ATLAS_CUBLAS("create", cublasCreate(&handle)))
        return;
    if (ATLAS_CUDA("set_1", cudaSetDevice(1)) && ATLAS_CUDA("alloc", cudaMalloc((void **)&a, sizeof(float) * N * N))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&c, sizeof(float) * N * N))
        && ATLAS_CUDA("zero", cudaMemset(a, 0, sizeof(float) * N * N))) {
        ATLAS_CUBLAS("gemm", cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &alpha, a, N, a, N, &beta, c, N));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    atlas_device_usable(0, "usable_0");
    atlas_device_usable(1, "usable_1");
    cudaFree(a), cudaFree(c);
    cudaSetDevice(handle_device);
    ATLAS_CUBLAS("destroy", cublasDestroy(handle));
}

static void handle_of_device_1(void) { gemm_on_device_1_with_handle_of(1); }
static void handle_of_device_0(void) { gemm_on_device_1_with_handle_of(0); }

ATLAS_CASE(handle_of_device_1, handle_of_device_0)
