/* case.c — the case command: run a variant (or replay what it recorded)
 * within its time limits, judge every run, write its part and summary. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "results.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* $ATLAS_REPLAY: judge what a run recorded (reports/replay.py writes it from
 * a results file) instead of running the program — to check new rules
 * against observations made elsewhere. The observations are not changed. */
static bool replay(const char *stem, struct atlas_observed *o, struct atlas_end *end)
{
    const char *dir = getenv("ATLAS_REPLAY");
    if (!dir || !*dir)
        return false;
    char path[1200], line[128] = "";
    memset(end, 0, sizeof *end);
    memset(o, 0, sizeof *o);
    snprintf(path, sizeof path, "%s/%s.end", dir, stem);
    atlas_read_text(path, line, sizeof line);
    if (sscanf(line, "%63s %lf %d", end->text, &end->seconds, &end->code) < 1) {
        end->kind = END_NOT_STARTED;
        snprintf(end->err, sizeof end->err, "no recorded run in %s", path);
        return true;
    }
    end->kind = strncmp(end->text, "exit:", 5) == 0     ? END_EXIT
                : strncmp(end->text, "signal:", 7) == 0 ? END_SIGNAL
                                                        : END_TIMEOUT;
    snprintf(path, sizeof path, "%s/%s.stdout", dir, stem);
    atlas_read_text(path, end->out, sizeof end->out);
    snprintf(path, sizeof path, "%s/%s.stderr", dir, stem);
    atlas_read_text(path, end->err, sizeof end->err);
    snprintf(path, sizeof path, "%s/%s.record", dir, stem);
    atlas_record_read(path, o);
    return true;
}

static void run_once(char *args[], char *extra_env[], double limit, const char *record, struct atlas_observed *o,
                     struct atlas_end *end)
{
    unlink(record);
    atlas_run_process(args, extra_env, limit, end);
    atlas_record_read(record, o); /* nothing, if it never started */
}

static void print_run(const struct atlas_run *run)
{
    const struct atlas_observed *o = run->o;
    const struct atlas_judgement *j = run->j;
    for (int i = 0; i < o->nsteps; i++) {
        const struct atlas_step *s = &o->steps[i];
        const struct atlas_rule *r = i < j->nsteps ? j->step_rule[i] : NULL;
        const char *v = i < j->nsteps ? j->step_verdict[i] : NULL;
        printf("  [%s] %s -> %s (%ld)", s->step, s->text, s->name, s->code);
        if (r)
            printf("   expected %s (%s:%d)", r->expected, r->file, r->line);
        printf("%s\n", v && strcmp(v, "mismatch") == 0 ? "   <-- MISMATCH" : "");
    }
    for (int i = 0; i < o->nquantities; i++)
        printf("  %s = %s %s\n", o->quantities[i][0], o->quantities[i][1], o->quantities[i][2]);
    const char *sticky = atlas_sticky(o);
    printf("  end: %s after %.2f s, context after: %s\n", run->end->text, run->end->seconds,
           strcmp(sticky, "true") == 0 ? "unusable (sticky error)" : strcmp(sticky, "false") == 0 ? "usable" : "not probed");
    if (run->harness_note[0])
        printf("  note: %s\n", run->harness_note);
    const char *c = run->case_name, *v = run->variant;
    switch (run->verdict) {
    case ATLAS_MATCH: printf("%s %s: match\n", c, v); break;
    case ATLAS_SKIP: printf("%s %s: skip: %s\n", c, v, o->skip); break;
    case ATLAS_ERROR: printf("%s %s: harness error: %s\n", c, v, j->error); break;
    case ATLAS_FLAKY:
        printf("%s %s: FLAKY over %d runs:\n", c, v, run->repeats);
        for (int i = 0; i < run->repeats; i++)
            printf("  run %d: %s\n", i + 1, run->signatures[i]);
        for (int i = 0; i < j->nmismatches; i++)
            printf("  mismatch: %s\n", j->mismatches[i]);
        break;
    default:
        printf("%s %s: MISMATCH\n", c, v);
        for (int i = 0; i < j->nmismatches; i++)
            printf("  mismatch: %s\n", j->mismatches[i]);
        if (run->end->err[0])
            printf("  stderr tail:\n%s\n", run->end->err);
    }
}

/* Writes the part and its summary; returns the exit code of the verdict. */
static int finish(const char *parts, const char *stem, struct atlas_run *run)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s.json", parts, stem);
    FILE *f = fopen(path, "w");
    if (!f) {
        printf("%s %s: harness error: cannot write %s: %s\n", run->case_name, run->variant, path, strerror(errno));
        return atlas_verdicts[ATLAS_ERROR].exit_code;
    }
    atlas_write_part(f, run);
    fclose(f);
    snprintf(path, sizeof path, "%s/%s.summary", parts, stem);
    if ((f = fopen(path, "w")))
        atlas_write_summary(f, run), fclose(f);
    print_run(run);
    return atlas_verdicts[run->verdict].exit_code;
}

