/* cusolver_query_past_the_32_bit_api — the workspace queries of a QR least
 * squares solve (geqrf, then ormqr) for a 253522376 × 9 matrix, through
 * cuSOLVER's 32-bit (int) API.
 *
 * The mistake: a tall least-squares problem (paddle.linalg.lstsq and
 * torch.linalg.lstsq on the GPU factor A = QR with geqrf, then apply Qᵀ to B
 * with ormqr) handed whole to the 32-bit routines because every argument
 * fits an int: m = 253522376, n = 9, lda = m. What does not fit is a count
 * the caller never sees: the workspace ormqr asks for.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0, cuSOLVER 12.0):
 * cusolverDnSgeqrf_bufferSize takes the shape (lwork 786432 floats); then
 * cusolverDnSormqr_bufferSize (side left, Qᵀ, m = 253522376, nrhs 5, k 9)
 * returns CUSOLVER_STATUS_INVALID_VALUE (3) at the call (step
 * ormqr_buffer_size), Paddle#74280's "CUSOLVER error(3)". Nothing faults
 * (the sync after the queries succeeds) and nothing is sticky. The edge is not m × n = 2^31: ormqr's query
 * succeeds up to m = 8103453 (lwork 2147483520 floats, just under
 * 2^31 - 1) and refuses m = 8103454, a 73-million-element matrix (notes).
 * The edge moves with k, hardly with nrhs: m = 8103462 for nrhs 1, 8103340
 * for nrhs 64, 8355702 for k = 1, 6710660 for k = 64 — about (256 + k)
 * floats of workspace per row. The fixed variant, 8000000 rows, gets
 * lwork = 2120068480 floats (8.5 GB). The 32-bit geqrf query never
 * refused up to 253522376 rows, and the 64-bit cusolverDnXgeqrf_bufferSize
 * takes the shape (3145856 bytes).
 *
 * What a PyTorch user sees (PyTorch 2.11, H100, the mirror beside this
 * file): torch.linalg.lstsq of a [253522376, 9] matrix and a
 * [253522376, 5] right-hand side raises
 *   torch._C._LinAlgError: cusolver error: CUSOLVER_STATUS_INVALID_VALUE,
 *   when calling `cusolverDnSormqr_bufferSize(handle, side, trans, m, n, k,
 *   A, lda, tau, C, ldc, lwork)`. This error may appear if the input matrix
 *   contains NaN. ...
 * (the NaN hint does not apply); with 8000000 rows it succeeds. The edge is
 * the same in PyTorch: 8103453 rows solve, 8103454 raise that error.
 *
 * Why: the 32-bit ormqr reports its workspace as an int count of elements,
 * and for a tall matrix it wants about (256 + k) of them per row; past
 * 2^31 - 1 the query cannot say how much it needs, and returns
 * INVALID_VALUE, the status for a bad argument, instead.
 *
 * The fix: below the edge (m < 2^31 / (256 + k) rows, 8.1 million for
 * k = 9) one call does it. Above it, do not hand the whole tall matrix to
 * geqrf + ormqr: refuse up front with a clear message (Paddle's merged fix),
 * or reduce the problem first — the 9 × 9 normal equations AᵀA x = AᵀB
 * (two GEMMs; they square the condition number), or a blocked tall-skinny QR
 * that factors row blocks under the edge and combines their R factors.
 * cuSOLVER's 64-bit API has geqrf but no ormqr; the iterative-refinement
 * cusolverDnSSgels, whose workspace is counted in size_t bytes, takes the
 * shape but asks for 312340219520 bytes (notes).
 *
 * References: PaddlePaddle/Paddle#74280 (paddle.linalg.lstsq of a
 * [253522376, 9] tensor: "CUSOLVER error(3)" from cusolverDnSormqr_bufferSize,
 * and torch "cusolver error: CUSOLVER_STATUS_INVALID_VALUE" for the same
 * call; the merged fix refuses such tensors up front); cuSOLVER
 * documentation, cusolverDn<t>geqrf and cusolverDn<t>ormqr
 * (https://docs.nvidia.com/cuda/cusolver/#cusolverdn-t-geqrf,
 * https://docs.nvidia.com/cuda/cusolver/#cusolverdn-t-ormqr): the queries
 * return lwork through an int * (cusolverDn.h of CUDA 13.0).
 *
 * atlas:cause cusolver_problem_too_large_for_32bit_api
 */
