/* stub_libcuda_on_library_path — the toolkit's stub libcuda found before the
 * real driver.
 *
 * The mistake: adding $CUDA_HOME/lib64/stubs to LD_LIBRARY_PATH (it is meant
 * for linking on machines without a driver, never for running), or a
 * container image that copied the stub in as libcuda.so.1.
 *
 * What the program sees (H100 and one and two H200s on CUDA 13.0):
 * cudaGetDeviceCount returns cudaErrorStubLibrary (the runtime recognises
 * the stub and says so), although the real driver is installed. The case
 * runs the check in a child process whose library path has the stub first;
 * the fixed variant's child has the ordinary path and gets cudaSuccess.
 * Without a driver the broken child gets cudaErrorStubLibrary too, the
 * fixed one cudaErrorInsufficientDriver. Under compute-sanitizer (H100,
 * 13.0) the broken child ended with status 11 before recording anything.
 * With every other runtime recorded (H100 on 11.8 and 12.4; H200 on 11.8,
 * 12.0 to 12.9 and 13.1 to 13.5) the case is skipped: no stub libcuda was
 * found for it.
 *
 * What a PyTorch user sees: torch.cuda.is_available() is False, with a
 * warning naming the error (not recorded yet).
 *
 * Why: the stub exports the driver's symbols so that programs link, and
 * implements none of them.
 *
 * The fix: remove stubs/ from LD_LIBRARY_PATH at run time (ldd / ldconfig -p
 * show which libcuda.so.1 is found).
 *
 * References: CUDA Runtime API, cudaErrorStubLibrary
 * (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html).
 *
 * atlas:cause driver_library_path_wrong
 */
#include "atlas.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* In the child: count devices with whatever libcuda the path gives. */
static void count_devices(void)
{
    int count = 0;
    ATLAS_CUDA("count", cudaGetDeviceCount(&count));
    _exit(0); /* the parent probes its own context; the child has none to probe */
}

static void count_in_child(int stub_first, const char *variant)
{
    if (getenv("ATLAS_IN_CHILD"))
        count_devices();
    char stub[1024], dir[] = "/tmp/atlas-stub-XXXXXX", link[1100], path[4096];
    snprintf(stub, sizeof stub, "%s/stubs/libcuda.so", ATLAS_CUDA_LIBRARY_DIR);
    if (access(stub, R_OK) != 0)
        atlas_skip("the toolkit has no stub libcuda at " ATLAS_CUDA_LIBRARY_DIR "/stubs");
    if (stub_first && !mkdtemp(dir))
        return;
    snprintf(link, sizeof link, "%s/libcuda.so.1", dir);
    pid_t child = fork();
    if (child == 0) {
        if (stub_first) {
            if (symlink(stub, link) != 0)
                _exit(1);
            const char *old = getenv("LD_LIBRARY_PATH");
            snprintf(path, sizeof path, "%s%s%s", dir, old ? ":" : "", old ? old : "");
            setenv("LD_LIBRARY_PATH", path, 1);
        }
        setenv("ATLAS_IN_CHILD", "1", 1);
        execl("/proc/self/exe", "stub_libcuda_on_library_path", variant, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (stub_first) {
        unlink(link);
        rmdir(dir);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        atlas_note("the child ended with status %d", status);
}

static void ordinary_path(void) { count_in_child(0, "fixed"); }
static void stub_first(void) { count_in_child(1, "broken"); }

ATLAS_CASE(ordinary_path, stub_first)
