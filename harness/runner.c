/* atlas-run — runs cases and judges them against expected/.
 *
 *   atlas-run begin   --fingerprint-program P --fingerprint F --parts D
 *   atlas-run case    --case NAME --family F --variant fixed|broken --source S
 *                     --rules DIR --fingerprint F --parts D [--timeout S] [--repeat N]
 *                     [--nondeterministic] -- BINARY
 *   atlas-run collect --fingerprint F --parts D --out DIR
 *   atlas-run lint    --rules DIR [--root DIR] [--cases a,b,...]
 *
 * Exit codes: 0 match, 1 mismatch (or flaky), 77 skip, 99 harness error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "process.h"
#include "rules.h"

enum { MATCH = 0, MISMATCH = 1, SKIP = 77, HARNESS_ERROR = 99 };

static bool has_flag(int argc, char **argv, const char *name)
{
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], name) == 0)
            return true;
    return false;
}

static const char *opt(int argc, char **argv, const char *name, const char *fallback)
{
    for (int i = 0; i < argc - 1; i++)
        if (strcmp(argv[i], "--") == 0)
            break;
        else if (strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return fallback;
}

static const char *need(int argc, char **argv, const char *name)
{
    const char *v = opt(argc, argv, name, NULL);
    if (!v) {
        fprintf(stderr, "atlas-run: %s is required\n", name);
        exit(HARNESS_ERROR);
    }
    return v;
}

/* ---- JSON output ------------------------------------------------------ */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

static void json_key(FILE *f, const char *key, bool first)
{
    if (!first)
        fputc(',', f);
    json_str(f, key);
    fputc(':', f);
}

static void json_str_or_null(FILE *f, const char *s)
{
    if (s)
        json_str(f, s);
    else
        fputs("null", f);
}

/* ---- what a case recorded --------------------------------------------- */

struct step {
    char step[64], api[16], name[96], text[1024];
    long code;
    bool success;
    const char *surfaced; /* "call", "synchronize" or "query" */
    const struct atlas_rule *rule;
    const char *verdict;
};

struct observed {
    struct step *steps;
    int nsteps;
    char quantities[64][3][128];
    int nquantities;
    char notes[32][512];
    int nnotes;
    char skip[512];
    bool variant_end;
};

static bool is_success_name(const char *name)
{
    return strcmp(name, "cudaSuccess") == 0 || strcmp(name, "CUBLAS_STATUS_SUCCESS") == 0
           || strcmp(name, "CUDA_SUCCESS") == 0 || strcmp(name, "result_correct") == 0
           /* the other toolkit libraries' success codes (atlas_libraries.h) */
           || strcmp(name, "CUSOLVER_STATUS_SUCCESS") == 0 || strcmp(name, "CUFFT_SUCCESS") == 0
           || strcmp(name, "CUDNN_STATUS_SUCCESS") == 0 || strcmp(name, "ncclSuccess") == 0;
}

/* Errors of asynchronous work surface at these calls, not at the call that
 * caused them: "synchronize" (waits for the device) or "query" (reads a
 * status without waiting); anything else is "call". */
static const char *surfaced_at(const char *text)
{
    static const char *const waits[] = {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
                                        "cuCtxSynchronize", "cuStreamSynchronize"};
    static const char *const queries[] = {"cudaGetLastError", "cudaPeekAtLastError", "cudaStreamQuery",
                                          "cudaEventQuery", "cuStreamQuery"};
    for (size_t i = 0; i < sizeof waits / sizeof *waits; i++)
        if (strncmp(text, waits[i], strlen(waits[i])) == 0)
            return "synchronize";
    for (size_t i = 0; i < sizeof queries / sizeof *queries; i++)
        if (strncmp(text, queries[i], strlen(queries[i])) == 0)
            return "query";
    return "call";
}

static int split_tabs(char *line, char *field[], int max)
{
    int n = 0;
    line[strcspn(line, "\n")] = '\0';
    field[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == '\t') {
            *p = '\0';
            field[n++] = p + 1;
        }
    return n;
}

