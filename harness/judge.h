/* judge.h — judging one run: observations, rules and fingerprint in, verdict
 * out. A pure function: no files, no processes, so it is tested in memory.
 * Also the one table of verdict names and their exit codes. */
#ifndef ATLAS_JUDGE_H
#define ATLAS_JUDGE_H

#include "process.h"
#include "record.h"
#include "rules.h"

enum atlas_verdict { ATLAS_MATCH, ATLAS_MISMATCH, ATLAS_SKIP, ATLAS_ERROR, ATLAS_FLAKY, ATLAS_NVERDICTS };

/* The exit-code contract of a case's test: 0 match, 1 mismatch (or flaky),
 * 77 skipped, 99 harness error. */
struct atlas_verdict_info {
    const char *name; /* as results files write it */
    int exit_code;
    const char *what; /* for summaries */
};
extern const struct atlas_verdict_info atlas_verdicts[ATLAS_NVERDICTS];

/* The verdict a results file names, or -1. */
int atlas_verdict_named(const char *name);

#define ATLAS_MAX_MISMATCHES 32
#define ATLAS_MAX_UNREACHED 64

struct atlas_judgement {
    enum atlas_verdict verdict; /* MATCH, MISMATCH, SKIP or ERROR (FLAKY comes from repeats) */
    int nsteps;                 /* per observed step: */
    const struct atlas_rule **step_rule; /*   the rule that decided, or NULL (success expected) */
    const char **step_verdict;           /*   "match", "mismatch" or "skipped" */
    char mismatches[ATLAS_MAX_MISMATCHES][512];
    int nmismatches, dropped_mismatches;
    char error[1024];
    const struct atlas_rule *end_rule;
    const char *end_verdict;
    struct {
        const struct atlas_rule *rule;
        const char *verdict; /* "match" (expects not-reached), "waived" or "mismatch" */
    } unreached[ATLAS_MAX_UNREACHED];
    int nunreached, dropped_unreached;
};

void atlas_judge(const struct atlas_rules *rules, const struct atlas_fingerprint *fp, const char *case_name,
                 const char *variant, const struct atlas_observed *o, const struct atlas_end *end,
                 struct atlas_judgement *j);
void atlas_judgement_free(struct atlas_judgement *j);

/* Adds a mismatch line (counting it as dropped past the cap). */
void atlas_judgement_add(struct atlas_judgement *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Where a call's error surfaced: "synchronize" (waits for the device),
 * "query" (reads a status without waiting) or "call". */
const char *atlas_surfaced_at(const char *call_text);

/* After the variant, the probe: "true" (the context is unusable), "false",
 * or "null" (no probe, or no driver or device: there never was a context). */
const char *atlas_sticky(const struct atlas_observed *o);

/* What a run looked like, to compare repeats ("step=NAME ... end=exit:0"). */
void atlas_signature(const struct atlas_observed *o, const struct atlas_end *end, char *out, size_t size);

#endif
