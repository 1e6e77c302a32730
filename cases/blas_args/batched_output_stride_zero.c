/* batched_output_stride_zero — cublasSgemmStridedBatched with strideC = 0.
 *
 * The mistake: copying the stride of a broadcast input (stride 0: every
 * batch reads the same A) to the output. cuBLAS does not validate strides,
 * so every batch writes the same C.
 *
 * What the program sees: CUBLAS_STATUS_SUCCESS and a clean synchronize — and
 * a wrong result, which is why this case compares with a CPU reference:
 * batches 1..3 of C are never written.
 *
 * What a PyTorch user sees: nothing either. torch.bmm(a, b, out=o) with o an
 * expanded tensor (every batch the same memory) raised no error in the
 * recorded mirror (PyTorch 2.11 on the H100) — the same silent overlap.
 *
 * Why: strides are only multiplied into addresses; any value is "valid".
 *
 * The fix: strideC = ldc × n (at least), distinct per batch.
 *
 * References: cuBLAS documentation, cublas<t>gemmStridedBatched
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemmstridedbatched).
 *
 * atlas:cause batch_stride_wrong
 */
#include "atlas_cublas.h"
#include <stdlib.h>

enum { M = 16, N = 16, K = 16, BATCH = 4 };

static void batched_with_stride_c(long long stride_c)
{
    struct atlas_gemm g;
    float *a = malloc(sizeof(float) * M * K * BATCH), *b = malloc(sizeof(float) * K * N * BATCH);
    float *c = calloc(M * N * BATCH, sizeof(float)), *want = malloc(sizeof(float) * M * N * BATCH);
    if (!a || !b || !c || !want || !atlas_gemm_begin(&g, M * K * BATCH))
        goto out;
    for (int i = 0; i < M * K * BATCH; i++)
        a[i] = (float)(i % 7), b[i] = (float)(i % 5) - 2.0f;
    for (int batch = 0; batch < BATCH; batch++)
        atlas_sgemm_reference(M, N, K, a + batch * M * K, M, b + batch * K * N, K, want + batch * M * N, M);
    cudaMemcpy(g.a, a, sizeof(float) * M * K * BATCH, cudaMemcpyHostToDevice);
    cudaMemcpy(g.b, b, sizeof(float) * K * N * BATCH, cudaMemcpyHostToDevice);
    ATLAS_CUBLAS("gemm", cublasSgemmStridedBatched(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                                   g.a, M, M * K, g.b, K, K * N, &g.beta, g.c, M, stride_c, BATCH));
    ATLAS_CUDA("copy", cudaMemcpy(c, g.c, sizeof(float) * M * N * BATCH, cudaMemcpyDeviceToHost));
    atlas_gemm_end(&g);
    atlas_check("result", atlas_matrices_agree(M, N * BATCH, c, M, want, M), "every batch of C against the CPU");
out:
    free(a), free(b), free(c), free(want);
}

static void stride_c_is_m_times_n(void) { batched_with_stride_c(M * N); }
static void stride_c_is_zero(void) { batched_with_stride_c(0); }

ATLAS_CASE(stride_c_is_m_times_n, stride_c_is_zero)
