/* fp8_through_gemmex — cublasGemmEx with fp8 (E4M3) inputs.
 *
 * The mistake: treating fp8 as one more data type for GemmEx. On Hopper,
 * fp8 matrix products exist — but through cuBLASLt (cublasLtMatmul, with
 * scale factors and the TN layout), not through GemmEx.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasGemmEx returns CUBLAS_STATUS_INVALID_VALUE at the
 * call, without a message; the context stays usable.
 *
 * What a PyTorch user sees: torch.matmul on float8 tensors is refused
 * ("addmm_cuda" not implemented for 'Float8_e4m3fn'); fp8 goes through
 * torch._scaled_mm, which uses cuBLASLt.
 *
 * Why: GemmEx's type table has no fp8 rows.
 *
 * The fix: cublasLtMatmul with CUDA_R_8F_E4M3 layouts and scale pointers, or
 * fp16/bf16 through GemmEx.
 *
 * References: cuBLAS documentation, cublasGemmEx
 * (https://docs.nvidia.com/cuda/cublas/#cublasgemmex) and cublasLtMatmul's
 * FP8 requirements (https://docs.nvidia.com/cuda/cublas/#cublasltmatmul).
 *
 * atlas:cause fp8_gemm_through_gemmex
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_ex_with_inputs(cudaDataType type)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasGemmEx(g.handle, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &g.alpha,
                                      g.a, type, K, g.b, type, K, &g.beta,
                                      g.c, CUDA_R_32F, M, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    atlas_gemm_end(&g);
}

static void fp16_inputs(void) { gemm_ex_with_inputs(CUDA_R_16F); }
static void fp8_inputs(void) { gemm_ex_with_inputs(CUDA_R_8F_E4M3); }

ATLAS_CASE(fp16_inputs, fp8_inputs)
