/* gesvdj_buffer_query_full_uv_on_wide_matrix — cusolverDnSgesvdj_bufferSize
 * asked for the full U and V (econ = 0) of a wide 1024 × 50257 matrix.
 *
 * The mistake: a full SVD (torch.linalg.svd's default full_matrices=True)
 * of a wide layer — a language model's output projection, 1024 rows and one
 * column per token of a 50257-token vocabulary. Full V is n × n = 50257² =
 * 2,525,766,049 elements, more than a 32-bit int counts, although only the
 * first min(m, n) = 1024 of its columns carry the SVD.
 *
 * What the program sees (H100, driver 580.159.04, CUDA 13.0):
 * cusolverDnSgesvdj_bufferSize with econ = 0, m = 1024, n = 50257 returns
 * CUSOLVER_STATUS_INVALID_VALUE (3) (step buffer_size), at the call,
 * nothing sticky; with econ = 1 it succeeds (lwork 117432832 floats). Width
 * alone is not refused: a 64 × 128 matrix with econ = 0 succeeds. The edge
 * is the 32-bit int: with econ = 0 and m = 1024, n = 46340 (n² =
 * 2147395600) succeeds and n = 46341 (n² = 2147488281 > 2^31 - 1) is
 * refused (notes). The documentation gives no such limit: V is "an n × n
 * unitary matrix", of which "the first min(m,n) columns" are the singular
 * vectors.
 *
 * What a PyTorch user sees (GaLore#7, a 1024 × 50k projection):
 *   RuntimeError: cusolver error: CUSOLVER_STATUS_INVALID_VALUE, when calling
 *   `cusolverDnSgesvdj_bufferSize(handle, jobz, econ, m, n, A, lda, S, U, ldu, V, ldv, lwork, params)`
 * fixed there by full_matrices=False. The mirror beside this file
 * (PyTorch 2.11, H100) raises the same, as torch._C._LinAlgError, for
 * torch.linalg.svd of a 1024 × 50257 matrix, adding "This error may appear
 * if the input matrix contains NaN"; full_matrices=False succeeds.
 *
 * Why: with econ = 0 gesvdj computes V as an n × n matrix, and the measured
 * edge (n² just below and just above 2^31 - 1) says that this count must fit
 * the 32-bit int the API uses for sizes. The economy form (econ = 1) keeps V
 * at n × min(m, n), 1024 columns.
 *
 * The fix: econ = 1 (torch.linalg.svd(..., full_matrices=False)) — an SVD
 * needs only min(m, n) singular vectors on each side.
 *
 * References: jiaweizzhao/GaLore#7 ("cusolver error:
 * CUSOLVER_STATUS_INVALID_VALUE in torch.linalg.svd", fixed by
 * full_matrices=False); cuSOLVER documentation, cusolverDn<t>gesvdj
 * (https://docs.nvidia.com/cuda/cusolver/#cusolverdn-t-gesvdj): "U is an
 * m×m unitary matrix, and V is an n×n unitary matrix ... The first min(m,n)
 * columns of U and V are the left and right singular vectors of A".
 *
 * atlas:cause svd_full_matrices_too_large
 */
#include <cusolverDn.h>
#include "atlas_libraries.h"

/* GaLore#7's layer: 1024 rows, GPT-2's 50257-token vocabulary as columns. */
enum { M = 1024, N = 50257, SMALL_M = 64, SMALL_N = 128 };

static const char *status_name(cusolverStatus_t s)
{
    const char *name = atlas_cusolver_name(s);
    return name ? name : "<unknown>";
}

/* The buffer query as PyTorch makes it: A, S, U and V allocated at the sizes
 * econ asks for, leading dimensions m (A, U) and n (V). */
static void query(cusolverDnHandle_t handle, gesvdjInfo_t params, int econ, int m, int n, float *a,
                  float *s, float *u, float *v, const char *step)
{
    int lwork = 0;
    char text[256];
    snprintf(text, sizeof text, "cusolverDnSgesvdj_bufferSize(handle, CUSOLVER_EIG_MODE_VECTOR, econ=%d, m=%d, n=%d, ...)",
             econ, m, n);
    if (atlas_cusolver_call(step, text,
                            cusolverDnSgesvdj_bufferSize(handle, CUSOLVER_EIG_MODE_VECTOR, econ, m, n, a, m, s, u, m,
                                                         v, n, &lwork, params)))
        atlas_quantity(step, lwork, "lwork (floats)");
}

static void svd_buffer_query(int econ)
{
    cusolverDnHandle_t handle;
    gesvdjInfo_t params = NULL;
    float *a = NULL, *s = NULL, *u = NULL, *v = NULL;
    const size_t k = M < N ? M : N;
    const size_t v_cols = econ ? k : N;
    if (!ATLAS_CUSOLVER("create", cusolverDnCreate(&handle)))
        return;
    atlas_quantity("v_elements", (double)N * (double)v_cols, "n x columns of V");
    if (ATLAS_CUSOLVER("params", cusolverDnCreateGesvdjInfo(&params))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&a, sizeof(float) * M * N))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&s, sizeof(float) * k))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&u, sizeof(float) * M * (econ ? k : M)))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&v, sizeof(float) * N * v_cols))) {
        /* A small wide matrix with the same econ: is it the shape or the size? */
        query(handle, params, econ, SMALL_M, SMALL_N, a, s, u, v, "buffer_size_64x128");
        query(handle, params, econ, M, N, a, s, u, v, "buffer_size");
        if (!econ) {
            /* Around the 32-bit limit: 46340² < 2^31 - 1 < 46341². Notes only
             * (the allocations above are large enough for both). */
            for (int n = 46340; n <= 46341; n++) {
                int lwork = 0;
                cusolverStatus_t st = cusolverDnSgesvdj_bufferSize(handle, CUSOLVER_EIG_MODE_VECTOR, 0, M, n, a, M, s,
                                                                   u, M, v, n, &lwork, params);
                atlas_note("econ=0, m=%d, n=%d (n^2 = %.0f): %s, lwork %d", M, n, (double)n * n, status_name(st), lwork);
            }
        }
    }
    cudaFree(a), cudaFree(s), cudaFree(u), cudaFree(v);
    if (params)
        cusolverDnDestroyGesvdjInfo(params);
    ATLAS_CUSOLVER("destroy", cusolverDnDestroy(handle));
}

static void economy_u_and_v(void) { svd_buffer_query(1); }
static void full_u_and_v(void) { svd_buffer_query(0); }

ATLAS_CASE(economy_u_and_v, full_u_and_v)
