/* kernel_reads_peer_memory_without_peer_access — a kernel on GPU 0 reads
 * an array that lives on GPU 1, without cudaDeviceEnablePeerAccess.
 *
 * The mistake: with unified addressing every device pointer looks like any
 * other, so a kernel is handed another GPU's buffer (model parallelism, a
 * tensor left on the wrong device). Copies between GPUs work without peer
 * access (copy_between_devices_without_peer_access); a kernel's loads and
 * stores do not: GPU 0's page tables map GPU 1's memory only once peer
 * access is enabled.
 *
 * What the program sees (two H200s with NVLink, CUDA 13.0, driver 580): a
 * clean launch (cudaGetLastError: cudaSuccess), then cudaErrorIllegalAddress
 * at the synchronize — although cudaDeviceCanAccessPeer says 1 (NVLink). And
 * the fault does not stay on GPU 0: afterwards cudaMalloc on GPU 1 returns
 * cudaErrorIllegalAddress as well. The process has lost both GPUs.
 *
 * What a PyTorch user sees: PyTorch checks devices before it launches:
 *   RuntimeError: Expected all tensors to be on the same device, but found
 *   at least two devices, cuda:0 and cuda:1!
 * (recorded with PyTorch 2.11 on two H200s: RuntimeError, that message).
 *
 * Why: peer access is a mapping, enabled per direction by
 * cudaDeviceEnablePeerAccess(peer) on the device that reads; NVLink or PCIe
 * only make it possible (cudaDeviceCanAccessPeer).
 *
 * The fix: copy the data to the device that computes, or check
 * cudaDeviceCanAccessPeer and enable peer access once, before the kernel.
 *
 * References: CUDA Runtime API, cudaDeviceEnablePeerAccess
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__PEER.html),
 * "access to memory allocations on peerDevice"; cupy/cupy#5379 (a kernel
 * on device 1 reading device 0's array fails with cudaErrorIllegalAddress
 * unless peer access is enabled).
 *
 * atlas:cause kernel_launched_on_wrong_device
 */
#include "two_devices.h"

enum { N = 1 << 20 };

__global__ void copy_from(const float *src, float *dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
}

static void read_device1_from_device0(bool enable_peer)
{
    float *on1 = NULL, *on0 = NULL;
    int can = 0;
    if (!atlas_need_two_gpus())
        return;
    ATLAS_CUDA("can_access_peer", cudaDeviceCanAccessPeer(&can, 0, 1));
    atlas_quantity("can_access_peer_0_to_1", can, "bool");
    if (!ATLAS_CUDA("set_1", cudaSetDevice(1)) || !ATLAS_CUDA("alloc_on_1", cudaMalloc((void **)&on1, N * sizeof(float)))
        || !ATLAS_CUDA("fill_on_1", cudaMemset(on1, 0x3f, N * sizeof(float)))
        || !ATLAS_CUDA("set_0", cudaSetDevice(0))
        || !ATLAS_CUDA("alloc_on_0", cudaMalloc((void **)&on0, N * sizeof(float)))) {
        cudaFree(on1);
        return;
    }
    if (enable_peer)
        ATLAS_CUDA("enable_peer", cudaDeviceEnablePeerAccess(1, 0));
    copy_from<<<N / 256, 256>>>(on1, on0, N);
    ATLAS_CUDA("launch", cudaGetLastError());
    if (ATLAS_CUDA("sync", cudaDeviceSynchronize())) {
        float first = 0.0f;
        cudaMemcpy(&first, on0, sizeof first, cudaMemcpyDeviceToHost);
        atlas_check("result", first > 0.74f && first < 0.75f, "on0[0] = %g (0x3f3f3f3f = 0.7470)", first);
    }
    /* One GPU's fault and the other GPU. */
    atlas_device_usable(1, "usable_1");
    atlas_device_usable(0, "usable_0");
    cudaFree(on0), cudaFree(on1);
}

static void peer_access_enabled(void) { read_device1_from_device0(true); }
static void peer_access_never_enabled(void) { read_device1_from_device0(false); }

ATLAS_CASE(peer_access_enabled, peer_access_never_enabled)
