/* atlas_libraries.h — recording cuSOLVER, cuFFT, cuRAND, cuSPARSE, cuDNN and NCCL statuses.
 *
 * A case includes the library's own header first (that is what the build
 * links by: <cusolverDn.h>, <cufft.h>, <curand.h>, <cusparse.h>, <cudnn.h>, <nccl.h>), then
 * this one; each section below exists only when its library's header came first.
 *
 *   ATLAS_CUSOLVER("step", call)   ATLAS_CUFFT("step", call)
 *   ATLAS_CURAND("step", call)     ATLAS_CUSPARSE("step", call)
 *   ATLAS_CUDNN("step", call)      ATLAS_NCCL("step", call)
 *
 * Names come from the library where it has a function for them
 * (cudnnGetErrorString returns the enum's name); cuSOLVER, cuFFT, cuRAND, cuSPARSE and NCCL
 * have none, so their enum names are spelled here, and a code these
 * headers do not know is recorded as <unknown:N>, never guessed.
 * (ncclGetErrorString returns a sentence, not a name: it goes to a note.)
 */
#ifndef ATLAS_LIBRARIES_H
#define ATLAS_LIBRARIES_H

#include "atlas.h"
#include <stdio.h>
#include <string.h>

static inline bool atlas_library_call(const char *step, const char *api, const char *text, int code,
                                      const char *name, bool success)
{
    char unknown[32];
    if (name == NULL || name[0] == '\0') {
        snprintf(unknown, sizeof unknown, "<unknown:%d>", code);
        name = unknown;
    }
    return atlas_record_call(step, api, text, (long)code, name, success);
}

#define ATLAS_NAME_CASE(x) \
    case x:                \
        return #x;

#ifdef CUSOLVERDN_H_
static inline const char *atlas_cusolver_name(cusolverStatus_t s)
{
    switch (s) {
        ATLAS_NAME_CASE(CUSOLVER_STATUS_SUCCESS)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_NOT_INITIALIZED)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_ALLOC_FAILED)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_INVALID_VALUE)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_ARCH_MISMATCH)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_MAPPING_ERROR)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_EXECUTION_FAILED)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_INTERNAL_ERROR)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_NOT_SUPPORTED)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_ZERO_PIVOT)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_INVALID_LICENSE)
        ATLAS_NAME_CASE(CUSOLVER_STATUS_INVALID_WORKSPACE)
    default:
        return NULL;
    }
}
static inline bool atlas_cusolver_call(const char *step, const char *text, cusolverStatus_t s)
{
    return atlas_library_call(step, "cusolver", text, (int)s, atlas_cusolver_name(s), s == CUSOLVER_STATUS_SUCCESS);
}
#define ATLAS_CUSOLVER(step, call) atlas_cusolver_call((step), #call, (call))
#endif

#ifdef _CUFFT_H_
static inline const char *atlas_cufft_name(cufftResult s)
{
    switch (s) {
        ATLAS_NAME_CASE(CUFFT_SUCCESS)
        ATLAS_NAME_CASE(CUFFT_INVALID_PLAN)
        ATLAS_NAME_CASE(CUFFT_ALLOC_FAILED)
        ATLAS_NAME_CASE(CUFFT_INVALID_TYPE)
        ATLAS_NAME_CASE(CUFFT_INVALID_VALUE)
        ATLAS_NAME_CASE(CUFFT_INTERNAL_ERROR)
        ATLAS_NAME_CASE(CUFFT_EXEC_FAILED)
        ATLAS_NAME_CASE(CUFFT_SETUP_FAILED)
        ATLAS_NAME_CASE(CUFFT_INVALID_SIZE)
        ATLAS_NAME_CASE(CUFFT_UNALIGNED_DATA)
        ATLAS_NAME_CASE(CUFFT_INVALID_DEVICE)
        ATLAS_NAME_CASE(CUFFT_NO_WORKSPACE)
        ATLAS_NAME_CASE(CUFFT_NOT_IMPLEMENTED)
        ATLAS_NAME_CASE(CUFFT_NOT_SUPPORTED)
#if CUFFT_VER_MAJOR >= 12 /* cuFFT 12 (CUDA 13) added these; 11.x has none of them */
        ATLAS_NAME_CASE(CUFFT_MISSING_DEPENDENCY)
        ATLAS_NAME_CASE(CUFFT_NVRTC_FAILURE)
        ATLAS_NAME_CASE(CUFFT_NVJITLINK_FAILURE)
        ATLAS_NAME_CASE(CUFFT_NVSHMEM_FAILURE)
#endif
    default:
        return NULL;
    }
}
static inline bool atlas_cufft_call(const char *step, const char *text, cufftResult s)
{
    return atlas_library_call(step, "cufft", text, (int)s, atlas_cufft_name(s), s == CUFFT_SUCCESS);
}
#define ATLAS_CUFFT(step, call) atlas_cufft_call((step), #call, (call))
#endif

