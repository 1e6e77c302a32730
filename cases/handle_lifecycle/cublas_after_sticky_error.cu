/* cublas_after_sticky_error — cuBLAS calls after a kernel caused an illegal
 * address.
 *
 * The mistake: not checking for errors after a custom kernel; the next
 * library call inherits the dead context. This is how PyTorch users see a
 * device-side fault reported as a cuBLAS error: the matmul after a faulting
 * kernel fails, and its error names cuBLAS.
 *
 * What the program sees: the recorded statuses of cublasSgemm on an
 * existing handle and of cublasCreate for a new one, once the context is
 * poisoned.
 *
 * What a PyTorch user sees (for a device-side fault followed by a matmul):
 * "CUDA error: an illegal memory access was encountered", or a CUBLAS_STATUS
 * error from the matmul — which one depends on where the fault is noticed
 * (not recorded through PyTorch yet).
 *
 * Why: a sticky error makes every later call in the process fail, whatever
 * library makes it.
 *
 * The fix: check errors after kernels (cudaGetLastError, and synchronize
 * when debugging: CUDA_LAUNCH_BLOCKING=1); after a sticky error, restart the
 * process.
 *
 * References: CUDA Programming Guide, "Error Checking"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#error-checking).
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

__global__ void write_through(int *p) { *p = 1; }

static void gemm_after_kernel(int bad_address)
{
    struct atlas_gemm g;
    int *target = NULL;
    if (!atlas_gemm_begin(&g, M * K) || !ATLAS_CUDA("alloc_target", cudaMalloc((void **)&target, sizeof(int))))
        return;
    write_through<<<1, 1>>>(bad_address ? (int *)0x100 : target);
    ATLAS_CUDA("kernel_sync", cudaDeviceSynchronize());
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    cublasHandle_t another;
    if (ATLAS_CUBLAS("create_another", cublasCreate(&another)))
        cublasDestroy(another);
    cudaFree(target);
    atlas_gemm_end(&g);
}

static void kernel_writes_device_memory(void) { gemm_after_kernel(0); }
static void kernel_writes_bad_address(void) { gemm_after_kernel(1); }

ATLAS_CASE(kernel_writes_device_memory, kernel_writes_bad_address)
