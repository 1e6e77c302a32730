/* cusolver_getrf_lda_smaller_than_rows — cusolverDnSgetrf (LU) told that
 * A's columns are closer together than A has rows.
 *
 * The mistake: as in lda_smaller_than_rows for cuBLAS — cuSOLVER is
 * column-major like LAPACK, and a row-major matrix's width passed as lda
 * is smaller than m whenever the matrix is tall.
 *
 * What the program sees (H200, CUDA 13.0, cuSOLVER 12): not the documented
 * CUSOLVER_STATUS_INVALID_VALUE: cusolverDnSgetrf_bufferSize and
 * cusolverDnSgetrf both return CUSOLVER_STATUS_SUCCESS, and the error is in
 * devInfo, LAPACK-style: -4 (the 4th argument, lda). A program that checks
 * only the status goes on with an unfactorised matrix.
 *
 * What a PyTorch user sees: nothing: PyTorch passes max(1, m) itself.
 * CUSOLVER_STATUS_INVALID_VALUE reaches PyTorch users from shapes cuSOLVER
 * refuses (jiaweizzhao/GaLore#7, from cusolverDnSgesvdj_bufferSize).
 *
 * Why: the arguments are checked on the host, before anything runs; the
 * error is immediate and not sticky.
 *
 * The fix: lda = the number of rows as stored (>= max(1, m)); for row-major
 * data, factorise the transpose or copy. Always read devInfo back: it
 * carries argument errors as well as singularity.
 *
 * References: cuSOLVER documentation, cusolverDn<t>getrf
 * (https://docs.nvidia.com/cuda/cusolver/#cusolverdn-t-getrf),
 * "CUSOLVER_STATUS_INVALID_VALUE: invalid parameters were passed (m,n<0 or
 * lda<max(1,m))" — and, for devInfo, "if devInfo = -i, the i-th parameter
 * is wrong (not counting handle)": the page documents both, the GPU does the
 * second; JuliaGPU/CUDA.jl#2761 (INVALID_VALUE from a leading dimension
 * cuSOLVER refused).
 *
 * atlas:cause lda_below_minimum
 */
#include <cusolverDn.h>
#include "atlas_libraries.h"

enum { M = 64, N = 32, WORK_FLOATS = 1 << 20 };

static void getrf_with_lda(int lda)
{
    cusolverDnHandle_t handle;
    static float a[M * N];
    float *d_a = NULL, *work = NULL;
    int *ipiv = NULL, *info = NULL, lwork = 0, h_info = 0;
    for (int j = 0; j < N; j++) /* a well-conditioned M×N matrix: 2 on the diagonal */
        a[j + j * M] = 2.0f;
    if (!ATLAS_CUSOLVER("create", cusolverDnCreate(&handle)))
        return;
    if (ATLAS_CUDA("alloc", cudaMalloc((void **)&d_a, sizeof a))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&work, sizeof(float) * WORK_FLOATS))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&ipiv, sizeof(int) * N))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&info, sizeof(int)))
        && ATLAS_CUDA("upload", cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice))) {
        ATLAS_CUSOLVER("buffer_size", cusolverDnSgetrf_bufferSize(handle, M, N, d_a, lda, &lwork));
        ATLAS_CUSOLVER("getrf", cusolverDnSgetrf(handle, M, N, d_a, lda, work, ipiv, info));
        /* Where LAPACK reports a bad argument: INFO = -i for the i-th. */
        if (ATLAS_CUDA("info_copy", cudaMemcpy(&h_info, info, sizeof h_info, cudaMemcpyDeviceToHost)))
            atlas_check("info", h_info == 0, "devInfo = %d", h_info);
    }
    cudaFree(d_a), cudaFree(work), cudaFree(ipiv), cudaFree(info);
    ATLAS_CUSOLVER("destroy", cusolverDnDestroy(handle));
}

static void lda_equal_to_rows_m(void) { getrf_with_lda(M); }
static void lda_equal_to_columns_n(void) { getrf_with_lda(N); }

ATLAS_CASE(lda_equal_to_rows_m, lda_equal_to_columns_n)
