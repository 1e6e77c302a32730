/* two_ranks_on_one_gpu — two NCCL ranks of one communicator on the same
 * GPU.
 *
 * The mistake: every process (or thread) of a job selects device 0 — the
 * launcher's local rank is never turned into cudaSetDevice(local_rank), or
 * more ranks are started than there are GPUs.
 *
 * What the program sees (two H200s, CUDA 13.0, NCCL 2.28.9 and 2.28.3 alike):
 * both calls to ncclCommInitRankConfig return ncclInProgress (non-blocking);
 * within a second ncclCommGetAsyncError turns to ncclInvalidUsage on both
 * ranks, and ncclGetLastError says "Duplicate GPU detected : rank 0 and rank
 * 1 both on CUDA device 60" (the other rank: "ncclAsyncJobComplete: job ...
 * failed, job error 5"). ncclCommAbort then succeeds.
 *
 * What a PyTorch user sees (torch.distributed, NCCL backend, at the first
 * collective or barrier):
 *   torch.distributed.DistBackendError: NCCL error in: ...ProcessGroupNCCL.cpp,
 *   invalid usage ..., ncclInvalidUsage: This usually reflects invalid usage
 *   of NCCL library. Last error: Duplicate GPU detected : rank 1 and rank 0
 *   both on CUDA device 1000
 * (from the reports below; not recorded through PyTorch here).
 *
 * Why: NCCL (since 2.5) refuses two ranks on one GPU: its topology search
 * assumes one rank per device. Both ranks learn it during initialisation.
 *
 * The fix: one rank per GPU — cudaSetDevice(local_rank) (PyTorch:
 * torch.cuda.set_device(local_rank) before init_process_group) and no more
 * ranks per node than GPUs.
 *
 * References: NCCL documentation, "Creating a communicator"
 * (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/communicators.html);
 * NVIDIA/nccl#418 (the check, and why it exists); NVIDIA/Megatron-LM#661
 * and horovod/horovod#3929 (the message in the field).
 *
 * atlas:timeout=60 — a communicator takes seconds to start; every wait is
 * bounded at 15 s.
 *
 * atlas:cause two_ranks_same_gpu
 */
#include <nccl.h>
#include <pthread.h>
#include "ranks.h"

static void two_ranks_on(int second_device)
{
    int count = 0;
    if (ATLAS_CUDA("count", cudaGetDeviceCount(&count)) && count < second_device + 1)
        atlas_skip("needs 2 GPUs");
    struct atlas_nccl_rank ranks[2] = {
        {.device = 0, .nranks = 2, .rank = 0, .joins = true, .allreduce = true, .deadline_s = 15},
        {.device = second_device, .nranks = 2, .rank = 1, .joins = true, .allreduce = true, .deadline_s = 15},
    };
    atlas_nccl_run(ranks, 2);
}

static void one_gpu_per_rank(void) { two_ranks_on(1); }
static void both_ranks_on_gpu_0(void) { two_ranks_on(0); }

ATLAS_CASE(one_gpu_per_rank, both_ranks_on_gpu_0)
