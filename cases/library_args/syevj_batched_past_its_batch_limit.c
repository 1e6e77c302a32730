/* syevj_batched_past_its_batch_limit — the eigen-decomposition of 65536
 * symmetric 3 × 3 matrices in one cusolverDnXsyevBatched call.
 *
 * The mistake: handing a whole batch of small matrices to one batched
 * eigensolver call as if the batch size were free. torch.linalg.eigh on a
 * (..., 3, 3) tensor reaches cusolverDnXsyevBatched (PyTorch's
 * "syevj_batched" path); a physics simulation with thousands of
 * environments and tens of bodies asks for hundreds of thousands of tiny
 * decompositions at once (mjlab#732: 21 bodies × 10000 environments).
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0, cuSOLVER 12.0):
 * cusolverDnXsyevBatched_bufferSize for 65536 matrices succeeds (17791189248
 * bytes of device workspace, about 271 KB per 3 × 3 matrix), then
 * cusolverDnXsyevBatched returns CUSOLVER_STATUS_INTERNAL_ERROR (7) at the
 * call (step xsyev). It computes no eigenvalue (step xsyev_values:
 * result_wrong, the zeroed W is untouched), yet every info entry, set to -1
 * before the call, reads 0: info does not tell. cudaGetLastError says
 * cudaSuccess and nothing is sticky: on the same handle
 * cusolverDnSsyevjBatched then decomposes all 65536 in one call, correctly.
 * In one call (notes), batches of 32767, 32768, 32769, 40000 and 65535
 * succeed; 65536 and 65537 (and 210000 in a first run) fail the same way;
 * SsyevjBatched succeeds up to 210000. The fixed variant, four calls of
 * 16384, succeeds with both routines. mjlab#732 reported
 * CUSOLVER_STATUS_INVALID_VALUE from about 32k (40000 failing) with the
 * cuSOLVER it had; this cuSOLVER fails later, at 2^16, and with another
 * status: the limit is undocumented and not the same everywhere.
 *
 * What a PyTorch user sees (PyTorch 2.11, H100, the mirror beside this
 * file): torch.linalg.eigh of 65536 such matrices raises
 *   RuntimeError: cusolver error: CUSOLVER_STATUS_INTERNAL_ERROR, when
 *   calling `cusolverDnXsyevBatched( handle, params, jobz, uplo, n,
 *   CUDA_R_32F, ..., info, batchSize)`. If you keep seeing this error, you
 *   may use `torch.backends.cuda.preferred_linalg_library()` ...
 * PyTorch does not chunk the batch. In chunks of 16384 (mjlab#732's fix) it
 * succeeds; in one call 40000 and 65535 succeed and 65536 fails
 * (data/results/dev/casesB-2026-11-24/run1_h100_torch_eigh_batch_sweep.txt).
 *
 * Why: the batched routine has an undocumented ceiling on batchSize that
 * its buffer query does not check, and the call reports it as an internal
 * error, not an invalid argument. The ceiling sits exactly at 2^16 matrices
 * here.
 *
 * The fix: split the batch into chunks below the limit (mjlab#732 uses
 * 16384); each matrix is decomposed independently, so the result is the
 * same, and the workspace (4447797504 bytes for 16384 here) shrinks with
 * the chunk. The older cusolverDnSsyevjBatched took 210000 in one call here.
 *
 * References: mujocolab/mjlab#732 ("cusolverDnXsyevBatched has an
 * undocumented batch size limit (~32k) that causes
 * CUSOLVER_STATUS_INVALID_VALUE"; merged, chunks torch.linalg.eigh into
 * 16k); cuSOLVER documentation (https://docs.nvidia.com/cuda/cusolver/),
 * sections cusolverDnXsyevBatched() and cusolverDn<t>syevjBatched().
 *
 * atlas:cause cusolver_batch_too_large
 */
#include <cusolverDn.h>
#include "atlas_libraries.h"
#include <stdlib.h>

