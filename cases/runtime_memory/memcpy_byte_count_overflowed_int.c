/* memcpy_byte_count_overflowed_int — a copy's byte count computed in a
 * 32-bit int, for 2^28 doubles.
 *
 * The mistake: the element count fits an int (2^28 = 268435456), so the
 * byte count is kept in one too: elements * sizeof(double) = 2^31, one past
 * INT_MAX. The int wraps to -2147483648, and widening it to size_t for
 * cudaMemcpyAsync sign-extends it to 0xFFFFFFFF80000000 =
 * 18446744071562067968 bytes (the quantity count_bytes). alpaka's BabelStream
 * kept buffer sizes in bytes as int and, run with -s 268435456 on a 32 GB
 * V100, stopped with
 *   'TApi::memcpyAsync( ..., static_cast<std::size_t>(m_extentWidthBytes),
 *   ...)' returned error  : 'cudaErrorInvalidValue': 'invalid argument'!
 * (alpaka-group/alpaka#1933), although the 6.4 GB working set fit.
 *
 * The broken variant makes the same count and hands it to cudaMemcpyAsync
 * between two 4 KiB device buffers: the count, not the buffers, is what is
 * wrong, and the copy must be refused before anything is read. (The fixed
 * variant copies 512 doubles, its count computed in size_t.)
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0):
 * cudaMemcpyAsync returns cudaErrorInvalidValue (1, "invalid argument") at
 * the call, as alpaka saw; nothing reaches the stream (its
 * cudaStreamSynchronize succeeds), the error waits in the last-error slot
 * (cudaGetLastError after the synchronize returns it), and the destination
 * still holds zeros (result_wrong). Not sticky: the copy back and the
 * harness's probe succeed. The fixed variant's 4096-byte copy arrives.
 *
 * What a PyTorch user sees: nothing; tensor sizes and byte counts are
 * 64-bit (int64_t numel, size_t nbytes) all the way to cudaMemcpyAsync.
 *
 * Why: no allocation is 16 EiB long, so the range the count describes lies
 * in no allocation, and the runtime refuses the copy at the call.
 * (A count that wraps to a small positive number instead — 2^32 + k bytes
 * kept in 32 bits — is a valid count of k bytes: no check can refuse it,
 * and the copy moves too little without any error.)
 *
 * The fix: compute sizes in bytes in size_t (or int64_t) from the start:
 * (size_t)elements * sizeof(double), as the fixed variant does and as
 * BabelStream's fix (a 64-bit size type) did.
 *
 * References: alpaka-group/alpaka#1933, "BabelStream error"
 * (https://github.com/alpaka-group/alpaka/issues/1933; the diagnosis: "the
 * alpaka buffers also use int to deal with sizes in bytes ... 2^31, which
 * can no longer be represented in an int"); CUDA Runtime API,
 * cudaMemcpyAsync
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "Copies count bytes from the memory area pointed to by src to the memory
 * area pointed to by dst".
 *
 * atlas:cause byte_count_int32_overflow
 */
#include "atlas.h"
#include <stdint.h>
#include <string.h>

enum { BUFFER_DOUBLES = 512, BABELSTREAM_DOUBLES = 1 << 28 };

/* What `int bytes = elements * sizeof(double)` stores in a 32-bit int: the
 * product taken modulo 2^32 (done in uint32_t here, since signed overflow
 * is undefined in C), read back as a signed int. */
static int32_t bytes_kept_in_int(int32_t elements)
{
    return (int32_t)((uint32_t)elements * (uint32_t)sizeof(double));
}

static void copy_between_small_buffers(size_t count_bytes)
{
    double host[BUFFER_DOUBLES], back[BUFFER_DOUBLES];
    double *src = NULL, *dst = NULL;
    cudaStream_t stream = NULL;
    for (int i = 0; i < BUFFER_DOUBLES; i++)
        host[i] = i + 0.5;
    memset(back, 0, sizeof back);
    atlas_quantity("count_bytes", (double)count_bytes, "bytes");
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&src, sizeof host)))
        return;
    if (ATLAS_CUDA("alloc_dst", cudaMalloc((void **)&dst, sizeof host)) &&
        ATLAS_CUDA("stream", cudaStreamCreate(&stream))) {
        ATLAS_CUDA("fill", cudaMemcpy(src, host, sizeof host, cudaMemcpyHostToDevice));
        ATLAS_CUDA("zero", cudaMemset(dst, 0, sizeof host));
        ATLAS_CUDA("copy", cudaMemcpyAsync(dst, src, count_bytes, cudaMemcpyDeviceToDevice, stream));
        ATLAS_CUDA("stream_sync", cudaStreamSynchronize(stream));
        ATLAS_CUDA("last_error", cudaGetLastError());
        if (ATLAS_CUDA("copy_back", cudaMemcpy(back, dst, sizeof back, cudaMemcpyDeviceToHost)))
            atlas_check("result", memcmp(back, host, sizeof host) == 0, "the 512 doubles arrived: %s",
                        memcmp(back, host, sizeof host) == 0 ? "yes" : "no");
        cudaStreamDestroy(stream);
    }
    cudaFree(dst);
    cudaFree(src);
}

static void count_computed_in_size_t(void)
{
    copy_between_small_buffers((size_t)BUFFER_DOUBLES * sizeof(double));
}

static void count_of_2_28_doubles_kept_in_int(void)
{
    int32_t bytes = bytes_kept_in_int(BABELSTREAM_DOUBLES);
    atlas_note("2^28 doubles in an int: %d bytes; as size_t: %zu", (int)bytes, (size_t)bytes);
    copy_between_small_buffers((size_t)bytes);
}

ATLAS_CASE(count_computed_in_size_t, count_of_2_28_doubles_kept_in_int)