static void read_records(const char *path, struct observed *o)
{
    memset(o, 0, sizeof *o);
    FILE *f = fopen(path, "r");
    if (!f)
        return; /* died before recording anything */
    char line[4096];
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        char *field[8];
        int n = split_tabs(line, field, 8);
        if (strcmp(field[0], "call") == 0 && n >= 6) {
            if (o->nsteps == cap) {
                cap = cap ? cap * 2 : 32;
                o->steps = realloc(o->steps, (size_t)cap * sizeof *o->steps);
                if (!o->steps) {
                    fprintf(stderr, "atlas-run: out of memory\n");
                    exit(HARNESS_ERROR);
                }
            }
            struct step *s = &o->steps[o->nsteps++];
            memset(s, 0, sizeof *s);
            snprintf(s->step, sizeof s->step, "%s", field[1]);
            snprintf(s->api, sizeof s->api, "%s", field[2]);
            s->code = strtol(field[3], NULL, 10);
            snprintf(s->name, sizeof s->name, "%s", field[4]);
            snprintf(s->text, sizeof s->text, "%s", field[5]);
            s->success = is_success_name(s->name);
            s->surfaced = surfaced_at(s->text);
        } else if (strcmp(field[0], "quantity") == 0 && n >= 4 && o->nquantities < 64) {
            for (int i = 0; i < 3; i++)
                snprintf(o->quantities[o->nquantities][i], 128, "%s", field[i + 1]);
            o->nquantities++;
        } else if (strcmp(field[0], "note") == 0 && n >= 2 && o->nnotes < 32) {
            snprintf(o->notes[o->nnotes++], 512, "%s", field[1]);
        } else if (strcmp(field[0], "skip") == 0 && n >= 2) {
            snprintf(o->skip, sizeof o->skip, "%s", field[1]);
        } else if (strcmp(field[0], "variant_end") == 0) {
            o->variant_end = true;
        }
    }
    fclose(f);
}

/* cuBLAS reports a bad argument on its own output, in lines like
 * " ** On entry to SGEMM  parameter number 8 had an illegal value". */
static void library_messages(FILE *json, const char *out, const char *err, bool *first)
{
    const char *streams[] = {out, err};
    for (int s = 0; s < 2; s++)
        for (const char *p = strstr(streams[s], "On entry to"); p; p = strstr(p + 1, "On entry to")) {
            size_t len = strcspn(p, "\n");
            char line[256];
            snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), p);
            if (!*first)
                fputc(',', json);
            json_str(json, line);
            *first = false;
        }
}

/* ---- judging ----------------------------------------------------------- */

struct judgement {
    int verdict;           /* MATCH, MISMATCH, SKIP, HARNESS_ERROR */
    char mismatches[32][512];
    int nmismatches;
    char error[1024];
    const struct atlas_rule *end_rule;
    const char *end_verdict;
    struct {
        const struct atlas_rule *rule;
        const char *verdict;
    } unreached[64];
    int nunreached;
};

static void mismatch(struct judgement *j, const struct atlas_rule *r, const char *fmt, ...)
{
    j->verdict = MISMATCH;
    if (j->nmismatches == 32)
        return;
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (r)
        snprintf(j->mismatches[j->nmismatches++], 512, "%s (rule %s:%d)", text, r->file, r->line);
    else
        snprintf(j->mismatches[j->nmismatches++], 512, "%s (no rule: the default expects success)", text);
}

static const struct atlas_rule *find(const struct atlas_rules *rules, const struct atlas_fingerprint *fp,
                                     const char *case_name, const char *variant, const char *step,
                                     struct judgement *j)
{
    bool contradiction;
    char err[1024];
    const struct atlas_rule *r = atlas_rules_find(rules, fp, case_name, variant, step, &contradiction, err, sizeof err);
    if (contradiction) {
        j->verdict = HARNESS_ERROR;
        snprintf(j->error, sizeof j->error, "%s", err);
    }
    return r;
}

