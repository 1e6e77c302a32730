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

#endif
