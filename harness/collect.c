/* collect.c — joins the parts of a run into one results file, knowing every
 * registered variant, so that a filtered run never replaces a complete one
 * and a run that judged nothing never passes. */
#define _GNU_SOURCE
#include "results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct entry {
    char name[256];   /* family/case/variant */
    char stem[200];   /* case.variant */
    int verdict;      /* -1: no part */
    const char *why;  /* why it has no part, or NULL */
};

static int by_stem(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->stem, ((const struct entry *)b)->stem);
}

static double mtime(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9 : -1;
}

/* The registered variants, one "family/case/variant" per line. */
static struct entry *read_registered(const char *path, int *count)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    struct entry *list = NULL;
    int n = 0, cap = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *slash1 = strchr(line, '/'), *slash2 = slash1 ? strchr(slash1 + 1, '/') : NULL;
        if (!slash2)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            struct entry *grown = realloc(list, (size_t)cap * sizeof *grown);
            if (!grown)
                break;
            list = grown;
        }
        struct entry *e = &list[n++];
        memset(e, 0, sizeof *e);
        snprintf(e->name, sizeof e->name, "%s", line);
        snprintf(e->stem, sizeof e->stem, "%.*s.%s", (int)(slash2 - slash1 - 1), slash1 + 1, slash2 + 1);
        e->verdict = -1;
    }
    fclose(f);
    *count = n;
    return list ? list : calloc(1, sizeof *list);
}

static void write_environment(FILE *f, const struct atlas_fingerprint *fp)
{
    atlas_json_key(f, "environment", false);
    fputc('{', f);
    bool first = true;
    for (int i = 0; i < fp->n; i++)
        if (strncmp(fp->key[i], "env.", 4) != 0 && strncmp(fp->key[i], "library.", 8) != 0) {
            atlas_json_key(f, fp->key[i], first), atlas_json_str(f, fp->value[i]);
            first = false;
        }
    /* library.NAME=PATH lines: which files the fingerprint really loaded. */
    atlas_json_key(f, "libraries", first);
    fputc('[', f);
    for (int i = 0, k = 0; i < fp->n; i++)
        if (strncmp(fp->key[i], "library.", 8) == 0) {
            const char *path = fp->value[i], *so = strstr(path, ".so.");
            fputs(k++ ? ",{" : "{", f);
            atlas_json_key(f, "name", true), atlas_json_str(f, fp->key[i] + 8);
            atlas_json_key(f, "path", false), atlas_json_str_or_null(f, strcmp(path, "none") ? path : NULL);
            atlas_json_key(f, "version", false), atlas_json_str_or_null(f, so && so[4] ? so + 4 : NULL);
            fputc('}', f);
        }
    fputc(']', f);
    atlas_json_key(f, "env", false);
    fputc('{', f);
    first = true;
    for (int i = 0; i < fp->n; i++)
        if (strncmp(fp->key[i], "env.", 4) == 0) {
            atlas_json_key(f, fp->key[i] + 4, first), atlas_json_str(f, fp->value[i]);
            first = false;
        }
    fputs("}}", f);
}

static void write_coverage(FILE *f, const struct entry *list, int n, int ran, bool complete)
{
    atlas_json_key(f, "coverage", false);
    fprintf(f, "{\"registered\":%d,\"ran\":%d,\"complete\":%s", n, ran, complete ? "true" : "false");
    const char *keys[] = {"not_run", "errors"};
    for (int k = 0; k < 2; k++) {
        atlas_json_key(f, keys[k], false);
        fputc('[', f);
        for (int i = 0, w = 0; i < n; i++)
            if (k == 0 ? list[i].verdict < 0 : list[i].verdict == ATLAS_ERROR)
                fputs(w++ ? "," : "", f), atlas_json_str(f, list[i].name);
        fputc(']', f);
    }
    fputc('}', f);
}

/* Appends a part's JSON, without its trailing newline. */
static void append_part(FILE *f, const char *part)
{
    FILE *p = fopen(part, "r");
    char buf[65536];
    size_t got;
    while (p && (got = fread(buf, 1, sizeof buf, p)) > 0) {
        while (got > 0 && buf[got - 1] == '\n')
            got--;
        fwrite(buf, 1, got, f);
    }
    if (p)
        fclose(p);
}