static void judge(const struct atlas_rules *rules, const struct atlas_fingerprint *fp, const char *case_name,
                  const char *variant, struct observed *o, const struct atlas_end *end, struct judgement *j)
{
    memset(j, 0, sizeof *j);
    j->verdict = MATCH;
    if (end->kind == END_NOT_STARTED) {
        j->verdict = HARNESS_ERROR;
        snprintf(j->error, sizeof j->error, "the case could not be started: %s", end->err);
        return;
    }
    if (o->skip[0] && end->kind == END_EXIT && end->code == SKIP) {
        j->verdict = SKIP;
        for (int i = 0; i < o->nsteps; i++) /* what ran before the skip is not judged */
            o->steps[i].verdict = "skipped";
        return;
    }

    bool expected_failure_seen = false;
    for (int i = 0; i < o->nsteps; i++) {
        struct step *s = &o->steps[i];
        s->rule = find(rules, fp, case_name, variant, s->step, j);
        bool ok = s->rule ? atlas_expected_includes(s->rule->expected, s->name) : s->success;
        s->verdict = ok ? "match" : "mismatch";
        if (!ok)
            mismatch(j, s->rule, "%s: observed %s (%ld), expected %s", s->step, s->name, s->code,
                     s->rule ? s->rule->expected : "success");
        if (ok && !s->success)
            expected_failure_seen = true;
    }

    j->end_rule = find(rules, fp, case_name, variant, "end", j);
    bool end_ok = j->end_rule ? atlas_expected_includes(j->end_rule->expected, end->text)
                              : strcmp(end->text, "exit:0") == 0;
    j->end_verdict = end_ok ? "match" : "mismatch";
    if (!end_ok) {
        mismatch(j, j->end_rule, "the process ended with %s, expected %s", end->text,
                 j->end_rule ? j->end_rule->expected : "exit:0");
    }

    /* A rule naming a step that never ran: fine if it expects not-reached,
     * or if the case stopped early because an earlier step failed exactly
     * as its own rule said; otherwise the outcome changed. */
    for (size_t i = 0; i < rules->n && j->nunreached < 64; i++) {
        const struct atlas_rule *r = &rules->rule[i];
        if (strcmp(r->case_name, case_name) != 0 || strcmp(r->step, "*") == 0 || strcmp(r->step, "end") == 0
            || (strcmp(r->variant, "*") != 0 && strcmp(r->variant, variant) != 0))
            continue;
        bool seen = false;
        for (int k = 0; k < o->nsteps && !seen; k++)
            seen = strcmp(o->steps[k].step, r->step) == 0;
        if (seen || find(rules, fp, case_name, variant, r->step, j) != r)
            continue;
        const char *v = atlas_expected_includes(r->expected, "not-reached") ? "match"
                        : expected_failure_seen                             ? "waived"
                                                                            : "mismatch";
        j->unreached[j->nunreached].rule = r;
        j->unreached[j->nunreached++].verdict = v;
        if (strcmp(v, "mismatch") == 0)
            mismatch(j, r, "%s: never reached, expected %s", r->step, r->expected);
    }
    if (j->verdict == HARNESS_ERROR)
        j->nmismatches = 0;
}

/* ---- the case command --------------------------------------------------- */

static const char *sticky_of(const struct observed *o)
{
    for (int i = o->nsteps - 1; i >= 0; i--)
        if (strcmp(o->steps[i].step, "probe") == 0) {
            const char *name = o->steps[i].name;
            if (o->steps[i].success)
                return "false";
            /* No driver or no device: there never was a context to lose. */
            if (strcmp(name, "cudaErrorInsufficientDriver") == 0 || strcmp(name, "cudaErrorNoDevice") == 0)
                return "null";
            return "true";
        }
    return "null";
}

/* What a run looked like, for comparing repeated runs. */
static void signature(const struct observed *o, const struct atlas_end *end, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < o->nsteps && n < size; i++)
        n += (size_t)snprintf(out + n, size - n, "%s=%s ", o->steps[i].step, o->steps[i].name);
    if (n < size)
        snprintf(out + n, size - n, "end=%s", end->text);
}

