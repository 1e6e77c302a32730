/* cublaslt_layout_ld_too_small — a cuBLASLt matrix layout whose leading
 * dimension is smaller than its rows.
 *
 * The mistake: the same as lda_smaller_than_rows, in cuBLASLt's form: the
 * layout is described once (rows, cols, ld) and used later.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): the bad ld is not caught at cublasLtMatrixLayoutCreate
 * (CUBLAS_STATUS_SUCCESS for all three layouts and the descriptor) but only
 * at cublasLtMatmul, which returns CUBLAS_STATUS_INVALID_VALUE. Nothing
 * runs; the synchronize after it returns cudaSuccess.
 *
 * What a PyTorch user sees: nothing; PyTorch builds layouts from strides.
 *
 * Why: for a column-major layout, ld >= rows.
 *
 * The fix: ld = rows as stored.
 *
 * References: cuBLAS documentation, cublasLtMatrixLayoutCreate and
 * cublasLtMatmul (https://docs.nvidia.com/cuda/cublas/#cublasltmatrixlayoutcreate).
 *
 * atlas:cause lda_below_minimum
 */
#include "atlas_cublas.h"
#include <cublasLt.h>

enum { M = 64, N = 64, K = 64 };

static void matmul_with_lda(uint64_t lda)
{
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc = NULL;
    cublasLtMatrixLayout_t a_layout = NULL, b_layout = NULL, c_layout = NULL;
    float *a = NULL, *b = NULL, *c = NULL, alpha = 1.0f, beta = 0.0f;
    if (!ATLAS_CUBLAS("create", cublasLtCreate(&lt)))
        return;
    if (ATLAS_CUDA("alloc", cudaMalloc((void **)&a, sizeof(float) * M * K))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&b, sizeof(float) * K * N))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&c, sizeof(float) * M * N))
        && ATLAS_CUBLAS("descriptor", cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F))
        && ATLAS_CUBLAS("layout_a", cublasLtMatrixLayoutCreate(&a_layout, CUDA_R_32F, M, K, lda))
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

static void ld_is_rows(void) { matmul_with_lda(M); }
static void ld_half_the_rows(void) { matmul_with_lda(M / 2); }

ATLAS_CASE(ld_is_rows, ld_half_the_rows)
