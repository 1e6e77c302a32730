/* process.c — see process.h. */
#define _GNU_SOURCE
#include "process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t running_group = 0;

/* If the runner itself is stopped (CTest's own timeout, ^C), take the case's
 * whole process group with it. */
static void forward_stop(int sig)
{
    if (running_group > 0)
        kill(-running_group, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

double atlas_timeout_multiplier(void)
{
    const char *v = getenv("ATLAS_TIMEOUT_MULTIPLIER");
    double m = v ? strtod(v, NULL) : 1.0;
    return m > 0 ? m : 1.0;
}

/* Keep the last ATLAS_TAIL bytes of a stream, counting what is dropped. A
 * tail never starts inside a UTF-8 character: the rest of one cut there (at
 * most three continuation bytes) is dropped with it. */
static void keep_tail(char *tail, long *cut, const char *data, size_t n)
{
    size_t have = strlen(tail);
    if (n > ATLAS_TAIL) {
        *cut += (long)(n - ATLAS_TAIL);
        data += n - ATLAS_TAIL;
        n = ATLAS_TAIL;
    }
    if (have + n > ATLAS_TAIL) {
        size_t drop = have + n - ATLAS_TAIL;
        memmove(tail, tail + drop, have - drop);
        have -= drop;
        *cut += (long)drop;
    }
    memcpy(tail + have, data, n);
    have += n;
    tail[have] = '\0';
    if (*cut > 0) {
        size_t rest = 0;
        while (rest < 3 && rest < have && ((unsigned char)tail[rest] & 0xc0) == 0x80)
            rest++;
        memmove(tail, tail + rest, have - rest + 1);
        *cut += (long)rest;
    }
}

/* Read what is there; returns 0 at end of stream. Bytes that are not text
 * (a NUL) become '?' so the tail stays a C string. */
static int drain(int fd, char *tail, long *cut)
{
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0)
        return errno == EAGAIN || errno == EINTR ? 1 : 0;
    for (ssize_t i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = '?';
    if (n > 0)
        keep_tail(tail, cut, buf, (size_t)n);
    return n > 0;
}

static void classify(struct atlas_end *end, int status)
{
    if (WIFEXITED(status)) {
        end->kind = END_EXIT;
        end->code = WEXITSTATUS(status);
        snprintf(end->text, sizeof end->text, "exit:%d", end->code);
    } else if (WIFSIGNALED(status)) {
        end->kind = END_SIGNAL;
        end->code = WTERMSIG(status);
        const char *abbrev = sigabbrev_np(end->code);
        if (abbrev)
            snprintf(end->text, sizeof end->text, "signal:SIG%s", abbrev);
        else
            snprintf(end->text, sizeof end->text, "signal:SIG%d", end->code);
    }
}

int atlas_run_process(char *const argv[], char *const extra_env[], double timeout_s,
                      struct atlas_end *end)
{
    memset(end, 0, sizeof *end);
    end->kind = END_NOT_STARTED;
    snprintf(end->text, sizeof end->text, "not-started");

    int out[2], err[2], ready[2];
    if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(ready, O_CLOEXEC))
        return -1;
    double start = now();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* A group of its own, so a timeout can kill whatever it started. */
        setpgid(0, 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        for (char *const *e = extra_env; e && *e; e++)
            putenv(*e);
        execvp(argv[0], argv); /* a wrapper (compute-sanitizer) is found on PATH */
        int why = errno;
        ssize_t w = write(ready[1], &why, sizeof why);
        (void)w;
        _exit(127);
    }
    setpgid(pid, pid); /* also here, so there is no window before the child's own call */
    end->pid = pid;
    running_group = pid;
    signal(SIGTERM, forward_stop);
    signal(SIGINT, forward_stop);
    close(out[1]);
    close(err[1]);
    close(ready[1]);

    int exec_errno = 0;
    ssize_t got = read(ready[0], &exec_errno, sizeof exec_errno);
    close(ready[0]);
    if (got == (ssize_t)sizeof exec_errno) {
        waitpid(pid, NULL, 0);
        running_group = 0;
        close(out[0]);
        close(err[0]);
        snprintf(end->err, sizeof end->err, "cannot run %s: %s\n", argv[0], strerror(exec_errno));
        return -1;
    }

    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(err[0], F_SETFL, O_NONBLOCK);
    struct pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    double deadline = start + timeout_s;
    int status = 0;
    bool done = false;
    while (!done) {
        double left = deadline - now();
        if (left <= 0) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            end->kind = END_TIMEOUT;
            end->code = 0;
            snprintf(end->text, sizeof end->text, "timeout");
            break;
        }
        int wait_ms = left < 0.05 ? (int)(left * 1000) + 1 : 50;
        if (poll(fds, 2, wait_ms) > 0) {
            for (int i = 0; i < 2; i++)
                if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                    int more = i == 0 ? drain(fds[i].fd, end->out, &end->out_cut)
                                      : drain(fds[i].fd, end->err, &end->err_cut);
                    if (!more) {
                        close(fds[i].fd);
                        fds[i].fd = -1;
                    }
                }
        }
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            classify(end, status);
            done = true;
        }
    }
    /* Anything the case left running in its group goes too; then collect
     * the output still in the pipes. */
    kill(-pid, SIGKILL);
    running_group = 0;
    double give_up = now() + 2.0; /* a descendant that left the group may hold a pipe */
    while ((fds[0].fd >= 0 || fds[1].fd >= 0) && now() < give_up) {
        if (poll(fds, 2, 100) <= 0)
            continue;
        for (int i = 0; i < 2; i++)
            if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
                && !drain(fds[i].fd, i == 0 ? end->out : end->err, i == 0 ? &end->out_cut : &end->err_cut)) {
                close(fds[i].fd);
                fds[i].fd = -1;
            }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    end->seconds = now() - start;
    return 0;
}
