/* cublaslt_transpose_without_swapping_layout — CUBLASLT_MATMUL_DESC_TRANSA
 * set to transpose, with A's layout describing op(A) instead of A as stored.
 *
 * The mistake: in cuBLASLt the layout describes the matrix in memory and
 * the descriptor says what to do with it; people describe the shape they
 * want to multiply. For C (m×n) = Aᵀ·B with A stored k×m, the layout of A
 * must be k×m (ld k), not m×k.
 *
 * What the program sees (H200, CUDA 13.0, cuBLAS 13.1): every descriptor and
 * layout is accepted; cublasLtMatmul returns CUBLAS_STATUS_INVALID_VALUE.
 * Nothing is launched and nothing is sticky.
 *
 * What a PyTorch user sees: nothing: PyTorch builds the layouts from
 * strides.
 *
 * Why: cublasLtMatmul checks that op(A), op(B) and C fit together
 * (m, n, k) before choosing an algorithm.
 *
 * The fix: layouts are of the stored matrices; transposes go in the
 * matmul descriptor.
 *
 * References: cuBLAS documentation, cublasLtMatmul and
 * cublasLtMatrixLayoutCreate (https://docs.nvidia.com/cuda/cublas/#cublasltmatmul);
 * EricLBuehler/mistral.rs#1819 (cuBLASLt layouts and transposes gotten
 * wrong in a port).
 *
 * atlas:cause cublaslt_layout_not_as_stored
 */
#include "atlas_cublas.h"
#include <cublasLt.h>

enum { M = 64, N = 48, K = 32 };

static void a_transposed_with_layout(int rows, int cols)
{
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc = NULL;
    cublasLtMatrixLayout_t a_layout = NULL, b_layout = NULL, c_layout = NULL;
    cublasOperation_t transpose = CUBLAS_OP_T;
    float *a = NULL, *b = NULL, *c = NULL, alpha = 1.0f, beta = 0.0f;
    if (!ATLAS_CUBLAS("create", cublasLtCreate(&lt)))
        return;
    if (ATLAS_CUDA("alloc", cudaMalloc((void **)&a, sizeof(float) * K * M))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&b, sizeof(float) * K * N))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&c, sizeof(float) * M * N))
        && ATLAS_CUBLAS("descriptor", cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F))
        && ATLAS_CUBLAS("transa", cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transpose,
                                                                 sizeof transpose))
        && ATLAS_CUBLAS("layout_a", cublasLtMatrixLayoutCreate(&a_layout, CUDA_R_32F, rows, cols, rows))
        && ATLAS_CUBLAS("layout_b", cublasLtMatrixLayoutCreate(&b_layout, CUDA_R_32F, K, N, K))
        && ATLAS_CUBLAS("layout_c", cublasLtMatrixLayoutCreate(&c_layout, CUDA_R_32F, M, N, M))) {
        ATLAS_CUBLAS("matmul", cublasLtMatmul(lt, desc, &alpha, a, a_layout, b, b_layout, &beta, c, c_layout,
                                              c, c_layout, NULL, NULL, 0, 0));
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
    }
    cublasLtMatrixLayoutDestroy(a_layout), cublasLtMatrixLayoutDestroy(b_layout), cublasLtMatrixLayoutDestroy(c_layout);
    cublasLtMatmulDescDestroy(desc);
    cudaFree(a), cudaFree(b), cudaFree(c);
    cublasLtDestroy(lt);
}

static void layout_of_stored_a(void) { a_transposed_with_layout(K, M); }
static void layout_of_transposed_a(void) { a_transposed_with_layout(M, K); }

ATLAS_CASE(layout_of_stored_a, layout_of_transposed_a)
