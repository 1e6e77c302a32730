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
#include "atlas_driver.h"

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

/* The broken variant again with driver 535's user-space files (libcuda,
 * NVML) first on the library path, or a skip that says how to fetch them. */
static inline void dv_relaunch_with_driver_535(void)
{
    const char *folder = dv_folder_with("ATLAS_DRIVER_535", "/opt/driver-535/lib", "libcuda.so.1");
    if (!folder)
        atlas_skip("needs driver 535's libcuda: harness/toolkit.sh fetch driver-535");
    dv_relaunch_with_library_path(folder, "broken");
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

/* The driver API, opened at run time (dlopen, as the runtime itself does)
 * rather than linked: a program linked to libcuda does not start at all on a
 * machine without a driver, and the cases of this family must say what they
 * see there too. struct atlas_driver and atlas_driver_open are
 * harness/atlas_driver.h's. */

/* A driver-API status under its own name (the driver's cuGetErrorName). */
#define DV_CU(d, step, call) atlas_cu_status((step), #call, (call), (d)->cuGetErrorName)

/* NVML has no function that names a status and no header in the toolkit,
 * and the rules name CUDA and cuBLAS statuses only: an NVML call is recorded
 * as a check (result_correct / result_wrong) whose text names the status,
 * from nvml.h's nvmlReturn_t. */
static inline bool dv_nvml(const char *step, const char *text, int status)
{
    static const struct { int code; const char *name; } names[] = {
        {0, "NVML_SUCCESS"}, {1, "NVML_ERROR_UNINITIALIZED"}, {3, "NVML_ERROR_NOT_SUPPORTED"},
        {4, "NVML_ERROR_NO_PERMISSION"}, {9, "NVML_ERROR_DRIVER_NOT_LOADED"},
        {12, "NVML_ERROR_LIBRARY_NOT_FOUND"}, {18, "NVML_ERROR_LIB_RM_VERSION_MISMATCH"},
        {999, "NVML_ERROR_UNKNOWN"}};
    const char *name = "<unknown>";
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (names[i].code == status)
            name = names[i].name;
    atlas_note("%s -> %s (%d)", text, name, status);
    return atlas_check(step, status == 0, "%s -> %s (%d)", text, name, status);
}

#endif
