/* atlas_cublas.h — recording cuBLAS calls. A case that includes this header
 * is linked with cuBLAS (and cuBLASLt when it includes <cublasLt.h>); the
 * others are not, so they start without loading the library. */
#ifndef ATLAS_CUBLAS_H
#define ATLAS_CUBLAS_H

#include "atlas.h"
#include <cublas_v2.h>
#include <stdio.h>

static inline bool atlas_cublas_call(const char *step, const char *text, cublasStatus_t status)
{
    /* cublasGetStatusName knows the codes of the headers it was built with;
     * anything else is recorded as <unknown:N> rather than guessed. */
    const char *name = cublasGetStatusName(status);
    char unknown[32];
    if (name == NULL || name[0] == '\0' || name[0] == '<') {
        snprintf(unknown, sizeof unknown, "<unknown:%d>", (int)status);
        name = unknown;
    }
    return atlas_record_call(step, "cublas", text, (long)status, name,
                             status == CUBLAS_STATUS_SUCCESS);
}

#define ATLAS_CUBLAS(step, call) atlas_cublas_call((step), #call, (call))

/* The operands most cuBLAS cases share, so that a case shows only its one
 * wrong argument: a handle, three zeroed device buffers of `elements` floats,
 * alpha = 1 and beta = 0. begin records "create" and "alloc"; if either
 * fails it undoes what it did and returns false: stop the variant. After a
 * successful begin, end records "sync" — where an asynchronous fault
 * surfaces — and "destroy". */
struct atlas_gemm {
    cublasHandle_t handle;
    float *a, *b, *c;
    float alpha, beta;
};

static inline bool atlas_gemm_begin(struct atlas_gemm *g, size_t elements)
{
    g->a = g->b = g->c = NULL;
    g->alpha = 1.0f;
    g->beta = 0.0f;
    if (!ATLAS_CUBLAS("create", cublasCreate(&g->handle)))
        return false;
    float **buffers[] = {&g->a, &g->b, &g->c};
    for (int i = 0; i < 3; i++)
        if (!ATLAS_CUDA("alloc", cudaMalloc((void **)buffers[i], elements * sizeof(float)))
            || !ATLAS_CUDA("alloc", cudaMemset(*buffers[i], 0, elements * sizeof(float)))) {
            cudaFree(g->a), cudaFree(g->b), cudaFree(g->c);
            cublasDestroy(g->handle);
            return false;
        }
    return true;
}

static inline void atlas_gemm_end(struct atlas_gemm *g)
{
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    cudaFree(g->a);
    cudaFree(g->b);
    cudaFree(g->c);
    ATLAS_CUBLAS("destroy", cublasDestroy(g->handle));
}

/* C = A·B on the CPU, column-major, for cases that compare results. */
static inline void atlas_sgemm_reference(int m, int n, int k, const float *a, int lda, const float *b, int ldb,
                                         float *c, int ldc)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float sum = 0.0f;
            for (int p = 0; p < k; p++)
                sum += a[i + (size_t)p * lda] * b[p + (size_t)j * ldb];
            c[i + (size_t)j * ldc] = sum;
        }
}

/* Whether two m×n column-major matrices agree to a relative tolerance. */
static inline bool atlas_matrices_agree(int m, int n, const float *x, int ldx, const float *y, int ldy)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float u = x[i + (size_t)j * ldx], v = y[i + (size_t)j * ldy], d = u > v ? u - v : v - u;
            if (d > 1e-3f * (1.0f + (u > 0 ? u : -u)))
                return false;
        }
    return true;
}

#endif