/* 65536 matrices: in chunks of 16384 (mjlab#732's fix) or all in one call. */
enum { N = 3, TOTAL = 65536, CHUNK = 16384, SWEEP_MAX = 210000 };

static const char *status_name(cusolverStatus_t s)
{
    const char *name = atlas_cusolver_name(s);
    return name ? name : "<unknown>";
}

/* Every matrix is [[2,1,0],[1,2,0],[0,0,5]]: eigenvalues 1, 3, 5. The
 * eigenvalues are zeroed and every info set to -1 first, so that a call that
 * computed nothing shows. With step NULL nothing is recorded. */
static bool upload_matrices(float *a, float *w, int *info, int64_t batch, const char *step)
{
    static const float one[N * N] = {2, 1, 0, 1, 2, 0, 0, 0, 5};
    float *host = malloc(sizeof one * (size_t)batch);
    if (!host)
        return false;
    for (int64_t b = 0; b < batch; b++)
        memcpy(host + b * N * N, one, sizeof one);
    cudaError_t status = cudaMemcpy(a, host, sizeof one * (size_t)batch, cudaMemcpyHostToDevice);
    if (status == cudaSuccess)
        status = cudaMemset(w, 0, sizeof(float) * N * (size_t)batch);
    if (status == cudaSuccess)
        status = cudaMemset(info, 0xff, sizeof(int) * (size_t)batch);
    free(host);
    return step ? atlas_cuda_call(step, "cudaMemcpy(a, ...) and cudaMemset(w, 0, ...), cudaMemset(info, 0xff, ...)",
                                  status)
                : status == cudaSuccess;
}

static bool near(float x, float y) { return x - y < 1e-4f && y - x < 1e-4f; }

/* How many info entries are not 0, and whether every eigenvalue triple is 1, 3, 5. */
static void check_results(const float *w, const int *info, int64_t batch, const char *info_step,
                          const char *values_step)
{
    int *h_info = malloc(sizeof(int) * (size_t)batch);
    float *h_w = malloc(sizeof(float) * N * (size_t)batch);
    if (h_info && h_w && ATLAS_CUDA("copy_back", cudaMemcpy(h_info, info, sizeof(int) * batch, cudaMemcpyDeviceToHost))
        && ATLAS_CUDA("copy_back", cudaMemcpy(h_w, w, sizeof(float) * N * batch, cudaMemcpyDeviceToHost))) {
        int64_t nonzero = 0, wrong = 0, first = -1;
        for (int64_t b = 0; b < batch; b++) {
            if (h_info[b] != 0 && nonzero++ == 0)
                first = b;
            const float *e = h_w + b * N;
            if (!near(e[0], 1) || !near(e[1], 3) || !near(e[2], 5))
                wrong++;
        }
        if (first >= 0)
            atlas_check(info_step, false, "%lld of %lld info entries not 0 (first: info[%lld] = %d)",
                        (long long)nonzero, (long long)batch, (long long)first, h_info[first]);
        else
            atlas_check(info_step, true, "every one of %lld info entries is 0", (long long)batch);
        atlas_check(values_step, wrong == 0, "%lld of %lld eigenvalue triples differ from 1, 3, 5",
                    (long long)wrong, (long long)batch);
    }
    free(h_info);
    free(h_w);
}

/* torch.linalg.eigh's call for a batch of small matrices (PyTorch 2.11):
 * the query for one chunk, then one call per chunk. */
