/* shared_memory_too_small_for_nccl — NCCL's shared-memory transport with a
 * /dev/shm too small for its segments (Docker's default is 64 MB).
 *
 * The mistake: a multi-GPU job runs in a container started without
 * --shm-size or --ipc=host, on GPUs that cannot reach each other directly
 * (consumer cards such as the RTX 2080 Ti / 4090 boxes of the reports, or
 * NCCL_P2P_DISABLE=1). NCCL then moves data through host memory and creates
 * its buffers as files in /dev/shm, each several MiB (the reports: 9637888
 * and 7340384 bytes), one per channel and direction.
 *
 * Here: NCCL_P2P_DISABLE=1 stands in for GPUs without P2P, and
 * NCCL_NET_DISABLE_INTRA=1 keeps NCCL from choosing a NIC instead of host
 * memory, so SHM is the transport between the two ranks. The small /dev/shm
 * is a private tmpfs mount in a mount namespace of this process alone: 1 MiB
 * in the broken variant, 1 GiB in the fixed one (the machine's own /dev/shm
 * is never touched, and its size does not matter). NCCL_DEBUG=INFO with
 * NCCL_DEBUG_SUBSYS=SHM puts NCCL's "via SHM" channel lines, the segments it
 * maps and its warnings on stderr, which the results keep.
 *
 * What the program sees (two H200s, NCCL 2.28.9, CUDA 13.0): both ranks
 * initialise (ncclSuccess); the first all-reduce returns ncclSystemError
 * ("unhandled system error (run with NCCL_DEBUG=INFO for details)") on both,
 * and ncclGetLastError says
 *   Error while creating shared memory segment /dev/shm/nccl-dcDYxr (size 9637888), error: No space left on device (28)
 * — the segment size of NVIDIA/nccl#342. The finalize repeats the status;
 * nothing CUDA is sticky. With 1 GiB the all-reduce is right on both ranks.
 *
 * What a PyTorch user sees (torch.distributed, NCCL backend; from the
 * reports, not recorded through PyTorch here):
 *   RuntimeError: NCCL error in: .../torch/lib/c10d/ProcessGroupNCCL.cpp:784,
 *   unhandled system error, ...                       (deepspeedai/DeepSpeed#536)
 *   RuntimeError: NCCL Error 2: unhandled system error  (NVIDIA/nccl#473)
 * and, with NCCL_DEBUG=WARN, the cause:
 *   include/shm.h:28 NCCL WARN Call to posix_fallocate failed: No space left on device
 *   include/shm.h:48 NCCL WARN Error while creating shared memory segment
 *   nccl-shm-recv-... (size 9637888)                     (NVIDIA/nccl#342)
 *   Error while creating shared memory segment /dev/shm/nccl-pZafXL (size 7340384)
 *                                      (fal-ai-community/video-diffusion-speedrun#2)
 * "unhandled system error" is ncclSystemError (2): a system call failed.
 *
 * Why: the SHM transport allocates each buffer with fallocate on a file in
 * /dev/shm (src/misc/shmutils.cc, ncclShmOpen); a tmpfs that cannot hold it
 * answers ENOSPC, and NCCL returns ncclSystemError. Docker mounts a 64 MB
 * tmpfs on /dev/shm unless told otherwise. Since NCCL 2.24, on drivers of
 * CUDA 12.6 or later, ranks in different processes get these buffers from
 * cuMem host allocations instead (NCCL_CUMEM_HOST_ENABLE), falling back to
 * /dev/shm where those fail ("Docker in particular is known to disable
 * get_mempolicy ... --cap-add SYS_NICE", src/misc/cudawrap.cc); ranks of one
 * process, as here, always use /dev/shm (src/transport/shm.cc, 2.28.9: the
 * request is "legacy" when both ranks share a pidHash). So this case's two
 * threads take the path the reports' processes took.
 *
 * The fix: give the container room: docker run --shm-size=1g (the reports
 * used 1g and 2048m) or --ipc=host (the host's /dev/shm); in Kubernetes, an
 * emptyDir with medium: Memory mounted on /dev/shm. NCCL_SHM_DISABLE=1
 * avoids /dev/shm altogether but sends the traffic through the network
 * transport (sockets or IB), which is slower.
 *
 * References: NCCL documentation, environment variables
 * (https://docs.nvidia.com/deeplearning/nccl/archives/nccl_2134/user-guide/docs/env.html):
 * NCCL_P2P_DISABLE "disables the peer to peer (P2P) transport, which uses
 * CUDA direct access between GPUs"; NCCL_SHM_DISABLE "SHM is used between
 * devices when peer-to-peer cannot happen, therefore, host memory is used";
 * NVIDIA/nccl#342 and #473, fal-ai-community/video-diffusion-speedrun#2,
 * deepspeedai/DeepSpeed#536 (the failure in the field, each fixed by a
 * larger shm); NCCL 2.28.9 sources: src/transport/shm.cc, src/misc/shmutils.cc,
 * src/misc/cudawrap.cc, src/graph/paths.cc (NCCL_NET_DISABLE_INTRA).
 *
 * atlas:timeout=90 — three bounded waits of 15 s at most (init, all-reduce,
 * finalize), and NCCL's INFO output.
 *
 * atlas:cause docker_shm_too_small
 */
