/* child.h — what the process_model cases share: run some work in a forked
 * child and wait for it, bounded.
 *
 * The child records its own steps (name them "child_..."): atlas.c writes
 * every record with one write(2) to $ATLAS_RECORD opened O_APPEND, so the
 * parent's and the child's lines land whole in the one file. The child ends
 * with _exit, never returning into atlas_main (which would record a second
 * end of variant and probe the context from the child).
 */
#ifndef PROCESS_MODEL_CHILD_H
#define PROCESS_MODEL_CHILD_H

#include "atlas.h"
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { CHILD_WAIT_SECONDS = 30 };

/* Fork, run work() in the child, then wait at most CHILD_WAIT_SECONDS for it
 * (a child stuck inside the driver is killed). Records "child_exited": a
 * check that the child ended by itself with exit 0. */
static inline void run_in_child(void (*work)(void))
{
    fflush(stdout); /* the child must not print the parent's buffered lines again */
    pid_t child = fork();
    if (child < 0) {
        atlas_note("fork failed");
        return;
    }
    if (child == 0) {
        alarm(CHILD_WAIT_SECONDS + 5); /* a backstop if the parent is gone */
        work();
        fflush(stdout);
        _exit(0);
    }
    int status = 0;
    pid_t done = 0;
    const struct timespec tick = {0, 50 * 1000 * 1000};
    for (int waited = 0; waited < CHILD_WAIT_SECONDS * 20 && done == 0; waited++) {
        done = waitpid(child, &status, WNOHANG);
        if (done == 0)
            nanosleep(&tick, NULL);
    }
    if (done == 0) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        atlas_check("child_exited", false, "the child was still running after %d s and was killed",
                    (int)CHILD_WAIT_SECONDS);
    } else if (done < 0) {
        atlas_check("child_exited", false, "waitpid failed");
    } else if (WIFSIGNALED(status)) {
        atlas_check("child_exited", false, "the child died of signal %d", WTERMSIG(status));
    } else {
        atlas_check("child_exited", WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child exited with %d",
                    WEXITSTATUS(status));
    }
}

#endif
