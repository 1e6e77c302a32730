/* peer_access_enabled_from_the_wrong_context — cuCtxEnablePeerAccess(peer)
 * called while the peer's own context is current, as PyCUDA's
 * ctx.enable_peer_access(other) does when `ctx` is not the current context.
 *
 * The mistake: cuCtxEnablePeerAccess(peerContext, 0) grants the *current*
 * context access to peerContext; the context to grant it to is not an
 * argument. With GPU 1's context current (the last one made or pushed) a
 * program that means "GPU 0 may read GPU 1" calls
 * cuCtxEnablePeerAccess(GPU 1's context, 0), and so asks GPU 1 for peer
 * access to itself.
 *
 * What the program sees (two H200s with NVLink, CUDA 13.0, driver 580):
 * cuDeviceCanAccessPeer says 1 from GPU 0 to 1 and from 1 to 0, and 0 from
 * GPU 1 to itself; with GPU 1's context pushed, cuCtxEnablePeerAccess(GPU
 * 1's context) returns CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (217) — PyCUDA's
 * "peer access is not supported between these two devices" on a pair that
 * does support it. cuda.h 13.0 documents CUDA_ERROR_INVALID_CONTEXT for
 * "the current context is peerContext": the GPU says otherwise (a finding).
 * Nothing is sticky. The fixed variant's enable and disable return
 * CUDA_SUCCESS.
 *
 * What a PyTorch user sees: PyCUDA users see
 *   LogicError: cuCtxEnablePeerAccess failed: peer access is not supported between these two devices
 * on a K40 + K20 pair that does support it (simpleP2P passes there;
 * inducer/pycuda#71). PyTorch users meet the same sentence, as
 *   RuntimeError: CUDA error: peer access is not supported between these two devices
 * mostly where the GPUs really lack peer access (8 × RTX 4090,
 * verl-project/verl#1874); so the sentence reads as a hardware limit, and
 * nobody looks at which context was current. PyTorch itself cannot make
 * this mistake: its allocators put a CUDAGuard on the accessing device
 * before cudaDeviceEnablePeerAccess(dev_to_access, 0). Not recorded through
 * PyTorch.
 *
 * Why: the accessing context is whichever is current, so the call paired
 * GPU 1's context with itself. A GPU is not its own peer: the case records
 * cuDeviceCanAccessPeer for 0→1, 1→0 and 1→1 (can_access_* quantities) next
 * to the refusal. Nothing is enabled, so GPU 0 still cannot read GPU 1.
 *
 * The fix: make the accessing GPU's context current first — PyCUDA:
 * k40ctx.push(); k40ctx.enable_peer_access(k20ctx); k40ctx.pop(); runtime:
 * cudaSetDevice(accessing) then cudaDeviceEnablePeerAccess(peer, 0), which
 * names both devices.
 *
 * References: inducer/pycuda#71, "Multi-gpu Peer Access inconsistent"
 * (https://github.com/inducer/pycuda/issues/71; the maintainer:
 * "enable_peer_access is a static method, so you need to make k4ctx current
 * before you enable peer access to k2ctx"); CUDA Driver API, Peer Context
 * Memory Access, cuCtxEnablePeerAccess
 * (https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__PEER__ACCESS.html),
 * "on success all allocations from peerContext will immediately be
 * accessible by the current context" and "Returns
 * CUDA_ERROR_INVALID_CONTEXT if there is no current context, peerContext is
 * not a valid context, or if the current context is peerContext" (cuda.h,
 * CUDA 13.0); verl-project/verl#1874 (the sentence under PyTorch).
 *
 * atlas:cause peer_access_wrong_current_context
 */
#include "atlas_driver.h"
#include "two_devices.h"
#include <stdio.h>

#if CUDART_VERSION >= 12050
/* The driver API through the runtime's entry points, as PyCUDA reaches the
 * driver: a case linked to libcuda would not start at all without a driver. */
static struct atlas_driver cu;

static bool open_driver_api(void)
{
    return atlas_driver_entries(&cu,
                                "cudaGetDriverEntryPointByVersion(cuDevice*, cuDevicePrimaryCtx*, cuCtx*PeerAccess, ...)");
}

#define CU(step, call) atlas_cu_status((step), #call, (call), cu.cuGetErrorName)

/* cuDeviceCanAccessPeer(dev, peer) as a quantity named `name` (1 or 0). */
static void note_can_access(const char *step, const char *name, CUdevice dev, CUdevice peer)
{
    int can = -1;
    if (CU(step, cu.cuDeviceCanAccessPeer(&can, dev, peer)))
        atlas_quantity(name, can, "bool");
}
#endif

/* GPU 0 is to read GPU 1's memory: enable access to GPU 1's context while
 * GPU `current`'s context is current. */
static void enable_access_to_gpu_1_from(int current)
{
#if CUDART_VERSION < 12050
    (void)current;
    atlas_skip("this case reaches the driver API with cudaGetDriverEntryPointByVersion, which the runtime has from "
               "CUDA 12.5");
#else
    CUdevice dev[2];
    CUcontext ctx[2] = {NULL, NULL};
    if (!atlas_need_two_gpus() || !open_driver_api())
        return;
    if (!CU("device_0", cu.cuDeviceGet(&dev[0], 0)) || !CU("device_1", cu.cuDeviceGet(&dev[1], 1)))
        return;
    note_can_access("can_access_0_1", "can_access_0_to_1", dev[0], dev[1]);
    note_can_access("can_access_1_0", "can_access_1_to_0", dev[1], dev[0]);
    note_can_access("can_access_1_1", "can_access_1_to_1", dev[1], dev[1]);

    /* PyCUDA's make_context() per GPU; here the primary contexts, which the
     * runtime shares, so the harness's probe afterwards sees the same ones. */
    if (CU("retain_0", cu.cuDevicePrimaryCtxRetain(&ctx[0], dev[0])) && CU("retain_1", cu.cuDevicePrimaryCtxRetain(&ctx[1], dev[1]))) {
        if (CU("push", cu.cuCtxPushCurrent(ctx[current]))) {
            /* Disable only what was enabled (peer_access_disabled_when_never_enabled). */
            if (CU("enable", cu.cuCtxEnablePeerAccess(ctx[1], 0)))
                CU("disable", cu.cuCtxDisablePeerAccess(ctx[1]));
            CUcontext popped = NULL;
            CU("pop", cu.cuCtxPopCurrent(&popped));
        }
    }
    if (ctx[1])
        CU("release_1", cu.cuDevicePrimaryCtxRelease(dev[1]));
    if (ctx[0])
        CU("release_0", cu.cuDevicePrimaryCtxRelease(dev[0]));
#endif
}

static void gpu_0_context_current(void) { enable_access_to_gpu_1_from(0); }
static void gpu_1_context_current(void) { enable_access_to_gpu_1_from(1); }

ATLAS_CASE(gpu_0_context_current, gpu_1_context_current)
