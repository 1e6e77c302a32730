/* judge.c — see judge.h. */
#define _GNU_SOURCE
#include "judge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct atlas_verdict_info atlas_verdicts[ATLAS_NVERDICTS] = {
    [ATLAS_MATCH] = {"match", 0, "matched its rules"},
    [ATLAS_MISMATCH] = {"mismatch", 1, "did not match its rules"},
    [ATLAS_SKIP] = {"skip", 77, "could not run here"},
    [ATLAS_ERROR] = {"error", 99, "harness error: nothing was judged"},
    [ATLAS_FLAKY] = {"flaky", 1, "differed between repeats"},
};

int atlas_verdict_named(const char *name)
{
    for (int v = 0; v < ATLAS_NVERDICTS; v++)
        if (strcmp(atlas_verdicts[v].name, name) == 0)
            return v;
    return -1;
}

void atlas_judgement_add(struct atlas_judgement *j, const char *fmt, ...)
{
    if (j->nmismatches == ATLAS_MAX_MISMATCHES) {
        j->dropped_mismatches++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->mismatches[j->nmismatches++], sizeof j->mismatches[0], fmt, ap);
    va_end(ap);
}

static void mismatch(struct atlas_judgement *j, const struct atlas_rule *r, const char *fmt, ...)
{
    if (j->verdict != ATLAS_ERROR)
        j->verdict = ATLAS_MISMATCH;
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (r)
        atlas_judgement_add(j, "%s (rule %s:%d)", text, r->file, r->line);
    else
        atlas_judgement_add(j, "%s (no rule: the default expects success)", text);
}

static const struct atlas_rule *find(const struct atlas_rules *rules, const struct atlas_fingerprint *fp,
                                     const char *case_name, const char *variant, const char *step,
                                     struct atlas_judgement *j)
{
    bool contradiction;
    char err[1024];
    const struct atlas_rule *r = atlas_rules_find(rules, fp, case_name, variant, step, &contradiction, err, sizeof err);
    if (contradiction) {
        j->verdict = ATLAS_ERROR;
        snprintf(j->error, sizeof j->error, "%s", err);
    }
    return r;
}

static void judge_steps(const struct atlas_rules *rules, const struct atlas_fingerprint *fp, const char *case_name,
                        const char *variant, const struct atlas_observed *o, struct atlas_judgement *j,
                        bool *expected_failure_seen)
{
    for (int i = 0; i < o->nsteps; i++) {
        const struct atlas_step *s = &o->steps[i];
        const struct atlas_rule *r = j->step_rule[i] = find(rules, fp, case_name, variant, s->step, j);
        bool ok = r ? atlas_expected_includes(r->expected, s->name) : s->success;
        j->step_verdict[i] = ok ? "match" : "mismatch";
        if (!ok)
            mismatch(j, r, "%s: observed %s (%ld), expected %s", s->step, s->name, s->code,
                     r ? r->expected : "success");
        if (ok && !s->success)
            *expected_failure_seen = true;
    }
}

/* A rule naming a step that never ran: fine if it expects not-reached, or if
 * the case stopped early because an earlier step failed exactly as its own
 * rule said; otherwise the outcome changed. */
static void judge_unreached(const struct atlas_rules *rules, const struct atlas_fingerprint *fp,
                            const char *case_name, const char *variant, const struct atlas_observed *o,
                            struct atlas_judgement *j, bool expected_failure_seen)
{
    for (size_t i = 0; i < rules->n; i++) {
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
        if (j->nunreached < ATLAS_MAX_UNREACHED) {
            j->unreached[j->nunreached].rule = r;
            j->unreached[j->nunreached++].verdict = v;
        } else {
            j->dropped_unreached++;
        }
        if (strcmp(v, "mismatch") == 0)
            mismatch(j, r, "%s: never reached, expected %s", r->step, r->expected);
    }
}

void atlas_judge(const struct atlas_rules *rules, const struct atlas_fingerprint *fp, const char *case_name,
                 const char *variant, const struct atlas_observed *o, const struct atlas_end *end,
                 struct atlas_judgement *j)
{
    memset(j, 0, sizeof *j);
    j->verdict = ATLAS_MATCH;
    j->nsteps = o->nsteps;
    j->step_rule = calloc((size_t)o->nsteps + 1, sizeof *j->step_rule);
    j->step_verdict = calloc((size_t)o->nsteps + 1, sizeof *j->step_verdict);
    if (!j->step_rule || !j->step_verdict) {
        j->verdict = ATLAS_ERROR;
        j->nsteps = 0;
        snprintf(j->error, sizeof j->error, "out of memory judging %d steps", o->nsteps);
        return;
    }
    if (end->kind == END_NOT_STARTED) {
        j->verdict = ATLAS_ERROR;
        snprintf(j->error, sizeof j->error, "the case could not be started: %s", end->err);
        return;
    }
    /* a case that said it cannot run here and then exited was skipped, whatever the exit code: a wrapper may put its
     * own in place of 77 (compute-sanitizer ends a program that made no CUDA call with 255), and that is not a run */
    if (o->skip[0] && end->kind == END_EXIT) {
        j->verdict = ATLAS_SKIP;
        for (int i = 0; i < o->nsteps; i++) /* what ran before the skip is not judged */
            j->step_verdict[i] = "skipped";
        return;
    }

    bool expected_failure_seen = false;
    judge_steps(rules, fp, case_name, variant, o, j, &expected_failure_seen);
    j->end_rule = find(rules, fp, case_name, variant, "end", j);
    bool end_ok = j->end_rule ? atlas_expected_includes(j->end_rule->expected, end->text)
                              : strcmp(end->text, "exit:0") == 0;
    j->end_verdict = end_ok ? "match" : "mismatch";
    if (!end_ok)
        mismatch(j, j->end_rule, "the process ended with %s, expected %s", end->text,
                 j->end_rule ? j->end_rule->expected : "exit:0");
    judge_unreached(rules, fp, case_name, variant, o, j, expected_failure_seen);
    if (j->verdict == ATLAS_ERROR)
        j->nmismatches = j->dropped_mismatches = 0;
}

void atlas_judgement_free(struct atlas_judgement *j)
{
    free(j->step_rule);
    free(j->step_verdict);
    j->step_rule = NULL;
    j->step_verdict = NULL;
    j->nsteps = 0;
}

const char *atlas_surfaced_at(const char *text)
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

const char *atlas_sticky(const struct atlas_observed *o)
{
    for (int i = o->nsteps - 1; i >= 0; i--)
        if (strcmp(o->steps[i].step, "probe") == 0) {
            const char *name = o->steps[i].name;
            if (o->steps[i].success)
                return "false";
            if (strcmp(name, "cudaErrorInsufficientDriver") == 0 || strcmp(name, "cudaErrorNoDevice") == 0)
                return "null";
            return "true";
        }
    return "null";
}

void atlas_signature(const struct atlas_observed *o, const struct atlas_end *end, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < o->nsteps && n < size; i++)
        n += (size_t)snprintf(out + n, size - n, "%s=%s ", o->steps[i].step, o->steps[i].name);
    if (n < size)
        snprintf(out + n, size - n, "end=%s", end->text);
}
