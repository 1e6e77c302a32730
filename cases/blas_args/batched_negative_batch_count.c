/* batched_negative_batch_count — cublasSgemmStridedBatched with
 * batchCount = -1.
 *
 * The mistake: a batch count computed from sizes (total / per_batch - 1)
 * that went negative, or a size_t that wrapped into int.
 *
 * What the program sees: the recorded status at the call.
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
