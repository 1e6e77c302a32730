/* batched_negative_batch_count — cublasSgemmStridedBatched with
 * batchCount = -1.
 *
 * The mistake: a batch count computed from sizes (total / per_batch - 1)
 * that went negative, or a size_t that wrapped into int.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSgemmStridedBatched returns
 * CUBLAS_STATUS_INVALID_VALUE at the call and cuBLAS prints
 *   ** On entry to SgemmStridedBatched parameter number 14 had an illegal value
 * Nothing runs and the context stays usable. Without a driver, cublasCreate
 * already fails (CUBLAS_STATUS_NOT_INITIALIZED) and the gemm is not
 * reached.
 *
 * What a PyTorch user sees: torch.bmm takes the batch from the tensor, so a
 * negative count cannot reach cuBLAS; the tensor itself cannot be created.
 *
 * Why: batchCount >= 0 is required.
 *
 * The fix: compute the batch count from the tensor shape; check it.
 *
 * References: cuBLAS documentation, cublas<t>gemmStridedBatched
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemmstridedbatched).
 *
 * atlas:cause negative_dimension
 */
#include "atlas_cublas.h"

enum { M = 32, N = 32, K = 32, BATCH = 4 };

static void batched(int count)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K * BATCH))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemmStridedBatched(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                                   g.a, M, M * K, g.b, K, K * N, &g.beta, g.c, M, M * N, count));
    atlas_gemm_end(&g);
}

static void count_positive(void) { batched(BATCH); }
static void count_negative(void) { batched(-1); }

ATLAS_CASE(count_positive, count_negative)
