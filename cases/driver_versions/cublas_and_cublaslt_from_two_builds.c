/* cublas_and_cublaslt_from_two_builds — libcublas.so.13 of one cuBLAS
 * build, libcublasLt.so.13 of another, in one process.
 *
 * The mistake: two installations of the same cuBLAS major version on one
 * machine (the toolkit's in /usr/local/cuda, a pip wheel in a venv, a
 * container's) and a library path that takes libcublas from one and
 * libcublasLt from the other. The sonames match, so the loader mixes them.
 *
 * What the program sees (H200, CUDA 13.0): with the toolkit's libcublas
 * 13.1.0.3 and cuBLAS 13.0.0's libcublasLt first on the library path (the
 * notes name both files), everything loads and cublasCreate succeeds;
 * cublasSgemm returns CUBLAS_STATUS_INVALID_VALUE for arguments that are all
 * valid — the failure of the report, reproduced. And cublasGetProperty says
 * 13.0.0 (quantity cublas_version 130000, cublaslt_version 130000): in a
 * mixed pair it answers with libcublasLt's version, so it cannot show the
 * mix; only the files loaded can. Two copies of one version (the toolkit's
 * and PyTorch's 13.1.0, an earlier run) mix safely: when the other
 * libcublasLt is this build's own version the case skips itself. A newer
 * libcublas with an older libcublasLt of another release may not load at
 * all ("undefined symbol ..., version libcublasLt.so.12"):
 * cublas_newer_than_its_cublaslt.
 *
 * What a PyTorch user sees: "RuntimeError: CUDA error:
 * CUBLAS_STATUS_INVALID_VALUE when calling `cublasGemmEx( handle, opa, opb,
 * ...`" on every matmul, or an "undefined symbol ... version
 * libcublasLt.so.N" import error — after upgrading PyTorch in an
 * environment whose other cuBLAS comes first.
 *
 * Why: libcublas calls into libcublasLt of its own build through private
 * interfaces; another build's libcublasLt answers those calls with other
 * layouts or is missing symbols.
 *
 * The fix: load both from one build — put the pair's folder first, or
 * preload libcublasLt from the same folder as libcublas (what PyTorch's fix
 * does); check which files the process loaded (/proc/self/maps, ldd), not
 * cublasGetProperty, which reports libcublasLt's version.
 *
 * References: pytorch/pytorch#174949, "[vllm] CUBLAS_STATUS_INVALID_VALUE in
 * cublasGemmEx after upgrading to PyTorch 2.10"
 * (https://github.com/pytorch/pytorch/issues/174949); pytorch/pytorch#174320,
 * "[CUDA] Fix cuBLAS/cuBLASLt library version mismatch"
 * (https://github.com/pytorch/pytorch/pull/174320).
 * Needs a cuBLASLt of another cuBLAS 13 version: $ATLAS_OTHER_CUBLASLT, a
 * folder holding its libcublasLt.so.13 (only that file is put in front);
 * default: the one harness/toolkit.sh fetch cublas-13.0.0.19 unpacks.
 *
 * atlas:cause cublas_cublaslt_version_mismatch
 */
#include "driver_versions.h"
#include "atlas_cublas.h"
#include <cublasLt.h>

enum { N = 64 };

static void gemm_and_say_who(int must_differ)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, N * N))
        return;
    int major = 0, minor = 0, patch = 0;
    cublasGetProperty(MAJOR_VERSION, &major);
    cublasGetProperty(MINOR_VERSION, &minor);
    cublasGetProperty(PATCH_LEVEL, &patch);
    int cublas_version = major * 10000 + minor * 100 + patch;
    size_t cublaslt_version = cublasLtGetVersion();
    atlas_quantity("cublas_version", cublas_version, "major*10000+minor*100+patch");
    atlas_quantity("cublaslt_version", (double)cublaslt_version, "cublasLtGetVersion()");
    dv_note_loaded("libcublas");
    dv_note_loaded("libcublasLt");
    /* In a mixed pair cublasGetProperty answers with libcublasLt's version (measured: 130000 with the
     * toolkit's libcublas 13.1.0.3 loaded), so libcublas's own version is the one this build's headers say. */
    int header_version = CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH;
    atlas_quantity("cublas_header_version", header_version, "CUBLAS_VER_MAJOR*10000+MINOR*100+PATCH");
    if (must_differ && (size_t)header_version == cublaslt_version) {
        static char why[200];
        snprintf(why, sizeof why, "the other cuBLASLt is the version of this build's libcublas (%d): two copies of "
                 "one version mix safely; this case needs another version", header_version);
        atlas_skip(why);
    }
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N,
                                     &g.alpha, g.a, N, g.b, N, &g.beta, g.c, N));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    atlas_gemm_end(&g);
}

static void one_build(void) { gemm_and_say_who(0); }

static void cublaslt_of_another_build(void)
{
    const char *folder = dv_folder_with("ATLAS_OTHER_CUBLASLT", "/opt/cublas-13.0.0.19/lib", "libcublasLt.so.13");
    if (!folder)
        atlas_skip("needs a cuBLASLt of another cuBLAS 13 version: harness/toolkit.sh fetch cublas-13.0.0.19 "
                   "(or ATLAS_OTHER_CUBLASLT=<folder with another libcublasLt.so.13>)");
    /* that libcublasLt alone in front (its folder may hold its own libcublas too): a
     * folder of one link, made here and removed by the relaunched process, which has
     * loaded the library by then */
    static char alone[64], link_path[PATH_MAX + 32], target[PATH_MAX + 32];
    if (!getenv("ATLAS_DV_RELAUNCHED")) {
        snprintf(alone, sizeof alone, "/tmp/atlas-cublaslt-XXXXXX");
        if (!mkdtemp(alone))
            atlas_skip("cannot make a folder in /tmp for the other libcublasLt");
        snprintf(target, sizeof target, "%s/libcublasLt.so.13", folder);
        snprintf(link_path, sizeof link_path, "%s/libcublasLt.so.13", alone);
        if (symlink(target, link_path) != 0)
            atlas_skip("cannot link the other libcublasLt.so.13 into a folder in /tmp");
        dv_relaunch_with_library_path(alone, "broken");
    } else {
        const char *path = getenv("LD_LIBRARY_PATH");
        if (path && strncmp(path, "/tmp/atlas-cublaslt-", 20) == 0 && strlen(path) >= 26) {
            snprintf(alone, sizeof alone, "%.26s", path);
            snprintf(link_path, sizeof link_path, "%s/libcublasLt.so.13", alone);
            unlink(link_path);
            rmdir(alone);
        }
    }
    gemm_and_say_who(1);
}

ATLAS_CASE(one_build, cublaslt_of_another_build)
