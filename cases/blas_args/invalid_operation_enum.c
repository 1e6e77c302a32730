/* invalid_operation_enum — transa is not one of CUBLAS_OP_N/T/C.
 *
 * The mistake: passing a character ('T', 'N' — the Fortran BLAS habit) or a
 * boolean where cublasOperation_t is expected. 'T' is 84.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE at the
 * call and cuBLAS prints
 *   ** On entry to SGEMM  parameter number 1 had an illegal value
 * (transa; cuBLAS counts from transa, not from the handle). Nothing runs.
 *
 * What a PyTorch user sees: nothing; PyTorch maps 't'/'n' itself.
 *
 * Why: transa must be CUBLAS_OP_N (0), CUBLAS_OP_T (1) or CUBLAS_OP_C (2).
 *
 * The fix: use the enum, not the BLAS character.
 *
 * References: cuBLAS documentation, cublasOperation_t
 * (https://docs.nvidia.com/cuda/cublas/#cublasoperation-t).
 *
 * atlas:cause invalid_enum_argument
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_with_transa(cublasOperation_t transa)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, transa, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void enum_value(void) { gemm_with_transa(CUBLAS_OP_T); }
static void blas_character(void) { gemm_with_transa((cublasOperation_t)'T'); }

ATLAS_CASE(enum_value, blas_character)