#define _GNU_SOURCE /* unshare */
#include <nccl.h>
#include <pthread.h>
#include "ranks.h"
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

static void skip_because(const char *what)
{
    char reason[256];
    snprintf(reason, sizeof reason, "cannot mount a private /dev/shm: %s: %s", what, strerror(errno));
    atlas_skip(reason);
}

/* A /dev/shm of `size` (tmpfs syntax: "1m", "1g") that only this process
 * and its threads see. Called before any CUDA or NCCL call: unshare gives
 * the new mount namespace to the calling thread alone, so it must come
 * before the runtime starts threads of its own. */
static void private_dev_shm(const char *size)
{
    char options[64];
    struct statvfs fs;
    if (geteuid() != 0) {
        errno = EPERM;
        skip_because("not root");
    }
    if (unshare(CLONE_NEWNS) != 0)
        skip_because("unshare(CLONE_NEWNS)");
    /* Without this, a shared "/" would carry our mount back to the host. */
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        skip_because("mount(\"/\", MS_REC | MS_PRIVATE)");
    snprintf(options, sizeof options, "size=%s,mode=1777", size);
    if (mount("atlas-shm", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, options) != 0)
        skip_because("mount tmpfs on /dev/shm");
    if (statvfs("/dev/shm", &fs) == 0)
        atlas_quantity("dev_shm_bytes", (double)fs.f_blocks * (double)fs.f_frsize, "bytes");
}

static void allreduce_over_shm_with(const char *dev_shm_size)
{
    int count = 0;
    private_dev_shm(dev_shm_size);
    setenv("NCCL_P2P_DISABLE", "1", 1);       /* GPUs without P2P */
    setenv("NCCL_NET_DISABLE_INTRA", "1", 1); /* host memory, not a NIC, between them */
    setenv("NCCL_DEBUG", "INFO", 1);
    setenv("NCCL_DEBUG_SUBSYS", "SHM", 1);
    if (ATLAS_CUDA("count", cudaGetDeviceCount(&count)) && count < 2)
        atlas_skip("needs 2 GPUs");
    struct atlas_nccl_rank ranks[2] = {
        {.device = 0, .nranks = 2, .rank = 0, .joins = true, .allreduce = true, .deadline_s = 15},
        {.device = 1, .nranks = 2, .rank = 1, .joins = true, .allreduce = true, .deadline_s = 15},
    };
    atlas_nccl_run(ranks, 2);
}

static void dev_shm_of_1_gib(void) { allreduce_over_shm_with("1g"); }
static void dev_shm_of_1_mib(void) { allreduce_over_shm_with("1m"); }

ATLAS_CASE(dev_shm_of_1_gib, dev_shm_of_1_mib)