static void write_part(FILE *f, const char *case_name, const char *family, const char *variant, const char *source,
                       double timeout, const struct observed *o, const struct atlas_end *end,
                       const struct judgement *j, int repeats, char sigs[][2048], int nsigs, bool flaky,
                       bool nondeterministic)
{
    static const char *const verdicts[] = {[MATCH] = "match", [MISMATCH] = "mismatch"};
    const char *verdict = flaky ? "flaky" : j->verdict == SKIP ? "skip" : j->verdict == HARNESS_ERROR ? "error" : verdicts[j->verdict];
    fputc('{', f);
    json_key(f, "verdict", true), json_str(f, verdict);
    json_key(f, "case", false), json_str(f, case_name);
    json_key(f, "family", false), json_str(f, family);
    json_key(f, "variant", false), json_str(f, variant);
    json_key(f, "source", false), json_str(f, source);
    json_key(f, "seconds", false), fprintf(f, "%.3f", end->seconds);
    json_key(f, "timeout_seconds", false), fprintf(f, "%.1f", timeout);
    json_key(f, "end", false);
    fputc('{', f);
    json_key(f, "outcome", true), json_str(f, end->text);
    json_key(f, "kind", false), json_str(f, end->kind == END_EXIT ? "exit" : end->kind == END_SIGNAL ? "signal" : end->kind == END_TIMEOUT ? "timeout" : "not-started");
    json_key(f, "code", false), fprintf(f, "%d", end->code);
    json_key(f, "reached_end_of_variant", false), fputs(o->variant_end ? "true" : "false", f);
    json_key(f, "expected", false), json_str(f, j->end_rule ? j->end_rule->expected : "exit:0");
    json_key(f, "rule", false);
    if (j->end_rule) {
        char where[300];
        snprintf(where, sizeof where, "%s:%d", j->end_rule->file, j->end_rule->line);
        json_str(f, where);
    } else {
        fputs("null", f);
    }
    json_key(f, "verdict", false), json_str_or_null(f, j->end_verdict);
    fputc('}', f);

    json_key(f, "steps", false);
    fputc('[', f);
    const struct step *first_error = NULL;
    for (int i = 0; i < o->nsteps; i++) {
        const struct step *s = &o->steps[i];
        if (!s->success && !first_error)
            first_error = s;
        fputc(i ? ',' : '{', f);
        if (i)
            fputc('{', f);
        json_key(f, "step", true), json_str(f, s->step);
        json_key(f, "api", false), json_str(f, s->api);
        json_key(f, "call", false), json_str(f, s->text);
        json_key(f, "code", false), fprintf(f, "%ld", s->code);
        json_key(f, "name", false), json_str(f, s->name);
        json_key(f, "success", false), fputs(s->success ? "true" : "false", f);
        json_key(f, "surfaced", false), json_str(f, s->surfaced);
        json_key(f, "expected", false), json_str(f, s->rule ? s->rule->expected : "success");
        json_key(f, "rule", false);
        if (s->rule) {
            char where[300];
            snprintf(where, sizeof where, "%s:%d", s->rule->file, s->rule->line);
            json_str(f, where);
        } else {
            fputs("null", f);
        }
        json_key(f, "cite", false), json_str_or_null(f, s->rule ? s->rule->cite : NULL);
        json_key(f, "verdict", false), json_str_or_null(f, s->verdict);
        fputc('}', f);
    }
    fputc(']', f);

    json_key(f, "unreached", false);
    fputc('[', f);
    for (int i = 0; i < j->nunreached; i++) {
        const struct atlas_rule *r = j->unreached[i].rule;
        char where[300];
        snprintf(where, sizeof where, "%s:%d", r->file, r->line);
        fputs(i ? ",{" : "{", f);
        json_key(f, "step", true), json_str(f, r->step);
        json_key(f, "expected", false), json_str(f, r->expected);
        json_key(f, "rule", false), json_str(f, where);
        json_key(f, "verdict", false), json_str(f, j->unreached[i].verdict);
        fputc('}', f);
    }
    fputc(']', f);

    json_key(f, "first_error", false);
    if (first_error) {
        fputc('{', f);
        json_key(f, "step", true), json_str(f, first_error->step);
        json_key(f, "name", false), json_str(f, first_error->name);
        json_key(f, "surfaced", false), json_str(f, first_error->surfaced);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    json_key(f, "sticky", false), fputs(sticky_of(o), f);

    json_key(f, "quantities", false);
    fputc('{', f);
    for (int i = 0; i < o->nquantities; i++) {
        json_key(f, o->quantities[i][0], i == 0);
        fputc('{', f);
        json_key(f, "value", true);
        char *tail;
        double v = strtod(o->quantities[i][1], &tail);
        if (*tail || tail == o->quantities[i][1])
            json_str(f, o->quantities[i][1]);
        else
            fprintf(f, "%.17g", v);
        json_key(f, "unit", false), json_str(f, o->quantities[i][2]);
        fputc('}', f);
    }
    fputc('}', f);
    json_key(f, "notes", false);
    fputc('[', f);
    for (int i = 0; i < o->nnotes; i++) {
        if (i)
            fputc(',', f);
        json_str(f, o->notes[i]);
    }
    fputc(']', f);
    json_key(f, "skip_reason", false), json_str_or_null(f, o->skip[0] ? o->skip : NULL);
    json_key(f, "library_messages", false);
    fputc('[', f);
    bool first = true;
    library_messages(f, end->out, end->err, &first);
    fputc(']', f);
    json_key(f, "stdout_tail", false), json_str(f, end->out);
    json_key(f, "stderr_tail", false), json_str(f, end->err);
    json_key(f, "mismatches", false);
    fputc('[', f);
    for (int i = 0; i < j->nmismatches; i++) {
        if (i)
            fputc(',', f);
        json_str(f, j->mismatches[i]);
    }
    fputc(']', f);
    json_key(f, "error", false), json_str_or_null(f, j->error[0] ? j->error : NULL);
    json_key(f, "repeats", false), fprintf(f, "%d", repeats);
    json_key(f, "flaky", false), fputs(flaky ? "true" : "false", f);
    json_key(f, "nondeterministic", false), fputs(nondeterministic ? "true" : "false", f);
    json_key(f, "signatures", false);
    fputc('[', f);
    for (int i = 0; i < nsigs; i++) {
        if (i)
            fputc(',', f);
        json_str(f, sigs[i]);
    }
    fputs("]}\n", f);
}

static void print_summary(const char *case_name, const char *variant, const struct observed *o,
                          const struct atlas_end *end, const struct judgement *j)
{
    for (int i = 0; i < o->nsteps; i++) {
        const struct step *s = &o->steps[i];
        printf("  [%s] %s -> %s (%ld)", s->step, s->text, s->name, s->code);
        if (s->rule)
            printf("   expected %s (%s:%d)", s->rule->expected, s->rule->file, s->rule->line);
        printf("%s\n", strcmp(s->verdict, "match") == 0 ? "" : "   <-- MISMATCH");
    }
    for (int i = 0; i < o->nquantities; i++)
        printf("  %s = %s %s\n", o->quantities[i][0], o->quantities[i][1], o->quantities[i][2]);
    printf("  end: %s after %.2f s, context after: %s\n", end->text, end->seconds,
           strcmp(sticky_of(o), "true") == 0 ? "unusable (sticky error)" : strcmp(sticky_of(o), "false") == 0 ? "usable" : "not probed");
    switch (j->verdict) {
    case MATCH: printf("%s %s: match\n", case_name, variant); break;
    case SKIP: printf("%s %s: skip: %s\n", case_name, variant, o->skip); break;
    case HARNESS_ERROR: printf("%s %s: harness error: %s\n", case_name, variant, j->error); break;
    default:
        printf("%s %s: MISMATCH\n", case_name, variant);
        for (int i = 0; i < j->nmismatches; i++)
            printf("  mismatch: %s\n", j->mismatches[i]);
        if (end->err[0])
            printf("  stderr tail:\n%s\n", end->err);
    }
}

static void make_dir(const char *path)
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

static void read_text(const char *path, char *into, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(into, 1, size - 1, f) : 0;
    into[n] = '\0';
    if (f)
        fclose(f);
}

/* $ATLAS_REPLAY: judge what a run recorded (reports/replay.py writes it from
 * a results file) instead of running the program — to check new rules
 * against observations made elsewhere. The observations are not changed. */
static bool replay(const char *case_name, const char *variant, struct observed *o, struct atlas_end *end)
{
    const char *dir = getenv("ATLAS_REPLAY");
    if (!dir || !*dir)
        return false;
    char path[1200], line[128] = "";
    memset(end, 0, sizeof *end);
    snprintf(path, sizeof path, "%s/%s.%s.end", dir, case_name, variant);
    read_text(path, line, sizeof line);
    if (sscanf(line, "%63s %lf %d", end->text, &end->seconds, &end->code) < 1) {
        end->kind = END_NOT_STARTED;
        snprintf(end->err, sizeof end->err, "no recorded run in %s", path);
        memset(o, 0, sizeof *o);
        return true;
    }
    end->kind = strncmp(end->text, "exit:", 5) == 0 ? END_EXIT : strncmp(end->text, "signal:", 7) == 0 ? END_SIGNAL : END_TIMEOUT;
    snprintf(path, sizeof path, "%s/%s.%s.stdout", dir, case_name, variant);
    read_text(path, end->out, sizeof end->out);
    snprintf(path, sizeof path, "%s/%s.%s.stderr", dir, case_name, variant);
    read_text(path, end->err, sizeof end->err);
    snprintf(path, sizeof path, "%s/%s.%s.record", dir, case_name, variant);
    read_records(path, o);
    return true;
}

static void run_once(char *args[], char *extra_env[], double timeout, const char *record, struct observed *o,
                     struct atlas_end *end)
{
    unlink(record);
    atlas_run_process(args, extra_env, timeout, end);
    read_records(record, o); /* nothing, if it never started */
}

static int run_case(int argc, char **argv)
{
    const char *case_name = need(argc, argv, "--case"), *variant = need(argc, argv, "--variant");
    const char *family = opt(argc, argv, "--family", ""), *source = opt(argc, argv, "--source", "");
    const char *parts = need(argc, argv, "--parts");
    double timeout = strtod(opt(argc, argv, "--timeout", "60"), NULL) * atlas_timeout_multiplier();
    int repeats = atoi(opt(argc, argv, "--repeat", getenv("ATLAS_REPEAT") ? getenv("ATLAS_REPEAT") : "1"));
    if (repeats < 1 || repeats > 100) {
        fprintf(stderr, "atlas-run: --repeat takes 1 to 100\n");
        return HARNESS_ERROR;
    }
    char *binary = NULL;
    for (int i = 0; i < argc - 1; i++)
        if (strcmp(argv[i], "--") == 0)
            binary = argv[i + 1];
    if (!binary) {
        fprintf(stderr, "atlas-run case: name the case's program after --\n");
        return HARNESS_ERROR;
    }

    char err[1024];
    struct atlas_rules rules = {0};
    struct atlas_fingerprint fp;
    if (atlas_rules_load_dir(&rules, need(argc, argv, "--rules"), err, sizeof err) != 0
        || atlas_fingerprint_load(&fp, need(argc, argv, "--fingerprint"), err, sizeof err) != 0) {
        printf("%s %s: harness error: %s\n", case_name, variant, err);
        return HARNESS_ERROR;
    }

    /* An optional wrapper (compute-sanitizer, say) from $ATLAS_WRAPPER. */
    char *args[32];
    int nargs = 0;
    char wrapper[1024] = "";
    snprintf(wrapper, sizeof wrapper, "%s", getenv("ATLAS_WRAPPER") ? getenv("ATLAS_WRAPPER") : "");
    for (char *t = strtok(wrapper, " "); t && nargs < 28; t = strtok(NULL, " "))
        args[nargs++] = t;
    args[nargs++] = binary;
    args[nargs++] = (char *)variant;
    args[nargs] = NULL;

    make_dir(parts);
    char record[1200], env_record[1300], part[1200];
    snprintf(record, sizeof record, "%s/%s.%s.record", parts, case_name, variant);
    snprintf(env_record, sizeof env_record, "ATLAS_RECORD=%s", record);
    snprintf(part, sizeof part, "%s/%s.%s.json", parts, case_name, variant);
    char *extra_env[] = {env_record, NULL};

    static char sigs[100][2048];
    struct observed o;
    struct atlas_end end;
    struct judgement j;
    /* A case that cannot even start is judged too (a harness error), so it
     * shows in the results file instead of vanishing from it. */
    bool replayed = replay(case_name, variant, &o, &end);
    if (replayed)
        repeats = 1;
    else
        run_once(args, extra_env, timeout, record, &o, &end);
    judge(&rules, &fp, case_name, variant, &o, &end, &j);
    signature(&o, &end, sigs[0], sizeof sigs[0]);
    /* Every repeat is judged, so an outcome no rule allows fails even when
     * it is rare. Repeats that differ from the first are flaky — unless the
     * case declares itself nondeterministic (a use-after-free, a race), in
     * which case its rules list every outcome it may have. */
    bool nondeterministic = has_flag(argc, argv, "--nondeterministic"), flaky = false;
    for (int r = 1; r < repeats; r++) {
        struct observed again;
        struct atlas_end again_end;
        struct judgement again_judged;
        run_once(args, extra_env, timeout, record, &again, &again_end);
        signature(&again, &again_end, sigs[r], sizeof sigs[r]);
        flaky |= !nondeterministic && strcmp(sigs[r], sigs[0]) != 0;
        judge(&rules, &fp, case_name, variant, &again, &again_end, &again_judged);
        if (again_judged.verdict != MATCH && j.verdict != HARNESS_ERROR) {
            j.verdict = again_judged.verdict == HARNESS_ERROR ? HARNESS_ERROR : MISMATCH;
            for (int k = 0; k < again_judged.nmismatches && j.nmismatches < 32; k++)
                snprintf(j.mismatches[j.nmismatches++], 512, "run %d of %d: %s", r + 1, repeats,
                         again_judged.mismatches[k]);
        }
        free(again.steps);
    }

    FILE *f = fopen(part, "w");
    if (!f) {
        printf("%s %s: harness error: cannot write %s: %s\n", case_name, variant, part, strerror(errno));
        return HARNESS_ERROR;
    }
    write_part(f, case_name, family, variant, source, timeout, &o, &end, &j, repeats, sigs, repeats, flaky,
               nondeterministic);
    fclose(f);
    /* The verdict and its reasons as plain lines, for collect's summary. */
    char summary[1300];
    snprintf(summary, sizeof summary, "%s/%s.%s.summary", parts, case_name, variant);
    if ((f = fopen(summary, "w"))) {
        fprintf(f, "%s\n", flaky ? "flaky" : j.verdict == MATCH ? "match" : j.verdict == SKIP ? "skip"
                             : j.verdict == MISMATCH ? "mismatch" : "error");
        for (int i = 0; i < j.nmismatches; i++)
            fprintf(f, "%s/%s: %s\n", case_name, variant, j.mismatches[i]);
        if (j.verdict == SKIP)
            fprintf(f, "%s/%s: skipped: %s\n", case_name, variant, o.skip);
        if (j.verdict == HARNESS_ERROR)
            fprintf(f, "%s/%s: %s\n", case_name, variant, j.error);
        if (flaky)
            fprintf(f, "%s/%s: flaky over %d runs\n", case_name, variant, repeats);
        fclose(f);
    }
    print_summary(case_name, variant, &o, &end, &j);
    if (flaky) {
        printf("%s %s: FLAKY over %d runs:\n", case_name, variant, repeats);
        for (int i = 0; i < repeats; i++)
            printf("  run %d: %s\n", i + 1, sigs[i]);
    }
    free(o.steps);
    atlas_rules_free(&rules);
    return flaky && j.verdict == MATCH ? MISMATCH : j.verdict;
}

/* ---- begin, collect, lint ---------------------------------------------- */

static bool ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), m = strlen(suffix);
    return n > m && strcmp(name + n - m, suffix) == 0;
}

