/* atlas_driver.h — the CUDA driver API in a case, without linking libcuda: a
 * program linked to libcuda does not start at all on a machine without a
 * driver, and every case must say what it sees there too.
 *
 *   struct atlas_driver  every driver function a case calls, one table for all
 *                        cases, each field named as the function is called
 *   atlas_driver_open(&cu)
 *                        libcuda itself, opened with dlopen as PyCUDA, CuPy and
 *                        the runtime do, each function taken by its symbol;
 *                        records the checks open_driver and driver_symbols
 *   atlas_driver_entries(&cu, text)
 *                        each function through the runtime's entry points
 *                        (cudaGetDriverEntryPointByVersion, CUDA 12.5 and
 *                        later); records the check driver_entry_points
 *   atlas_cu_status(step, text, status, get_error_name)
 *                        record a CUresult under the driver's own name for it
 *                        (cuGetErrorName, found at run time like the rest)
 */
#ifndef ATLAS_DRIVER_H
#define ATLAS_DRIVER_H

#include "atlas.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

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

/* Every driver function a case calls. Fields are named as the functions are
 * called; cuda.h #defines the renamed ones (cuMemGetInfo is cuMemGetInfo_v2),
 * so a field, its call and its symbol agree. A case needing another function
 * adds it here and to atlas_driver_functions. */
struct atlas_driver {
    CUresult (*cuGetErrorName)(CUresult, const char **);
    CUresult (*cuGetErrorString)(CUresult, const char **);
    CUresult (*cuInit)(unsigned);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceCanAccessPeer)(int *, CUdevice, CUdevice);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
    CUresult (*cuCtxSetCurrent)(CUcontext);
    CUresult (*cuCtxGetCurrent)(CUcontext *);
    CUresult (*cuCtxPushCurrent)(CUcontext);
    CUresult (*cuCtxPopCurrent)(CUcontext *);
    CUresult (*cuCtxEnablePeerAccess)(CUcontext, unsigned);
    CUresult (*cuCtxDisablePeerAccess)(CUcontext);
    CUresult (*cuMemGetInfo)(size_t *, size_t *);
    CUresult (*cuMemGetAddressRange)(CUdeviceptr *, size_t *, CUdeviceptr);
    CUresult (*cuMemAllocPitch)(CUdeviceptr *, size_t *, size_t, size_t, unsigned);
    CUresult (*cuMemFree)(CUdeviceptr);
    CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
    CUresult (*cuMemAddressReserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
    CUresult (*cuMemAddressFree)(CUdeviceptr, size_t);
    CUresult (*cuLinkCreate)(unsigned, CUjit_option *, void **, CUlinkState *);
    CUresult (*cuLinkAddData)(CUlinkState, CUjitInputType, void *, size_t, const char *, unsigned, CUjit_option *,
                              void **);
    CUresult (*cuLinkComplete)(CUlinkState, void **, size_t *);
    CUresult (*cuLinkDestroy)(CUlinkState);
    CUresult (*cuModuleLoadData)(CUmodule *, const void *);
    CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*cuModuleUnload)(CUmodule);
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               CUstream, void **, void **);
};

/* Each function: its field, its name (what the entry points take) and the
 * symbol libcuda exports for the version cuda.h declares. */
