/* read_after_free.h — what the kernel_reads_*_block_after_free cases share:
 * a block filled with 0x01 bytes, optionally freed, then read by a kernel
 * that samples it (at most 512 words spread over the whole block, so that a
 * large block is touched in every part) and sums what it read. */
#ifndef RUNTIME_MEMORY_READ_AFTER_FREE_H
#define RUNTIME_MEMORY_READ_AFTER_FREE_H

#include "atlas.h"

enum { READ_AFTER_FREE_MAX_SAMPLES = 512 };

__global__ void sum_samples(const unsigned *block, size_t stride_words, int samples, unsigned long long *sum)
{
    for (int i = threadIdx.x; i < samples; i += blockDim.x)
        atomicAdd(sum, (unsigned long long)block[(size_t)i * stride_words]);
}

static void read_block(size_t bytes, bool free_first)
{
    unsigned *block = NULL;
    unsigned long long *sum = NULL, host_sum = 0;
    size_t words = bytes / sizeof(unsigned);
    int samples = words < READ_AFTER_FREE_MAX_SAMPLES ? (int)words : READ_AFTER_FREE_MAX_SAMPLES;
    size_t stride_words = words / (size_t)samples;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&sum, sizeof *sum)))
        return;
    if (!ATLAS_CUDA("alloc_block", cudaMalloc((void **)&block, bytes))) {
        cudaFree(sum);
        return;
    }
    atlas_quantity("block_bytes", (double)bytes, "bytes");
    ATLAS_CUDA("clear", cudaMemset(sum, 0, sizeof *sum));
    ATLAS_CUDA("fill", cudaMemset(block, 1, bytes));
    ATLAS_CUDA("fill_sync", cudaDeviceSynchronize());
    if (free_first)
        ATLAS_CUDA("free", cudaFree(block));
    sum_samples<<<1, 256>>>(block, stride_words, samples, sum);
    ATLAS_CUDA("launch", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (!free_first)
        ATLAS_CUDA("free", cudaFree(block));
    if (ATLAS_CUDA("copy_back", cudaMemcpy(&host_sum, sum, sizeof host_sum, cudaMemcpyDeviceToHost)))
        atlas_check("result", host_sum == (unsigned long long)samples * 0x01010101ull,
                    "sum of %d sampled words: %llu (%llu if every word still held 0x01010101)", samples, host_sum,
                    (unsigned long long)samples * 0x01010101ull);
    cudaFree(sum);
}

#endif
