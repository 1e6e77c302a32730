/* peer_access_disabled_when_never_enabled — cudaDeviceDisablePeerAccess for
 * a pair whose peer access was never enabled.
 *
 * The mistake: cleanup code that disables peer access for every pair,
 * whether or not the set-up enabled it (it was not supported, or set-up
 * stopped early).
 *
 * What the program sees (two H200s with NVLink, CUDA 13.0, driver 580):
 * cudaDeviceDisablePeerAccess returns cudaErrorPeerAccessNotEnabled, and the
 * next cudaGetLastError — after a successful cudaMalloc — still returns it.
 * Nothing is sticky.
 *
 * What a PyTorch user sees: nothing; PyTorch never disables peer access.
 *
 * Why: disabling is checked against what was enabled; the failure sets the
 * thread's last error like any other.
 *
 * The fix: disable only what you enabled (remember it), or clear the error
 * with cudaGetLastError.
 *
 * References: CUDA Runtime API, cudaDeviceDisablePeerAccess
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__PEER.html),
 * "Returns cudaErrorPeerAccessNotEnabled if direct access to memory on
 * peerDevice has not yet been enabled from the current device";
 * torch/cutorch#114 (peer-access errors left in the last-error slot).
 *
 * atlas:cause peer_access_disabled_when_not_enabled
 */
#include "two_devices.h"

static void disable_peer_access(bool enabled_first)
{
    void *p = NULL;
    if (!atlas_need_two_gpus() || !ATLAS_CUDA("set_0", cudaSetDevice(0)))
        return;
    if (enabled_first)
        ATLAS_CUDA("enable", cudaDeviceEnablePeerAccess(1, 0));
    ATLAS_CUDA("disable", cudaDeviceDisablePeerAccess(1));
    if (ATLAS_CUDA("alloc", cudaMalloc(&p, 1 << 20)))
        cudaFree(p);
    ATLAS_CUDA("last_error", cudaGetLastError());
}

static void disable_what_was_enabled(void) { disable_peer_access(true); }
static void disable_what_was_never_enabled(void) { disable_peer_access(false); }

ATLAS_CASE(disable_what_was_enabled, disable_what_was_never_enabled)