#include <cusolverDn.h>
#include "atlas_libraries.h"

/* Paddle#74280's shapes: A is 253522376 × 9, B is 253522376 × 5. */
enum { M = 253522376, N = 9, NRHS = 5, FIXED_M = 8000000 };
/* The queries read no matrix: small buffers stand in for A, tau and C. */
enum { SMALL_FLOATS = 1 << 20 };

static const char *status_name(cusolverStatus_t s)
{
    const char *name = atlas_cusolver_name(s);
    return name ? name : "<unknown>";
}

static cusolverStatus_t geqrf_query(cusolverDnHandle_t h, int m, int lda, float *a, int *lwork)
{
    return cusolverDnSgeqrf_bufferSize(h, m, N, a, lda, lwork);
}

static cusolverStatus_t ormqr_query_nk(cusolverDnHandle_t h, int m, int nrhs, int k, float *a, float *tau, float *c,
                                       int *lwork)
{
    return cusolverDnSormqr_bufferSize(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, m, nrhs, k, a, m, tau, c, m, lwork);
}

static cusolverStatus_t ormqr_query(cusolverDnHandle_t h, int m, float *a, float *tau, float *c, int *lwork)
{
    return ormqr_query_nk(h, m, NRHS, N, a, tau, c, lwork);
}

/* The smallest m that ormqr's query refuses for nrhs columns and k
 * reflectors, and lwork at the largest accepted m (bisection). */
static int ormqr_edge(cusolverDnHandle_t h, int nrhs, int k, float *a, float *tau, float *c, int *lwork_below)
{
    int lwork = 0, ok = 1, bad = M;
    if (ormqr_query_nk(h, bad, nrhs, k, a, tau, c, &lwork) == CUSOLVER_STATUS_SUCCESS)
        return -1;
    while (bad - ok > 1) {
        int mid = ok + (bad - ok) / 2;
        if (ormqr_query_nk(h, mid, nrhs, k, a, tau, c, &lwork) == CUSOLVER_STATUS_SUCCESS)
            ok = mid;
        else
            bad = mid;
    }
    ormqr_query_nk(h, ok, nrhs, k, a, tau, c, lwork_below);
    return bad;
}

/* The smallest refused m in (1, M], by bisection (assuming one edge). */
static void find_edge(cusolverDnHandle_t h, float *a, float *tau, float *c, bool ormqr)
{
    int lwork = 0, ok = 1, bad = M;
    while (bad - ok > 1) {
        int mid = ok + (bad - ok) / 2;
        cusolverStatus_t s = ormqr ? ormqr_query(h, mid, a, tau, c, &lwork) : geqrf_query(h, mid, mid, a, &lwork);
        if (s == CUSOLVER_STATUS_SUCCESS)
            ok = mid;
        else
            bad = mid;
    }
    int lwork_ok = 0;
    cusolverStatus_t s_ok = ormqr ? ormqr_query(h, ok, a, tau, c, &lwork_ok) : geqrf_query(h, ok, ok, a, &lwork_ok);
    cusolverStatus_t s_bad = ormqr ? ormqr_query(h, bad, a, tau, c, &lwork) : geqrf_query(h, bad, bad, a, &lwork);
    atlas_note("%s edge: m=%d (m*%d=%.0f) %s lwork %d; m=%d (m*%d=%.0f) %s", ormqr ? "ormqr" : "geqrf", ok, N,
               (double)ok * N, status_name(s_ok), lwork_ok, bad, N, (double)bad * N, status_name(s_bad));
    atlas_quantity(ormqr ? "ormqr_smallest_refused_m" : "geqrf_smallest_refused_m", bad, "rows");
}

