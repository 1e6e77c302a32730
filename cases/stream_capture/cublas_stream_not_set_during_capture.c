/* cublas_stream_not_set_during_capture — a cuBLAS call inside a capture,
 * with the handle still on its default stream.
 *
 * The mistake: capturing a sequence that includes cublasSgemm without
 * cublasSetStream(handle, capturing_stream): the handle keeps using the
 * stream it was created with, the legacy default stream.
 *
 * What the program sees (H200, CUDA 13.0, cuBLAS 13.1): in every mode
 * cublasSgemm returns CUBLAS_STATUS_EXECUTION_FAILED — cuBLAS's name for its
 * refused launch on the legacy stream — the capture is invalidated, and
 * cudaStreamEndCapture returns cudaErrorStreamCaptureInvalidated with no
 * graph (cudaGetLastError keeps it). With cublasSetStream the gemm is
 * captured and the graph replays.
 *
 * What a PyTorch user sees: not this error: torch.matmul runs on PyTorch's
 * current stream, which inside torch.cuda.graph is the capturing one (not
 * recorded through PyTorch). Extensions that keep their own cuBLAS handle
 * meet this case.
 *
 * Why: cuBLAS launches its kernels on the handle's stream. On the legacy
 * stream they are not captured, and the legacy stream's implicit
 * synchronization with the capturing stream is not allowed during a capture
 * (see legacy_stream_work_during_capture).
 *
 * The fix: cublasSetStream(handle, stream) before capturing (the fixed
 * variant sets it inside the capture, before the gemm).
 *
 * References: JuliaGPU/CUDAnative.jl#65 ("BLAS has cublasSetStream so might
 * require some work" for stream capture); cuBLAS documentation, "CUDA Graphs
 * Support" (https://docs.nvidia.com/cuda/cublas/#cuda-graphs-support).
 *
 * atlas:cause legacy_stream_work_during_capture
 */
#include "atlas_cublas.h"
#include "capture.h"

enum { N = 64 };

static cublasHandle_t handle;
static bool set_stream;

static void gemm(cudaStream_t stream, const char *mode)
{
    const float alpha = 1.0f, beta = 0.0f;
    const float *a = capture_device_buffer, *b = a + N * N;
    float *c = (float *)capture_device_buffer + 2 * N * N;
    if (set_stream)
        ATLAS_CUBLAS(capture_step(mode, "set_stream"), cublasSetStream(handle, stream));
    ATLAS_CUBLAS(capture_step(mode, "gemm"),
                 cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &alpha, a, N, b, N, &beta, c, N));
}

static void capture_gemm(bool with_stream)
{
    set_stream = with_stream;
    if (!ATLAS_CUBLAS("create", cublasCreate(&handle)))
        return;
    capture_every_mode(gemm, NULL);
    ATLAS_CUBLAS("destroy", cublasDestroy(handle));
}

static void handle_on_capturing_stream(void) { capture_gemm(true); }
static void handle_on_default_stream(void) { capture_gemm(false); }

ATLAS_CASE(handle_on_capturing_stream, handle_on_default_stream)