#ifdef CURAND_H_
static inline const char *atlas_curand_name(curandStatus_t s)
{
    switch (s) {
        ATLAS_NAME_CASE(CURAND_STATUS_SUCCESS)
        ATLAS_NAME_CASE(CURAND_STATUS_VERSION_MISMATCH)
        ATLAS_NAME_CASE(CURAND_STATUS_NOT_INITIALIZED)
        ATLAS_NAME_CASE(CURAND_STATUS_ALLOCATION_FAILED)
        ATLAS_NAME_CASE(CURAND_STATUS_TYPE_ERROR)
        ATLAS_NAME_CASE(CURAND_STATUS_OUT_OF_RANGE)
        ATLAS_NAME_CASE(CURAND_STATUS_LENGTH_NOT_MULTIPLE)
        ATLAS_NAME_CASE(CURAND_STATUS_DOUBLE_PRECISION_REQUIRED)
        ATLAS_NAME_CASE(CURAND_STATUS_LAUNCH_FAILURE)
        ATLAS_NAME_CASE(CURAND_STATUS_PREEXISTING_FAILURE)
        ATLAS_NAME_CASE(CURAND_STATUS_INITIALIZATION_FAILED)
        ATLAS_NAME_CASE(CURAND_STATUS_ARCH_MISMATCH)
        ATLAS_NAME_CASE(CURAND_STATUS_INTERNAL_ERROR)
    default:
        return NULL;
    }
}
static inline bool atlas_curand_call(const char *step, const char *text, curandStatus_t s)
{
    return atlas_library_call(step, "curand", text, (int)s, atlas_curand_name(s), s == CURAND_STATUS_SUCCESS);
}
#define ATLAS_CURAND(step, call) atlas_curand_call((step), #call, (call))
#endif

#ifdef CUSPARSE_H_
static inline const char *atlas_cusparse_name(cusparseStatus_t s)
{
    switch (s) {
        ATLAS_NAME_CASE(CUSPARSE_STATUS_SUCCESS)
        ATLAS_NAME_CASE(CUSPARSE_STATUS_NOT_INITIALIZED)
        ATLAS_NAME_CASE(CUSPARSE_STATUS_ALLOC_FAILED)
        ATLAS_NAME_CASE(CUSPARSE_STATUS_INVALID_VALUE)
        ATLAS_NAME_CASE(CUSPARSE_STATUS_ARCH_MISMATCH)
        ATLAS_NAME_CASE(CUSPARSE_STATUS_MAPPING_ERROR)
        ATLAS_NAME_CASE(CUSPARSE_STATUS_EXECUTION_FAILED)
        ATLAS_NAME_CASE(CUSPARSE_STATUS_INTERNAL_ERROR)
        ATLAS_NAME_CASE(CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED)
        ATLAS_NAME_CASE(CUSPARSE_STATUS_ZERO_PIVOT)
        ATLAS_NAME_CASE(CUSPARSE_STATUS_NOT_SUPPORTED)
        ATLAS_NAME_CASE(CUSPARSE_STATUS_INSUFFICIENT_RESOURCES)
    default:
        return NULL;
    }
}
static inline bool atlas_cusparse_call(const char *step, const char *text, cusparseStatus_t s)
{
    return atlas_library_call(step, "cusparse", text, (int)s, atlas_cusparse_name(s), s == CUSPARSE_STATUS_SUCCESS);
}
#define ATLAS_CUSPARSE(step, call) atlas_cusparse_call((step), #call, (call))
#endif

#ifdef CUDNN_H_
static inline bool atlas_cudnn_call(const char *step, const char *text, cudnnStatus_t s)
{
    /* cuDNN 9 names its codes itself, sub-codes included
     * (CUDNN_STATUS_BAD_PARAM_NULL_POINTER); anything not spelled like a
     * status is an unknown code. */
    const char *name = cudnnGetErrorString(s);
    if (name && strncmp(name, "CUDNN_STATUS_", 13) != 0)
        name = NULL;
    bool ok = atlas_library_call(step, "cudnn", text, (int)s, name, s == CUDNN_STATUS_SUCCESS);
    if (!ok) {
        char detail[512] = "";
        cudnnGetLastErrorString(detail, sizeof detail);
        if (detail[0])
            atlas_note("%s: cudnnGetLastErrorString: %s", step, detail);
    }
    return ok;
}
#define ATLAS_CUDNN(step, call) atlas_cudnn_call((step), #call, (call))
#endif

#ifdef NCCL_H_
static inline const char *atlas_nccl_name(ncclResult_t s)
{
    switch (s) {
        ATLAS_NAME_CASE(ncclSuccess)
        ATLAS_NAME_CASE(ncclUnhandledCudaError)
        ATLAS_NAME_CASE(ncclSystemError)
        ATLAS_NAME_CASE(ncclInternalError)
        ATLAS_NAME_CASE(ncclInvalidArgument)
        ATLAS_NAME_CASE(ncclInvalidUsage)
        ATLAS_NAME_CASE(ncclRemoteError)
        ATLAS_NAME_CASE(ncclInProgress)
    default:
        return NULL;
    }
}
static inline bool atlas_nccl_call(const char *step, const char *text, ncclResult_t s)
{
    bool ok = atlas_library_call(step, "nccl", text, (int)s, atlas_nccl_name(s), s == ncclSuccess);
    if (!ok && s != ncclInProgress)
        atlas_note("%s: %s", step, ncclGetErrorString(s));
    return ok;
}
#define ATLAS_NCCL(step, call) atlas_nccl_call((step), #call, (call))
#endif

#endif
