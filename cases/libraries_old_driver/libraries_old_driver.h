/* libraries_old_driver.h — what the cases of this family share: the broken
 * variant runs again with driver 535's user-space driver (libcuda of CUDA
 * 12.2) first on the library path, exactly as
 * cases/driver_versions/driver_too_old_for_the_runtime does (its relaunch is
 * reused, not copied), and every variant says afterwards which driver really
 * answered.
 *
 * On a GPU machine without driver 535's files, carry them: copy
 * /opt/driver-535/lib/libcuda.so* and libnvidia-ml.so* (harness/toolkit.sh
 * fetch driver-535) into .carry/driver-535 (ignored by git, 30 MB) and set
 * ATLAS_DRIVER_535 to that folder for the run.
 *
 * A case includes this header first (it sets _GNU_SOURCE for the loader's
 * functions), then the library's own header, then atlas_libraries.h.
 */
#ifndef LIBRARIES_OLD_DRIVER_H
#define LIBRARIES_OLD_DRIVER_H

#include "../driver_versions/driver_versions.h"

/* The broken variant's start: this process again under driver 535's
 * libcuda, or a skip (files absent; a CUDA 12 build, for which driver 535 is
 * of its own major release). Returns only in the relaunched process. */
static inline void lod_relaunch_with_driver_535(void)
{
    if (CUDART_VERSION / 1000 <= 12)
        atlas_skip("driver 535 (CUDA 12.2) is of an older major release only for a CUDA 13 build");
    dv_relaunch_with_driver_535();
}

/* After the library's first call (never before it: the library must be the
 * first to load the driver): the CUDA version the driver reports and the
 * libcuda file that answered. Not recorded as a step: only the library's
 * status is the lesson. */
static inline void lod_note_driver(void)
{
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess)
        atlas_quantity("driver_cuda_version", driver, "CUDA version x 1000 (cudaDriverGetVersion)");
    dv_note_loaded("libcuda");
}

#endif
