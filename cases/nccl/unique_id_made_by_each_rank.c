/* unique_id_made_by_each_rank — each rank calls ncclGetUniqueId itself
 * instead of receiving rank 0's.
 *
 * The mistake: ncclGetUniqueId called on every rank ("get the id, then
 * init"), with no broadcast of rank 0's id (MPI_Bcast, a file, a TCP store).
 *
 * What the program sees (two H200s, CUDA 13.0, NCCL 2.28.9 and 2.28.3 alike):
 * both ncclGetUniqueId calls succeed, and both ranks are still ncclInProgress
 * after 15 s (blocking: a hang); ncclCommAbort succeeds on both.
 *
 * What a PyTorch user sees: nothing: torch.distributed passes rank 0's id
 * through its store.
 *
 * Why: the id holds the address of a bootstrap root that ncclGetUniqueId
 * starts; different ids are different communicators, each waiting for ranks
 * that went to the other one.
 *
 * The fix: rank 0 calls ncclGetUniqueId and sends the bytes to every other
 * rank before any of them calls ncclCommInitRank.
 *
 * References: NCCL documentation, ncclGetUniqueId
 * (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/api/comms.html),
 * "should be called once when creating a communicator and the Id should be
 * distributed to all ranks"; NVIDIA/nccl#32 (two processes whose
 * ncclCommInitRank calls both hang while the origin of their ids is unclear).
 *
 * atlas:timeout=60 — the waiting ranks are aborted after 15 s.
 *
 * atlas:cause nccl_unique_id_not_shared
 */
#include <nccl.h>
#include <pthread.h>
#include "ranks.h"

static void second_rank_uses_id(int id)
{
    int count = 0;
    if (ATLAS_CUDA("count", cudaGetDeviceCount(&count)) && count < 2)
        atlas_skip("needs 2 GPUs");
    struct atlas_nccl_rank ranks[2] = {
        {.device = 0, .nranks = 2, .rank = 0, .id = 0, .joins = true, .allreduce = true, .deadline_s = 15},
        {.device = 1, .nranks = 2, .rank = 1, .id = id, .joins = true, .allreduce = true, .deadline_s = 15},
    };
    atlas_nccl_run(ranks, 2);
}

static void id_of_rank_0(void) { second_rank_uses_id(0); }
static void id_of_its_own(void) { second_rank_uses_id(1); }

ATLAS_CASE(id_of_rank_0, id_of_its_own)
