/* fork_after_cuda_init — a process that has used CUDA forks, and the child
 * uses CUDA too.
 *
 * The mistake: initialise CUDA (any call that creates the context: a
 * cudaMalloc, a cudaFree(0), a tensor on the GPU), then fork() workers that
 * use the GPU — Python's multiprocessing with its default "fork" start method
 * on Linux, DataLoader workers, a Celery/Gunicorn pre-fork server that loaded
 * a model before forking.
 *
 * What the program sees (H200, CUDA 13.0): the child's first call,
 * cudaMalloc, returns cudaErrorInitializationError ("initialization error");
 * the child neither crashes nor hangs, and the parent's context keeps
 * working. Forked before the parent's first CUDA call, the child creates its
 * own context and works.
 *
 * What a PyTorch user sees: the child's first CUDA call raises
 *   RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA
 *   with multiprocessing, you must use the 'spawn' start method
 * (PyTorch notices it was initialised before the fork and refuses before
 * calling CUDA at all; the mirror records the message).
 *
 * Why: a CUDA context belongs to the process that created it; "CUDA does not
 * duplicate any of its internal data structures or threads to other processes
 * upon a call to fork" (the guideline below), and the runtime in the child
 * still believes it is initialised.
 *
 * The fix: fork before the first CUDA call (the fixed variant), or start the
 * workers with fork+exec — Python's "spawn" or "forkserver" (see
 * forked_child_without_exec) — and let each create its own context.
 *
 * References: IDEA-Research/GroundingDINO#276 and pytorch/pytorch#15734
 * (users hitting it); the CUDA C++ guideline CUDA-1.6, "A call to fork must
 * be immediately followed to a call to exec"
 * (https://doc.qt.io/axivion/reference/analysis_configuration/CUDA-1.6.html):
 * "Any use of CUDA after a call to fork and before a subsequent call to exec
 * has undefined behavior".
 *
 * atlas:cause fork_after_cuda_init
 */
#include "child.h"

static void child_uses_cuda(void)
{
    void *p = NULL;
    if (ATLAS_CUDA("child_alloc", cudaMalloc(&p, 1 << 20))) {
        ATLAS_CUDA("child_memset", cudaMemset(p, 0, 1 << 20));
        ATLAS_CUDA("child_sync", cudaDeviceSynchronize());
        cudaFree(p);
    }
}

/* The parent initialises CUDA before or after the fork; the child uses it. */
static void fork_with_parent_initialised(bool before_fork)
{
    if (before_fork && !ATLAS_CUDA("parent_init", cudaFree(0)))
        return;
    run_in_child(child_uses_cuda);
    if (!before_fork)
        ATLAS_CUDA("parent_init", cudaFree(0));
    void *p = NULL;
    if (ATLAS_CUDA("parent_alloc", cudaMalloc(&p, 1 << 20))) /* the parent's own context after the fork */
        cudaFree(p);
}

static void fork_before_first_cuda_call(void) { fork_with_parent_initialised(false); }
static void fork_after_cuda_initialised(void) { fork_with_parent_initialised(true); }

ATLAS_CASE(fork_before_first_cuda_call, fork_after_cuda_initialised)
