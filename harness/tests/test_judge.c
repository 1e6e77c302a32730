/* Judging in memory: observations, rules and fingerprint in, verdict out —
 * no files, no processes. */
#define _GNU_SOURCE
#include "check.h"
#include "judge.h"

#include <stdlib.h>

static struct atlas_rules rules;
static struct atlas_fingerprint fp;

static void load_rules(const char *text)
{
    char err[512] = "", buf[4096];
    atlas_rules_free(&rules);
    snprintf(buf, sizeof buf, "%s", text);
    int line = 0;
    for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (atlas_rules_parse_line(&rules, "t.rules", ++line, l, err, sizeof err) != 0)
            printf("bad test rule: %s\n", err);
}

static void add_step(struct atlas_observed *o, const char *step, const char *name, long code, bool success)
{
    if (o->nsteps == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 8;
        o->steps = realloc(o->steps, (size_t)o->cap * sizeof *o->steps);
    }
    struct atlas_step *s = &o->steps[o->nsteps++];
    memset(s, 0, sizeof *s);
    snprintf(s->step, sizeof s->step, "%s", step);
    snprintf(s->api, sizeof s->api, "cuda");
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->text, sizeof s->text, "%s()", step);
    s->code = code;
    s->success = success;
}

static struct atlas_end ended(const char *text)
{
    struct atlas_end end = {.kind = END_EXIT};
    snprintf(end.text, sizeof end.text, "%s", text);
    if (strncmp(text, "signal:", 7) == 0)
        end.kind = END_SIGNAL;
    if (strncmp(text, "exit:", 5) == 0)
        end.code = atoi(text + 5);
    return end;
}

/* Judges o under rules_text; checks the verdict and, if given, what the first
 * mismatch says. j is left for more checks (atlas_judgement_free it). */
static void expect(const char *rules_text, const struct atlas_observed *o, const char *end_text,
                   enum atlas_verdict verdict, const char *first_mismatch, struct atlas_judgement *j);

static enum atlas_verdict judged(const struct atlas_observed *o, const char *end_text, struct atlas_judgement *j)
{
    struct atlas_end end = ended(end_text);
    atlas_judge(&rules, &fp, "c", "broken", o, &end, j);
    return j->verdict;
}

static void expect(const char *rules_text, const struct atlas_observed *o, const char *end_text,
                   enum atlas_verdict verdict, const char *first_mismatch, struct atlas_judgement *j)
{
    if (rules_text)
        load_rules(rules_text);
    CHECK_INT(judged(o, end_text, j), verdict);
    if (first_mismatch)
        CHECK_CONTAINS(j->nmismatches ? j->mismatches[0] : "", first_mismatch);
}

