/* operand_misaligned_by_one_element — A starts one float past a 16-byte
 * boundary (a slice that drops the first element).
 *
 * The mistake: suspected, not certain — fast kernels load 16 bytes at a
 * time, and a pointer that is only 4-byte aligned cannot feed them. Does
 * cuBLAS fail, fall back to a slower kernel, or compute garbage?
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): no error, and no wrong result: cublasSgemm returns
 * CUBLAS_STATUS_SUCCESS and the result matches the CPU reference — for
 * cuBLAS, misalignment by one element is a speed question, not a
 * correctness one.
 *
 * What a PyTorch user sees: nothing; a misaligned view (x[1:]) multiplies
 * correctly (PyTorch may copy it or pass it as is).
 *
 * Why: cuBLAS chooses kernels by the alignment of the pointers it is given.
 *
 * The fix: none needed for correctness if the recorded result is correct;
 * for speed, keep operands 16-byte aligned (cudaMalloc gives 256).
 *
 * References: cuBLAS documentation, "Tensor Core Usage" and alignment
 * requirements (https://docs.nvidia.com/cuda/cublas/#tensor-core-usage).
 *
 * atlas:cause operand_pointer_misaligned
 */
#include "atlas_cublas.h"
#include <stdlib.h>

enum { M = 64, N = 64, K = 64 };

static void multiply_from(int offset)
{
    struct atlas_gemm g;
    float *a = malloc(sizeof(float) * (M * K + 1)), *b = malloc(sizeof(float) * K * N);
    float *c = malloc(sizeof(float) * M * N), *want = malloc(sizeof(float) * M * N);
    if (!a || !b || !c || !want || !atlas_gemm_begin(&g, M * K + 1))
        goto out;
    for (int i = 0; i < M * K + 1; i++)
        a[i] = (float)(i % 13) - 6.0f;
    for (int i = 0; i < K * N; i++)
        b[i] = (float)(i % 7) - 3.0f;
    atlas_sgemm_reference(M, N, K, a + offset, M, b, K, want, M);
    cudaMemcpy(g.a, a, sizeof(float) * (M * K + 1), cudaMemcpyHostToDevice);
    cudaMemcpy(g.b, b, sizeof(float) * K * N, cudaMemcpyHostToDevice);
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a + offset, M, g.b, K, &g.beta, g.c, M));
    ATLAS_CUDA("copy", cudaMemcpy(c, g.c, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
    atlas_gemm_end(&g);
    atlas_check("result", atlas_matrices_agree(M, N, c, M, want, M), "C against the CPU, A offset by %d", offset);
out:
    free(a), free(b), free(c), free(want);
}

static void aligned(void) { multiply_from(0); }
static void one_float_past_alignment(void) { multiply_from(1); }

ATLAS_CASE(aligned, one_float_past_alignment)
