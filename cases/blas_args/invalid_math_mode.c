/* invalid_math_mode — cublasSetMathMode with bits no mode defines.
 *
 * The mistake: OR-ing flags from another enum (cudaDataType, a compute
 * type) into the math mode, or passing a deprecated value.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSetMathMode returns CUBLAS_STATUS_INVALID_VALUE:
 * unknown bits are rejected, not ignored. The handle keeps its mode and the
 * gemm that follows returns CUBLAS_STATUS_SUCCESS.
 *
 * What a PyTorch user sees: nothing; torch.backends.cuda.matmul flags map to
 * valid modes.
 *
 * Why: cublasMath_t is a small set of modes plus one flag
 * (CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION).
 *
 * The fix: use the enum values.
 *
 * References: cuBLAS documentation, cublasSetMathMode and cublasMath_t
 * (https://docs.nvidia.com/cuda/cublas/#cublassetmathmode).
 *
 * atlas:cause invalid_enum_argument
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void set_math(cublasMath_t mode)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("set_math", cublasSetMathMode(g.handle, mode));
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void tf32_mode(void) { set_math(CUBLAS_TF32_TENSOR_OP_MATH); }
static void unknown_bits(void) { set_math((cublasMath_t)0x7f00); }

ATLAS_CASE(tf32_mode, unknown_bits)
