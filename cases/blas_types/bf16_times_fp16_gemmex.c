/* bf16_times_fp16_gemmex — cublasGemmEx with A in bfloat16 and B in float16.
 *
 * The mistake: a model loaded in bf16 meets an input (or LoRA weights) in
 * fp16. Both are 16-bit floats, so the bytes fit; the types do not.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasGemmEx returns CUBLAS_STATUS_NOT_SUPPORTED at the
 * call, without a message. The context stays usable.
 *
 * What a PyTorch user sees: PyTorch checks dtypes first:
 *   RuntimeError: expected mat1 and mat2 to have the same dtype ...
 *
 * Why: GemmEx implements the type combinations in its table; mixed bf16/fp16
 * inputs are not among them.
 *
 * The fix: convert one operand (to bf16 or fp16) before the product.
 *
 * References: cuBLAS documentation, cublasGemmEx and its table of supported
 * combinations (https://docs.nvidia.com/cuda/cublas/#cublasgemmex).
 *
 * atlas:cause gemm_operand_types_mismatched
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_ex_with_b_type(cudaDataType b_type)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasGemmEx(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                      g.a, CUDA_R_16BF, M, g.b, b_type, K, &g.beta,
                                      g.c, CUDA_R_32F, M, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    atlas_gemm_end(&g);
}

static void both_bf16(void) { gemm_ex_with_b_type(CUDA_R_16BF); }
static void bf16_times_fp16(void) { gemm_ex_with_b_type(CUDA_R_16F); }

ATLAS_CASE(both_bf16, bf16_times_fp16)
