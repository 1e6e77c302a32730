/* rank_never_joins — one rank of a 2-rank communicator never calls
 * ncclCommInitRank (it crashed, or took another code path).
 *
 * The mistake: a blocking ncclCommInitRank with no way out. The rank that
 * did join waits for its partner forever; the job hangs instead of failing.
 *
 * What the program sees (two H200s, CUDA 13.0, NCCL 2.28.9 and 2.28.3 alike):
 * the rank that joined is still ncclInProgress when its 15 s deadline passes
 * (blocking: a hang for ever), and ncclCommAbort ends it with ncclSuccess.
 *
 * What a PyTorch user sees: the job stalls at init_process_group or the
 * first collective until the process group's timeout (default 10 minutes
 * for NCCL), then a watchdog error (not recorded through PyTorch here).
 *
 * Why: initialisation is collective: every rank must call it. NCCL cannot
 * tell a slow rank from a dead one.
 *
 * The fix: initialise non-blocking (ncclConfig_t.blocking = 0), poll
 * ncclCommGetAsyncError with a deadline, and ncclCommAbort on timeout — what
 * this case does; in PyTorch, a timeout= on init_process_group.
 *
 * References: NCCL documentation, "Creating a communicator with options"
 * (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/communicators.html);
 * NVIDIA/nccl#1677 ("How to set a timeout for ncclCommInitRank?", with the
 * non-blocking recipe) and NVIDIA/nccl#289 (ranks stuck forever when a node
 * fails during ncclCommInitRank).
 *
 * atlas:timeout=60 — the lonely rank is aborted after 15 s.
 *
 * atlas:cause nccl_rank_never_joined
 */
#include <nccl.h>
#include <pthread.h>
#include "ranks.h"

static void second_rank_joins(bool joins)
{
    int count = 0;
    if (ATLAS_CUDA("count", cudaGetDeviceCount(&count)) && count < 2 && joins)
        atlas_skip("needs 2 GPUs");
    struct atlas_nccl_rank ranks[2] = {
        {.device = 0, .nranks = 2, .rank = 0, .joins = true, .allreduce = true, .deadline_s = 15},
        {.device = 1, .nranks = 2, .rank = 1, .joins = joins, .allreduce = true, .deadline_s = 15},
    };
    atlas_nccl_run(ranks, 2);
}

static void both_ranks_join(void) { second_rank_joins(true); }
static void second_rank_never_joins(void) { second_rank_joins(false); }

ATLAS_CASE(both_ranks_join, second_rank_never_joins)
