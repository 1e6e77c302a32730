/* memcpy_to_symbol_past_its_size — cudaMemcpyToSymbol of more bytes than the
 * __device__ variable holds.
 *
 * The mistake: the count is computed from the host data (a table that grew,
 * a count in elements taken for bytes, sizeof of the wrong array) and not from
 * the device variable, which keeps its compiled size.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): copying 32 bytes into a 16-byte
 * __device__ array (cudaGetSymbolSize says 16), cudaMemcpyToSymbol returns
 * cudaErrorInvalidValue at the call and copies nothing at all — not even the
 * 16 bytes that fit (the table reads back 0 0 0 0: result_wrong). Not sticky.
 * The status is the generic "invalid argument", which does not mention the
 * symbol or its size.
 *
 * What a PyTorch user sees: nothing of this kind; PyTorch has no device
 * symbols to copy to from Python.
 *
 * Why: the runtime knows each registered symbol's size and checks count +
 * offset against it on the host.
 *
 * The fix: copy sizeof(the device variable) bytes at most (count + offset <=
 * cudaGetSymbolSize), or make the device variable as large as the data.
 *
 * References: andyschwarzl/gpuNUFFT#97 (cudaMemcpyToSymbol into __constant__
 * tables whose copy size comes from the caller,
 * https://github.com/andyschwarzl/gpuNUFFT/issues/97); CUDA Runtime API,
 * cudaMemcpyToSymbol
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "Copies count bytes from the memory area pointed to by src to the memory
 * area pointed to by offset bytes from the start of symbol symbol".
 *
 * atlas:cause memcpy_to_symbol_past_symbol_size
 */
#include "atlas.h"

enum { N = 4 };

__device__ float table[N];

static void copy_floats(size_t count)
{
    const float values[2 * N] = {1, 2, 3, 4, 5, 6, 7, 8};
    float back[N] = {0};
    size_t size = 0;
    if (!ATLAS_CUDA("context", cudaFree(0)))
        return;
    if (ATLAS_CUDA("symbol_size", cudaGetSymbolSize(&size, table)))
        atlas_quantity("symbol_bytes", (double)size, "bytes");
    ATLAS_CUDA("copy", cudaMemcpyToSymbol(table, values, count * sizeof(float)));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    if (ATLAS_CUDA("copy_back", cudaMemcpyFromSymbol(back, table, sizeof back)))
        atlas_check("result", back[0] == 1 && back[3] == 4, "the table reads %g %g %g %g (1 2 3 4 expected)", back[0],
                    back[1], back[2], back[3]);
}

static void as_many_as_the_table_holds(void) { copy_floats(N); }
static void twice_as_many(void) { copy_floats(2 * N); }

ATLAS_CASE(as_many_as_the_table_holds, twice_as_many)
