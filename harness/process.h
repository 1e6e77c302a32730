/* process.h — run one program in its own process group, with a time limit,
 * and say how it ended. This is the one place that classifies a process end. */
#ifndef ATLAS_PROCESS_H
#define ATLAS_PROCESS_H

#include <stddef.h>

#define ATLAS_TAIL 8192

enum atlas_end_kind { END_EXIT, END_SIGNAL, END_TIMEOUT, END_NOT_STARTED };

struct atlas_end {
    enum atlas_end_kind kind;
    int code;            /* exit status, or signal number */
    int pid;             /* also the process group that was killed */
    double seconds;      /* wall time */
    char text[64];       /* "exit:0", "signal:SIGSEGV", "timeout" — as rules write it */
    char out[ATLAS_TAIL + 1]; /* the last bytes of stdout */
    char err[ATLAS_TAIL + 1]; /* the last bytes of stderr */
    long out_cut, err_cut;    /* bytes of earlier output dropped to keep the tails */
};

/* Runs argv[0] (looked up on PATH if it has no '/') with argv, adding the NAME=VALUE strings of extra_env to the
 * environment. On timeout the whole process group is killed. Returns 0 once
 * the end is known (whatever it was), -1 if the program could not be run. */
int atlas_run_process(char *const argv[], char *const extra_env[], double timeout_s,
                      struct atlas_end *end);

/* The multiplier from $ATLAS_TIMEOUT_MULTIPLIER (default 1), for slow machines. */
double atlas_timeout_multiplier(void);

#endif
