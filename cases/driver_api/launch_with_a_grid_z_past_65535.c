/* launch_with_a_grid_z_past_65535 — a kernel launched through the driver
 * API (cuLaunchKernel, as PyCUDA, tinygrad's CUDA runtime and CuPy's
 * RawKernel do) with the long dimension of the work on the grid's z, 65536
 * blocks there.
 *
 * The mistake: the grid is shaped like the data (batch, heads, tokens) and
 * the long dimension lands on y or z. Only grid x may go up to 2^31 - 1;
 * y and z stop at 65535 (maxGridSize). tinygrad's CUDA runtime launched a
 * grid of (2, 2, 93288) and got PyCUDA's
 *   pycuda._driver.LogicError: cuLaunchKernel failed: invalid argument
 * (tinygrad/tinygrad#625) — the same words as a block of too many threads
 * (launch_with_more_threads_than_a_block_holds) or too much shared memory:
 * the status does not say which limit the launch passed.
 *
 * What the program sees (one H100 and one H200, driver 580.159.04, CUDA
 * 13.0, by default and under CUDA_LAUNCH_BLOCKING=1): cuLaunchKernel
 * returns CUDA_ERROR_INVALID_VALUE (1, "invalid argument") at once, as for
 * a block of 1025 threads. Nothing runs and nothing is sticky: the same
 * 65536 blocks on x launch right after. The fixed variant's 65536 blocks on
 * x write 42.
 *
 * What a PyTorch user sees: nothing from PyTorch's own kernels (they put
 * the long dimension on x); the runtime's <<<>>> of the same grid is
 * grid_y_over_65535.
 *
 * Why: the launch configuration is checked when the launch is submitted,
 * against the device's limits; nothing runs.
 *
 * The fix: the long dimension on grid x (2^31 - 1 blocks), or a grid-stride
 * loop over y and z; check the grid against cuDeviceGetAttribute(
 * CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z) where the shape comes from the data.
 *
 * References: tinygrad/tinygrad#625 (a grid of (2, 2, 93288): its z over
 * the GPU's 65535); CUDA Programming Guide, technical
 * specifications per compute capability
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#features-and-technical-specifications).
 *
 * atlas:cause grid_dim_over_limit
 */
#include "driver_api.h"

static void launch_grid(unsigned x, unsigned z)
{
    struct write_answer_launch l;
    if (!write_answer_ready(&l))
        return;
    struct atlas_driver cu = l.cu;
    void *arguments[] = {&l.answer};
    /* x by 1 by z blocks of one thread, every one storing 42 */
    if (CU("launch", cu.cuLaunchKernel(l.function, x, 1, z, 1, 1, 1, 0, NULL, arguments, NULL)))
        write_answer_checked(&l);
    /* the same kernel, the blocks on x: does the context still work? */
    else if (CU("launch_on_x", cu.cuLaunchKernel(l.function, 65536, 1, 1, 1, 1, 1, 0, NULL, arguments, NULL)))
        ATLAS_CUDA("sync_on_x", cudaDeviceSynchronize());
    write_answer_done(&l);
}

static void blocks_on_x(void) { launch_grid(65536, 1); }
static void blocks_on_z(void) { launch_grid(1, 65536); }

ATLAS_CASE(blocks_on_x, blocks_on_z)
