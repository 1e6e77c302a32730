/* cublas_newer_than_its_cublaslt — libcublas.so.12 of cuBLAS 12.9 loaded
 * while the libcublasLt.so.12 first on the library path is cuBLAS 12.4's.
 *
 * The mistake: two cuBLAS installations of one major version (a pip wheel
 * and the system toolkit, or two toolkit releases in one image) and a
 * library path that finds libcublasLt in the older one. libcublas names its
 * dependency only by soname (libcublasLt.so.12); LD_LIBRARY_PATH is searched
 * before libcublas's own RUNPATH ($ORIGIN), so the loader pairs the newer
 * libcublas with the older libcublasLt.
 *
 * What the program sees (no GPU needed; recorded without a driver, cuBLAS
 * 12.9.1.4 and 12.4.5.8): dlopen of 12.9's libcublas.so.12 with RTLD_NOW —
 * what Python's ctypes and PyTorch's import do — fails, recorded as the
 * check load_cublas (result_wrong), and dlerror says
 *   /opt/cublas-12.9.1.4/lib/libcublas.so.12: undefined symbol: cublasLtGetEnvironmentMode, version libcublasLt.so.12
 * (ldd -r names cublasLtSetEnvironmentMode too: 12.9's libcublas imports
 * two functions 12.4's libcublasLt does not export). With 12.9's own
 * libcublasLt first, the same dlopen succeeds and cublasGetProperty and
 * cublasLtGetVersion both say 12.9.1 (quantities cublas_version,
 * cublaslt_version). No CUDA call is made: the failure is the loader's.
 *
 * What a PyTorch user sees: the import fails before any CUDA call, e.g.
 *   OSError: /home/ubuntu/.local/lib/python3.8/site-packages/torch/lib/../../nvidia/cublas/lib/libcublas.so.11: undefined symbol: cublasLtHSHMatmulAlgoInit, version libcublasLt.so.11
 * (pytorch/pytorch#91067, quoted in #174320); cuML in the Kaggle image:
 *   undefined symbol: cublasLtGetStatusString, version libcublasLt.so.11
 * Older glibc words the same failure "symbol X, version libcublasLt.so.11
 * not defined in file libcublasLt.so.11 with link time reference". Where the
 * older libcublasLt happens to export every symbol the newer libcublas
 * imports, loading works and the mismatch shows later, as
 * CUBLAS_STATUS_INVALID_VALUE from cublasGemmEx (not reproduced here; see
 * cublas_and_cublaslt_from_two_builds and documented_causes.tsv).
 *
 * Why: libcublas calls libcublasLt of its own build, through symbols
 * versioned only by the soname (libcublasLt.so.12); a newer libcublas
 * imports functions an older libcublasLt never had, and RTLD_NOW resolves
 * every one of them at load time.
 *
 * The fix: load libcublas and libcublasLt of one build: remove the other
 * installation's folder from LD_LIBRARY_PATH, or put the pair's folder first,
 * or load libcublasLt from libcublas's own folder before libcublas (what
 * PyTorch's fix, pytorch/pytorch#174320, does).
 *
 * References: pytorch/pytorch#174320, "[CUDA] Fix cuBLAS/cuBLASLt library
 * version mismatch" (https://github.com/pytorch/pytorch/pull/174320);
 * Kaggle/docker-python#1258, "undefined symbol: cublasLtGetStatusString,
 * version libcublasLt.so.11" (https://github.com/Kaggle/docker-python/issues/1258);
 * deepmodeling/deepmd-kit#2241, "load libcublasLt before libcublas".
 * Needs cuBLAS 12.9.1.4 (harness/toolkit.sh fetch cublas-12.9.1.4;
 * $ATLAS_CUBLAS_12_9, default /opt/cublas-12.9.1.4/lib) and, for the broken
 * variant, cuBLAS 12.4's libcublasLt (harness/toolkit.sh fetch 12.4;
 * $ATLAS_CUBLASLT_12_4, default /opt/cuda-12.4/usr/lib/x86_64-linux-gnu).
 *
 * atlas:cause cublas_cublaslt_version_mismatch
 */
#include "driver_versions.h"
#include <library_types.h>

typedef int (*get_property_fn)(libraryPropertyType, int *);
typedef size_t (*lt_version_fn)(void);

static const char *cublas_12_9(void)
{
    const char *folder = dv_folder_with("ATLAS_CUBLAS_12_9", "/opt/cublas-12.9.1.4/lib", "libcublas.so.12");
    if (!folder || !dv_folder_with("ATLAS_CUBLAS_12_9", "/opt/cublas-12.9.1.4/lib", "libcublasLt.so.12"))
        atlas_skip("needs cuBLAS 12.9.1.4: harness/toolkit.sh fetch cublas-12.9.1.4 "
                   "(or ATLAS_CUBLAS_12_9=<folder with its libcublas.so.12 and libcublasLt.so.12>)");
    return folder;
}

/* Load 12.9's libcublas by its path, as a wheel's loader does, after the
 * relaunch put `cublaslt_folder` first on the library path. */
static void load_cublas_12_9_with_cublaslt_from(const char *cublaslt_folder, const char *variant)
{
    char cublas[PATH_MAX];
    snprintf(cublas, sizeof cublas, "%s/libcublas.so.12", cublas_12_9());
    dv_relaunch_with_library_path(cublaslt_folder, variant);
    void *lib = dlopen(cublas, RTLD_NOW | RTLD_LOCAL);
    const char *error = lib ? "loaded" : dlerror();
    if (!lib)
        fprintf(stderr, "%s\n", error);
    if (!atlas_check("load_cublas", lib != NULL, "dlopen(%s, RTLD_NOW): %s", cublas, error))
        return;
    dv_note_loaded("libcublas");
    dv_note_loaded("libcublasLt");
    get_property_fn property = (get_property_fn)dlsym(lib, "cublasGetProperty");
    void *lt = dlopen("libcublasLt.so.12", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    lt_version_fn lt_version = lt ? (lt_version_fn)dlsym(lt, "cublasLtGetVersion") : NULL;
    if (!atlas_check("symbols", property && lt_version, "cublasGetProperty and cublasLtGetVersion"))
        return;
    int major = 0, minor = 0, patch = 0;
    property(MAJOR_VERSION, &major);
    property(MINOR_VERSION, &minor);
    property(PATCH_LEVEL, &patch);
    atlas_quantity("cublas_version", major * 10000 + minor * 100 + patch, "major*10000+minor*100+patch");
    atlas_quantity("cublaslt_version", (double)lt_version(), "cublasLtGetVersion()");
}

static void cublaslt_of_the_same_build(void)
{
    load_cublas_12_9_with_cublaslt_from(cublas_12_9(), "fixed");
}

static void cublaslt_of_cublas_12_4_first(void)
{
    const char *older = dv_folder_with("ATLAS_CUBLASLT_12_4", "/opt/cuda-12.4/usr/lib/x86_64-linux-gnu",
                                       "libcublasLt.so.12");
    if (!older)
        atlas_skip("needs cuBLAS 12.4's libcublasLt: harness/toolkit.sh fetch 12.4 "
                   "(or ATLAS_CUBLASLT_12_4=<folder with an older libcublasLt.so.12>)");
    load_cublas_12_9_with_cublaslt_from(older, "broken");
}

ATLAS_CASE(cublaslt_of_the_same_build, cublaslt_of_cublas_12_4_first)
