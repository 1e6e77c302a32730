/* driver_versions.h — what the cases of this family share: run the variant
 * again with other library files first on the library path, say which files
 * really answered, and name driver-API and NVML statuses.
 *
 * The files from outside the toolkit (another driver's libcuda, a newer
 * runtime, another cuBLASLt build) come from harness/toolkit.sh; a case skips
 * with the command that fetches them when they are absent.
 */
#ifndef DRIVER_VERSIONS_H
#define DRIVER_VERSIONS_H

#define _GNU_SOURCE
#include "atlas.h"

#include <cuda.h>
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The folder named by $variable (or `fallback`) when it holds `file`, else
 * NULL. */
static inline const char *dv_folder_with(const char *variable, const char *fallback, const char *file)
{
    static char path[PATH_MAX];
    const char *folder = getenv(variable) && *getenv(variable) ? getenv(variable) : fallback;
    snprintf(path, sizeof path, "%s/%s", folder, file);
    return access(path, R_OK) == 0 ? folder : NULL;
}

/* Run this variant again in a fresh process whose library path starts with
 * `folder`, as a user's LD_LIBRARY_PATH would: the loader then takes every
 * library it finds there first, for the whole process. Returns only in the
 * relaunched process (or when exec fails, which is recorded). */
static inline void dv_relaunch_with_library_path(const char *folder, const char *variant)
{
    if (getenv("ATLAS_DV_RELAUNCHED"))
        return;
    char value[8192];
    const char *old = getenv("LD_LIBRARY_PATH");
    snprintf(value, sizeof value, "%s%s%s", folder, old && *old ? ":" : "", old && *old ? old : "");
    setenv("LD_LIBRARY_PATH", value, 1);
    setenv("ATLAS_DV_RELAUNCHED", "1", 1);
    atlas_note("relaunched with LD_LIBRARY_PATH starting with %s", folder);
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        execl(self, self, variant, (char *)NULL);
    }
    atlas_check("relaunch", false, "could not run %s again: exec failed", n > 0 ? self : "/proc/self/exe");
    exit(1);
}

/* Note the file of every loaded library whose name starts with `prefix`
 * (libcuda, libcublasLt, ...): the files that really answered. */
static inline int dv_note_one(struct dl_phdr_info *info, size_t size, void *prefix)
{
    (void)size;
    const char *base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    size_t n = strlen(prefix);
    if (strncmp(base, prefix, n) == 0 && strncmp(base + n, ".so", 3) == 0) {
        char real[PATH_MAX];
        atlas_note("loaded %s", realpath(info->dlpi_name, real) ? real : info->dlpi_name);
    }
    return 0;
}

static inline void dv_note_loaded(const char *prefix) { dl_iterate_phdr(dv_note_one, (void *)prefix); }

/* A driver-API status under its own name (the driver's cuGetErrorName). */
static inline bool dv_cu(const char *step, const char *text, CUresult status)
{
    const char *name = NULL;
    char unknown[32];
    if (cuGetErrorName(status, &name) != CUDA_SUCCESS || !name) {
        snprintf(unknown, sizeof unknown, "<unknown:%d>", (int)status);
        name = unknown;
    }
    return atlas_record_call(step, "cu", text, status, name, status == CUDA_SUCCESS);
}
#define DV_CU(step, call) dv_cu((step), #call, (call))

/* NVML has no function that names a status, and no header in the toolkit:
 * the names of the codes a mismatch can return, from nvml.h's nvmlReturn_t. */
static inline const char *dv_nvml_name(int status)
{
    switch (status) {
    case 0: return "NVML_SUCCESS";
    case 1: return "NVML_ERROR_UNINITIALIZED";
    case 3: return "NVML_ERROR_NOT_SUPPORTED";
    case 4: return "NVML_ERROR_NO_PERMISSION";
    case 9: return "NVML_ERROR_DRIVER_NOT_LOADED";
    case 12: return "NVML_ERROR_LIBRARY_NOT_FOUND";
    case 18: return "NVML_ERROR_LIB_RM_VERSION_MISMATCH";
    case 999: return "NVML_ERROR_UNKNOWN";
    default: return NULL;
    }
}

static inline bool dv_nvml(const char *step, const char *text, int status)
{
    char unknown[32];
    const char *name = dv_nvml_name(status);
    if (!name) {
        snprintf(unknown, sizeof unknown, "<unknown:%d>", status);
        name = unknown;
    }
    return atlas_record_call(step, "nvml", text, status, name, status == 0);
}

#endif
