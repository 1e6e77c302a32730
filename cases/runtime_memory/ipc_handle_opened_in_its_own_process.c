/* ipc_handle_opened_in_its_own_process — cudaIpcOpenMemHandle in the process
 * that called cudaIpcGetMemHandle.
 *
 * The mistake: a transport that always goes through the IPC handle, also
 * when both ends are the same process (one rank driving two GPUs, a test
 * that loops back, a worker pool that turns out to be threads).
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): cudaIpcGetMemHandle succeeds;
 * cudaIpcOpenMemHandle returns cudaErrorDeviceUninitialized, whose text is
 * "invalid device context" (the status UCX and DALI users report) — though
 * the context is fine. The runtime documentation does not list it for this
 * call. The error waits in the last-error slot; not sticky.
 *
 * What a PyTorch user sees (PyTorch 2.11 on the H100):
 * torch.UntypedStorage._new_shared_cuda (what torch.multiprocessing's
 * rebuild_cuda_tensor calls) on a handle made in the same process raises
 *   torch.AcceleratorError: CUDA error: invalid device context
 * A first version of the mirror rebuilt the tensor with the rebuild function
 * torch.multiprocessing.reductions.reduce_tensor returns, in the same
 * process: the same error (PyTorch does not short-circuit its own process
 * there).
 *
 * Why: an IPC handle maps another process's allocation into this one; in
 * the exporting process the allocation is already mapped, and the driver
 * refuses to map it a second time.
 *
 * The fix: compare the exporter's pid with getpid() and use the original
 * device pointer when they match (what UCX does since openucx/ucx#11226).
 *
 * References: openucx/ucx#11226 ("it fails when calling cuIpcOpenMemHandle,
 * which does not seem to work within the same process",
 * https://github.com/openucx/ucx/pull/11226; the error in openucx/ucx#11603:
 * "cuIpcOpenMemHandle() failed: invalid device context"); CUDA Runtime API,
 * cudaIpcOpenMemHandle
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html):
 * "Opens an interprocess memory handle exported from another process and
 * returns a device pointer usable in the local process".
 *
 * atlas:cause ipc_handle_opened_by_exporting_process
 */
#include "atlas.h"

enum { BYTES = 1 << 20 };

static void share(int open_handle)
{
    void *buffer = NULL, *mapped = NULL;
    unsigned char back = 0;
    cudaIpcMemHandle_t handle;
    if (!ATLAS_CUDA("alloc", cudaMalloc(&buffer, BYTES)))
        return;
    if (ATLAS_CUDA("get_handle", cudaIpcGetMemHandle(&handle, buffer))) {
        if (open_handle)
            ATLAS_CUDA("open_handle", cudaIpcOpenMemHandle(&mapped, handle, cudaIpcMemLazyEnablePeerAccess));
        else
            mapped = buffer;   /* same process: the pointer itself */
        if (mapped) {
            ATLAS_CUDA("memset", cudaMemset(mapped, 42, BYTES));
            ATLAS_CUDA("copy_back", cudaMemcpy(&back, buffer, 1, cudaMemcpyDeviceToHost));
            atlas_check("result", back == 42, "byte read back through the original pointer: %d (42 expected)", back);
            if (mapped != buffer)
                ATLAS_CUDA("close_handle", cudaIpcCloseMemHandle(mapped));
        }
    }
    ATLAS_CUDA("last_error", cudaGetLastError());
    cudaFree(buffer);
}

static void original_pointer(void) { share(0); }
static void handle_opened_by_exporter(void) { share(1); }

ATLAS_CASE(original_pointer, handle_opened_by_exporter)
