/* cublaslt_mismatched_types — cublasLtMatmul with an fp16 A and fp32 B.
 *
 * The mistake: describing each matrix layout with its own type and
 * expecting cuBLASLt to convert.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): the layouts and the descriptor are created without
 * complaint (CUBLAS_STATUS_SUCCESS) — nothing checks them against each
 * other until cublasLtMatmul, which returns CUBLAS_STATUS_INVALID_VALUE.
 * The context stays usable.
 *
 * What a PyTorch user sees: dtype mismatch errors from PyTorch before
 * cuBLASLt ("expected mat1 and mat2 to have the same dtype").
 *
 * Why: cublasLtMatmul supports the type combinations in its table; with no
 * algorithm for the combination, the call fails.
 *
 * The fix: the same type for A and B (convert first).
 *
 * References: cuBLAS documentation, cublasLtMatmul, "Datatypes supported"
 * (https://docs.nvidia.com/cuda/cublas/#cublasltmatmul).
 *
 * atlas:cause gemm_operand_types_mismatched
 */
#include "atlas_cublas.h"
#include <cublasLt.h>

enum { M = 64, N = 64, K = 64 };

static void matmul_with_b_type(cudaDataType b_type)
{
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc = NULL;
    cublasLtMatrixLayout_t a_layout = NULL, b_layout = NULL, c_layout = NULL;
    void *a = NULL, *b = NULL, *c = NULL;
    float alpha = 1.0f, beta = 0.0f;
    if (!ATLAS_CUBLAS("create", cublasLtCreate(&lt)))
        return;
    if (ATLAS_CUDA("alloc", cudaMalloc(&a, sizeof(float) * M * K)) && ATLAS_CUDA("alloc", cudaMalloc(&b, sizeof(float) * K * N))
        && ATLAS_CUDA("alloc", cudaMalloc(&c, sizeof(float) * M * N))
        && ATLAS_CUBLAS("descriptor", cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F))
        && ATLAS_CUBLAS("layout_a", cublasLtMatrixLayoutCreate(&a_layout, CUDA_R_16F, M, K, M))
        && ATLAS_CUBLAS("layout_b", cublasLtMatrixLayoutCreate(&b_layout, b_type, K, N, K))
        && ATLAS_CUBLAS("layout_c", cublasLtMatrixLayoutCreate(&c_layout, CUDA_R_16F, M, N, M))) {
        ATLAS_CUBLAS("matmul", cublasLtMatmul(lt, desc, &alpha, a, a_layout, b, b_layout, &beta, c, c_layout,
                                              c, c_layout, NULL, NULL, 0, 0));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    cublasLtMatrixLayoutDestroy(a_layout), cublasLtMatrixLayoutDestroy(b_layout), cublasLtMatrixLayoutDestroy(c_layout);
    cublasLtMatmulDescDestroy(desc);
    cudaFree(a), cudaFree(b), cudaFree(c);
    cublasLtDestroy(lt);
}

static void both_fp16(void) { matmul_with_b_type(CUDA_R_16F); }
static void fp16_times_fp32(void) { matmul_with_b_type(CUDA_R_32F); }

ATLAS_CASE(both_fp16, fp16_times_fp32)
