/* stream_destroyed_under_handle — the handle's stream is destroyed, then the
 * handle is used.
 *
 * The mistake: a per-request stream set on a shared handle
 * (cublasSetStream) and destroyed when the request ends; the next request
 * uses the handle, still bound to the dead stream.
 *
 * What the program sees: it depends on the version. H100 on CUDA 11.8 and
 * 13.0, one and two H200s on 13.0: cublasSgemm on the destroyed stream
 * returns CUBLAS_STATUS_EXECUTION_FAILED at the call, and the context stays
 * usable. H100 on CUDA 12.4: the process dies of SIGSEGV in the
 * cublasSgemm call, which never returns.
 *
 * What a PyTorch user sees: nothing; PyTorch sets the handle's stream to the
 * current stream before every call.
 *
 * Why: the handle stores the stream handle; destroying the stream leaves it
 * dangling.
 *
 * The fix: cublasSetStream(handle, 0) (or the next stream) before
 * destroying a stream the handle uses.
 *
 * References: cuBLAS documentation, cublasSetStream
 * (https://docs.nvidia.com/cuda/cublas/#cublassetstream); CUDA Runtime API,
 * cudaStreamDestroy.
 *
 * atlas:cause stream_used_after_destroy
 */
#include "atlas_cublas.h"

enum { M = 64, N = 64, K = 64 };

static void gemm_after_stream_destroyed(int rebind_first)
{
    struct atlas_gemm g;
    cudaStream_t stream;
    if (!atlas_gemm_begin(&g, M * K))
        return;
    if (ATLAS_CUDA("stream", cudaStreamCreate(&stream))
        && ATLAS_CUBLAS("set_stream", cublasSetStream(g.handle, stream))) {
        if (rebind_first)
            ATLAS_CUBLAS("unset_stream", cublasSetStream(g.handle, 0));
        ATLAS_CUDA("destroy_stream", cudaStreamDestroy(stream));
        ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K,
                                         &g.alpha, g.a, M, g.b, K, &g.beta, g.c, M));
    }
    atlas_gemm_end(&g);
}

static void rebind_before_destroying(void) { gemm_after_stream_destroyed(1); }
static void destroy_while_bound(void) { gemm_after_stream_destroyed(0); }

ATLAS_CASE(rebind_before_destroying, destroy_while_bound)
