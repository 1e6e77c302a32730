/* forked_child_without_exec — after CUDA is initialised, a worker is
 * started with a bare fork() instead of fork+exec ("spawn").
 *
 * The mistake: the parent has to use the GPU before it starts its workers (it
 * loaded the model, it checked the GPU works), and starts them with fork()
 * alone — Python's default start method on Linux before 3.14.
 *
 * What the program sees (H200, CUDA 13.0): the forked child's cudaMalloc
 * returns cudaErrorInitializationError; the child that exec'd this program
 * first allocates and synchronizes normally, though its parent had created a
 * context before forking.
 *
 * What a PyTorch user sees: with the "fork" start method the worker's first
 * CUDA call raises "Cannot re-initialize CUDA in forked subprocess. To use
 * CUDA with multiprocessing, you must use the 'spawn' start method"; with
 * "spawn" the same worker runs (the mirror records both).
 *
 * Why: exec replaces the child's memory with a fresh program, so the child
 * starts with no inherited CUDA state and initialises its own context, as any
 * new process does. A bare fork keeps a copy of the parent's runtime state,
 * which refers to a context the child does not have.
 *
 * The fix: exec in the child (the fixed variant re-executes this program;
 * Python: multiprocessing.set_start_method("spawn") or "forkserver", or
 * torch.multiprocessing.spawn).
 *
 * References: facebookresearch/pycls#183 and IDEA-CCNL/Fengshenbang-LM#259
 * (users asking where to put set_start_method('spawn')); the CUDA C++
 * guideline CUDA-1.6, "A call to fork must be immediately followed to a call
 * to exec"
 * (https://doc.qt.io/axivion/reference/analysis_configuration/CUDA-1.6.html):
 * "Any use of CUDA after a call to fork and before a subsequent call to exec
 * has undefined behavior".
 *
 * atlas:cause fork_after_cuda_init
 */
#include "child.h"
#include <stdlib.h>

static const char *const EXECED = "ATLAS_FORKED_CHILD_EXECED";

static void child_uses_cuda(void)
{
    void *p = NULL;
    if (ATLAS_CUDA("child_alloc", cudaMalloc(&p, 1 << 20))) {
        ATLAS_CUDA("child_sync", cudaDeviceSynchronize());
        cudaFree(p);
    }
}

/* The child becomes a new image of this program, which sees EXECED and does
 * only the child's work (see spawn_worker). */
static void exec_then_use_cuda(void)
{
    setenv(EXECED, "1", 1);
    execl("/proc/self/exe", "forked_child_without_exec", "fixed", (char *)NULL);
    atlas_note("exec of /proc/self/exe failed");
    _exit(1);
}

static bool parent_initialises(void) { return ATLAS_CUDA("parent_init", cudaFree(0)); }

static void spawn_worker(void)
{
    if (getenv(EXECED)) { /* we are the exec'd child */
        child_uses_cuda();
        fflush(stdout);
        _exit(0);
    }
    if (parent_initialises())
        run_in_child(exec_then_use_cuda);
}

static void fork_worker(void)
{
    if (parent_initialises())
        run_in_child(child_uses_cuda);
}

ATLAS_CASE(spawn_worker, fork_worker)
