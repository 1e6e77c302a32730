/* per_thread_array_too_large_for_free_memory — a kernel with a 64 KiB array
 * in each thread, launched as one thread while most of the GPU's memory is
 * in use.
 *
 * The mistake: a large local array (a scratch buffer, a per-thread stack of
 * work items) sized as if it cost its size once. Local memory is reserved
 * for every thread the GPU can hold at once — frame × max threads per SM ×
 * SMs — whatever the launch's size: 64 KiB a thread is 16.5 GiB on an H200
 * (132 SMs × 2048 threads), even for <<<1, 1>>>.
 *
 * What the program sees (H200, CUDA 13.0, 4 GiB left free): the launch of
 * <<<1, 1>>> is refused with cudaErrorMemoryAllocation ("out of memory"),
 * read by cudaGetLastError; nothing ran, the synchronize succeeds and the
 * context stays usable (not sticky). The same in three runs out of three.
 * local_bytes_per_thread is 65536 (cudaFuncGetAttributes) and
 * reservation_bytes 17,716,740,096 (× 132 SMs × 2048 threads); the 1 KiB
 * version needs 276,824,064 and runs.
 *
 * What a PyTorch user sees: "CUDA error: out of memory" from an extension's
 * kernel launch, with memory to spare by torch.cuda.memory_summary() (not
 * recorded).
 *
 * Why: the driver grows the context's local-memory reservation at the
 * launch of the first kernel that needs more, for the whole GPU at once.
 *
 * The fix: smaller per-thread arrays (shared memory per block, a global
 * scratch buffer indexed by thread); check localSizeBytes (`nvcc
 * -Xptxas -v` prints it as "bytes stack frame").
 *
 * References: Rust-GPU/rust-cuda#230 ("Hit CudaError::OutOfMemory even with
 * a single thread": "each thread has its own stack size"); CUDA Programming
 * Guide, "Local Memory"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#device-memory-accesses).
 *
 * atlas:runs-alone — it fills GPU memory.
 *
 * atlas:cause kernel_stack_too_large
 */
#include "atlas.h"

static const size_t HEADROOM = (size_t)4 << 30;

template <int BYTES>
__global__ void scratch_sum(int *out, int seed)
{
    volatile char scratch[BYTES];
    for (int i = 0; i < BYTES; i += 64)
        scratch[(i + seed) % BYTES] = (char)i;
    *out = scratch[seed % BYTES];
}

template <int BYTES>
static void launch_with_scratch()
{
    struct cudaFuncAttributes attributes;
    int *out = NULL, sms = 0, threads_per_sm = 0;
    if (!ATLAS_CUDA("attributes", cudaFuncGetAttributes(&attributes, scratch_sum<BYTES>))
        || !ATLAS_CUDA("properties", cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0))
        || !ATLAS_CUDA("properties", cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&out, sizeof(int))))
        return;
    atlas_quantity("local_bytes_per_thread", (double)attributes.localSizeBytes, "bytes");
    atlas_quantity("reservation_bytes", (double)attributes.localSizeBytes * sms * threads_per_sm, "bytes");
    atlas_fill_gpu(HEADROOM);
    scratch_sum<BYTES><<<1, 1>>>(out, 3);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    atlas_release_gpu();
    cudaFree(out);
}

static void scratch_of_1_kib(void) { launch_with_scratch<1024>(); }
static void scratch_of_64_kib(void) { launch_with_scratch<65536>(); }

ATLAS_CASE(scratch_of_1_kib, scratch_of_64_kib)
