/* nvrtc.h — what the NVRTC cases of this family share: NVRTC opened at run
 * time (a case chooses which libnvrtc, so none links one), its calls recorded
 * under nvrtcResult's names, and the one-kernel program they compile.
 *
 *   nvrtc_take(&n, lib, path)   take NVRTC's functions from an opened
 *                               libnvrtc (check "symbols"), record its version
 *   nvrtc_step(&n, step, text, status)
 *                               record an NVRTC call (nvrtcGetErrorString gives
 *                               the enumerator's name)
 */
#ifndef TOOLKIT_ENV_NVRTC_H
#define TOOLKIT_ENV_NVRTC_H

#include "atlas.h"

#include <dlfcn.h>
#include <nvrtc.h>

static const char program_source[] = "extern \"C\" __global__ void noop(int *out) { if (out) *out = 1; }\n";

struct nvrtc {
    const char *(*error_string)(nvrtcResult);
    nvrtcResult (*version)(int *, int *);
    nvrtcResult (*num_archs)(int *);
    nvrtcResult (*archs)(int *);
    nvrtcResult (*create)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                          const char *const *);
    nvrtcResult (*compile)(nvrtcProgram, int, const char *const *);
    nvrtcResult (*log_size)(nvrtcProgram, size_t *);
    nvrtcResult (*log)(nvrtcProgram, char *);
    nvrtcResult (*destroy)(nvrtcProgram *);
};

static bool nvrtc_step(const struct nvrtc *n, const char *step, const char *text, nvrtcResult status)
{
    return atlas_record_call(step, "nvrtc", text, (long)status, n->error_string(status), status == NVRTC_SUCCESS);
}

static bool nvrtc_take(struct nvrtc *n, void *lib, const char *path)
{
    *(void **)&n->error_string = dlsym(lib, "nvrtcGetErrorString");
    *(void **)&n->version = dlsym(lib, "nvrtcVersion");
    *(void **)&n->num_archs = dlsym(lib, "nvrtcGetNumSupportedArchs");
    *(void **)&n->archs = dlsym(lib, "nvrtcGetSupportedArchs");
    *(void **)&n->create = dlsym(lib, "nvrtcCreateProgram");
    *(void **)&n->compile = dlsym(lib, "nvrtcCompileProgram");
    *(void **)&n->log_size = dlsym(lib, "nvrtcGetProgramLogSize");
    *(void **)&n->log = dlsym(lib, "nvrtcGetProgramLog");
    *(void **)&n->destroy = dlsym(lib, "nvrtcDestroyProgram");
    if (!atlas_check("symbols", n->error_string && n->version && n->num_archs && n->archs && n->create
                                    && n->compile && n->log_size && n->log && n->destroy,
                     "nvrtcGetErrorString ... nvrtcDestroyProgram in %s", path))
        return false;
    int major = 0, minor = 0;
    if (nvrtc_step(n, "version", "nvrtcVersion(&major, &minor)", n->version(&major, &minor)))
        atlas_quantity("nvrtc_version", major * 1000 + minor * 10, "major*1000+minor*10");
    return true;
}

#endif
