/* inner_dimension_too_large_reads_past_b — k larger than B's rows, with ldb
 * raised to match so that the call is "valid": cuBLAS reads past the end of
 * B's allocation.
 *
 * The mistake: "fixing" an INVALID_VALUE from a wrong k by raising the
 * leading dimension instead of correcting k. The arguments now agree with
 * each other, and not with the memory behind them.
 *
 * What the program sees: CUBLAS_STATUS_SUCCESS at the call; what the
 * out-of-bounds reads do depends on what lies past B. Here they fault, and
 * the synchronize reports it — but which fault is reported first is a race
 * between threads: five runs in a row on the H100 gave
 * cudaErrorIllegalAddress twice and cudaErrorInvalidAddressSpace three
 * times. Either way the context is lost (sticky).
 *
 * What a PyTorch user sees: nothing like it; PyTorch's shapes and strides
 * always describe memory it owns.
 *
 * Why: leading dimensions are promises about memory that cuBLAS cannot
 * check.
 *
 * The fix: correct k; never raise a leading dimension beyond the real
 * distance between columns.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm); compute-sanitizer
 * (https://docs.nvidia.com/compute-sanitizer/) finds such reads.
 *
 * atlas:nondeterministic — threads race to report the first fault.
 *
 * atlas:cause gemm_sizes_do_not_match_operands
 */
#include "atlas_cublas.h"

enum { M = 16, N = 16, K = 16, HUGE_K = 1 << 22 };

static void multiply(int k)
{
    cublasHandle_t handle;
    float *a = NULL, *b = NULL, *c = NULL, alpha = 1.0f, beta = 0.0f;
    if (!ATLAS_CUBLAS("create", cublasCreate(&handle)))
        return;
    /* A is large enough for any k; B holds exactly K×N floats. */
    if (ATLAS_CUDA("alloc", cudaMalloc((void **)&a, sizeof(float) * M * (size_t)HUGE_K))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&b, sizeof(float) * K * N))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&c, sizeof(float) * M * N))) {
        ATLAS_CUBLAS("gemm", cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, k,
                                         &alpha, a, M, b, k, &beta, c, M));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    cudaFree(a), cudaFree(b), cudaFree(c);
    ATLAS_CUBLAS("destroy", cublasDestroy(handle));
}

static void k_is_rows_of_b(void) { multiply(K); }
static void k_and_ldb_raised(void) { multiply(HUGE_K); }

ATLAS_CASE(k_is_rows_of_b, k_and_ldb_raised)
