/* host_pointer_passed_as_c — C, the output, lives in malloc'd memory.
 *
 * The mistake: writing the result "straight into the host buffer" to save a
 * copy.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0; none has pageable-memory access): the kernel's writes
 * fault: cublasSgemm returns CUBLAS_STATUS_SUCCESS at the call, the
 * synchronize returns cudaErrorIllegalAddress, and the context is lost (a
 * later cudaMalloc returns it too: sticky). With CUDA_LAUNCH_BLOCKING=1
 * (H100, 13.0) cublasSgemm itself returns CUBLAS_STATUS_EXECUTION_FAILED;
 * under compute-sanitizer the synchronize returns cudaErrorLaunchFailure.
 *
 * What a PyTorch user sees: out= with a CPU tensor on a CUDA matmul is
 * refused: "Expected all tensors to be on the same device".
 *
 * Why: the GPU cannot write pageable host memory it cannot map.
 *
 * The fix: a device C and a copy back (or pinned memory, see
 * pinned_host_memory_as_operand).
 *
 * References: CUDA Programming Guide, "System Allocated Memory"
 * (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#system-allocator).
 *
 * atlas:cause host_pointer_used_on_device
 */
#include "atlas_cublas.h"
#include <stdlib.h>

enum { M = 256, N = 256, K = 256 };

static void gemm_into(int c_on_host)
{
    struct atlas_gemm g;
    float *host_c = calloc(M * N, sizeof(float));
    if (!host_c || !atlas_gemm_begin(&g, M * K)) {
        free(host_c);
        return;
    }
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &g.alpha,
                                     g.a, M, g.b, K, &g.beta, c_on_host ? host_c : g.c, M));
    atlas_gemm_end(&g);
    free(host_c);
}

static void c_on_device(void) { gemm_into(0); }
static void c_from_malloc(void) { gemm_into(1); }

ATLAS_CASE(c_on_device, c_from_malloc)
