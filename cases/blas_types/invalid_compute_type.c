/* invalid_compute_type — cublasGemmEx with a compute type that does not
 * exist.
 *
 * The mistake: a compute type read from a config file or computed from
 * another enum, whose value is no cublasComputeType_t at all. (Passing a
 * cudaDataType — the CUDA 10 signature of GemmEx took one here — is a
 * different story: CUDA_R_32F, 0, was accepted in a first recording on the
 * H100, so this case uses a value that means nothing: 12345.)
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasGemmEx returns CUBLAS_STATUS_NOT_SUPPORTED at the
 * call; the context stays usable.
 *
 * What a PyTorch user sees: nothing; PyTorch passes valid compute types.
 *
 * Why: the compute type selects the accumulation precision; unknown values
 * are rejected.
 *
 * The fix: use cublasComputeType_t values (CUBLAS_COMPUTE_32F, ...).
 *
 * References: cuBLAS documentation, cublasComputeType_t
 * (https://docs.nvidia.com/cuda/cublas/#cublascomputetype-t).
 *
 * atlas:cause invalid_enum_argument
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

static void compute_type_enum(void) { gemm_ex_computing_in(CUBLAS_COMPUTE_32F); }
static void value_12345(void) { gemm_ex_computing_in((cublasComputeType_t)12345); }

ATLAS_CASE(compute_type_enum, value_12345)
