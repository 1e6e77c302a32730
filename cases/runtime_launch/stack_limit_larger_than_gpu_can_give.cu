/* stack_limit_larger_than_gpu_can_give — cudaDeviceSetLimit(cudaLimitStackSize)
 * asked for more per-thread stack than the GPU can back.
 *
 * The mistake: raising the per-thread stack "generously" — to silence a
 * stack overflow in a recursive kernel, or copied from a machine with a
 * bigger GPU — without noticing that the limit is per thread: the driver
 * reserves it for every thread that can be resident at once (SMs × maximum
 * threads per SM: 270,336 threads on an H100 SXM), so a few hundred KiB per
 * thread is the whole GPU.
 *
 * The broken variant asks twice: 1 GiB per thread (step set_stack_1gib),
 * then twice the GPU's total memory divided by its resident threads (step
 * set_stack, the size recorded as stack_asked_bytes); the fixed variant
 * asks for 16 KiB. Each then reads the limit back (stack_limit_bytes) and
 * launches a small kernel.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0; 270,336
 * resident threads, default limit 1 KiB): 1 GiB per thread is refused with
 * cudaErrorInvalidValue — and so is 615 KiB (629,760 bytes, twice what the
 * memory could back): cudaErrorInvalidValue, not cudaErrorMemoryAllocation.
 * The limit stays 1024 bytes and nothing is reserved. The refusal stays in
 * the last-error slot: the next cudaGetLastError, the kernel launch's check,
 * returns cudaErrorInvalidValue although the launch succeeded and the kernel
 * ran (see stale_error_blamed_on_next_launch). Not sticky. (The largest
 * accepted value was not measured.) 16 KiB is accepted and read back as
 * 16384.
 *
 * What a PyTorch user sees: nothing of the kind: PyTorch does not expose
 * cudaLimitStackSize (no mirror); extensions that set it report the status
 * of their own call.
 *
 * Why: the limit is backed by device memory reserved per resident thread;
 * the runtime checks the value against the architecture's maximum and
 * against what it can allocate.
 *
 * The fix: ask for what the deepest call chain needs (depth × frame, with
 * margin; the fixed variant: 16 KiB), check the status, and read the limit
 * back with cudaDeviceGetLimit; remember it costs limit × resident threads
 * of device memory.
 *
 * References: SourceryTools/nvptx-tools#8 (CU_LIMIT_STACK_SIZE set "too
 * high" gave errors from later calls, then "could not set stack limit: out
 * of memory" on a GPU whose memory was mostly in use; "the driver making
 * 'worst-case' stack size accounting: per-thread stack size multiplied by the
 * number of threads the device can host simultaneously"); CUDA Runtime API,
 * cudaDeviceSetLimit
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__DEVICE.html):
 * "cudaLimitStackSize controls the stack size in bytes of each GPU thread."
 *
 * atlas:cause stack_limit_over_gpu_capacity
 */
#include "atlas.h"

__global__ void touch(int *out) { *out = 7; }

static void launch_after_stack_limit(bool huge)
{
    int *out = NULL, device = 0, sms = 0, threads_per_sm = 0, value = 0;
    size_t limit = 0, free_bytes = 0, total = 0;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof(int))))
        return;
    if (!ATLAS_CUDA("device", cudaGetDevice(&device))
        || !ATLAS_CUDA("sm_count", cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device))
        || !ATLAS_CUDA("threads_per_sm", cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device))
        || !ATLAS_CUDA("mem_info", cudaMemGetInfo(&free_bytes, &total))) {
        cudaFree(out);
        return;
    }
    size_t resident = (size_t)sms * (size_t)threads_per_sm;
    atlas_quantity("resident_threads", (double)resident, "threads");
    size_t asked = 16 << 10;
    if (huge) {
        ATLAS_CUDA("set_stack_1gib", cudaDeviceSetLimit(cudaLimitStackSize, (size_t)1 << 30));
        asked = ((2 * total / resident) + 1023) & ~(size_t)1023;
    }
    atlas_quantity("stack_asked_bytes", (double)asked, "bytes");
    ATLAS_CUDA("set_stack", cudaDeviceSetLimit(cudaLimitStackSize, asked));
    if (ATLAS_CUDA("get_stack", cudaDeviceGetLimit(&limit, cudaLimitStackSize)))
        atlas_quantity("stack_limit_bytes", (double)limit, "bytes");
    if (ATLAS_CUDA("mem_info_after", cudaMemGetInfo(&free_bytes, &total)))
        atlas_quantity("free_after_set", (double)free_bytes, "bytes");
    touch<<<1, 1>>>(out);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy_back", cudaMemcpy(&value, out, sizeof value, cudaMemcpyDeviceToHost)))
        atlas_check("kernel_ran", value == 7, "the kernel wrote %d (7 expected)", value);
    cudaFree(out);
}

static void stack_of_16_kib(void) { launch_after_stack_limit(false); }
static void stack_larger_than_the_gpu(void) { launch_after_stack_limit(true); }

ATLAS_CASE(stack_of_16_kib, stack_larger_than_the_gpu)
