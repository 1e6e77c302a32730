/* cublas_after_sticky_error — cuBLAS calls after a kernel caused an illegal
 * address.
 *
 * The mistake: not checking for errors after a custom kernel; the next
 * library call inherits the dead context. This is how PyTorch users see a
 * device-side fault reported as a cuBLAS error: the matmul after a faulting
 * kernel fails, and its error names cuBLAS.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): once the context is poisoned (the kernel's synchronize
 * returned cudaErrorIllegalAddress), cublasSgemm on the existing handle
 * returns CUBLAS_STATUS_EXECUTION_FAILED and cublasCreate for a new one
 * returns CUBLAS_STATUS_NOT_INITIALIZED; the next synchronize and a fresh
 * cudaMalloc still return cudaErrorIllegalAddress (sticky). Under compute-sanitizer (H100,
 * 13.0) the same, with cudaErrorLaunchFailure in place of
 * cudaErrorIllegalAddress.
 *
 * What a PyTorch user sees (recorded with PyTorch 2.11 on the H100 and the
 * H200, for an out-of-range embedding index followed by a matmul): the
 * kernel prints
 *   Indexing.cu:1515: indexSelectSmallIndex: ... Assertion `srcIndex < srcSelectDimSize` failed.
 * and PyTorch raises torch.AcceleratorError, "CUDA error: device-side
 * assert triggered" — the CUDA error, not a CUBLAS_STATUS one from the
 * matmul.
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
 *
 * atlas:cause earlier_kernel_fault
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