struct case_options {
    char *args[32];           /* [wrapper...] PROGRAM VARIANT */
    char record[1200], env_record[1300];
    double limit, budget;     /* seconds per run, for all runs (0: none) */
    int repeats;
};

/* Runs the variant `repeats` times within the budget, judging each run. */
static void run_repeats(const struct atlas_rules *rules, const struct atlas_fingerprint *fp, struct case_options *c,
                        struct atlas_run *run, struct atlas_observed *o, struct atlas_end *end,
                        struct atlas_judgement *j)
{
    char *extra_env[] = {c->env_record, NULL};
    double start = now(), margin = c->budget > 0 ? 1 + c->budget / 50 : 0;
    double limit = c->limit;
    if (c->budget > 0 && limit > c->budget - margin) {
        limit = c->budget - margin > 1 ? c->budget - margin : 1;
        snprintf(run->harness_note, sizeof run->harness_note,
                 "the time limit was cut from %.1f s to %.1f s to fit the total budget of %.0f s (--budget)", c->limit,
                 limit, c->budget);
    }
    run->timeout = limit;
    char stem[300];
    snprintf(stem, sizeof stem, "%s.%s", run->case_name, run->variant);
    if (replay(stem, o, end))
        c->repeats = run->repeats_requested = 1;
    else
        run_once(c->args, extra_env, limit, c->record, o, end);
    atlas_judge(rules, fp, run->case_name, run->variant, o, end, j);
    atlas_signature(o, end, run->signatures[0], sizeof run->signatures[0]);
    run->repeats = 1;
    /* Every repeat is judged, so an outcome no rule allows fails even when
     * it is rare. Repeats that differ from the first are flaky — unless the
     * case declares itself nondeterministic, when its rules list every outcome. */
    for (int r = 1; r < c->repeats; r++) {
        if (c->budget > 0 && c->budget - (now() - start) - margin < limit) {
            snprintf(run->harness_note, sizeof run->harness_note,
                     "stopped after %d of %d runs: the next would not fit in the total budget of %.0f s (--budget)", r,
                     c->repeats, c->budget);
            break;
        }
        struct atlas_observed again;
        struct atlas_end again_end;
        struct atlas_judgement again_judged;
        run_once(c->args, extra_env, limit, c->record, &again, &again_end);
        atlas_signature(&again, &again_end, run->signatures[r], sizeof run->signatures[r]);
        run->repeats = r + 1;
        run->flaky |= !run->nondeterministic && strcmp(run->signatures[r], run->signatures[0]) != 0;
        atlas_judge(rules, fp, run->case_name, run->variant, &again, &again_end, &again_judged);
        if (again_judged.verdict != ATLAS_MATCH && j->verdict != ATLAS_ERROR) {
            j->verdict = again_judged.verdict == ATLAS_ERROR ? ATLAS_ERROR : ATLAS_MISMATCH;
            for (int k = 0; k < again_judged.nmismatches; k++)
                atlas_judgement_add(j, "run %d of %d: %s", r + 1, c->repeats, again_judged.mismatches[k]);
            if (again_judged.verdict == ATLAS_ERROR)
                snprintf(j->error, sizeof j->error, "run %d of %d: %s", r + 1, c->repeats, again_judged.error);
        }
        atlas_judgement_free(&again_judged);
        atlas_observed_free(&again);
    }
    run->verdict = run->flaky && j->verdict != ATLAS_ERROR ? ATLAS_FLAKY : j->verdict;
}

