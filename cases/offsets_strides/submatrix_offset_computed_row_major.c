/* submatrix_offset_computed_row_major — the pointer to a sub-matrix computed
 * with the row-major formula on column-major data.
 *
 * The mistake: the block starting at row r, column c of a column-major
 * matrix begins at base + r + c·ld. Writing base + r·ld + c (the row-major
 * formula) points somewhere valid — inside the same matrix — so nothing can
 * fail: the product is simply of the wrong numbers.
 *
 * What the program sees: success everywhere, and a result that disagrees
 * with the CPU reference (result_wrong).
 *
 * What a PyTorch user sees: nothing like it; slicing computes offsets from
 * strides. The articles' "pointer without its offset" example (its
 * torch.cuda.cublas_gemm does not exist) describes this mistake.
 *
 * Why: cuBLAS receives an address; any address inside the allocation is as
 * good as another.
 *
 * The fix: offset = row + column × ld for column-major storage.
 *
 * References: cuBLAS documentation, "Data Layout"
 * (https://docs.nvidia.com/cuda/cublas/#data-layout).
 *
 * atlas:cause submatrix_offset_row_major
 */
#include "atlas_cublas.h"
#include <stdlib.h>

enum { LD = 64, SUB = 16, ROW = 8, COL = 24 }; /* a 16×16 block of a 64×64 matrix */

static void multiply_block(int row_major_offset)
{
    struct atlas_gemm g;
    float *a = malloc(sizeof(float) * LD * LD), *c = malloc(sizeof(float) * SUB * SUB);
    float *want = malloc(sizeof(float) * SUB * SUB), *identity = calloc(SUB * SUB, sizeof(float));
    if (!a || !c || !want || !identity || !atlas_gemm_begin(&g, LD * LD))
        goto out;
    for (int i = 0; i < LD * LD; i++)
        a[i] = (float)(i % 97);
    for (int i = 0; i < SUB; i++)
        identity[i + i * SUB] = 1.0f;
    /* block · I = block: the reference is the block itself. */
    atlas_sgemm_reference(SUB, SUB, SUB, a + ROW + COL * LD, LD, identity, SUB, want, SUB);
    cudaMemcpy(g.a, a, sizeof(float) * LD * LD, cudaMemcpyHostToDevice);
    cudaMemcpy(g.b, identity, sizeof(float) * SUB * SUB, cudaMemcpyHostToDevice);
    const float *block = g.a + (row_major_offset ? ROW * LD + COL : ROW + COL * LD);
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, SUB, SUB, SUB,
                                     &g.alpha, block, LD, g.b, SUB, &g.beta, g.c, SUB));
    ATLAS_CUDA("copy", cudaMemcpy(c, g.c, sizeof(float) * SUB * SUB, cudaMemcpyDeviceToHost));
    atlas_gemm_end(&g);
    atlas_check("result", atlas_matrices_agree(SUB, SUB, c, SUB, want, SUB), "block at (%d, %d) times I", ROW, COL);
out:
    free(a), free(c), free(want), free(identity);
}

static void column_major_offset(void) { multiply_block(0); }
static void row_major_offset(void) { multiply_block(1); }

ATLAS_CASE(column_major_offset, row_major_offset)
