/* compute_type_narrower_than_data — fp32 matrices with CUBLAS_COMPUTE_16F.
 *
 * The mistake: choosing the compute type for speed ("compute in half")
 * without changing the data types; fp32 inputs cannot be accumulated in a
 * 16-bit compute type.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasGemmEx returns CUBLAS_STATUS_NOT_SUPPORTED at the
 * call; the context stays usable.
 *
 * What a PyTorch user sees: nothing; PyTorch chooses compute types from
 * dtypes (torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction
 * only affects fp16 inputs).
 *
 * Why: each compute type accepts only some data types; COMPUTE_16F takes
 * fp16 data.
 *
 * The fix: CUBLAS_COMPUTE_32F (or CUBLAS_COMPUTE_32F_FAST_16F to allow
 * tensor-core downconversion) for fp32 data.
 *
 * References: cuBLAS documentation, cublasGemmEx and cublasComputeType_t
 * (https://docs.nvidia.com/cuda/cublas/#cublascomputetype-t).
 *
 * atlas:cause compute_type_unsupported_for_data_types
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_ex_computing_in(cublasComputeType_t compute)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasGemmEx(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                      g.a, CUDA_R_32F, M, g.b, CUDA_R_32F, K, &g.beta,
                                      g.c, CUDA_R_32F, M, compute, CUBLAS_GEMM_DEFAULT));
    atlas_gemm_end(&g);
}

static void compute_32f(void) { gemm_ex_computing_in(CUBLAS_COMPUTE_32F); }
static void compute_16f(void) { gemm_ex_computing_in(CUBLAS_COMPUTE_16F); }

ATLAS_CASE(compute_32f, compute_16f)
