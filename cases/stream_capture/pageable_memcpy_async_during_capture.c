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
#include <string.h>

static unsigned char *host;

static void copy(cudaStream_t stream, const char *mode)
{
    ATLAS_CUDA(capture_step(mode, "copy"),
               cudaMemcpyAsync(capture_device_buffer, host, CAPTURE_BYTES, cudaMemcpyHostToDevice, stream));
}

/* A graph's copy node is meant to copy what the buffer holds at each
 * replay: change the host data after the capture, before the replay... */
static void change_host_data(cudaStream_t stream, const char *mode)
{
    (void)stream;
    memset(host, mode[0], CAPTURE_BYTES);
    cudaMemset(capture_device_buffer, 0, CAPTURE_BYTES); /* so that only the replay can put it there */
    cudaDeviceSynchronize();
}

/* ...and see whether the replay copied the new data. */
static void check_copied(cudaStream_t stream, const char *mode)
{
    (void)stream;
    unsigned char first = 0, last = 0;
    cudaMemcpy(&first, capture_device_buffer, 1, cudaMemcpyDeviceToHost);
    cudaMemcpy(&last, (unsigned char *)capture_device_buffer + CAPTURE_BYTES - 1, 1, cudaMemcpyDeviceToHost);
    atlas_check(capture_step(mode, "copied_current_data"), first == (unsigned char)mode[0] && last == first,
                "after the replay the device holds %u..%u; the host buffer held %u when it was replayed", first, last,
                (unsigned char)mode[0]);
}

static void capture_copies_from(bool pinned)
{
    if (!capture_setup())
        return;
    void *pageable = calloc(1, CAPTURE_BYTES);
    host = pinned ? capture_pinned_buffer : pageable;
    capture_after_replay = check_copied;
    cudaStream_t stream;
    if (pageable && ATLAS_CUDA("stream", cudaStreamCreate(&stream))) {
        capture_every_mode_on(stream, copy, change_host_data);
        cudaStreamDestroy(stream);
    }
    free(pageable);
    capture_teardown();
}

static void copy_from_pinned(void) { capture_copies_from(true); }
static void copy_from_pageable(void) { capture_copies_from(false); }

ATLAS_CASE(copy_from_pinned, copy_from_pageable)
