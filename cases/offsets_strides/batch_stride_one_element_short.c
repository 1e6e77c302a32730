/* batch_stride_one_element_short — strided batched gemm with strideA one
 * element less than a matrix.
 *
 * The mistake: an off-by-one in the stride (m·k - 1, or the stride of a
 * padded layout used on unpadded data). Each batch's A then starts one
 * element early, so batches overlap and shift.
 *
 * What the program sees: success, and a wrong result for every batch after
 * the first (compared with the CPU reference: result_wrong).
 *
 * What a PyTorch user sees: nothing like it; torch.bmm derives strides.
 *
 * Why: cuBLAS does not validate strides (see batched_output_stride_zero).
 *
 * The fix: strideA = lda × (columns of A as stored).
 *
 * References: cuBLAS documentation, cublas<t>gemmStridedBatched
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemmstridedbatched).
 *
 * atlas:cause batch_stride_wrong
 */
#include "atlas_cublas.h"
#include <stdlib.h>

enum { M = 8, N = 8, K = 8, BATCH = 4 };

static void batched_with_stride_a(long long stride_a)
{
    struct atlas_gemm g;
    float *a = malloc(sizeof(float) * M * K * BATCH), *b = malloc(sizeof(float) * K * N * BATCH);
    float *c = malloc(sizeof(float) * M * N * BATCH), *want = malloc(sizeof(float) * M * N * BATCH);
    if (!a || !b || !c || !want || !atlas_gemm_begin(&g, M * K * BATCH))
        goto out;
    for (int i = 0; i < M * K * BATCH; i++)
        a[i] = (float)(i % 11), b[i] = (float)(i % 4);
    for (int batch = 0; batch < BATCH; batch++)
        atlas_sgemm_reference(M, N, K, a + batch * M * K, M, b + batch * K * N, K, want + batch * M * N, M);
    cudaMemcpy(g.a, a, sizeof(float) * M * K * BATCH, cudaMemcpyHostToDevice);
    cudaMemcpy(g.b, b, sizeof(float) * K * N * BATCH, cudaMemcpyHostToDevice);
    ATLAS_CUBLAS("gemm", cublasSgemmStridedBatched(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                                   g.a, M, stride_a, g.b, K, K * N, &g.beta, g.c, M, M * N, BATCH));
    ATLAS_CUDA("copy", cudaMemcpy(c, g.c, sizeof(float) * M * N * BATCH, cudaMemcpyDeviceToHost));
    atlas_gemm_end(&g);
    atlas_check("result", atlas_matrices_agree(M, N * BATCH, c, M, want, M), "every batch against the CPU");
out:
    free(a), free(b), free(c), free(want);
}

static void stride_is_m_times_k(void) { batched_with_stride_a(M * K); }
static void stride_one_short(void) { batched_with_stride_a(M * K - 1); }

ATLAS_CASE(stride_is_m_times_k, stride_one_short)