static int parts_only(const struct dirent *d)
{
    return ends_with(d->d_name, ".json") || ends_with(d->d_name, ".record") || ends_with(d->d_name, ".summary");
}

static int begin(int argc, char **argv)
{
    const char *parts = need(argc, argv, "--parts"), *fp_path = need(argc, argv, "--fingerprint");
    make_dir(parts);
    struct dirent **names;
    int n = scandir(parts, &names, parts_only, alphasort);
    for (int i = 0; i < n; i++) {
        char path[1300];
        snprintf(path, sizeof path, "%s/%s", parts, names[i]->d_name);
        unlink(path);
        free(names[i]);
    }
    if (n >= 0)
        free(names);

    const char *replay_dir = getenv("ATLAS_REPLAY");
    if (replay_dir && *replay_dir) { /* the recorded environment, not this one */
        char from[1200];
        snprintf(from, sizeof from, "%s/fingerprint.txt", replay_dir);
        static char recorded[ATLAS_TAIL + 1];
        read_text(from, recorded, sizeof recorded);
        FILE *f = recorded[0] ? fopen(fp_path, "w") : NULL;
        if (!f || fputs(recorded, f) < 0 || fclose(f) != 0) {
            fprintf(stderr, "atlas-run begin: cannot copy the recorded fingerprint %s to %s\n", from, fp_path);
            return HARNESS_ERROR;
        }
        printf("%s", recorded);
        return MATCH;
    }
    char *args[] = {(char *)need(argc, argv, "--fingerprint-program"), NULL};
    struct atlas_end end;
    if (atlas_run_process(args, NULL, 60 * atlas_timeout_multiplier(), &end) != 0 || strcmp(end.text, "exit:0") != 0) {
        fprintf(stderr, "atlas-run begin: the fingerprint program ended with %s\n%s\n", end.text, end.err);
        return HARNESS_ERROR;
    }
    FILE *f = fopen(fp_path, "w");
    if (!f || fputs(end.out, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "atlas-run begin: cannot write %s\n", fp_path);
        return HARNESS_ERROR;
    }
    printf("%s", end.out);
    return MATCH;
}

