/* cusolver_singular_matrix_only_in_info — cusolverDnSgetrf on a singular
 * matrix, checking only the returned status.
 *
 * The mistake: treating CUSOLVER_STATUS_SUCCESS as "the factorisation
 * worked". Numerical failure (a zero pivot) is reported in devInfo, an
 * integer the routine writes to device memory, which has to be copied back
 * and read.
 *
 * What the program sees (H200, CUDA 13.0, cuSOLVER 12): cusolverDnSgetrf
 * returns CUSOLVER_STATUS_SUCCESS for the singular matrix too; only devInfo
 * differs: 3 (U(3,3) = 0) instead of 0.
 *
 * What a PyTorch user sees: PyTorch reads info itself; torch.linalg.inv of
 * a singular matrix raises
 *   torch._C._LinAlgError: linalg.inv: The diagonal element 3 is zero, the
 *   inversion could not be completed because the input matrix is singular.
 * (recorded with PyTorch 2.11 on an H200).
 *
 * Why: the status reports the call (arguments, resources); info reports the
 * mathematics, like LAPACK's INFO > 0: U(i,i) is exactly zero.
 *
 * The fix: copy devInfo back after the call (it synchronizes) and check
 * info == 0 before using the factors; for batches, check every entry.
 *
 * References: cuSOLVER documentation, cusolverDn<t>getrf
 * (https://docs.nvidia.com/cuda/cusolver/#cusolverdn-t-getrf), "If
 * devInfo = i (greater than zero), U(i,i) = 0"; NVIDIA/AMGX#203 (a singular
 * matrix seen only as a failure to read info from the dense solver).
 *
 * atlas:cause cusolver_info_not_checked
 */
#include <cusolverDn.h>
#include "atlas_libraries.h"

enum { N = 8, WORK_FLOATS = 1 << 20 };

static void factorise(bool singular)
{
    cusolverDnHandle_t handle;
    float a[N * N] = {0}, *d_a = NULL, *work = NULL;
    int *ipiv = NULL, *info = NULL, h_info = -1;
    for (int i = 0; i < N; i++)
        a[i + i * N] = 2.0f;
    if (singular)
        a[2 + 2 * N] = 0.0f; /* column 3 is zero: U(3,3) = 0 */
    if (!ATLAS_CUSOLVER("create", cusolverDnCreate(&handle)))
        return;
    if (ATLAS_CUDA("alloc", cudaMalloc((void **)&d_a, sizeof a))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&work, sizeof(float) * WORK_FLOATS))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&ipiv, sizeof(int) * N))
        && ATLAS_CUDA("alloc", cudaMalloc((void **)&info, sizeof(int)))
        && ATLAS_CUDA("upload", cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice))) {
        ATLAS_CUSOLVER("getrf", cusolverDnSgetrf(handle, N, N, d_a, N, work, ipiv, info));
        if (ATLAS_CUDA("info_copy", cudaMemcpy(&h_info, info, sizeof h_info, cudaMemcpyDeviceToHost)))
            atlas_check("info", h_info == 0, "devInfo = %d", h_info);
    }
    cudaFree(d_a), cudaFree(work), cudaFree(ipiv), cudaFree(info);
    ATLAS_CUSOLVER("destroy", cusolverDnDestroy(handle));
}

static void invertible_matrix(void) { factorise(false); }
static void singular_matrix(void) { factorise(true); }

ATLAS_CASE(invertible_matrix, singular_matrix)
