/* How the runner classifies a process end: exit codes, signals by name,
 * timeouts that take the whole process group, output tails. */
#define _GNU_SOURCE
#include "check.h"
#include "process.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static char helpers[1024];

/* Live (not zombie) processes in a process group. A killed process whose
 * parent is gone may stay a zombie until init reaps it; it runs no more. */
static int live_members(int group)
{
    int live = 0;
    DIR *proc = opendir("/proc");
    for (struct dirent *d; proc && (d = readdir(proc));) {
        char path[300], text[512];
        snprintf(path, sizeof path, "/proc/%s/stat", d->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        char state;
        int ppid, pgrp;
        const char *after_name = strrchr(text, ')');
        if (after_name && sscanf(after_name + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == group && state != 'Z')
            live++;
    }
    if (proc)
        closedir(proc);
    return live;
}

static struct atlas_end run(const char *helper, double timeout)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", helpers, helper);
    char *argv[] = {path, NULL};
    char record[] = "ATLAS_RECORD=/dev/null";
    char *env[] = {record, NULL};
    struct atlas_end end;
    atlas_run_process(argv, env, timeout, &end);
    return end;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_process HELPER_DIR\n");
        return 99;
    }
    snprintf(helpers, sizeof helpers, "%s", argv[1]);

    struct atlas_end end = run("helper_segfault", 10);
    CHECK_INT(end.kind, END_SIGNAL);
    CHECK_STR(end.text, "signal:SIGSEGV");

    end = run("helper_aborts", 10);
    CHECK_STR(end.text, "signal:SIGABRT");
    CHECK_CONTAINS(end.err, "about to abort");

    end = run("helper_skips", 10);
    CHECK_INT(end.kind, END_EXIT);
    CHECK_STR(end.text, "exit:77");

    /* The tail keeps the end of the output, not the start. */
    end = run("helper_noisy", 20);
    CHECK_STR(end.text, "exit:3");
    CHECK_CONTAINS(end.out, "the last line\n");
    CHECK(strstr(end.out, "line 0 of noise") == NULL);
    CHECK_INT((long)strlen(end.out), ATLAS_TAIL);
    long written = (long)strlen("the last line\n"); /* what helper_noisy writes, in all */
    for (int i = 0; i < 100000; i++)
        written += snprintf(NULL, 0, "line %d of noise\n", i);
    CHECK_INT(end.out_cut, written - ATLAS_TAIL); /* how much was dropped, exactly */
    CHECK_INT(end.err_cut, 0);

    /* A hang is stopped at its limit, with everything it started. */
    end = run("helper_hangs", 0.5);
    CHECK_INT(end.kind, END_TIMEOUT);
    CHECK_STR(end.text, "timeout");
    CHECK(end.seconds >= 0.5 && end.seconds < 5);
    usleep(100 * 1000);
    CHECK_INT(live_members(end.pid), 0);

    /* The multiplier for slow machines. */
    setenv("ATLAS_TIMEOUT_MULTIPLIER", "2.5", 1);
    CHECK(atlas_timeout_multiplier() == 2.5);
    setenv("ATLAS_TIMEOUT_MULTIPLIER", "nonsense", 1);
    CHECK(atlas_timeout_multiplier() == 1.0);

    char missing[] = "/nonexistent/case";
    char *args[] = {missing, NULL};
    CHECK_INT(atlas_run_process(args, NULL, 5, &end), -1);
    CHECK_INT(end.kind, END_NOT_STARTED);
    CHECK_CONTAINS(end.err, "cannot run /nonexistent/case");
    return check_report();
}