static int json_only(const struct dirent *d) { return ends_with(d->d_name, ".json"); }

static int collect(int argc, char **argv)
{
    const char *parts = need(argc, argv, "--parts"), *out_dir = need(argc, argv, "--out");
    char err[1024];
    struct atlas_fingerprint fp;
    if (atlas_fingerprint_load(&fp, need(argc, argv, "--fingerprint"), err, sizeof err) != 0) {
        fprintf(stderr, "atlas-run collect: %s\n", err);
        return HARNESS_ERROR;
    }
    const char *id = atlas_fingerprint_get(&fp, "id");
    make_dir(out_dir);
    char path[1200], tmp[1300];
    snprintf(path, sizeof path, "%s/%s.json", out_dir, id ? id : "unknown-environment");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "atlas-run collect: cannot write %s: %s\n", tmp, strerror(errno));
        return HARNESS_ERROR;
    }
    char when[64];
    time_t t = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    fputs("{\"schema\":\"cuda-error-atlas/results/1\",\"collected\":", f);
    json_str(f, when);
    fputs(",\"environment\":{", f);
    bool first = true;
    for (int i = 0; i < fp.n; i++)
        if (strncmp(fp.key[i], "env.", 4) != 0) {
            json_key(f, fp.key[i], first);
            json_str(f, fp.value[i]);
            first = false;
        }
    json_key(f, "env", first);
    fputc('{', f);
    first = true;
    for (int i = 0; i < fp.n; i++)
        if (strncmp(fp.key[i], "env.", 4) == 0) {
            json_key(f, fp.key[i] + 4, first);
            json_str(f, fp.value[i]);
            first = false;
        }
    fputs("}},\n\"runs\":[\n", f);

    struct dirent **names;
    int n = scandir(parts, &names, json_only, alphasort); /* no locale is set: byte order */
    static const char *const kinds[] = {"match", "mismatch", "skip", "error", "flaky"};
    int counts[5] = {0}, written = 0;
    char problems[65536] = "";
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        char part[1300], summary[1300];
        snprintf(part, sizeof part, "%s/%s", parts, names[i]->d_name);
        snprintf(summary, sizeof summary, "%.*s.summary", (int)strlen(part) - 5, part);
        free(names[i]);
        FILE *p = fopen(part, "r");
        if (!p) {
            fprintf(stderr, "atlas-run collect: cannot read %s: %s (left out)\n", part, strerror(errno));
            continue;
        }
        if (written++)
            fputs(",\n", f);
        char buf[65536];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, p)) > 0) {
            while (got > 0 && buf[got - 1] == '\n')
                got--;
            fwrite(buf, 1, got, f);
        }
        fclose(p);
        FILE *sum = fopen(summary, "r");
        char line[1024];
        for (int first = 1; sum && fgets(line, sizeof line, sum); first = 0) {
            if (first) {
                for (int k = 0; k < 5; k++)
                    counts[k] += strncmp(line, kinds[k], strlen(kinds[k])) == 0 && line[strlen(kinds[k])] == '\n';
            } else if (used + strlen(line) + 3 < sizeof problems) {
                used += (size_t)snprintf(problems + used, sizeof problems - used, "  %s", line);
            }
        }
        if (sum)
            fclose(sum);
    }
    if (n >= 0)
        free(names);
    fputs("\n]}\n", f);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "atlas-run collect: cannot write %s\n", path);
        return HARNESS_ERROR;
    }
    printf("%d runs: %d match, %d mismatch, %d skip, %d flaky, %d harness error\n", written, counts[0], counts[1],
           counts[2], counts[4], counts[3]);
    if (problems[0])
        printf("%s", problems);
    printf("results file: %s\n", path);
    /* Fail when anything did not match, so that CTest shows this summary. */
    return counts[1] || counts[3] || counts[4] ? MISMATCH : MATCH;
}

