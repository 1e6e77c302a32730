/* matmul_after_permute_rejected — a permuted operand whose new shape no
 * longer conforms, caught by cuBLAS's leading-dimension check.
 *
 * The mistake: the article's permute example. X is stored 10×20 (row-major,
 * as PyTorch stores it); after permute(…, 2, 1) the code multiplies Xᵀ
 * (20×10) by W (10×20) but passes the sizes of the unpermuted product:
 * k = 20 where Xᵀ has 10 columns. In cuBLAS terms (column-major, C = A·B
 * with A = X viewed transposed) that asks for lda >= k = 20 while X's rows
 * are only 10 long.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE at the
 * call and cuBLAS prints
 *   ** On entry to SGEMM  parameter number 8 had an illegal value
 * — the mismatch is visible only because it also breaks the lda rule.
 *
 * What a PyTorch user sees: PyTorch checks shapes first (recorded with
 * PyTorch 2.11 on the H100 and the H200):
 *   RuntimeError: Expected size for first two dimensions of batch2 tensor
 *   to be: [1, 20] but got: [1, 10].
 * Note that the article has its two examples backwards: input (1, 20, 10)
 * permuted to (1, 10, 20) is the one that does not conform to a 10×20
 * weight; (1, 10, 20) permuted to (1, 20, 10) multiplies fine (see the
 * PyTorch mirror beside this case).
 *
 * Why: cuBLAS cannot know a matrix's real shape; it checks only that sizes
 * and leading dimensions are consistent with each other.
 *
 * The fix: take m, n, k and the leading dimensions from the shapes after
 * the permute (or make the permuted tensor contiguous and recompute them).
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause gemm_sizes_do_not_match_operands
 */
#include "atlas_cublas.h"

enum { ROWS = 10, COLS = 20 }; /* X and W are both stored 10×20 */

static void multiply(int k)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, COLS * COLS)) /* room for the 20×20 C */
        return;
    /* C (20×20) = op(X) · op(W), X read as its transpose (CUBLAS_OP_T, lda = 10). */
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_T, CUBLAS_OP_N, COLS, COLS, k,
                                     &g.alpha, g.a, ROWS, g.b, ROWS, &g.beta, g.c, COLS));
    atlas_gemm_end(&g);
}

static void k_from_permuted_shape(void) { multiply(ROWS); }
static void k_from_original_shape(void) { multiply(COLS); }

ATLAS_CASE(k_from_permuted_shape, k_from_original_shape)
