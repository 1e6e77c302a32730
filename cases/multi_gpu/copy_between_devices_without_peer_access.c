/* copy_between_devices_without_peer_access — cudaMemcpy (kind
 * cudaMemcpyDefault), cudaMemcpyPeer and cudaMemcpyDeviceToDevice from
 * GPU 0 to GPU 1, with and without peer access enabled.
 *
 * The mistake (a belief, often): that copying between GPUs needs
 * cudaDeviceEnablePeerAccess first — or, the other way round, that since
 * copies work without it, kernels will too
 * (kernel_reads_peer_memory_without_peer_access).
 *
 * What the program sees (two H200s with NVLink, CUDA 13.0, driver 580): every
 * copy succeeds and is correct, with or without peer access: cudaMemcpy with
 * cudaMemcpyDefault, with cudaMemcpyDeviceToDevice, and cudaMemcpyPeer. The
 * difference is speed: 256 MiB by cudaMemcpyPeer took 38 GB/s without peer
 * access and 384 GB/s with it (NVLink) — ten times slower, silently.
 *
 * What a PyTorch user sees: tensor.to("cuda:1") works either way; PyTorch
 * enables peer access itself where it can.
 *
 * Why: copies are done by the driver (copy engines, staged through host
 * memory if the GPUs cannot reach each other); peer access only maps one
 * GPU's memory into the other's address space for kernels.
 *
 * The fix: nothing for copies; peer access for kernels that dereference the
 * other GPU's memory.
 *
 * References: CUDA Runtime API, cudaMemcpyPeer
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html),
 * "Copies memory from one device to memory on another device" (its list of
 * errors has no peer-access error); alpaka-group/alpaka#596 (copies between
 * GPUs that worked without peer access, staged through the host).
 *
 * atlas:cause peer_copy_without_peer_access
 */
#include "two_devices.h"
#include <stdlib.h>
#include <time.h>

enum { BYTES = 256 << 20 };

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void check_copy(const char *step, const unsigned char *dst, size_t bytes)
{
    unsigned char first = 0, last = 0;
    cudaMemcpy(&first, dst, 1, cudaMemcpyDeviceToHost);
    cudaMemcpy(&last, dst + bytes - 1, 1, cudaMemcpyDeviceToHost);
    atlas_check(step, first == 0x5a && last == 0x5a, "first byte 0x%02x, last 0x%02x (want 0x5a)", first, last);
}

static void copy_0_to_1(bool enable_peer)
{
    unsigned char *src = NULL, *dst = NULL;
    if (!atlas_need_two_gpus())
        return;
    if (!ATLAS_CUDA("set_1", cudaSetDevice(1)) || !ATLAS_CUDA("alloc_on_1", cudaMalloc((void **)&dst, BYTES))
        || !ATLAS_CUDA("set_0", cudaSetDevice(0)) || !ATLAS_CUDA("alloc_on_0", cudaMalloc((void **)&src, BYTES))
        || !ATLAS_CUDA("fill", cudaMemset(src, 0x5a, BYTES)) || !ATLAS_CUDA("fill_sync", cudaDeviceSynchronize())) {
        cudaFree(src), cudaFree(dst);
        return;
    }
    if (enable_peer)
        ATLAS_CUDA("enable_peer", cudaDeviceEnablePeerAccess(1, 0));

    cudaMemset(dst, 0, BYTES);
    if (ATLAS_CUDA("copy_default", cudaMemcpy(dst, src, BYTES, cudaMemcpyDefault)))
        check_copy("result_default", dst, BYTES);
    cudaMemset(dst, 0, BYTES);
    if (ATLAS_CUDA("copy_device_to_device", cudaMemcpy(dst, src, BYTES, cudaMemcpyDeviceToDevice)))
        check_copy("result_device_to_device", dst, BYTES);
    cudaMemset(dst, 0, BYTES);
    cudaDeviceSynchronize();
    double start = seconds();
    bool copied = ATLAS_CUDA("copy_peer", cudaMemcpyPeer(dst, 1, src, 0, BYTES));
    copied = ATLAS_CUDA("copy_peer_sync", cudaDeviceSynchronize()) && copied;
    if (copied) {
        atlas_quantity("copy_peer_gb_per_s", BYTES / (seconds() - start) / 1e9, "GB/s");
        check_copy("result_peer", dst, BYTES);
    }
    cudaFree(src), cudaFree(dst);
}

static void peer_access_enabled(void) { copy_0_to_1(true); }
static void peer_access_not_enabled(void) { copy_0_to_1(false); }

ATLAS_CASE(peer_access_enabled, peer_access_not_enabled)
