/* pageable_memcpy_async_during_capture — cudaMemcpyAsync from malloc'd
 * (pageable) host memory, captured into a graph.
 *
 * The mistake: the copy is on the capturing stream, as it should be, but its
 * host buffer comes from malloc / new / a NumPy array instead of
 * cudaMallocHost (pinned) memory.
 *
 * What the program sees (H200, driver 580, CUDA 13.0): no error. In every
 * mode the copy from malloc'd memory is captured, the graph is made, and each
 * replay copies what the host buffer holds at replay time (the check
 * copied_current_data), exactly like the pinned copy. The refusal users
 * report comes from the frameworks, not from CUDA here.
 *
 * What a PyTorch user sees: PyTorch refuses it itself, before CUDA is asked:
 *   RuntimeError: Cannot copy between CPU and CUDA tensors during CUDA graph
 *   capture unless the CPU tensor is pinned. Please use tensor.pin_memory()
 *   or allocate the tensor with pin_memory=True.
 * (recorded by the mirror with PyTorch 2.11; with a pinned tensor the
 * replayed copy brings the CPU tensor's current data).
 *
 * Why: the driver accepts the copy into the graph; the danger is lifetime,
 * not capture. The graph keeps the host address, and nothing keeps a malloc'd
 * (or garbage-collected) buffer alive until the replays: freed, the replay
 * copies whatever is there. PyTorch added its check for that reason
 * (pytorch/pytorch#172156: "It may be safe from cudagraphs perspective,
 * however, nothing keeps this memory alive").
 *
 * The fix: pinned host memory (cudaMallocHost / cudaHostRegister;
 * tensor.pin_memory()) for every host buffer a graph copies from or to, owned
 * as long as the graph is replayed.
 *
 * References: pytorch/pytorch#172156 (the check and why) and
 * flagos-ai/FlagGems#4472 (a user meeting PyTorch's message); CUDA Runtime
 * API, cudaMemcpyAsync
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html).
 *
 * atlas:cause pageable_memcpy_during_capture
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
