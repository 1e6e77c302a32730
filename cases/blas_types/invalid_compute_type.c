/* invalid_compute_type — cublasGemmEx with a compute type that does not
 * exist.
 *
 * The mistake: passing a cudaDataType (CUDA_R_32F is 0) where a
 * cublasComputeType_t is expected — the CUDA 10 signature of GemmEx took a
 * cudaDataType here, and old code still passes one. Here: the value 0 is
 * not a compute type (CUBLAS_COMPUTE_32F is 68).
 *
 * What the program sees: the recorded status at the call.
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
static void data_type_as_compute_type(void) { gemm_ex_computing_in((cublasComputeType_t)CUDA_R_32F); }

ATLAS_CASE(compute_type_enum, data_type_as_compute_type)