/* Where the limit lies, and whether the 64-bit API takes the shape: notes. */
static void measure_the_edge(cusolverDnHandle_t h, float *a, float *tau, float *c)
{
    int lwork = 0;
    find_edge(h, a, tau, c, false);
    find_edge(h, a, tau, c, true);
    cusolverStatus_t s = geqrf_query(h, 1000, M, a, &lwork);
    atlas_note("geqrf_bufferSize m=1000 with lda=%d: %s (lwork %d)", M, status_name(s), lwork);

    /* Does the edge move with the right-hand sides (nrhs) or the reflectors (k)? */
    static const int shapes[][2] = {{1, 9}, {5, 9}, {64, 9}, {5, 1}, {5, 64}};
    char text[480] = "ormqr smallest refused m (nrhs, k): ";
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        int below = 0, edge = ormqr_edge(h, shapes[i][0], shapes[i][1], a, tau, c, &below);
        snprintf(text + strlen(text), sizeof text - strlen(text), "(%d, %d) %d, lwork %d just below; ", shapes[i][0],
                 shapes[i][1], edge, below);
    }
    atlas_note("%s", text);

    /* The iterative-refinement least-squares solver counts its workspace in
     * size_t bytes: does it take the thread's shape? */
    size_t gels_bytes = 0;
    s = cusolverDnSSgels_bufferSize(h, M, N, NRHS, a, M, c, M, c, N, NULL, &gels_bytes);
    atlas_note("cusolverDnSSgels_bufferSize m=%d n=%d nrhs=%d: %s (%zu bytes)", M, N, NRHS, status_name(s),
               gels_bytes);

    cusolverDnParams_t params;
    if (cusolverDnCreateParams(&params) == CUSOLVER_STATUS_SUCCESS) {
        size_t device_bytes = 0, host_bytes = 0;
        s = cusolverDnXgeqrf_bufferSize(h, params, M, N, CUDA_R_32F, a, M, CUDA_R_32F, tau, CUDA_R_32F,
                                        &device_bytes, &host_bytes);
        atlas_note("64-bit cusolverDnXgeqrf_bufferSize m=%d n=%d: %s (device %zu bytes, host %zu bytes)", M, N,
                   status_name(s), device_bytes, host_bytes);
        cusolverDnDestroyParams(params);
    }
}

static void least_squares_queries(int m)
{
    cusolverDnHandle_t handle;
    float *a = NULL, *tau = NULL, *c = NULL;
    int lwork = 0;
    char text[200];
    if (!ATLAS_CUDA("alloc", cudaMalloc((void **)&a, sizeof(float) * SMALL_FLOATS))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&tau, sizeof(float) * N))
        || !ATLAS_CUDA("alloc", cudaMalloc((void **)&c, sizeof(float) * SMALL_FLOATS))) {
        cudaFree(a), cudaFree(tau), cudaFree(c);
        return;
    }
    if (ATLAS_CUSOLVER("create", cusolverDnCreate(&handle))) {
        atlas_quantity("a_elements", (double)m * N, "m x n");
        snprintf(text, sizeof text, "cusolverDnSgeqrf_bufferSize(handle, m=%d, n=%d, A, lda=%d, &lwork)", m, N, m);
        if (atlas_cusolver_call("geqrf_buffer_size", text, geqrf_query(handle, m, m, a, &lwork)))
            atlas_quantity("geqrf_lwork", lwork, "floats");
        snprintf(text, sizeof text,
                 "cusolverDnSormqr_bufferSize(handle, LEFT, T, m=%d, n=%d, k=%d, A, lda=%d, tau, C, ldc=%d, &lwork)",
                 m, NRHS, N, m, m);
        if (atlas_cusolver_call("ormqr_buffer_size", text, ormqr_query(handle, m, a, tau, c, &lwork)))
            atlas_quantity("ormqr_lwork", lwork, "floats");
        /* A query launches nothing and reads nothing: a fault would show here. */
        ATLAS_CUDA("sync", cudaDeviceSynchronize());
        if (m == M)
            measure_the_edge(handle, a, tau, c);
        ATLAS_CUSOLVER("destroy", cusolverDnDestroy(handle));
    }
    cudaFree(a), cudaFree(tau), cudaFree(c);
}

static void rows_that_fit(void) { least_squares_queries(FIXED_M); }
static void rows_past_the_int_range(void) { least_squares_queries(M); }

ATLAS_CASE(rows_that_fit, rows_past_the_int_range)
