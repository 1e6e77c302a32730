/* atlas_memory_holder.h — another process that holds the GPU's memory, as a
 * second training job or a notebook left open does: the cases that ask what
 * a fresh process sees beside it share this one child.
 *
 *   struct atlas_holder h;
 *   atlas_hold_memory(&h, headroom)
 *                        fork a child that fills the GPU but for `headroom`
 *                        bytes (atlas_fill_gpu) and holds it; returns 1 once
 *                        it says it filled, 0 if it could not (no device
 *                        here?), -1 if no child could be started
 *   atlas_release_memory(&h)
 *                        tell it to let go, and wait for it
 *
 * Call atlas_hold_memory before any CUDA call in this process: a context does
 * not survive fork. The child takes at most 60 s once it holds the memory,
 * in case this process never tells it to stop.
 */
#ifndef ATLAS_MEMORY_HOLDER_H
#define ATLAS_MEMORY_HOLDER_H

#include "atlas.h"
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

struct atlas_holder {
    pid_t child;
    int stop_fd; /* closing it tells the child to let go */
};

/* The child: take the memory, say so, hold it until the pipe closes. */
static inline void atlas_holder_child(int ready_fd, int stop_fd, size_t headroom)
{
    size_t filled = atlas_fill_gpu(headroom);
    char done = filled ? 1 : 0, ignored;
    if (write(ready_fd, &done, 1) != 1)
        _exit(1);
    alarm(60);
    if (read(stop_fd, &ignored, 1) < 0)
        _exit(1);
    atlas_release_gpu();
    _exit(0);
}

static inline int atlas_hold_memory(struct atlas_holder *h, size_t headroom)
{
    int ready[2], stop[2];
    h->child = -1, h->stop_fd = -1;
    if (pipe(ready) || pipe(stop))
        return -1;
    h->child = fork();
    if (h->child == 0) {
        close(ready[0]), close(stop[1]);
        atlas_holder_child(ready[1], stop[0], headroom);
    }
    close(ready[1]), close(stop[0]);
    h->stop_fd = stop[1];
    char filled = 0;
    bool said = read(ready[0], &filled, 1) == 1;
    close(ready[0]);
    return said && filled ? 1 : 0;
}

static inline void atlas_release_memory(struct atlas_holder *h)
{
    if (h->stop_fd >= 0)
        close(h->stop_fd);
    int status;
    if (h->child > 0)
        waitpid(h->child, &status, 0);
    h->child = -1, h->stop_fd = -1;
}

#endif
