/* pageable_memcpy_async_during_capture — cudaMemcpyAsync from malloc'd
 * (pageable) host memory, captured into a graph.
 *
 * The mistake: the copy is on the capturing stream, as it should be, but its
 * host buffer comes from malloc / new / a NumPy array instead of
 * cudaMallocHost (pinned) memory.
 *
 * What the program sees (H200, CUDA 13.0): RECORDED-BELOW — in each mode.
 *
 * What a PyTorch user sees: `gpu.copy_(cpu_tensor, non_blocking=True)`
 * inside torch.cuda.graph with a tensor that is not pinned (not recorded
 * through PyTorch yet).
 *
 * Why: a copy from pageable memory is staged by the driver through a pinned
 * buffer synchronously at the call; a graph must be able to replay the copy
 * later on its own, so the runtime refuses to capture it (outside a capture
 * the same call merely runs synchronously).
 *
 * The fix: pinned host memory (cudaMallocHost / cudaHostRegister;
 * tensor.pin_memory()) for every host buffer a graph copies from or to.
 *
 * References: NVIDIA/cuopt#1753 ("avoid uncapturable RMM copies inside
 * routing CUDA graph captures"); CUDA Runtime API, cudaMemcpyAsync
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 */
#include "capture.h"
#include <stdlib.h>

static void *host;

static void copy(cudaStream_t stream, const char *mode)
{
    ATLAS_CUDA(capture_step(mode, "copy"),
               cudaMemcpyAsync(capture_device_buffer, host, CAPTURE_BYTES, cudaMemcpyHostToDevice, stream));
}

static void capture_copies_from(bool pinned)
{
    if (!capture_setup())
        return;
    void *pageable = calloc(1, CAPTURE_BYTES);
    host = pinned ? capture_pinned_buffer : pageable;
    cudaStream_t stream;
    if (pageable && ATLAS_CUDA("stream", cudaStreamCreate(&stream))) {
        capture_every_mode_on(stream, copy, NULL);
        cudaStreamDestroy(stream);
    }
    free(pageable);
    capture_teardown();
}

static void copy_from_pinned(void) { capture_copies_from(true); }
static void copy_from_pageable(void) { capture_copies_from(false); }

ATLAS_CASE(copy_from_pinned, copy_from_pageable)
