/* atlas-run — the command line: runs a case variant and judges it, and keeps
 * the run's state folder. Reading records is record.c, judging judge.c,
 * writing results part.c and collect.c, running a process process.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "results.h"

static const char usage[] =
    "usage: atlas-run COMMAND [OPTIONS]\n"
    "\n"
    "  begin    --parts DIR --fingerprint FILE --fingerprint-program PROGRAM\n"
    "           start a run: clear DIR, mark when the run began, write the fingerprint\n"
    "           ($ATLAS_REPLAY=DIR: copy DIR/fingerprint.txt instead of running PROGRAM)\n"
    "  case     --case NAME --variant fixed|broken --rules DIR --fingerprint FILE --parts DIR\n"
    "           [--family F] [--source PATH] [--timeout S] [--repeat N] [--budget S]\n"
    "           [--nondeterministic] [--skip-reason TEXT] -- PROGRAM\n"
    "           run PROGRAM VARIANT in its own process group, judge it, write DIR/CASE.VARIANT.json\n"
    "             --timeout S       seconds one run may take, times $ATLAS_TIMEOUT_MULTIPLIER (default 60)\n"
    "             --repeat N        runs, each judged; differing runs are flaky (default $ATLAS_REPEAT, else 1; at most 100)\n"
    "             --budget S        seconds for all runs together: a repeat that would not fit is not\n"
    "                               started, so a hang is always the runner's timeout (default: none)\n"
    "             --nondeterministic  differing repeats are not flaky (the rules list every outcome)\n"
    "             --skip-reason T   the case could not be built here: record a skip with reason T\n"
    "           $ATLAS_WRAPPER: a command to run PROGRAM under (compute-sanitizer --tool memcheck)\n"
    "           $ATLAS_REPLAY=DIR: judge DIR/CASE.VARIANT.{record,end,stdout,stderr} instead of running\n"
    "  collect  --parts DIR --fingerprint FILE --registered FILE --out DIR [--report PATH]\n"
    "           join the parts into OUT/ID.json when every registered variant ran without a harness\n"
    "           error, else OUT/ID.partial.json (ID.json is never replaced by a partial run); print one\n"
    "           line per verdict. Exit 0 all matched, 1 a mismatch or flake, 99 a harness error, a\n"
    "           missing part or no runs at all\n"
    "  summary  --parts DIR      print what the last collect said, once (CTest runs it at the end)\n"
    "  lint     --rules DIR [--root DIR (.)] [--cases a,b,...]\n"
    "           every rule parses, names a case that exists, cites files that exist\n"
    "  record   FILE KIND [FIELD...] [KIND [FIELD...]]...\n"
    "           append records to FILE in the case record format (harness/record.h)\n"
    "\n"
    "Exit codes of case: 0 match, 1 mismatch or flaky, 77 skip, 99 harness error.\n";

static bool has_flag(int argc, char **argv, const char *name)
{
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], name) == 0)
            return true;
    return false;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- one run, or a replayed one ----------------------------------------- */

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

/* ---- the case command -------------------------------------------------- */

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

static int run_case(int argc, char **argv)
{
    static char signatures[ATLAS_MAX_REPEATS][2048];
    const char *parts = atlas_need(argc, argv, "--parts");
    struct atlas_run run = {.case_name = atlas_need(argc, argv, "--case"),
                            .variant = atlas_need(argc, argv, "--variant"),
                            .family = atlas_opt(argc, argv, "--family", ""),
                            .source = atlas_opt(argc, argv, "--source", ""),
                            .signatures = signatures,
                            .nondeterministic = has_flag(argc, argv, "--nondeterministic")};
    struct case_options c = {.limit = strtod(atlas_opt(argc, argv, "--timeout", "60"), NULL) * atlas_timeout_multiplier(),
                             .budget = strtod(atlas_opt(argc, argv, "--budget", "0"), NULL)};
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
        snprintf(j.error, sizeof j.error, "--repeat (or $ATLAS_REPEAT) takes 1 to %d", ATLAS_MAX_REPEATS);
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

/* ---- lint and record ------------------------------------------------------ */

static int lint(int argc, char **argv)
{
    const char *dir = atlas_need(argc, argv, "--rules"), *root = atlas_opt(argc, argv, "--root", ".");
    const char *cases = atlas_opt(argc, argv, "--cases", NULL);
    char err[1024];
    struct atlas_rules rules = {0};
    if (atlas_rules_load_dir(&rules, dir, err, sizeof err) != 0) {
        printf("%s\n", err);
        return atlas_verdicts[ATLAS_ERROR].exit_code;
    }
    static char list[1 << 16];
    snprintf(list, sizeof list, ",%s,", cases ? cases : "");
    int problems = 0;
    for (size_t i = 0; i < rules.n; i++) {
        const struct atlas_rule *r = &rules.rule[i];
        char want[128];
        snprintf(want, sizeof want, ",%s,", r->case_name);
        if (cases && strcmp(r->case_name, "*") != 0 && !strstr(list, want)) {
            printf("%s:%d: no case is named '%s'\n", r->file, r->line, r->case_name);
            problems++;
        }
        /* Every results file a citation names (run:A run:B ...) must exist. */
        char cite[sizeof r->cite];
        snprintf(cite, sizeof cite, "%s", r->cite);
        for (char *save = NULL, *t = strtok_r(cite, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            char path[1200];
            snprintf(path, sizeof path, "%s/%s", root, t + 4);
            if (strncmp(t, "run:", 4) == 0 && access(path, R_OK) != 0) {
                printf("%s:%d: the cited results file %s does not exist\n", r->file, r->line, t + 4);
                problems++;
            }
        }
    }
    printf("%zu rules checked, %d problem%s\n", rules.n, problems, problems == 1 ? "" : "s");
    atlas_rules_free(&rules);
    return problems ? atlas_verdicts[ATLAS_ERROR].exit_code : 0;
}

/* Appends records through the one writer, for tools in other languages
 * (reports/replay.py): each KIND is followed by as many fields as it takes. */
static int record(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "atlas-run record: name the record file (atlas-run --help)\n");
        return atlas_verdicts[ATLAS_ERROR].exit_code;
    }
    int fd = atlas_record_open(argv[0]);
    if (fd < 0) {
        fprintf(stderr, "atlas-run record: cannot open %s: %s\n", argv[0], strerror(errno));
        return atlas_verdicts[ATLAS_ERROR].exit_code;
    }
    for (int i = 1; i < argc;) {
        int n = atlas_record_fields(argv[i]);
        if (n < 0 || i + n >= argc) {
            fprintf(stderr, "atlas-run record: '%s' at argument %d is not a record kind with %d fields after it\n",
                    argv[i], i + 2, n);
            close(fd);
            return atlas_verdicts[ATLAS_ERROR].exit_code;
        }
        atlas_record_write(fd, argv[i], n, (const char *const *)argv + i + 1);
        i += n + 1;
    }
    close(fd);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } commands[] = {{"case", run_case},    {"begin", atlas_begin}, {"collect", atlas_collect},
                    {"summary", atlas_show_summary}, {"lint", lint}, {"record", record}};
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    for (size_t i = 0; argc >= 2 && i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            if (has_flag(argc - 2, argv + 2, "--help")) {
                fputs(usage, stdout);
                return 0;
            }
            return commands[i].run(argc - 2, argv + 2);
        }
    fputs(usage, stderr);
    return atlas_verdicts[ATLAS_ERROR].exit_code;
}