int atlas_case(int argc, char **argv)
{
    static const struct atlas_option known[] = {
        {"--case", true},    {"--variant", true}, {"--rules", true},  {"--fingerprint", true},      {"--parts", true},
        {"--family", true},  {"--source", true},  {"--timeout", true}, {"--repeat", true},          {"--budget", true},
        {"--skip-reason", true}, {"--nondeterministic", false},        {NULL, false}};
    atlas_check_options("case", argc, argv, known);
    /* A limit that is not a number must never become a limit of 0 s: usage
     * errors, before anything is written. An out-of-range repeat count (0,
     * 500) is a recorded harness error below, as from $ATLAS_REPEAT. */
    double timeout = atlas_opt_number("case", argc, argv, "--timeout", "60", 1e-3, 1e6, false);
    double budget = atlas_opt_number("case", argc, argv, "--budget", "0", 0, 1e7, false);
    if (atlas_opt(argc, argv, "--repeat", NULL))
        atlas_opt_number("case", argc, argv, "--repeat", NULL, 0, 1e6, true);
    static char signatures[ATLAS_MAX_REPEATS][2048];
    const char *parts = atlas_need(argc, argv, "--parts");
    struct atlas_run run = {.case_name = atlas_need(argc, argv, "--case"),
                            .variant = atlas_need(argc, argv, "--variant"),
                            .family = atlas_opt(argc, argv, "--family", ""),
                            .source = atlas_opt(argc, argv, "--source", ""),
                            .signatures = signatures,
                            .nondeterministic = atlas_has_flag(argc, argv, "--nondeterministic")};
    struct case_options c = {.limit = timeout * atlas_timeout_multiplier(), .budget = budget};
    const char *repeat_env = getenv("ATLAS_REPEAT");
    c.repeats = run.repeats_requested = atoi(atlas_opt(argc, argv, "--repeat", repeat_env && *repeat_env ? repeat_env : "1"));
    char stem[300];
    snprintf(stem, sizeof stem, "%s.%s", run.case_name, run.variant);
    atlas_make_dir(parts);
    char path[1200];
    snprintf(path, sizeof path, "%s/%s.started", parts, stem); /* so that collect knows a missing part from an unrun one */
    FILE *started = fopen(path, "w");
    if (started)
        fclose(started);

    /* Whatever goes wrong from here is recorded in the part, never lost. */
    struct atlas_observed o = {0};
    struct atlas_end end = {.kind = END_NOT_STARTED, .text = "not-started"};
    struct atlas_judgement j = {.verdict = ATLAS_ERROR};
    run.o = &o, run.end = &end, run.j = &j, run.verdict = ATLAS_ERROR, run.repeats = 0;
    struct atlas_rules rules = {0};
    struct atlas_fingerprint fp;
    const char *skip_reason = atlas_opt(argc, argv, "--skip-reason", NULL);
    char *binary = NULL;
    for (int i = 0; i < argc - 1; i++)
        if (strcmp(argv[i], "--") == 0)
            binary = argv[i + 1];
    if (c.repeats < 1 || c.repeats > ATLAS_MAX_REPEATS) {
        snprintf(j.error, sizeof j.error, "--repeat (or $ATLAS_REPEAT) takes 1 to %d, not %d", ATLAS_MAX_REPEATS,
                 c.repeats);
        run.repeats_requested = 1;
    } else if (!binary) {
        snprintf(j.error, sizeof j.error, "atlas-run case: name the case's program after --");
    } else if (skip_reason) { /* registered, but it could not be built here */
        snprintf(o.skip, sizeof o.skip, "%s", skip_reason);
        end.kind = END_EXIT, end.code = atlas_verdicts[ATLAS_SKIP].exit_code;
        snprintf(end.text, sizeof end.text, "exit:%d", end.code);
        j.verdict = run.verdict = ATLAS_SKIP, run.repeats = run.repeats_requested = 1;
        atlas_signature(&o, &end, signatures[0], sizeof signatures[0]);
    } else if (atlas_rules_load_dir(&rules, atlas_need(argc, argv, "--rules"), j.error, sizeof j.error) == 0
               && atlas_fingerprint_load(&fp, atlas_need(argc, argv, "--fingerprint"), j.error, sizeof j.error) == 0) {
        /* An optional wrapper (compute-sanitizer, say) from $ATLAS_WRAPPER. */
        static char wrapper[1024];
        snprintf(wrapper, sizeof wrapper, "%s", getenv("ATLAS_WRAPPER") ? getenv("ATLAS_WRAPPER") : "");
        int nargs = 0;
        for (char *t = strtok(wrapper, " "); t && nargs < 28; t = strtok(NULL, " "))
            c.args[nargs++] = t;
        c.args[nargs++] = binary;
        c.args[nargs++] = (char *)run.variant;
        c.args[nargs] = NULL;
        snprintf(c.record, sizeof c.record, "%s/%s.record", parts, stem);
        snprintf(c.env_record, sizeof c.env_record, "ATLAS_RECORD=%s", c.record);
        run_repeats(&rules, &fp, &c, &run, &o, &end, &j);
    }
    if (run.verdict == ATLAS_ERROR && !j.error[0])
        snprintf(j.error, sizeof j.error, "%s", end.err);
    if (run.repeats == 0)
        run.repeats = 1, atlas_signature(&o, &end, signatures[0], sizeof signatures[0]);
    int rc = finish(parts, stem, &run);
    atlas_judgement_free(&j);
    atlas_observed_free(&o);
    atlas_rules_free(&rules);
    return rc;
}
