/* state.c — the state folder of a run (results.h lists its files): begin
 * clears it and fingerprints the environment; summary prints, once, what
 * collect said. Also the small helpers the commands share. */
#define _GNU_SOURCE
#include "results.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void atlas_check_options(const char *command, int argc, char **argv, const struct atlas_option known[])
{
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const struct atlas_option *o = known;
        while (o->name && strcmp(o->name, argv[i]) != 0)
            o++;
        if (strcmp(argv[i], "--help") == 0)
            continue;
        if (!o->name) {
            fprintf(stderr, "atlas-run %s: %s '%s' (atlas-run --help)\n", command,
                    strncmp(argv[i], "-", 1) == 0 ? "unknown option" : "unexpected argument", argv[i]);
            exit(ATLAS_USAGE_ERROR);
        }
        if (o->takes_value && (i + 1 >= argc || strcmp(argv[i + 1], "--") == 0)) {
            fprintf(stderr, "atlas-run %s: %s needs a value (atlas-run --help)\n", command, argv[i]);
            exit(ATLAS_USAGE_ERROR);
        }
        i += o->takes_value;
    }
}

double atlas_opt_number(const char *command, int argc, char **argv, const char *name, const char *fallback, double min,
                        double max, bool integer)
{
    const char *text = atlas_opt(argc, argv, name, fallback);
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    /* strtod takes "inf", "nan" and hex; only plain decimals are numbers here */
    bool plain = text[strspn(text, "0123456789.+-eE")] == '\0';
    if (!*text || *end || !plain || errno == ERANGE || !isfinite(v) || v < min || v > max
        || (integer && v != (double)(long)v)) {
        fprintf(stderr, "atlas-run %s: %s takes %s from %g to %g, not '%s' (atlas-run --help)\n", command, name,
                integer ? "a whole number" : "a number", min, max, text);
        exit(ATLAS_USAGE_ERROR);
    }
    return v;
}

bool atlas_has_flag(int argc, char **argv, const char *name)
{
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], name) == 0)
            return true;
    return false;
}

const char *atlas_opt(int argc, char **argv, const char *name, const char *fallback)
{
    for (int i = 0; i < argc - 1; i++)
        if (strcmp(argv[i], "--") == 0)
            break;
        else if (strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return fallback;
}

const char *atlas_need(int argc, char **argv, const char *name)
{
    const char *v = atlas_opt(argc, argv, name, NULL);
    if (!v) {
        fprintf(stderr, "atlas-run: %s is required (atlas-run --help)\n", name);
        exit(atlas_verdicts[ATLAS_ERROR].exit_code);
    }
    return v;
}

void atlas_make_dir(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    mkdir(buf, 0755);
}

void atlas_read_text(const char *path, char *into, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(into, 1, size - 1, f) : 0;
    into[n] = '\0';
    if (f)
        fclose(f);
}

bool atlas_ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), m = strlen(suffix);
    return n > m && strcmp(name + n - m, suffix) == 0;
}

static int state_file(const struct dirent *d)
{
    static const char *const kinds[] = {".json", ".record", ".summary", ".started"};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (atlas_ends_with(d->d_name, kinds[i]))
            return 1;
    return strcmp(d->d_name, "summary.txt") == 0;
}

static int begin_fingerprint(const char *fp_path, const char *program)
{
    const char *replay_dir = getenv("ATLAS_REPLAY");
    static char text[ATLAS_TAIL + 1];
    if (replay_dir && *replay_dir) { /* the recorded environment, not this one */
        char from[1200];
        snprintf(from, sizeof from, "%s/fingerprint.txt", replay_dir);
        atlas_read_text(from, text, sizeof text);
        if (!text[0]) {
            fprintf(stderr, "atlas-run begin: cannot read the recorded fingerprint %s\n", from);
            return -1;
        }
    } else {
        char *args[] = {(char *)program, NULL};
        struct atlas_end end;
        if (atlas_run_process(args, NULL, 60 * atlas_timeout_multiplier(), &end) != 0
            || strcmp(end.text, "exit:0") != 0) {
            fprintf(stderr, "atlas-run begin: the fingerprint program ended with %s\n%s\n", end.text, end.err);
            return -1;
        }
        snprintf(text, sizeof text, "%s", end.out);
    }
    FILE *f = fopen(fp_path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "atlas-run begin: cannot write %s\n", fp_path);
        return -1;
    }
    printf("%s", text);
    return 0;
}

int atlas_begin(int argc, char **argv)
{
    static const struct atlas_option known[] = {
        {"--parts", true}, {"--fingerprint", true}, {"--fingerprint-program", true}, {NULL, false}};
    atlas_check_options("begin", argc, argv, known);
    const char *parts = atlas_need(argc, argv, "--parts"), *fp_path = atlas_need(argc, argv, "--fingerprint");
    const char *program = atlas_opt(argc, argv, "--fingerprint-program", NULL);
    atlas_make_dir(parts);
    /* A new run starts from nothing: no part of an earlier run is mixed in. */
    struct dirent **names;
    int n = scandir(parts, &names, state_file, alphasort);
    for (int i = 0; i < n; i++) {
        char path[1300];
        snprintf(path, sizeof path, "%s/%s", parts, names[i]->d_name);
        unlink(path);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
    char marker[1200];
    snprintf(marker, sizeof marker, "%s/.begin", parts);
    FILE *f = fopen(marker, "w");
    if (!f || fprintf(f, "%ld\n", (long)time(NULL)) < 0 || fclose(f) != 0) {
        fprintf(stderr, "atlas-run begin: cannot write %s: %s\n", marker, strerror(errno));
        return atlas_verdicts[ATLAS_ERROR].exit_code;
    }
    if (!program && !(getenv("ATLAS_REPLAY") && *getenv("ATLAS_REPLAY"))) {
        fprintf(stderr, "atlas-run begin: --fingerprint-program is required (atlas-run --help)\n");
        return atlas_verdicts[ATLAS_ERROR].exit_code;
    }
    return begin_fingerprint(fp_path, program) == 0 ? 0 : atlas_verdicts[ATLAS_ERROR].exit_code;
}

int atlas_show_summary(int argc, char **argv)
{
    static const struct atlas_option known[] = {{"--parts", true}, {NULL, false}};
    atlas_check_options("summary", argc, argv, known);
    char path[1200];
    snprintf(path, sizeof path, "%s/summary.txt", atlas_need(argc, argv, "--parts"));
    static char text[1 << 20];
    atlas_read_text(path, text, sizeof text);
    if (text[0]) {
        printf("\ncuda-error-atlas:\n%s", text);
        unlink(path); /* said once */
    }
    return 0;
}
