/* int8_gemm_dims_not_multiple_of_4 — an int8 cublasGemmEx (CUDA_R_8I
 * operands, CUBLAS_COMPUTE_32I) whose m and ldc are a vocabulary of 51865.
 *
 * The mistake: int8 GEMMs run on integer tensor-core (IMMA) kernels, which
 * cuBLAS documents for m and k multiples of 4 and leading dimensions
 * multiples of 4. CTranslate2 (faster-whisper) multiplies by the output
 * projection of a Whisper model whose vocabulary, 51865 (51866 for
 * large-v3), is not: transa = T, m = vocabulary, n = batch × sequence (24),
 * k = model width (1280), ldc = m.
 *
 * What the program sees (H200, CUDA 13.0, cuBLAS 13.1.0): nothing wrong.
 * The broken shape (m = ldc = 51865) and the padded one (51868) both return
 * CUBLAS_STATUS_SUCCESS and both results are right (every element of C is
 * k = 1280, as A and B are all ones). Hopper keeps a kernel for the odd
 * shape; the reports' CUBLAS_STATUS_NOT_SUPPORTED is sm_120's (GeForce RTX
 * 50xx): documented, not reproduced here. The case stays as that finding,
 * and so that a GPU which does refuse it shows a mismatch.
 *
 * What a PyTorch user sees: not recorded (no mirror). The reports come from
 * CTranslate2, through faster-whisper:
 *   RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED
 * with every int8 compute type, while float16, bfloat16 and float32 work.
 *
 * Why: cuBLAS picks a kernel for the types, the shape and the GPU; where no
 * kernel of the GPU's architecture (sm_120 in the reports) takes m, k or a leading dimension that is
 * not a multiple of 4, cublasGemmEx answers NOT_SUPPORTED rather than
 * falling back. The arguments are valid, so no parameter is named.
 *
 * The fix: pad the int8 dimensions (here the vocabulary) to a multiple of 4
 * — CTranslate2 pads to 16, which tensor cores prefer — and ignore the
 * padded rows of the result; or use a float16 compute type.
 *
 * References: OpenNMT/CTranslate2#1865, "GeForce RTX 50XX - cuBLAS failed
 * with status CUBLAS_STATUS_NOT_SUPPORTED"
 * (https://github.com/OpenNMT/CTranslate2/issues/1865), and #1937, "Disable
 * INT8 for sm120 - Blackwell GPUs" (the diagnosis: the failure only when the
 * vocabulary dimension is not a multiple of 4); cuBLAS documentation,
 * cublasLtMatmul (https://docs.nvidia.com/cuda/cublas/#cublasltmatmul): "To
 * use IMMA kernels, one of the following sets of requirements, with the
 * first being the preferred one, must be met: ... Leading dimensions of
 * matrices A, B, C must be multiples of 4. ... Dimensions m and k must be
 * multiples of 4."
 *
 * atlas:cause int8_gemm_dims_not_multiple_of_4
 */
#include "atlas_cublas.h"
#include <stdint.h>

enum { TOKENS = 24, WIDTH = 1280, WHISPER_VOCABULARY = 51865 };

static void int8_gemm_with_rows(int m)
{
    const int n = TOKENS, k = WIDTH;
    const int32_t alpha = 1, beta = 0;
    struct atlas_gemm g;
    /* three float buffers as large as the largest operand: A, k×m int8 */
    if (!atlas_gemm_begin(&g, ((size_t)k * m + 3) / 4))
        return;
    int8_t *a = (int8_t *)g.a, *b = (int8_t *)g.b;
    int32_t *c = (int32_t *)g.c;
    if (!ATLAS_CUDA("fill", cudaMemset(a, 1, (size_t)k * m)) || !ATLAS_CUDA("fill", cudaMemset(b, 1, (size_t)k * n))) {
        atlas_gemm_end(&g);
        return;
    }
    atlas_quantity("m", m, "rows of C (the vocabulary)");
    bool ran = ATLAS_CUBLAS("gemm", cublasGemmEx(g.handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha,
                                                 a, CUDA_R_8I, k, b, CUDA_R_8I, k, &beta,
                                                 c, CUDA_R_32I, m, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    if (ran) {
        int32_t first = 0, last = 0;
        if (ATLAS_CUDA("copy_back", cudaMemcpy(&first, c, sizeof first, cudaMemcpyDeviceToHost))
            && ATLAS_CUDA("copy_back", cudaMemcpy(&last, c + (size_t)m * n - 1, sizeof last, cudaMemcpyDeviceToHost)))
            atlas_check("result", first == k && last == k, "C[0] = %d, C[m*n-1] = %d (expected %d)", (int)first,
                        (int)last, k);
    }
    atlas_gemm_end(&g);
}

static void vocabulary_padded_to_multiple_of_4(void) { int8_gemm_with_rows((WHISPER_VOCABULARY + 3) / 4 * 4); }
static void whisper_vocabulary_51865(void) { int8_gemm_with_rows(WHISPER_VOCABULARY); }

ATLAS_CASE(vocabulary_padded_to_multiple_of_4, whisper_vocabulary_51865)