int main(void)
{
    fp.n = 2;
    snprintf(fp.key[0], sizeof fp.key[0], "driver");
    snprintf(fp.value[0], sizeof fp.value[0], "580.159.04");
    snprintf(fp.key[1], sizeof fp.key[1], "mode");
    snprintf(fp.value[1], sizeof fp.value[1], "default");
    struct atlas_judgement j;
    struct atlas_observed o = {0};

    /* the one table of verdicts: names and the exit-code contract */
    CHECK_STR(atlas_verdicts[ATLAS_MATCH].name, "match");
    CHECK_INT(atlas_verdicts[ATLAS_SKIP].exit_code, 77);
    CHECK_INT(atlas_verdicts[ATLAS_ERROR].exit_code, 99);
    CHECK_INT(atlas_verdict_named("flaky"), ATLAS_FLAKY);
    CHECK_INT(atlas_verdict_named("bogus"), -1);

    /* a failing step with its rule matches; the rule is named */
    load_rules("c broken gemm CUBLAS_STATUS_INVALID_VALUE cite=doc:t\n");
    add_step(&o, "create", "CUBLAS_STATUS_SUCCESS", 0, true);
    add_step(&o, "gemm", "CUBLAS_STATUS_INVALID_VALUE", 7, false);
    CHECK_INT(judged(&o, "exit:0", &j), ATLAS_MATCH);
    CHECK(j.step_rule[1] == &rules.rule[0]);
    CHECK_STR(j.step_verdict[0], "match");
    atlas_judgement_free(&j);

    /* success is what the case recorded, not what the name looks like: a
     * "success" name recorded as a failure is a mismatch without a rule */
    struct atlas_observed odd = {0};
    add_step(&odd, "query", "cudaSuccess", 0, false);
    expect("", &odd, "exit:0", ATLAS_MISMATCH, "query: observed cudaSuccess (0), expected success (no rule", &j);
    atlas_judgement_free(&j);
    /* ... and a code whose name is unknown but recorded as success is fine */
    odd.nsteps = 0;
    add_step(&odd, "launch", "<unknown:0>", 0, true);
    expect(NULL, &odd, "exit:0", ATLAS_MATCH, NULL, &j);
    atlas_judgement_free(&j);

    /* the process end, and a rule for it */
    expect("c broken gemm CUBLAS_STATUS_INVALID_VALUE cite=doc:t\n", &o, "signal:SIGSEGV", ATLAS_MISMATCH,
           "the process ended with signal:SIGSEGV, expected exit:0", &j);
    atlas_judgement_free(&j);

    /* a rule whose step never ran: a mismatch, unless waived by an expected failure */
    struct atlas_observed early = {0};
    add_step(&early, "create", "CUBLAS_STATUS_SUCCESS", 0, true);
    expect("c broken sync cudaErrorIllegalAddress cite=doc:t\n", &early, "exit:0", ATLAS_MISMATCH,
           "sync: never reached, expected cudaErrorIllegalAddress", &j);
    CHECK_STR(j.unreached[0].verdict, "mismatch");
    atlas_judgement_free(&j);
    load_rules("c broken create CUBLAS_STATUS_NOT_INITIALIZED cite=doc:t\nc broken sync cudaErrorIllegalAddress cite=doc:t\n");
    early.nsteps = 0;
    add_step(&early, "create", "CUBLAS_STATUS_NOT_INITIALIZED", 1, false);
    CHECK_INT(judged(&early, "exit:0", &j), ATLAS_MATCH);
    CHECK_STR(j.unreached[0].verdict, "waived");
    atlas_judgement_free(&j);

    /* an environment-wide rule applies to every case, and is never "unreached" */
    load_rules("* * create CUBLAS_STATUS_NOT_INITIALIZED driver=none cite=doc:t\n");
    CHECK_INT(judged(&early, "exit:0", &j), ATLAS_MISMATCH); /* this fingerprint has a driver */
    atlas_judgement_free(&j);
    snprintf(fp.value[0], sizeof fp.value[0], "none");
    CHECK_INT(judged(&early, "exit:0", &j), ATLAS_MATCH);
    CHECK_INT(j.nunreached, 0);
    atlas_judgement_free(&j);
    snprintf(fp.value[0], sizeof fp.value[0], "580.159.04");

    /* a skip judges nothing, and says so step by step */
    struct atlas_observed skipped = {0};
    add_step(&skipped, "count", "cudaSuccess", 0, true);
    snprintf(skipped.skip, sizeof skipped.skip, "needs two GPUs");
    CHECK_INT(judged(&skipped, "exit:77", &j), ATLAS_SKIP);
    CHECK_STR(j.step_verdict[0], "skipped");
    atlas_judgement_free(&j);
    /* ... also where a wrapper ended it with its own code (compute-sanitizer's 255 for a program that made no CUDA
     * call): the case said it did not run, so no rule may judge it */
    load_rules("c broken end exit:255 cite=doc:t\n");
    CHECK_INT(judged(&skipped, "exit:255", &j), ATLAS_SKIP);
    atlas_judgement_free(&j);
    /* a skip record and a crash is not a skip (the process did not end as a skip does) */
    CHECK(judged(&skipped, "signal:SIGSEGV", &j) != ATLAS_SKIP);
    atlas_judgement_free(&j);

    /* a case that never started is a harness error, with the reason */
    struct atlas_end none = {.kind = END_NOT_STARTED};
    snprintf(none.err, sizeof none.err, "cannot run x: No such file");
    atlas_judge(&rules, &fp, "c", "broken", &o, &none, &j);
    CHECK_INT(j.verdict, ATLAS_ERROR);
    CHECK_CONTAINS(j.error, "could not be started: cannot run x");
    atlas_judgement_free(&j);

    /* two rules that apply equally and disagree: a harness error naming both */
    load_rules("c broken gemm CUBLAS_STATUS_INVALID_VALUE driver>=500 cite=doc:t\n"
               "c broken gemm CUBLAS_STATUS_NOT_SUPPORTED mode=default cite=doc:t\n");
    CHECK_INT(judged(&o, "exit:0", &j), ATLAS_ERROR);
    CHECK_CONTAINS(j.error, "t.rules:2: contradicts t.rules:1");
    CHECK_INT(j.nmismatches, 0);
    atlas_judgement_free(&j);

    /* nothing dropped silently: mismatches past the cap are counted */
    load_rules("");
    struct atlas_observed many = {0};
    for (int i = 0; i < ATLAS_MAX_MISMATCHES + 8; i++)
        add_step(&many, "s", "cudaErrorUnknown", 999, false);
    CHECK_INT(judged(&many, "exit:0", &j), ATLAS_MISMATCH);
    CHECK_INT(j.nmismatches, ATLAS_MAX_MISMATCHES);
    CHECK_INT(j.dropped_mismatches, 8);
    atlas_judgement_free(&j);

    /* the pure helpers */
    CHECK_STR(atlas_surfaced_at("cudaDeviceSynchronize()"), "synchronize");
    CHECK_STR(atlas_surfaced_at("cudaGetLastError()"), "query");
    CHECK_STR(atlas_surfaced_at("cublasSgemm(h, ...)"), "call");
    struct atlas_observed probed = {0};
    add_step(&probed, "probe", "cudaErrorIllegalAddress", 700, false);
    CHECK_STR(atlas_sticky(&probed), "true");
    probed.nsteps = 0;
    add_step(&probed, "probe", "cudaErrorInsufficientDriver", 35, false);
    CHECK_STR(atlas_sticky(&probed), "null");
    char sig[256];
    struct atlas_end e0 = ended("exit:0");
    atlas_signature(&o, &e0, sig, sizeof sig);
    CHECK_STR(sig, "create=CUBLAS_STATUS_SUCCESS gemm=CUBLAS_STATUS_INVALID_VALUE end=exit:0");

    atlas_observed_free(&o), atlas_observed_free(&odd), atlas_observed_free(&early);
    atlas_observed_free(&skipped), atlas_observed_free(&many), atlas_observed_free(&probed);
    atlas_rules_free(&rules);
    return check_report();
}
