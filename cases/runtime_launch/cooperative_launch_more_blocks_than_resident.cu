/* cooperative_launch_more_blocks_than_resident — cudaLaunchCooperativeKernel
 * asked for one block more than the GPU can hold at once.
 *
 * The mistake: a kernel that synchronizes the whole grid (cooperative
 * groups' grid.sync()) must be launched cooperatively, and then every block
 * must be resident at the same time: at most
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor × multiProcessorCount
 * blocks. A grid sized from the data ("one block per 256 elements"), or from
 * another GPU's SM count, or after a change that raised the kernel's
 * registers or shared memory, asks for more.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): the occupancy
 * query gives 8 blocks of 256 threads per SM × 132 SMs = 1056 blocks, and
 * 1056 blocks all meet at the grid barrier. With 1057,
 * cudaLaunchCooperativeKernel returns cudaErrorCooperativeLaunchTooLarge
 * ("too many blocks in cooperative launch") at the call, the same status
 * waits in the last-error slot (cudaGetLastError), nothing runs (the counter
 * stays 0, result_wrong), and the context stays usable: not sticky.
 *
 * What a PyTorch user sees: PyTorch itself launches no cooperative kernels
 * with user-chosen grids; Triton does with launch_cooperative_grid=True
 * (the mirror, cooperative_launch_more_blocks_than_resident.py; PyTorch
 * 2.11 on the H100): one program per SM runs; 1000 per SM raises
 * RuntimeError "Triton Error [CUDA]: too many blocks in cooperative launch"
 * at the launch. Helion's autotuner meets the same refusal (pytorch/helion#1417).
 *
 * Why: a grid-wide barrier needs every block running; the runtime checks the
 * grid against the occupancy of this kernel on this GPU before launching,
 * so the refusal is immediate and nothing runs.
 *
 * The fix: size the grid from the occupancy query for this kernel, block
 * size and shared memory on the device it runs on (the fixed variant: exactly
 * blocks-per-SM × SMs), and loop over the data inside the kernel (a
 * grid-stride loop) instead of growing the grid.
 *
 * References: flashinfer-ai/flashinfer#938 ("CUDA error: too many blocks in
 * cooperative launch" on two GPUs with different SM counts: the wrapper was
 * sized for the other GPU); CUDA Runtime API, cudaLaunchCooperativeKernel
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__EXECUTION.html):
 * "The total number of blocks launched cannot exceed the maximum number of
 * blocks per multiprocessor as returned by
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor (or
 * cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags) times the number of
 * multiprocessors as specified by the device attribute
 * cudaDevAttrMultiProcessorCount."
 *
 * atlas:cause cooperative_launch_too_large
 */
#include "atlas.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

enum { THREADS = 256 };

/* Every block checks in, the grid waits for all of them (no spin of ours:
 * the barrier is the runtime's), and one thread reports how many arrived. */
__global__ void count_blocks(unsigned *arrived, unsigned *seen)
{
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0)
        atomicAdd(arrived, 1u);
    grid.sync();
    if (grid.thread_rank() == 0)
        *seen = atomicAdd(arrived, 0u);
}

static void launch_cooperative(int extra_blocks)
{
    unsigned *counters = NULL, seen = 0;
    int device = 0, cooperative = 0, sms = 0, per_sm = 0;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&counters, 2 * sizeof(unsigned))))
        return;
    if (!ATLAS_CUDA("memset", cudaMemset(counters, 0, 2 * sizeof(unsigned)))
        || !ATLAS_CUDA("device", cudaGetDevice(&device))
        || !ATLAS_CUDA("attribute", cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device))
        || !ATLAS_CUDA("sm_count", cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device))
        || !ATLAS_CUDA("occupancy", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, count_blocks, THREADS, 0))) {
        cudaFree(counters);
        return;
    }
    if (!cooperative) {
        cudaFree(counters);
        atlas_skip("this GPU does not support cooperative launches");
    }
    unsigned blocks = (unsigned)(per_sm * sms + extra_blocks);
    atlas_quantity("blocks_per_sm", per_sm, "blocks");
    atlas_quantity("sms", sms, "");
    atlas_quantity("grid_blocks", blocks, "blocks");
    unsigned *arrived = counters, *seen_on_gpu = counters + 1;
    void *args[] = {&arrived, &seen_on_gpu};
    ATLAS_CUDA("launch", cudaLaunchCooperativeKernel((const void *)count_blocks, dim3(blocks), dim3(THREADS), args, 0, 0));
    ATLAS_CUDA("last_error", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy_back", cudaMemcpy(&seen, seen_on_gpu, sizeof seen, cudaMemcpyDeviceToHost)))
        atlas_check("all_blocks_met", seen == blocks, "%u blocks met at the grid barrier, %u launched", seen, blocks);
    cudaFree(counters);
}

static void blocks_that_fit(void) { launch_cooperative(0); }
static void one_block_more_than_fit(void) { launch_cooperative(1); }

ATLAS_CASE(blocks_that_fit, one_block_more_than_fit)
