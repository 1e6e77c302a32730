/* launch_on_another_devices_stream — a kernel launched, with device 0
 * current, on a stream created on device 1, writing device 0's memory.
 *
 * The mistake: streams are created per device, up front, and a launch later
 * picks the wrong one (an index mix-up, a stream pool shared between GPUs).
 * The code assumes the current device decides where the kernel runs.
 *
 * What the program sees (two H200s with NVLink, CUDA 13.0, driver 580): the
 * launch is accepted (cudaGetLastError: cudaSuccess) — not refused as the
 * Programming Guide says — and the kernel runs on the stream's device, GPU 1,
 * where GPU 0's buffer is not mapped: cudaStreamSynchronize returns
 * cudaErrorIllegalAddress, and from then on both GPUs fail every call
 * (cudaMalloc on either: cudaErrorIllegalAddress).
 *
 * What a PyTorch user sees: nothing comparable: torch.cuda.stream() with
 * another device's stream switches the current device for the block, and
 * a kernel on tensors of one device runs on that device.
 *
 * Why: a stream belongs to the device (context) it was created on. The
 * runtime does not silently move it to the current device.
 *
 * The fix: cudaSetDevice to the stream's device before launching on it
 * (and allocate that kernel's data there), or create the stream with the
 * device that will use it.
 *
 * References: CUDA Programming Guide, Multi-Device System, "Stream and
 * Event Behavior": a kernel launch fails if it is issued to a stream that
 * is not associated to the current device
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#stream-and-event-behavior);
 * iowarp/clio-core#735 (CUDA error 700 on multi-GPU hosts only: data
 * allocated on one device, a kernel run on another); a Stack Overflow answer
 * quoted in NVIDIA/cccl#11344 (streams created for one GPU, launches from
 * threads whose current device was another).
 *
 * atlas:cause resource_used_on_other_device
 */
#include "two_devices.h"

enum { N = 256 };

__global__ void write_ones(int *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = 1;
}

static void launch_on_stream_of(int stream_device)
{
    cudaStream_t stream = NULL;
    int *out = NULL, host[N];
    if (!atlas_need_two_gpus() || !ATLAS_CUDA("set_stream_device", cudaSetDevice(stream_device))
        || !ATLAS_CUDA("stream", cudaStreamCreate(&stream)))
        return;
    if (ATLAS_CUDA("set_0", cudaSetDevice(0)) && ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof host))
        && ATLAS_CUDA("zero", cudaMemset(out, 0, sizeof host))) {
        write_ones<<<1, N, 0, stream>>>(out, N);
        ATLAS_CUDA("launch", cudaGetLastError());
        ATLAS_CUDA("stream_sync", cudaStreamSynchronize(stream));
        if (ATLAS_CUDA("copy_back", cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost)))
            atlas_check("result", host[0] == 1 && host[N - 1] == 1, "out[0] = %d, out[%d] = %d", host[0], N - 1,
                        host[N - 1]);
    }
    atlas_device_usable(1, "usable_1");
    atlas_device_usable(0, "usable_0");
    cudaFree(out);
    cudaStreamDestroy(stream);
}

static void stream_of_device_0(void) { launch_on_stream_of(0); }
static void stream_of_device_1(void) { launch_on_stream_of(1); }

ATLAS_CASE(stream_of_device_0, stream_of_device_1)
