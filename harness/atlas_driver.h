/* atlas_driver.h — the CUDA driver API in a case, without linking libcuda: a
 * program linked to libcuda does not start at all on a machine without a
 * driver, and every case must say what it sees there too.
 *
 *   atlas_cu_status(step, text, status, get_error_name)
 *                        record a CUresult under the driver's own name for it
 *                        (cuGetErrorName, found at run time like the rest)
 *   atlas_driver_entry(symbol, &fn)
 *                        a driver function through the runtime's entry points
 *                        (cudaGetDriverEntryPointByVersion, CUDA 12.5 and later)
 *   atlas_driver_open(symbols)
 *                        libcuda itself, opened with dlopen as PyCUDA, CuPy and
 *                        the runtime do, and each function of a table taken by
 *                        its symbol; records the checks open_driver and
 *                        driver_symbols
 */
#ifndef ATLAS_DRIVER_H
#define ATLAS_DRIVER_H

#include "atlas.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>

static inline bool atlas_cu_status(const char *step, const char *text, CUresult status,
                                   CUresult (*get_error_name)(CUresult, const char **))
{
    const char *name = NULL;
    char unknown[32];
    if (get_error_name(status, &name) != CUDA_SUCCESS || !name) {
        snprintf(unknown, sizeof unknown, "<unknown:%d>", (int)status);
        name = unknown;
    }
    return atlas_record_call(step, "cu", text, status, name, status == CUDA_SUCCESS);
}

#if CUDART_VERSION >= 12050
static inline bool atlas_driver_entry(const char *symbol, void **fn)
{
    enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    return cudaGetDriverEntryPointByVersion(symbol, fn, 12000, cudaEnableDefault, &found) == cudaSuccess
           && found == cudaDriverEntryPointSuccess && *fn;
}
#endif

/* One driver function to take from libcuda: where to put it, and its symbol
 * as the library exports it (cuda.h renames some calls: cuMemGetInfo is the
 * symbol cuMemGetInfo_v2). A table ends with {NULL, NULL}. */
struct atlas_driver_symbol {
    void **fn;
    const char *symbol;
};

static inline bool atlas_driver_open(const struct atlas_driver_symbol *symbols)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!atlas_check("open_driver", lib != NULL, "dlopen(libcuda.so.1): %s", lib ? "loaded" : dlerror()))
        return false;
    const char *missing = NULL;
    for (const struct atlas_driver_symbol *s = symbols; s->fn; s++)
        if (!(*s->fn = dlsym(lib, s->symbol)) && !missing)
            missing = s->symbol;
    return atlas_check("driver_symbols", missing == NULL, "dlsym of every driver function used: %s",
                       missing ? missing : "all found");
}

#endif
