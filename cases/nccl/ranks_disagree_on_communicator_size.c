/* ranks_disagree_on_communicator_size — rank 0 creates a communicator of
 * 2 ranks, rank 1 one of 3, with the same unique id.
 *
 * The mistake: the world size comes from different places on different
 * ranks (a stale environment variable on one node, a job relaunched with
 * fewer processes while one still has the old size).
 *
 * What the program sees (two H200s, CUDA 13.0, NCCL 2.28.9 and 2.28.3 alike):
 * nothing reports the disagreement: both ranks are still ncclInProgress when
 * their 15 s deadline passes (with the blocking API: a hang), and
 * ncclCommAbort then succeeds on both.
 *
 * What a PyTorch user sees: init_process_group with an inconsistent
 * world_size usually stalls in the rendezvous until its timeout (not
 * recorded through PyTorch here).
 *
 * Why: the unique id only names the bootstrap root; each rank says how many
 * ranks it expects, and the root waits for the number it was told.
 *
 * The fix: one source for world size and rank (the launcher's), and a
 * bounded initialisation (non-blocking config plus ncclCommGetAsyncError and
 * ncclCommAbort) so that a mismatch ends instead of hanging.
 *
 * References: NCCL documentation, ncclCommInitRank
 * (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/api/comms.html);
 * NVIDIA/nccl#1677 (bounding ncclCommInitRank with a timeout) and
 * NVIDIA/nccl#289 (ranks stuck in ncclCommInitRank forever).
 *
 * atlas:timeout=60 — a rank waits up to 15 s before it is aborted.
 *
 * atlas:cause nccl_ranks_disagree_on_size
 */
#include <nccl.h>
#include <pthread.h>
#include "ranks.h"

static void second_rank_expects(int nranks)
{
    int count = 0;
    if (ATLAS_CUDA("count", cudaGetDeviceCount(&count)) && count < 2)
        atlas_skip("needs 2 GPUs");
    struct atlas_nccl_rank ranks[2] = {
        {.device = 0, .nranks = 2, .rank = 0, .joins = true, .allreduce = true, .deadline_s = 15},
        {.device = 1, .nranks = nranks, .rank = 1, .joins = true, .allreduce = true, .deadline_s = 15},
    };
    atlas_nccl_run(ranks, 2);
}

static void both_expect_2(void) { second_rank_expects(2); }
static void second_expects_3(void) { second_rank_expects(3); }

ATLAS_CASE(both_expect_2, second_expects_3)