static void xsyev_in_chunks(cusolverDnHandle_t h, cusolverDnParams_t p, float *a, float *w, int *info,
                            int64_t chunk)
{
    size_t device_bytes = 0, host_bytes = 0;
    void *work = NULL, *host_work = NULL;
    char text[160];
    snprintf(text, sizeof text, "cusolverDnXsyevBatched_bufferSize(..., n=3, ..., batchSize=%lld)", (long long)chunk);
    if (!atlas_cusolver_call("xsyev_buffer_size", text,
                             cusolverDnXsyevBatched_bufferSize(h, p, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER,
                                                               N, CUDA_R_32F, a, N, CUDA_R_32F, w, CUDA_R_32F,
                                                               &device_bytes, &host_bytes, chunk)))
        return;
    atlas_quantity("xsyev_device_bytes", (double)device_bytes, "bytes of workspace for one chunk");
    if (ATLAS_CUDA("alloc_work", cudaMalloc(&work, device_bytes ? device_bytes : 1))
        && (host_work = malloc(host_bytes ? host_bytes : 1)) != NULL) {
        for (int64_t first = 0; first < TOTAL; first += chunk) {
            snprintf(text, sizeof text, "cusolverDnXsyevBatched(..., n=3, A + 9*%lld, ..., batchSize=%lld)",
                     (long long)first, (long long)chunk);
            atlas_cusolver_call("xsyev", text,
                                cusolverDnXsyevBatched(h, p, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, N,
                                                       CUDA_R_32F, a + first * N * N, N, CUDA_R_32F, w + first * N,
                                                       CUDA_R_32F, work, device_bytes, host_work, host_bytes,
                                                       info + first, chunk));
        }
        /* Does the runtime's last-error slot say why? */
        ATLAS_CUDA("last_error", cudaGetLastError());
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
        check_results(w, info, TOTAL, "xsyev_info", "xsyev_values");
    }
    cudaFree(work);
    free(host_work);
}

/* The older 32-bit Jacobi routine, the same way. */
static void syevj_in_chunks(cusolverDnHandle_t h, syevjInfo_t params, float *a, float *w, int *info, int chunk)
{
    int lwork = 0;
    float *work = NULL;
    char text[160];
    snprintf(text, sizeof text, "cusolverDnSsyevjBatched_bufferSize(..., n=3, ..., batchSize=%d)", chunk);
    if (!atlas_cusolver_call("syevj_buffer_size", text,
                             cusolverDnSsyevjBatched_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, N,
                                                                a, N, w, &lwork, params, chunk)))
        return;
    if (ATLAS_CUDA("alloc_work", cudaMalloc((void **)&work, sizeof(float) * (lwork > 0 ? lwork : 1)))) {
        for (int first = 0; first < TOTAL; first += chunk) {
            snprintf(text, sizeof text, "cusolverDnSsyevjBatched(..., n=3, A + 9*%d, ..., batchSize=%d)", first,
                     chunk);
            atlas_cusolver_call("syevj", text,
                                cusolverDnSsyevjBatched(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, N,
                                                        a + (size_t)first * N * N, N, w + (size_t)first * N, work,
                                                        lwork, info + first, params, chunk));
        }
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
        check_results(w, info, TOTAL, "syevj_info", "syevj_values");
    }
    cudaFree(work);
}

