/* free_of_an_uninitialised_pointer — cudaFree of a pointer that was never
 * set: the bytes a debug heap leaves in a struct nobody initialised.
 *
 * The mistake: a per-tensor struct holds one device pointer per GPU; only
 * the GPUs that hold a part of the tensor get an allocation, and the struct
 * itself is never cleared. The cleanup loop frees every slot. In a Windows
 * debug build the unused slots hold what MSVC's debug heap writes into every
 * new allocation, 0xCD bytes, so cudaFree is handed 0xCDCDCDCDCDCDCDCD.
 * llama.cpp users met it as
 *   CUDA error 1 at C:\GPT\llama.cpp\ggml-cuda.cu:2536: invalid argument
 * (ggml-org/llama.cpp#2005: "extra contains uninitialized values",
 * cache_k[10] 0->000000181A400000 1->CDCDCDCDCDCDCDCD).
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0): the used slot
 * frees; cudaFree(0xCDCDCDCDCDCDCDCD) returns cudaErrorInvalidValue (1,
 * "invalid argument") at the call, and the error also waits in the
 * last-error slot: cudaPeekAtLastError returns it, then cudaGetLastError
 * returns it and clears it. Not sticky: the cudaDeviceSynchronize that
 * follows and the harness's probe succeed. With the struct cleared, slot 1
 * is NULL and its cudaFree is a no-op (cudaSuccess).
 *
 * What a PyTorch user sees (PyTorch 2.11 on the H100): PyTorch never hands
 * a raw address to cudaFree; the nearest mistake,
 * torch.cuda.caching_allocator_delete of the same pattern, is caught by the
 * caching allocator before CUDA is asked:
 *   RuntimeError: invalid device pointer: 0xcdcdcdcdcdcdcdcd
 * (deleting 0 is a no-op, as cudaFree(NULL) is). The CUDA error reaches
 * PyTorch users through extensions and backends that keep their own device
 * pointers, as llama.cpp's CUDA backend does.
 *
 * Why: cudaFree takes only a pointer that cudaMalloc returned (or NULL);
 * the runtime looks the address up among the context's allocations, finds
 * none, and refuses it without touching anything.
 *
 * The fix: clear the struct when it is made (the merged fix: memset extra to
 * 0), so the unused slots are NULL, and cudaFree(NULL) does nothing; or free
 * only the slots that were allocated.
 *
 * References: ggml-org/llama.cpp#2005, "Fix assert when free invalid cuda
 * pointer" (https://github.com/ggml-org/llama.cpp/pull/2005; the reviewer:
 * "memsetting them to 0 shouldn't hurt"); CUDA Runtime API, cudaFree
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__MEMORY.html):
 * "Frees the memory space pointed to by devPtr, which must have been
 * returned by a previous call to one of the following memory allocation
 * APIs ... If devPtr is 0, no operation is performed." (The CUDA 13.0
 * header goes on: "cudaFree() returns cudaErrorValue in case of failure", a
 * name no header defines.)
 *
 * atlas:cause free_uninitialized_pointer
 */
#include "atlas.h"
#include <stdlib.h>
#include <string.h>

enum { DEVICES = 2, BYTES = 1 << 20 };

/* One slot per GPU, as llama.cpp's tensor extra kept data_device[]. */
struct tensor_extra {
    void *data_device[DEVICES];
};

/* fill: what the struct holds before anyone writes to it — 0 once it is
 * cleared, 0xCD where a debug heap handed it out uncleared. */
static void free_every_slot(int fill)
{
    struct tensor_extra *extra = malloc(sizeof *extra);
    if (!extra)
        return;
    memset(extra, fill, sizeof *extra);
    if (!ATLAS_CUDA("alloc", cudaMalloc(&extra->data_device[0], BYTES))) {
        free(extra);
        return;
    }
    atlas_note("slot 1 holds %p", extra->data_device[1]);
    ATLAS_CUDA("free_used", cudaFree(extra->data_device[0]));
    ATLAS_CUDA("free_unused", cudaFree(extra->data_device[1]));
    ATLAS_CUDA("peek", cudaPeekAtLastError());
    ATLAS_CUDA("last_error", cudaGetLastError());
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    free(extra);
}

static void struct_cleared_first(void) { free_every_slot(0); }
static void struct_left_as_the_debug_heap_filled_it(void) { free_every_slot(0xCD); }

ATLAS_CASE(struct_cleared_first, struct_left_as_the_debug_heap_filled_it)
