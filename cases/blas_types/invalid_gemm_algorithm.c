/* invalid_gemm_algorithm — cublasGemmEx with an algorithm number that does
 * not exist.
 *
 * The mistake: an algorithm id carried over from autotuning on another
 * GPU or cuBLAS version, or a loop over "all algorithms" past the last one.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cuBLAS rejects the unknown algorithm rather than ignoring
 * it (the documentation says the numbered algorithms are deprecated on
 * recent GPUs): cublasGemmEx returns CUBLAS_STATUS_INVALID_VALUE at the
 * call and cuBLAS prints
 *   ** On entry to GEMM_EX  parameter number 18 had an illegal value
 *
 * What a PyTorch user sees: nothing; PyTorch uses CUBLAS_GEMM_DEFAULT.
 *
 * Why: algo selects an implementation; the valid ones are
 * CUBLAS_GEMM_DEFAULT, the numbered CUBLAS_GEMM_ALGO0..23 and their
 * _TENSOR_OP forms.
 *
 * The fix: CUBLAS_GEMM_DEFAULT, or cuBLASLt's heuristics.
 *
 * References: cuBLAS documentation, cublasGemmAlgo_t
 * (https://docs.nvidia.com/cuda/cublas/#cublasgemmalgo-t).
 *
 * atlas:cause gemm_algorithm_invalid
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_ex_with_algorithm(cublasGemmAlgo_t algo)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasGemmEx(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                      g.a, CUDA_R_32F, M, g.b, CUDA_R_32F, K, &g.beta,
                                      g.c, CUDA_R_32F, M, CUBLAS_COMPUTE_32F, algo));
    atlas_gemm_end(&g);
}

static void default_algorithm(void) { gemm_ex_with_algorithm(CUBLAS_GEMM_DEFAULT); }
static void algorithm_9999(void) { gemm_ex_with_algorithm((cublasGemmAlgo_t)9999); }

ATLAS_CASE(default_algorithm, algorithm_9999)