/* Where the limit lies, for both routines, in one call each: notes only. */
static void sweep(cusolverDnHandle_t h, cusolverDnParams_t p, syevjInfo_t sp, float *a, float *w, int *info)
{
    static const int64_t x_batches[] = {32767, 32768, 32769, 40000, 65535, 65536, 65537};
    static const int j_batches[] = {65535, 65536, 65537, SWEEP_MAX};
    char text[500] = "XsyevBatched n=3, one call (batch: query/call/last error):";
    for (size_t i = 0; i < sizeof x_batches / sizeof x_batches[0]; i++) {
        size_t dev = 0, host = 0;
        void *work = NULL, *host_work = NULL;
        cusolverStatus_t call = CUSOLVER_STATUS_NOT_INITIALIZED;
        upload_matrices(a, w, info, x_batches[i], NULL);
        cusolverStatus_t query = cusolverDnXsyevBatched_bufferSize(h, p, CUSOLVER_EIG_MODE_VECTOR,
                                                                   CUBLAS_FILL_MODE_LOWER, N, CUDA_R_32F, a, N,
                                                                   CUDA_R_32F, w, CUDA_R_32F, &dev, &host, x_batches[i]);
        cudaGetLastError();
        if (query == CUSOLVER_STATUS_SUCCESS && cudaMalloc(&work, dev ? dev : 1) == cudaSuccess
            && (host_work = malloc(host ? host : 1)) != NULL)
            call = cusolverDnXsyevBatched(h, p, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, N, CUDA_R_32F, a, N,
                                          CUDA_R_32F, w, CUDA_R_32F, work, dev, host_work, host, info, x_batches[i]);
        cudaError_t last = cudaGetLastError();
        cudaFree(work);
        free(host_work);
        snprintf(text + strlen(text), sizeof text - strlen(text), " %lld: %s/%s/%s;", (long long)x_batches[i],
                 query ? status_name(query) : "ok", call ? status_name(call) : "ok",
                 last ? cudaGetErrorName(last) : "ok");
    }
    atlas_note("%s", text);
    snprintf(text, sizeof text, "SsyevjBatched n=3, one call (batch: query/call):");
    for (size_t i = 0; i < sizeof j_batches / sizeof j_batches[0]; i++) {
        int lwork = 0;
        float *work = NULL;
        cusolverStatus_t call = CUSOLVER_STATUS_NOT_INITIALIZED;
        upload_matrices(a, w, info, j_batches[i], NULL);
        cusolverStatus_t query = cusolverDnSsyevjBatched_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER,
                                                                    N, a, N, w, &lwork, sp, j_batches[i]);
        if (query == CUSOLVER_STATUS_SUCCESS && cudaMalloc((void **)&work, sizeof(float) * (lwork > 0 ? lwork : 1)) == cudaSuccess)
            call = cusolverDnSsyevjBatched(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, N, a, N, w, work, lwork,
                                           info, sp, j_batches[i]);
        cudaFree(work);
        snprintf(text + strlen(text), sizeof text - strlen(text), " %d: %s/%s (lwork %d);", j_batches[i],
                 query ? status_name(query) : "ok", call ? status_name(call) : "ok", lwork);
    }
    atlas_note("%s", text);
}

static void eigh_batch(int64_t chunk)
{
    cusolverDnHandle_t handle;
    cusolverDnParams_t params = NULL;
    syevjInfo_t syevj_params = NULL;
    float *a = NULL, *w = NULL;
    int *info = NULL;
    const int64_t capacity = chunk == TOTAL ? SWEEP_MAX : TOTAL;
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&a, sizeof(float) * N * N * capacity))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&w, sizeof(float) * N * capacity))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&info, sizeof(int) * capacity))) {
        cudaFree(a), cudaFree(w), cudaFree(info);
        return;
    }
    atlas_quantity("matrices", TOTAL, "3 x 3 float matrices");
    atlas_quantity("chunk", (double)chunk, "matrices per call");
    if (ATLAS_CUSOLVER("create", cusolverDnCreate(&handle))) {
        if (ATLAS_CUSOLVER("params", cusolverDnCreateParams(&params))
            && ATLAS_CUSOLVER("params", cusolverDnCreateSyevjInfo(&syevj_params))) {
            if (upload_matrices(a, w, info, TOTAL, "upload"))
                xsyev_in_chunks(handle, params, a, w, info, chunk);
            if (upload_matrices(a, w, info, TOTAL, "upload"))
                syevj_in_chunks(handle, syevj_params, a, w, info, (int)chunk);
            if (chunk == TOTAL)
                sweep(handle, params, syevj_params, a, w, info);
        }
        if (syevj_params)
            cusolverDnDestroySyevjInfo(syevj_params);
        if (params)
            cusolverDnDestroyParams(params);
        ATLAS_CUSOLVER("destroy", cusolverDnDestroy(handle));
    }
    cudaFree(a), cudaFree(w), cudaFree(info);
}

static void chunks_of_16384(void) { eigh_batch(CHUNK); }
static void all_65536_at_once(void) { eigh_batch(TOTAL); }

ATLAS_CASE(chunks_of_16384, all_65536_at_once)
