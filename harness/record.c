/* record.c — see record.h. */
#define _GNU_SOURCE
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
    const char *kind;
    int fields;
} kinds[] = {{"format", 1}, {"call", 6}, {"quantity", 3}, {"note", 1}, {"skip", 1}, {"variant_end", 0}, {"cut", 1}};

int atlas_record_fields(const char *kind)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(kinds[i].kind, kind) == 0)
            return kinds[i].fields;
    return -1;
}

int atlas_record_open(const char *path)
{
    if (!path || !*path)
        return -1;
    /* Whoever creates the file writes the format line; a case that forks
     * and records from both processes still gets one. */
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
        atlas_record_write(fd, "format", 1, (const char *const[]){ATLAS_RECORD_FORMAT});
        return fd;
    }
    return errno == EEXIST ? open(path, O_WRONLY | O_APPEND | O_CLOEXEC) : -1;
}

size_t atlas_record_write(int fd, const char *kind, int nfields, const char *const fields[])
{
    char line[ATLAS_RECORD_LINE];
    size_t n = 0, cut = 0, room = sizeof line - 1; /* the newline always fits */
    for (const char *p = kind; *p && n < room; p++)
        line[n++] = *p;
    for (int i = 0; i < nfields; i++) {
        if (n < room)
            line[n++] = '\t';
        const char *p = fields[i] ? fields[i] : "";
        for (; *p && n < room; p++)
            line[n++] = (*p == '\t' || *p == '\n' || *p == '\r') ? ' ' : *p;
        cut += strlen(p);
    }
    line[n++] = '\n';
    if (fd >= 0) {
        ssize_t written = write(fd, line, n);
        (void)written; /* nowhere better to report a failed record than the missing line */
        if (cut) {
            char bytes[32];
            snprintf(bytes, sizeof bytes, "%zu", cut);
            atlas_record_write(fd, "cut", 1, (const char *const[]){bytes});
        }
    }
    return cut;
}

size_t atlas_record_write_call(int fd, const char *step, const char *api, long code, const char *name, bool success,
                               const char *text)
{
    char number[32];
    snprintf(number, sizeof number, "%ld", code);
    return atlas_record_write(fd, "call", 6, (const char *const[]){step, api, number, name, success ? "1" : "0", text});
}

/* Copies a field, counting what does not fit. */
static void take(char *into, size_t size, const char *field, long *cut)
{
    size_t n = strlen(field);
    snprintf(into, size, "%s", field);
    if (n >= size)
        *cut += (long)(n - (size - 1));
}

int atlas_record_read(const char *path, struct atlas_observed *o)
{
    memset(o, 0, sizeof *o);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0; /* died before recording anything */
    char *line = NULL;
    size_t size = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &size, f) >= 0) {
        line[strcspn(line, "\n")] = '\0';
        char *field[8];
        int n = 0;
        field[n++] = line;
        for (char *p = line; *p && n < 8; p++)
            if (*p == '\t') {
                *p = '\0';
                field[n++] = p + 1;
            }
        int want = atlas_record_fields(field[0]);
        if (want < 0 || n - 1 < want) { /* a kind from a later format, or a line cut short by a crash */
            o->unreadable_lines++;
            continue;
        }
        if (strcmp(field[0], "format") == 0) {
            take(o->format, sizeof o->format, field[1], &o->cut_bytes);
        } else if (strcmp(field[0], "call") == 0) {
            if (o->nsteps == o->cap) {
                int cap = o->cap ? o->cap * 2 : 32;
                struct atlas_step *grown = realloc(o->steps, (size_t)cap * sizeof *grown);
                if (!grown) {
                    rc = -1;
                    break;
                }
                o->steps = grown;
                o->cap = cap;
            }
            struct atlas_step *s = &o->steps[o->nsteps++];
            memset(s, 0, sizeof *s);
            take(s->step, sizeof s->step, field[1], &o->cut_bytes);
            take(s->api, sizeof s->api, field[2], &o->cut_bytes);
            s->code = strtol(field[3], NULL, 10);
            take(s->name, sizeof s->name, field[4], &o->cut_bytes);
            s->success = strcmp(field[5], "1") == 0;
            take(s->text, sizeof s->text, field[6], &o->cut_bytes);
        } else if (strcmp(field[0], "quantity") == 0) {
            if (o->nquantities == ATLAS_MAX_QUANTITIES) {
                o->dropped_quantities++;
                continue;
            }
            for (int i = 0; i < 3; i++)
                take(o->quantities[o->nquantities][i], sizeof o->quantities[0][0], field[i + 1], &o->cut_bytes);
            o->nquantities++;
        } else if (strcmp(field[0], "note") == 0) {
            if (o->nnotes == ATLAS_MAX_NOTES)
                o->dropped_notes++;
            else
                take(o->notes[o->nnotes++], sizeof o->notes[0], field[1], &o->cut_bytes);
        } else if (strcmp(field[0], "skip") == 0) {
            take(o->skip, sizeof o->skip, field[1], &o->cut_bytes);
        } else if (strcmp(field[0], "variant_end") == 0) {
            o->variant_end = true;
        } else if (strcmp(field[0], "cut") == 0) {
            o->cut_bytes += strtol(field[1], NULL, 10);
        }
    }
    free(line);
    fclose(f);
    return rc;
}

void atlas_observed_free(struct atlas_observed *o)
{
    free(o->steps);
    o->steps = NULL;
    o->nsteps = o->cap = 0;
}
