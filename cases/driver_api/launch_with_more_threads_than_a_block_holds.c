/* launch_with_more_threads_than_a_block_holds — a kernel launched through
 * the driver API (cuLaunchKernel, as Numba, CuPy's RawKernel, PyCUDA and
 * Triton's launcher do) with one thread per item of the data, 1025 threads
 * in one block.
 *
 * The mistake: the block is sized by the data (one thread per target token,
 * per sequence step) instead of splitting the data into blocks. Every CUDA
 * GPU so far holds at most 1024 threads in a block. Numba checks nothing
 * before it calls cuLaunchKernel (numba/numba#1055), so the first long input
 * of a training set fails the launch, epochs after the code last changed.
 *
 * What the program sees (one H100 and one H200, driver 580.159.04, CUDA
 * 13.0, by default and under CUDA_LAUNCH_BLOCKING=1): cuLaunchKernel
 * returns CUDA_ERROR_INVALID_VALUE (1, "invalid argument") at once — the
 * driver API has no "invalid configuration" of its own; the runtime's <<<>>>
 * of the same block gives cudaErrorInvalidValue too (block_over_1024_threads).
 * Nothing runs, and nothing is sticky: the same kernel launched with 1024
 * threads right after runs and the context stays usable. The fixed
 * variant's block of 1024 threads writes 42.
 *
 * What a PyTorch user sees: nothing from PyTorch itself (its kernels size
 * their own blocks). Numba users see
 *   numba.cuda.cudadrv.driver.CudaAPIError: [1] Call to cuLaunchKernel
 *   results in CUDA_ERROR_INVALID_VALUE
 * from NeMo's numba RNN-T loss (blockDim = the longest transcription,
 * NVIDIA-NeMo/Speech#5929) and from a soft-DTW loss with one thread per step
 * (Moon0316/T2A#5): in both a sequence far longer than the rest was the
 * cause.
 *
 * Why: the launch configuration is checked when the launch is submitted,
 * against the device's limits (1024 threads per block; 1024, 1024, 64 per
 * dimension); nothing runs, so the error belongs to the call alone.
 *
 * The fix: blocks of at most 1024 threads (or the kernel's own limit,
 * cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK), Numba's
 * get_max_threads_per_block) and a grid of ceil(n / block) blocks with a
 * bounds check in the kernel; or cap the data's length (filter the too-long
 * sequences) where the algorithm needs one block per item.
 *
 * References: numba/numba#1055 (the maintainer: the launch configuration is
 * not checked, cuLaunchKernel returns CUDA_ERROR_INVALID_VALUE);
 * NVIDIA-NeMo/Speech#5929; Moon0316/T2A#5; CUDA Driver API, cuLaunchKernel
 * (https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__EXEC.html).
 *
 * atlas:cause block_too_large
 */
#include "driver_api.h"

static void launch_block_of(unsigned threads)
{
    struct write_answer_launch l;
    if (!write_answer_ready(&l))
        return;
    struct atlas_driver cu = l.cu;
    void *arguments[] = {&l.answer};
    /* one block of `threads` threads, every one storing 42 */
    if (CU("launch", cu.cuLaunchKernel(l.function, 1, 1, 1, threads, 1, 1, 0, NULL, arguments, NULL)))
        write_answer_checked(&l);
    /* the same kernel, 1024 threads: does the context still work? */
    else if (CU("launch_1024", cu.cuLaunchKernel(l.function, 1, 1, 1, 1024, 1, 1, 0, NULL, arguments, NULL)))
        ATLAS_CUDA("sync_1024", cudaDeviceSynchronize());
    write_answer_done(&l);
}

static void block_of_1024_threads(void) { launch_block_of(1024); }
static void block_of_1025_threads(void) { launch_block_of(1025); }

ATLAS_CASE(block_of_1024_threads, block_of_1025_threads)
