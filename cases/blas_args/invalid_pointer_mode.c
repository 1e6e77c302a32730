/* invalid_pointer_mode — cublasSetPointerMode with a value that is neither
 * HOST nor DEVICE.
 *
 * The mistake: passing a boolean or a stale enum from another library.
 *
 * What the program sees (H100 on CUDA 11.8, 12.4 and 13.0; one and two
 * H200s on 13.0): cublasSetPointerMode returns CUBLAS_STATUS_INVALID_VALUE;
 * the handle keeps its previous mode, so the gemm that follows still
 * returns CUBLAS_STATUS_SUCCESS.
 *
 * What a PyTorch user sees: nothing; PyTorch sets pointer modes itself.
 *
 * Why: the mode must be CUBLAS_POINTER_MODE_HOST (0) or _DEVICE (1).
 *
 * The fix: use the enum.
 *
 * References: cuBLAS documentation, cublasSetPointerMode
 * (https://docs.nvidia.com/cuda/cublas/#cublassetpointermode).
 *
 * atlas:cause invalid_enum_argument
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void set_mode(cublasPointerMode_t mode)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    ATLAS_CUBLAS("set_mode", cublasSetPointerMode(g.handle, mode));
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                     &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    atlas_gemm_end(&g);
}

static void host_mode(void) { set_mode(CUBLAS_POINTER_MODE_HOST); }
static void mode_two(void) { set_mode((cublasPointerMode_t)2); }

ATLAS_CASE(host_mode, mode_two)
