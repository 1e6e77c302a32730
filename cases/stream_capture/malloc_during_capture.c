/* malloc_during_capture — cudaMalloc in the thread that is capturing a
 * stream.
 *
 * The mistake: allocating scratch memory in the middle of captured work — a
 * library that allocates lazily on first use, a custom allocator that grows
 * its pool — while the calling thread captures.
 *
 * What the program sees (H200, CUDA 13.0): in the global and thread-local
 * modes cudaMalloc returns cudaErrorStreamCaptureUnsupported and invalidates
 * the capture (cudaStreamEndCapture: cudaErrorStreamCaptureInvalidated, no
 * graph; cudaGetLastError keeps it); in relaxed mode cudaMalloc and cudaFree
 * succeed and the graph is made and replays.
 *
 * What a PyTorch user sees: usually nothing: PyTorch's caching allocator
 * serves allocations during torch.cuda.graph from a private memory pool.
 * Extensions and libraries that call cudaMalloc themselves fail with
 * "operation not permitted when stream is capturing" (pytorch/pytorch#198140:
 * symmetric-memory allocation inside a capture).
 *
 * Why: cudaMalloc is one of the "potentially unsafe" calls (it may
 * synchronize the device). The global and thread-local modes forbid them in
 * the capturing thread; the relaxed mode lets them through. A plain
 * cudaMalloc is not captured either way: the memory is allocated once, now,
 * not at each replay.
 *
 * The fix: allocate before the capture (the fixed variant allocates outside
 * it), or use cudaMallocAsync on the capturing stream, which the capture
 * records as a graph memory node; or capture in relaxed mode if the
 * allocation really is one-time setup.
 *
 * References: NVIDIA/cuopt#1748 ("RMM allocation during CUDA graph capture
 * (cudaErrorStreamCaptureUnsupported)"); CUDA Runtime API,
 * cudaStreamBeginCapture and cudaThreadExchangeStreamCaptureMode
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html).
 *
 * atlas:cause malloc_during_capture
 */
#include "capture.h"

static void allocate(cudaStream_t stream, const char *mode)
{
    (void)stream;
    void *p = NULL;
    if (ATLAS_CUDA(capture_step(mode, "malloc"), cudaMalloc(&p, 1 << 20)))
        ATLAS_CUDA(capture_step(mode, "free"), cudaFree(p));
}

static void allocate_outside_capture(void) { capture_every_mode(NULL, allocate); }
static void allocate_inside_capture(void) { capture_every_mode(allocate, NULL); }

ATLAS_CASE(allocate_outside_capture, allocate_inside_capture)