#define ATLAS_DRIVER_FUNCTION(field, symbol) {offsetof(struct atlas_driver, field), #field, symbol}
static const struct {
    size_t at;
    const char *name, *symbol;
} atlas_driver_functions[] = {
    ATLAS_DRIVER_FUNCTION(cuGetErrorName, "cuGetErrorName"),
    ATLAS_DRIVER_FUNCTION(cuGetErrorString, "cuGetErrorString"),
    ATLAS_DRIVER_FUNCTION(cuInit, "cuInit"),
    ATLAS_DRIVER_FUNCTION(cuDeviceGet, "cuDeviceGet"),
    ATLAS_DRIVER_FUNCTION(cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer"),
    ATLAS_DRIVER_FUNCTION(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
    ATLAS_DRIVER_FUNCTION(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
    ATLAS_DRIVER_FUNCTION(cuCtxSetCurrent, "cuCtxSetCurrent"),
    ATLAS_DRIVER_FUNCTION(cuCtxGetCurrent, "cuCtxGetCurrent"),
    ATLAS_DRIVER_FUNCTION(cuCtxPushCurrent, "cuCtxPushCurrent_v2"),
    ATLAS_DRIVER_FUNCTION(cuCtxPopCurrent, "cuCtxPopCurrent_v2"),
    ATLAS_DRIVER_FUNCTION(cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess"),
    ATLAS_DRIVER_FUNCTION(cuCtxDisablePeerAccess, "cuCtxDisablePeerAccess"),
    ATLAS_DRIVER_FUNCTION(cuMemGetInfo, "cuMemGetInfo_v2"),
    ATLAS_DRIVER_FUNCTION(cuMemGetAddressRange, "cuMemGetAddressRange_v2"),
    ATLAS_DRIVER_FUNCTION(cuMemAllocPitch, "cuMemAllocPitch_v2"),
    ATLAS_DRIVER_FUNCTION(cuMemFree, "cuMemFree_v2"),
    ATLAS_DRIVER_FUNCTION(cuMemAllocManaged, "cuMemAllocManaged"),
    ATLAS_DRIVER_FUNCTION(cuMemAddressReserve, "cuMemAddressReserve"),
    ATLAS_DRIVER_FUNCTION(cuMemAddressFree, "cuMemAddressFree"),
    ATLAS_DRIVER_FUNCTION(cuLinkCreate, "cuLinkCreate_v2"),
    ATLAS_DRIVER_FUNCTION(cuLinkAddData, "cuLinkAddData_v2"),
    ATLAS_DRIVER_FUNCTION(cuLinkComplete, "cuLinkComplete"),
    ATLAS_DRIVER_FUNCTION(cuLinkDestroy, "cuLinkDestroy"),
    ATLAS_DRIVER_FUNCTION(cuModuleLoadData, "cuModuleLoadData"),
    ATLAS_DRIVER_FUNCTION(cuModuleGetFunction, "cuModuleGetFunction"),
    ATLAS_DRIVER_FUNCTION(cuModuleUnload, "cuModuleUnload"),
    ATLAS_DRIVER_FUNCTION(cuLaunchKernel, "cuLaunchKernel"),
};
#undef ATLAS_DRIVER_FUNCTION

static inline void **atlas_driver_slot(struct atlas_driver *cu, size_t i)
{
    return (void **)((char *)cu + atlas_driver_functions[i].at);
}

static inline bool atlas_driver_open(struct atlas_driver *cu)
{
    memset(cu, 0, sizeof *cu);
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!atlas_check("open_driver", lib != NULL, "dlopen(libcuda.so.1): %s", lib ? "loaded" : dlerror()))
        return false;
    const char *missing = NULL;
    for (size_t i = 0; i < sizeof atlas_driver_functions / sizeof *atlas_driver_functions; i++)
        if (!(*atlas_driver_slot(cu, i) = dlsym(lib, atlas_driver_functions[i].symbol)) && !missing)
            missing = atlas_driver_functions[i].symbol;
    return atlas_check("driver_symbols", missing == NULL, "dlsym of every driver function used: %s",
                       missing ? missing : "all found");
}

#if CUDART_VERSION >= 12050
static inline bool atlas_driver_entry(const char *symbol, void **fn)
{
    enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    return cudaGetDriverEntryPointByVersion(symbol, fn, 12000, cudaEnableDefault, &found) == cudaSuccess
           && found == cudaDriverEntryPointSuccess && *fn;
}

/* text: what the check driver_entry_points says was asked for. */
static inline bool atlas_driver_entries(struct atlas_driver *cu, const char *text)
{
    memset(cu, 0, sizeof *cu);
    bool ok = true;
    for (size_t i = 0; i < sizeof atlas_driver_functions / sizeof *atlas_driver_functions && ok; i++)
        ok = atlas_driver_entry(atlas_driver_functions[i].name, atlas_driver_slot(cu, i));
    return atlas_check("driver_entry_points", ok, "%s", text);
}
#endif

#endif