static int lint(int argc, char **argv)
{
    const char *dir = need(argc, argv, "--rules"), *root = opt(argc, argv, "--root", ".");
    const char *cases = opt(argc, argv, "--cases", NULL);
    char err[1024];
    struct atlas_rules rules = {0};
    if (atlas_rules_load_dir(&rules, dir, err, sizeof err) != 0) {
        printf("%s\n", err);
        return HARNESS_ERROR;
    }
    int problems = 0;
    for (size_t i = 0; i < rules.n; i++) {
        const struct atlas_rule *r = &rules.rule[i];
        if (cases && strcmp(r->case_name, "*") != 0) {
            char want[128];
            snprintf(want, sizeof want, ",%s,", r->case_name);
            char list[65536];
            snprintf(list, sizeof list, ",%s,", cases);
            if (!strstr(list, want)) {
                printf("%s:%d: no case is named '%s'\n", r->file, r->line, r->case_name);
                problems++;
            }
        }
        /* Every results file a citation names (run:A run:B ...) must exist. */
        char cite[sizeof r->cite];
        snprintf(cite, sizeof cite, "%s", r->cite);
        for (char *save = NULL, *t = strtok_r(cite, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            if (strncmp(t, "run:", 4) != 0)
                continue;
            char path[1200];
            snprintf(path, sizeof path, "%s/%s", root, t + 4);
            if (access(path, R_OK) != 0) {
                printf("%s:%d: the cited results file %s does not exist\n", r->file, r->line, t + 4);
                problems++;
            }
        }
    }
    printf("%zu rules checked, %d problem%s\n", rules.n, problems, problems == 1 ? "" : "s");
    atlas_rules_free(&rules);
    return problems ? HARNESS_ERROR : MATCH;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 2 && strcmp(argv[1], "case") == 0)
        return run_case(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "begin") == 0)
        return begin(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "collect") == 0)
        return collect(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "lint") == 0)
        return lint(argc - 2, argv + 2);
    fprintf(stderr, "usage: atlas-run begin|case|collect|lint ... (see the top of harness/runner.c)\n");
    return HARNESS_ERROR;
}
