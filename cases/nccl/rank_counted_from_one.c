/* rank_counted_from_one — the ranks of a 2-rank communicator numbered 1
 * and 2 instead of 0 and 1.
 *
 * The mistake: a rank taken from a 1-based numbering (a job array index,
 * a node number) and passed to ncclCommInitRank unchanged.
 *
 * What the program sees (two H200s, CUDA 13.0, NCCL 2.28.9 and 2.28.3 alike):
 * the rank that passed 2 gets ncclInvalidArgument at the call
 * (ncclGetLastError: "Invalid rank requested : 2/2"); the rank that passed 1
 * is still ncclInProgress after 15 s (blocking: a hang), and ncclCommAbort
 * succeeds.
 *
 * What a PyTorch user sees: init_process_group(rank=world_size) is refused
 * by PyTorch's own rendezvous before NCCL is reached (not recorded here).
 *
 * Why: a rank must lie in [0, nranks); the rank out of range is refused at
 * the call, but the other rank cannot know and waits for rank 0, which
 * never comes.
 *
 * The fix: ranks from 0; check 0 <= rank < nranks before initialising;
 * bound the initialisation so that a partner's failure ends it.
 *
 * References: NCCL documentation, ncclCommInitRank
 * (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/api/comms.html),
 * "rank must be between 0 and nranks-1"; NVIDIA/nccl#1677 (bounding
 * ncclCommInitRank with a timeout).
 *
 * atlas:timeout=60 — the waiting rank is aborted after 15 s.
 *
 * atlas:cause nccl_rank_out_of_range
 */
#include <nccl.h>
#include <pthread.h>
#include "ranks.h"

static void ranks_from(int first)
{
    int count = 0;
    if (ATLAS_CUDA("count", cudaGetDeviceCount(&count)) && count < 2)
        atlas_skip("needs 2 GPUs");
    struct atlas_nccl_rank ranks[2] = {
        {.device = 0, .nranks = 2, .rank = first, .joins = true, .allreduce = true, .deadline_s = 15},
        {.device = 1, .nranks = 2, .rank = first + 1, .joins = true, .allreduce = true, .deadline_s = 15},
    };
    atlas_nccl_run(ranks, 2);
}

static void ranks_0_and_1(void) { ranks_from(0); }
static void ranks_1_and_2(void) { ranks_from(1); }

ATLAS_CASE(ranks_0_and_1, ranks_1_and_2)
