/* inner_dimension_too_small_silently_wrong — k passed smaller than the real
 * inner dimension: every argument is valid, the answer is wrong.
 *
 * The mistake: k taken from the wrong tensor (a truncated sequence length,
 * the shape before a concatenation). The leading dimensions are still large
 * enough, so cuBLAS has nothing to reject: it multiplies the first k columns
 * of A by the first k rows of B.
 *
 * What the program sees: CUBLAS_STATUS_SUCCESS, a clean synchronize, and a
 * result that disagrees with the CPU reference — recorded as result_wrong.
 *
 * What a PyTorch user sees: nothing like it; torch.matmul takes k from the
 * shapes. Custom kernels and extensions are where this bites.
 *
 * Why: a smaller k with the same leading dimensions is a valid request for
 * a different product.
 *
 * The fix: derive k from the operands, and check A's columns equal B's rows.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause gemm_sizes_do_not_match_operands
 */
#include "atlas_cublas.h"
#include <stdlib.h>

enum { M = 32, N = 24, K = 16 };

static void multiply(int k)
{
    struct atlas_gemm g;
    float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
    float *c = malloc(sizeof(float) * M * N), *want = malloc(sizeof(float) * M * N);
    if (!a || !b || !c || !want || !atlas_gemm_begin(&g, M * N)) /* M×N is the largest */
        goto out;
    for (int i = 0; i < M * K; i++)
        a[i] = (float)(i % 5) - 2.0f;
    for (int i = 0; i < K * N; i++)
        b[i] = (float)(i % 3) + 1.0f;
    atlas_sgemm_reference(M, N, K, a, M, b, K, want, M);
    cudaMemcpy(g.a, a, sizeof(float) * M * K, cudaMemcpyHostToDevice);
    cudaMemcpy(g.b, b, sizeof(float) * K * N, cudaMemcpyHostToDevice);
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, k,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    ATLAS_CUDA("copy", cudaMemcpy(c, g.c, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
    atlas_gemm_end(&g);
    atlas_check("result", atlas_matrices_agree(M, N, c, M, want, M), "C against the CPU product with k = %d", K);
out:
    free(a), free(b), free(c), free(want);
}

static void k_is_inner_dimension(void) { multiply(K); }
static void k_half_the_inner_dimension(void) { multiply(K / 2); }

ATLAS_CASE(k_is_inner_dimension, k_half_the_inner_dimension)
