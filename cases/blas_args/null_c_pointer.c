/* null_c_pointer — cublasSgemm with C = NULL.
 *
 * The mistake: the output buffer's allocation failed unchecked, or was
 * never made.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): C is checked on the host: cublasSgemm returns
 * CUBLAS_STATUS_INVALID_VALUE at the call, no kernel faults, and the
 * synchronize after it returns cudaSuccess.
 *
 * What a PyTorch user sees: nothing comparable; PyTorch allocates outputs.
 *
 * Why: C is written on the device; a NULL C can only be caught if cuBLAS
 * checks it explicitly.
 *
 * The fix: check every cudaMalloc.
 *
 * References: cuBLAS documentation, cublas<t>gemm
 * (https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm).
 *
 * atlas:cause null_pointer_argument
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_with_c(int null)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, null ? NULL : g.c, M));
    atlas_gemm_end(&g);
}

static void c_allocated(void) { gemm_with_c(0); }
static void c_null(void) { gemm_with_c(1); }

ATLAS_CASE(c_allocated, c_null)
