/* int8_times_fp32_gemmex — cublasGemmEx with A in int8 and B, C in float.
 *
 * The mistake: the article's "integer weights, float input": weights were
 * quantized (or cast) to int8 while activations stayed fp32, and the two are
 * handed to one matrix product.
 *
 * What the program sees (H100, CUDA 13.0): cublasGemmEx returns
 * CUBLAS_STATUS_NOT_SUPPORTED at the call — not INVALID_VALUE, as the
 * article says. cuBLAS lists the supported Atype/Btype/Ctype/computeType
 * combinations in a table, and mixed int8 × fp32 is not in it. The context
 * stays usable.
 *
 * What a PyTorch user sees: PyTorch refuses before cuBLAS:
 *   RuntimeError: expected mat1 and mat2 to have the same dtype, but got: float != signed char
 *
 * Why: GemmEx only implements the listed type combinations; int8 products
 * need int8 on both sides and an int32 compute type.
 *
 * The fix: give both operands the same type (dequantize the weights to fp32,
 * or quantize the input to int8 with CUBLAS_COMPUTE_32I and int32 C).
 *
 * References: cuBLAS documentation, cublasGemmEx, its table of supported
 * type combinations (https://docs.nvidia.com/cuda/cublas/#cublasgemmex).
 *
 * atlas:cause gemm_operand_types_mismatched
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_ex_with_a_type(cudaDataType a_type)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasGemmEx(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                      g.a, a_type, M, g.b, CUDA_R_32F, K, &g.beta,
                                      g.c, CUDA_R_32F, M, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    atlas_gemm_end(&g);
}

static void both_fp32(void) { gemm_ex_with_a_type(CUDA_R_32F); }
static void int8_weights_fp32_input(void) { gemm_ex_with_a_type(CUDA_R_8I); }

ATLAS_CASE(both_fp32, int8_weights_fp32_input)
