/* memcpy2d_pitch_smaller_than_row — cudaMemcpy2D told that the destination's
 * rows are closer together than one row is wide.
 *
 * The mistake: dpitch and spitch are in bytes, and each must be at least the
 * row width (also in bytes). Passing a pitch in elements (16 for a row of 16
 * floats, which is 64 bytes), or a per-frame stride a producer reported as 0,
 * gives a pitch smaller than the row.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): cudaMemcpy2D returns
 * cudaErrorInvalidPitchValue ("invalid pitch argument") at the call; nothing
 * is copied (the rows read back differ: result_wrong), the next synchronize
 * returns cudaSuccess and the context stays usable.
 *
 * What a PyTorch user sees: nothing of this kind; PyTorch copies strided
 * tensors with its own kernels and never passes a pitch to cudaMemcpy2D.
 *
 * Why: rows of `width` bytes cannot start fewer than `width` bytes apart
 * without overlapping; the runtime checks the pitches on the host before any
 * copy is queued.
 *
 * The fix: pitches in bytes (cols * sizeof(float)), or the pitch
 * cudaMallocPitch returned; width <= dpitch and width <= spitch.
 *
 * References: LizardByte/Sunshine#5640 (cudaMemcpy2DToArray fails with
 * cudaErrorInvalidPitchValue when a frame's reported row pitch is 0 or below
 * the row width, https://github.com/LizardByte/Sunshine/issues/5640); CUDA
 * Runtime API, cudaMemcpy2D
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "width must not exceed either dpitch or spitch".
 *
 * atlas:cause memcpy2d_pitch_smaller_than_width
 */
#include "atlas.h"

enum { ROWS = 4, COLS = 16 };

static void copy_rows(size_t dpitch)
{
    float host[ROWS * COLS], back[ROWS * COLS];
    float *device = NULL;
    for (int i = 0; i < ROWS * COLS; i++)
        host[i] = (float)i;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&device, sizeof host)))
        return;
    ATLAS_CUDA("copy", cudaMemcpy2D(device, dpitch, host, COLS * sizeof(float), COLS * sizeof(float), ROWS,
                                    cudaMemcpyHostToDevice));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy_back", cudaMemcpy(back, device, sizeof back, cudaMemcpyDeviceToHost))) {
        int same = 1;
        for (int i = 0; i < ROWS * COLS; i++)
            same &= back[i] == host[i];
        atlas_check("result", same, "rows read back %s", same ? "as written" : "differ from what was written");
    }
    cudaFree(device);
}

static void pitch_in_bytes(void) { copy_rows(COLS * sizeof(float)); }
static void pitch_in_elements(void) { copy_rows(COLS); }

ATLAS_CASE(pitch_in_bytes, pitch_in_elements)