static int write_results(const char *path, const struct atlas_fingerprint *fp, const char *parts,
                         const struct entry *list, int n, int ran, bool complete)
{
    char tmp[1300];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    char when[64];
    time_t t = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    fputs("{\"schema\":\"" ATLAS_RESULTS_SCHEMA "\",\"collected\":", f);
    atlas_json_str(f, when);
    write_environment(f, fp);
    write_coverage(f, list, n, ran, complete);
    fputs(",\n\"runs\":[\n", f);
    for (int i = 0, w = 0; i < n; i++)
        if (list[i].verdict >= 0) {
            char part[1300];
            snprintf(part, sizeof part, "%s/%s.json", parts, list[i].stem);
            fputs(w++ ? ",\n" : "", f);
            append_part(f, part);
        }
    fputs("\n]}\n", f);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Looks at each registered variant's part: judged in this run, stale, missing or not run. */
static int gather(const char *parts, struct entry *list, int n, double begun, int counts[], FILE *problems)
{
    int ran = 0;
    for (int i = 0; i < n; i++) {
        char part[1300], summary[1300], started[1300];
        snprintf(part, sizeof part, "%s/%s.json", parts, list[i].stem);
        snprintf(summary, sizeof summary, "%s/%s.summary", parts, list[i].stem);
        snprintf(started, sizeof started, "%s/%s.started", parts, list[i].stem);
        double when = mtime(part);
        if (when >= 0 && when < begun) {
            list[i].why = "stale: its part is from a run before this one's begin, left out";
        } else if (when < 0) {
            list[i].why = mtime(started) >= begun ? "missing: the runner started it and wrote no part (was it killed?)"
                                                  : NULL; /* not selected in this run */
        } else {
            FILE *s = fopen(summary, "r");
            char line[1024];
            list[i].verdict = s && fgets(line, sizeof line, s) ? atlas_verdict_named(strtok(line, "\n")) : -1;
            if (list[i].verdict < 0) {
                list[i].why = "unreadable: its part has no summary with a verdict";
            } else {
                ran++;
                counts[list[i].verdict]++;
                while (fgets(line, sizeof line, s))
                    fprintf(problems, "  %s", line);
            }
            if (s)
                fclose(s);
        }
        if (list[i].why)
            fprintf(problems, "  %s: %s\n", list[i].name, list[i].why);
    }
    return ran;
}

static int collect_into(FILE *out, int argc, char **argv)
{
    const char *parts = atlas_need(argc, argv, "--parts"), *out_dir = atlas_need(argc, argv, "--out");
    const char *registered = atlas_need(argc, argv, "--registered"), *report = atlas_opt(argc, argv, "--report", NULL);
    const int error = atlas_verdicts[ATLAS_ERROR].exit_code;
    char err[1024], marker[1200];
    struct atlas_fingerprint fp;
    if (atlas_fingerprint_load(&fp, atlas_need(argc, argv, "--fingerprint"), err, sizeof err) != 0) {
        fprintf(out, "collect failed: %s (did atlas/begin run?)\n", err);
        return error;
    }
    snprintf(marker, sizeof marker, "%s/.begin", parts);
    double begun = mtime(marker);
    int n = 0;
    struct entry *list = read_registered(registered, &n);
    if (begun < 0 || !list) {
        fprintf(out, "collect failed: %s\n", begun < 0 ? "no run began here (atlas/begin did not run)"
                                                        : "cannot read the list of registered variants");
        free(list);
        return error;
    }
    qsort(list, (size_t)n, sizeof *list, by_stem); /* runs in the order of their parts' names */
    int counts[ATLAS_NVERDICTS] = {0}, missing = 0;
    char *problems = NULL;
    size_t problems_size = 0;
    FILE *p = open_memstream(&problems, &problems_size);
    int ran = gather(parts, list, n, begun, counts, p);
    fclose(p);
    for (int i = 0; i < n; i++)
        missing += list[i].why != NULL;

    const char *id = atlas_fingerprint_get(&fp, "id");
    bool complete = ran == n && counts[ATLAS_ERROR] == 0 && missing == 0;
    char path[1200], partial[1300];
    snprintf(path, sizeof path, "%s/%s.json", out_dir, id ? id : "unknown-environment");
    snprintf(partial, sizeof partial, "%s/%s.partial.json", out_dir, id ? id : "unknown-environment");
    int rc = 0;
    if (ran == 0) {
        fprintf(out, "collect failed: no runs: none of the %d registered variants left a part; nothing written\n", n);
        rc = error;
    } else {
        atlas_make_dir(out_dir);
        if (write_results(complete ? path : partial, &fp, parts, list, n, ran, complete) != 0) {
            fprintf(out, "collect failed: cannot write %s: %s\n", complete ? path : partial, strerror(errno));
            rc = error;
        } else if (complete) {
            unlink(partial); /* a complete column supersedes an earlier filtered run */
            fprintf(out, "results: %s (complete: %d of %d variants)\n", path, ran, n);
        } else {
            fprintf(out, "results: %s (partial: %d of %d variants; the complete %s is left as it was)\n", partial,
                    ran, n, path);
        }
    }
    if (report)
        fprintf(out, "report:  %s\n", report);
    for (int v = 0; v < ATLAS_NVERDICTS; v++)
        fprintf(out, "%-9s %4d  %s\n", atlas_verdicts[v].name, counts[v], atlas_verdicts[v].what);
    fprintf(out, "%-9s %4d  registered, not run in this run%s\n", "not run", n - ran,
            ran < n && missing == 0 ? " (a filtered run)" : "");
    fputs(problems ? problems : "", out);
    free(problems);
    const char *driver = atlas_fingerprint_get(&fp, "driver");
    if (driver && strcmp(driver, "none") == 0)
        fprintf(out, "no driver: every case stopped at its first CUDA call, so the lesson steps were not reached;\n"
                     "these are the no-driver outcomes (run on a machine with an NVIDIA GPU and driver to see the lessons)\n");
    free(list);
    if (rc == 0 && (counts[ATLAS_ERROR] || missing))
        rc = error;
    if (rc == 0 && (counts[ATLAS_MISMATCH] || counts[ATLAS_FLAKY]))
        rc = atlas_verdicts[ATLAS_MISMATCH].exit_code;
    if (rc)
        fprintf(out, "collect: %s\n", rc == error ? "FAILED (see above)" : "something did not match (see above)");
    return rc;
}

int atlas_collect(int argc, char **argv)
{
    static const struct atlas_option known[] = {{"--parts", true}, {"--fingerprint", true}, {"--registered", true},
                                                {"--out", true},   {"--report", true},      {NULL, false}};
    atlas_check_options("collect", argc, argv, known);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    int rc = collect_into(out, argc, argv);
    fclose(out);
    fputs(text, stdout);
    /* Kept for `atlas-run summary`, which CTest runs after the last test. */
    char path[1200];
    snprintf(path, sizeof path, "%s/summary.txt", atlas_need(argc, argv, "--parts"));
    FILE *f = fopen(path, "w");
    if (f)
        fputs(text, f), fclose(f);
    free(text);
    return rc;
}
