/* lda_smaller_than_rows — cublasSgemm told that A's columns are closer
 * together than A has rows.
 *
 * The mistake: cuBLAS is column-major. For C = A·B with A m×k, lda is the
 * distance between A's columns and must be at least m (at least max(1, m)).
 * Passing the row-major width (k), or a sub-matrix's width, gives lda < m.
 *
 * What the program sees (H100 with CUDA 11.8, 12.4 and 13.0, one and two
 * H200s with 13.0): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE at the
 * call and cuBLAS prints
 *   ** On entry to SGEMM  parameter number 8 had an illegal value
 * (cuBLAS counts from transa, not the handle: transa 1, transb 2, m 3, n 4,
 * k 5, alpha 6, A 7, lda 8). Nothing is launched and the context stays
 * usable.
 *
 * What a PyTorch user sees: nothing. A view whose column stride is smaller
 * than its rows (as_strided) multiplies without error: PyTorch derives
 * leading dimensions from strides and copies operands cuBLAS cannot take.
 * CUBLAS_STATUS_INVALID_VALUE from cublasSgemm reaches PyTorch users through
 * extensions that pass their own leading dimensions.
 *
 * Why: the argument check runs on the host before any kernel is chosen, so
 * the error is immediate and not sticky.
 *
 * The fix: lda = number of rows of A as stored (m for CUBLAS_OP_N, k for
 * CUBLAS_OP_T); for row-major data, swap the operands instead (C^T = B^T·A^T).
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm), "leading dimension
 * of two-dimensional array used to store the matrix A".
 *
 * atlas:cause lda_below_minimum
 */
#include "atlas_cublas.h"

enum { M = 64, N = 32, K = 48 };

static void gemm_with_lda(int lda)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, lda, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void lda_equal_to_rows(void) { gemm_with_lda(M); }
static void lda_one_less_than_rows(void) { gemm_with_lda(M - 1); }

ATLAS_CASE(lda_equal_to_rows, lda_one_less_than_rows)
