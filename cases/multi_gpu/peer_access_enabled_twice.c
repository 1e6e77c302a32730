/* peer_access_enabled_twice — cudaDeviceEnablePeerAccess for a pair that
 * already has it.
 *
 * The mistake: two libraries (or two places in one program) each enable
 * peer access for the same pair of GPUs, and treat any status other than
 * cudaSuccess as fatal — or ignore it without clearing it.
 *
 * What the program sees (two H200s with NVLink, CUDA 13.0, driver 580): the
 * second cudaDeviceEnablePeerAccess returns
 * cudaErrorPeerAccessAlreadyEnabled; a successful cudaMalloc after it leaves
 * that error in place, and the next cudaGetLastError returns it (then
 * cudaSuccess). Nothing is sticky.
 *
 * What a PyTorch user sees: a later, unrelated kernel launch raises
 *   torch.AcceleratorError: CUDA error: peer access is already enabled
 * when an extension left the error in the last-error slot, which PyTorch
 * reads after its launches (meta-pytorch/torchcomms#2399). Not recorded
 * through PyTorch: PyTorch itself clears it.
 *
 * Why: the second call fails without changing anything, and — like every
 * runtime error — sets the thread's last error, which stays until someone
 * calls cudaGetLastError.
 *
 * The fix: enable once per pair (keep a table), or accept
 * cudaErrorPeerAccessAlreadyEnabled and clear it with cudaGetLastError().
 *
 * References: CUDA Runtime API, cudaDeviceEnablePeerAccess
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__PEER.html),
 * "Returns cudaErrorPeerAccessAlreadyEnabled if direct access of peerDevice
 * from the current device has already been enabled"; torch/cutorch#114 and
 * meta-pytorch/torchcomms#2399 (the stale 704 blamed on the next launch).
 *
 * atlas:cause peer_access_enabled_twice
 */
#include "two_devices.h"

static void enable_peer_access(int times)
{
    void *p = NULL;
    if (!atlas_need_two_gpus() || !ATLAS_CUDA("set_0", cudaSetDevice(0)))
        return;
    ATLAS_CUDA("enable", cudaDeviceEnablePeerAccess(1, 0));
    if (times == 2)
        ATLAS_CUDA("enable_again", cudaDeviceEnablePeerAccess(1, 0));
    /* Something unrelated succeeds; then someone asks for the last error. */
    if (ATLAS_CUDA("alloc", cudaMalloc(&p, 1 << 20)))
        cudaFree(p);
    ATLAS_CUDA("last_error", cudaGetLastError());
    ATLAS_CUDA("last_error_again", cudaGetLastError());
}

static void enabled_once(void) { enable_peer_access(1); }
static void enabled_twice(void) { enable_peer_access(2); }

ATLAS_CASE(enabled_once, enabled_twice)
