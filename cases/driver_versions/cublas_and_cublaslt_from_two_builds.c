/* cublas_and_cublaslt_from_two_builds — libcublas.so.13 of one cuBLAS
 * build, libcublasLt.so.13 of another, in one process.
 *
 * The mistake: two installations of the same cuBLAS major version on one
 * machine (the toolkit's in /usr/local/cuda, a pip wheel in a venv, a
 * container's) and a library path that takes libcublas from one and
 * libcublasLt from the other. The sonames match, so the loader mixes them.
 *
 * What the program sees (H200, CUDA 13.0): cublasCreate and cublasSgemm
 * succeed with libcublas and libcublasLt from two installations (the
 * toolkit's and PyTorch's wheel nvidia-cublas; the notes name both files).
 * Both are cuBLAS 13.1.0 (quantities cublas_version, cublaslt_version): the
 * only second build on the GPU machine is the same version, and two copies
 * of one version mix safely. Two versions fail: a newer libcublas with an
 * older libcublasLt does not load at all ("undefined symbol ..., version
 * libcublasLt.so.12"), reproduced without a GPU by
 * cublas_newer_than_its_cublaslt; a pair that loads and then answers
 * CUBLAS_STATUS_INVALID_VALUE (below) is documented, not reproduced.
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
 * does); check with cublasGetProperty and cublasLtGetVersion.
 *
 * References: pytorch/pytorch#174949, "[vllm] CUBLAS_STATUS_INVALID_VALUE in
 * cublasGemmEx after upgrading to PyTorch 2.10"
 * (https://github.com/pytorch/pytorch/issues/174949); pytorch/pytorch#174320,
 * "[CUDA] Fix cuBLAS/cuBLASLt library version mismatch"
 * (https://github.com/pytorch/pytorch/pull/174320).
 * Needs a second cuBLASLt build: $ATLAS_OTHER_CUBLASLT, a folder holding its
 * libcublasLt.so.13 (on the GPU machine, PyTorch's wheel); default: the one
 * harness/toolkit.sh fetch cublas-13.10.0.20 unpacks.
 */
#include "driver_versions.h"
#include "atlas_cublas.h"
#include <cublasLt.h>

enum { N = 64 };

static void gemm_and_say_who(void)
{
    struct atlas_gemm g;
    if (!atlas_gemm_begin(&g, N * N))
        return;
    int major = 0, minor = 0, patch = 0;
    cublasGetProperty(MAJOR_VERSION, &major);
    cublasGetProperty(MINOR_VERSION, &minor);
    cublasGetProperty(PATCH_LEVEL, &patch);
    atlas_quantity("cublas_version", major * 10000 + minor * 100 + patch, "major*10000+minor*100+patch");
    atlas_quantity("cublaslt_version", (double)cublasLtGetVersion(), "cublasLtGetVersion()");
    dv_note_loaded("libcublas");
    dv_note_loaded("libcublasLt");
    ATLAS_CUBLAS("gemm", cublasSgemm(g.handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N,
                                     &g.alpha, g.a, N, g.b, N, &g.beta, g.c, N));
    ATLAS_CUDA("sync", cudaDeviceSynchronize());
    atlas_gemm_end(&g);
}

static void one_build(void) { gemm_and_say_who(); }

static void cublaslt_of_another_build(void)
{
    const char *folder = dv_folder_with("ATLAS_OTHER_CUBLASLT", "/opt/cublas-13.10.0.20/lib", "libcublasLt.so.13");
    if (!folder)
        atlas_skip("needs a second cuBLASLt build: harness/toolkit.sh fetch cublas-13.10.0.20 "
                   "(or ATLAS_OTHER_CUBLASLT=<folder with another libcublasLt.so.13>)");
    dv_relaunch_with_library_path(folder, "broken");
    gemm_and_say_who();
}

ATLAS_CASE(one_build, cublaslt_of_another_build)
