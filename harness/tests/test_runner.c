/* atlas-run end to end, on stand-in cases that need no GPU: match,
 * mismatch naming the rule's file:line, an outcome better than expected,
 * crashes, hangs, skips, flakes, bad rules, and the results file. */
#define _GNU_SOURCE
#include "check.h"
#include "process.h"
#include "record.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <utime.h>
#include <unistd.h>

static char runner[1024], helpers[1024], work[1024], source[1024], replay_env[1300] = "ATLAS_REPLAY=";
static int helper_notes;

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* Runs one case through atlas-run with the given rules; returns the exit code. */
static int run_case_in(const char *helper, const char *rules_text, const char *mode, const char *steps,
                       const char *variant, struct atlas_end *end)
{
    static int n;
    char rules_dir[1200], rules_file[1300], fp[1200], parts[1200], binary[1200];
    snprintf(rules_dir, sizeof rules_dir, "%s/rules%d", work, ++n);
    mkdir(rules_dir, 0755);
    snprintf(rules_file, sizeof rules_file, "%s/case.rules", rules_dir);
    write_file(rules_file, rules_text);
    snprintf(fp, sizeof fp, "%s/fingerprint.txt", work);
    snprintf(parts, sizeof parts, "%s/parts", work);
    snprintf(binary, sizeof binary, "%s/%s", helpers, helper);
    /* mode: NULL, "--repeat" (3 runs) or "--nondeterministic" (3 runs, declared) */
    bool nondeterministic = mode && strcmp(mode, "--nondeterministic") == 0;
    char *argv[] = {runner, "case", "--case", "helper_case", "--family", "tests", "--variant", (char *)variant,
                    "--rules", rules_dir, "--fingerprint", fp, "--parts", parts, "--timeout", "1",
                    "--source", "helpers/x.c", "--repeat", mode ? "3" : "1",
                    nondeterministic ? "--nondeterministic" : "--", nondeterministic ? "--" : binary,
                    nondeterministic ? binary : NULL, NULL};
    char env_steps[512], counter[1300];
    snprintf(env_steps, sizeof env_steps, "HELPER_STEPS=%s", steps ? steps : "");
    snprintf(counter, sizeof counter, "HELPER_COUNTER=%s/counter", work);
    char notes[64];
    snprintf(notes, sizeof notes, "HELPER_NOTES=%d", helper_notes);
    char *env[] = {env_steps, counter, replay_env, notes, NULL};
    atlas_run_process(argv, env, 60, end);
    return end->kind == END_EXIT ? end->code : -1;
}

static int run_case(const char *helper, const char *rules_text, const char *mode, const char *steps,
                    struct atlas_end *end)
{
    return run_case_in(helper, rules_text, mode, steps, "broken", end);
}

static int run_case_variant(const char *helper, const char *rules_text, const char *steps, const char *variant,
                            struct atlas_end *end)
{
    return run_case_in(helper, rules_text, NULL, steps, variant, end);
}

static char *read_all(const char *path)
{
    static char buf[1 << 20];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return buf;
}

static int run(char *argv[], char *env[], double limit, struct atlas_end *end)
{
    atlas_run_process(argv, env, limit, end);
    return end->kind == END_EXIT ? end->code : -1;
}

/* Item 3 of issue 12: the runner keeps every run within one total budget, so
 * a hang repeated is recorded as its timeout and CTest (here: the outer
 * limit, the budget plus CTest's margin) never has to kill the runner. */
static void time_limits(void)
{
    char rules[1200], fp[1200], parts[1200], binary[1200];
    snprintf(rules, sizeof rules, "%s/rules-empty", work);
    mkdir(rules, 0755);
    snprintf(fp, sizeof fp, "%s/fingerprint.txt", work);
    snprintf(parts, sizeof parts, "%s/parts", work);
    snprintf(binary, sizeof binary, "%s/helper_hangs", helpers);
    char *argv[] = {runner, "case", "--case", "helper_case", "--variant", "broken", "--rules", rules,
                    "--fingerprint", fp, "--parts", parts, "--timeout", "1", "--budget", "6", "--", binary, NULL};
    char repeat[] = "ATLAS_REPEAT=10", *env[] = {repeat, NULL};
    struct atlas_end end;
    CHECK_INT(run(argv, env, 8, &end), 1); /* a timeout no rule expects */
    CHECK_STR(end.text, "exit:1");
    CHECK(end.seconds < 7);
    char path[1300];
    snprintf(path, sizeof path, "%s/helper_case.broken.json", parts);
    char *part = read_all(path);
    CHECK_CONTAINS(part, "\"end\":{\"outcome\":\"timeout\"");
    CHECK_CONTAINS(part, "runs: the next would not fit in the total budget of 6 s (--budget)");
    CHECK_CONTAINS(part, "\"truncated\":{\"repeats\":");
    CHECK_CONTAINS(end.out, "ended with timeout");

    /* a repeat count out of range is a harness error, recorded like any other */
    char too_many[] = "ATLAS_REPEAT=500", *env3[] = {too_many, NULL};
    CHECK_INT(run(argv, env3, 8, &end), 99);
    CHECK_CONTAINS(end.out, "harness error: --repeat (or $ATLAS_REPEAT) takes 1 to 100, not 500");
    CHECK_CONTAINS(read_all(path), "\"truncated\":{}");

    /* ATLAS_TIMEOUT_MULTIPLIER past the budget: the one run's limit is cut to fit */
    char multiplier[] = "ATLAS_TIMEOUT_MULTIPLIER=30", *env2[] = {multiplier, NULL};
    argv[15] = "4";
    CHECK_INT(run(argv, env2, 6, &end), 1);
    CHECK(end.seconds < 5);
    part = read_all(path);
    CHECK_CONTAINS(part, "\"end\":{\"outcome\":\"timeout\"");
    CHECK_CONTAINS(part, "the time limit was cut from 30.0 s to");
}

static void write_registered(const char *path, const char *text) { write_file(path, text); }

static int collect(struct atlas_end *end)
{
    char fp[1200], parts[1200], out[1200], registered[1200];
    snprintf(fp, sizeof fp, "%s/fingerprint.txt", work);
    snprintf(parts, sizeof parts, "%s/parts", work);
    snprintf(out, sizeof out, "%s/results", work);
    snprintf(registered, sizeof registered, "%s/registered.txt", work);
    char *argv[] = {runner, "collect", "--fingerprint", fp, "--parts", parts, "--registered", registered,
                    "--out", out, "--report", "build/x/report/index.html", NULL};
    return run(argv, NULL, 30, end);
}

static void begin(void)
{
    char fp[1200], parts[1200], dir[1200], env[1300];
    snprintf(fp, sizeof fp, "%s/fingerprint.txt", work);
    snprintf(parts, sizeof parts, "%s/parts", work);
    snprintf(dir, sizeof dir, "%s/recorded-env", work); /* begin copies a recorded fingerprint from here */
    snprintf(env, sizeof env, "ATLAS_REPLAY=%s", dir);
    char *argv[] = {runner, "begin", "--fingerprint", fp, "--parts", parts, NULL}, *envp[] = {env, NULL};
    struct atlas_end end;
    CHECK_INT(run(argv, envp, 30, &end), 0);
    usleep(20 * 1000); /* parts written after this are newer than the begin marker on any clock */
}

static bool valid_json(const char *path, const char *check)
{
    char *validate[] = {"/usr/bin/env", "python3", "-c", (char *)check, (char *)path, NULL};
    struct atlas_end end;
    return run(validate, NULL, 30, &end) == 0;
}

/* A complete run of the stand-in's two variants; the rule makes both match. */
static void full_run(const char *match, const char *steps)
{
    struct atlas_end end;
    begin();
    CHECK_INT(run_case_variant("helper_records", match, steps, "broken", &end), 0);
    CHECK_INT(run_case_variant("helper_records", match, steps, "fixed", &end), 0);
}

/* Items 1 and 2 of issue 12: a filtered run never replaces the complete
 * results file, and collect fails (writing nothing that supersedes) when a
 * variant ended in a harness error, a part is missing, or nothing ran. */
static void collect_cases(void)
{
    const char *match = "helper_case * gemm CUBLAS_STATUS_INVALID_VALUE cite=doc:t\n";
    const char *steps = "gemm=CUBLAS_STATUS_INVALID_VALUE";
    char path[1300], complete[1300], partial[1300], dir[1200];
    snprintf(dir, sizeof dir, "%s/recorded-env", work);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/fingerprint.txt", dir);
    write_file(path, "driver=none\ncudart=13.0\nmode=default\nid=test-env\nlibrary.libcudart=/x/libcudart.so.13.0.96\nlibrary.libcuda=none\n");
    snprintf(path, sizeof path, "%s/registered.txt", work);
    write_registered(path, "tests/helper_case/broken\ntests/helper_case/fixed\n");
    snprintf(complete, sizeof complete, "%s/results/test-env.json", work);
    snprintf(partial, sizeof partial, "%s/results/test-env.partial.json", work);
    unlink(complete);
    struct atlas_end end;

    /* a full run: the complete file, with its coverage */
    full_run(match, steps);
    CHECK_INT(collect(&end), 0);
    CHECK_CONTAINS(end.out, "results: ");
    CHECK_CONTAINS(end.out, "test-env.json (complete: 2 of 2 variants)");
    CHECK_CONTAINS(end.out, "report:  build/x/report/index.html\n");
    CHECK_CONTAINS(end.out, "match        2  matched its rules\n");
    CHECK_CONTAINS(end.out, "mismatch     0");
    CHECK_CONTAINS(end.out, "no driver: every case stopped at its first CUDA call, so the lesson steps were not reached");
    CHECK(valid_json(complete, "import json,sys; r=json.load(open(sys.argv[1])); c=r['coverage'];"
                               "sys.exit(not (c=={'registered':2,'ran':2,'complete':True,'not_run':[],'errors':[]}"
                               " and len(r['runs'])==2 and r['environment']['libraries'][0]=="
                               "{'name':'libcudart','path':'/x/libcudart.so.13.0.96','version':'13.0.96'}"
                               " and r['environment']['libraries'][1]['path'] is None))"));
    char saved[1 << 16];
    snprintf(saved, sizeof saved, "%s", read_all(complete));

    /* ctest -R one_variant: a partial file; the complete one is left as it was */
    begin();
    CHECK_INT(run_case_variant("helper_records", match, "", "broken", &end), 1); /* what changed */
    CHECK_INT(collect(&end), 1);
    CHECK_CONTAINS(end.out, "test-env.partial.json (partial: 1 of 2 variants; the complete ");
    CHECK_CONTAINS(end.out, "not run      1  registered, not run in this run (a filtered run)");
    CHECK_STR(read_all(complete), saved);
    CHECK(valid_json(partial, "import json,sys; r=json.load(open(sys.argv[1])); c=r['coverage'];"
                              "sys.exit(not (c['complete'] is False and c['ran']==1 and c['not_run']==['tests/helper_case/fixed']"
                              " and r['runs'][0]['verdict']=='mismatch'))"));

    /* every variant a harness error (rules that do not parse): fails, and supersedes nothing */
    begin();
    CHECK_INT(run_case_variant("helper_records", "helper_case broken gemm X\n", steps, "broken", &end), 99);
    CHECK_INT(run_case_variant("helper_records", "helper_case broken gemm X\n", steps, "fixed", &end), 99);
    CHECK_INT(collect(&end), 99);
    CHECK_CONTAINS(end.out, "error        2  harness error");
    CHECK_CONTAINS(end.out, "helper_case/broken: ");
    CHECK_CONTAINS(end.out, "collect: FAILED");
    CHECK_STR(read_all(complete), saved);
    CHECK(valid_json(partial, "import json,sys; r=json.load(open(sys.argv[1])); c=r['coverage'];"
                              "sys.exit(not (c['complete'] is False and len(c['errors'])==2))"));

    /* no runs at all: fails, writes nothing */
    unlink(partial);
    begin();
    CHECK_INT(collect(&end), 99);
    CHECK_CONTAINS(end.out, "no runs: none of the 2 registered variants left a part; nothing written");
    CHECK(access(partial, F_OK) != 0);
    CHECK_STR(read_all(complete), saved);

    /* a variant the runner started but left no part for (killed): fails */
    begin();
    snprintf(path, sizeof path, "%s/parts/helper_case.fixed.started", work);
    write_file(path, "");
    CHECK_INT(run_case_variant("helper_records", match, steps, "broken", &end), 0);
    CHECK_INT(collect(&end), 99);
    CHECK_CONTAINS(end.out, "tests/helper_case/fixed: missing: the runner started it and wrote no part");
    CHECK_STR(read_all(complete), saved);

    /* a part older than this run's begin is stale: named and left out */
    full_run(match, steps);
    snprintf(path, sizeof path, "%s/parts/helper_case.fixed.json", work);
    struct utimbuf old = {1000000000, 1000000000};
    utime(path, &old);
    CHECK_INT(collect(&end), 99);
    CHECK_CONTAINS(end.out, "tests/helper_case/fixed: stale: ");
    CHECK_STR(read_all(complete), saved);

    /* a complete run again: it replaces the complete file and retires the partial overlay */
    full_run(match, steps);
    CHECK_INT(collect(&end), 0);
    CHECK(access(partial, F_OK) != 0);

    /* what collect said is printed once more at the end of ctest, once */
    char parts[1200];
    snprintf(parts, sizeof parts, "%s/parts", work);
    char *summary[] = {runner, "summary", "--parts", parts, NULL};
    CHECK_INT(run(summary, NULL, 30, &end), 0);
    CHECK_CONTAINS(end.out, "complete: 2 of 2 variants");
    CHECK_INT(run(summary, NULL, 30, &end), 0);
    CHECK_STR(end.out, "");
}

/* Issue 19, item 1: the results file is valid UTF-8 whatever a case
 * printed — bytes that are not UTF-8 become U+FFFD, and an output tail is
 * never cut inside a character — and the Python report reads it. */
static void utf8_output(void)
{
    char path[1300], out[1200], results[1300];
    snprintf(path, sizeof path, "%s/registered.txt", work);
    write_registered(path, "tests/helper_case/broken\ntests/helper_case/fixed\n");
    struct atlas_end end;
    begin();
    CHECK_INT(run_case_variant("helper_bad_utf8", "", NULL, "broken", &end), 0);
    CHECK_INT(run_case_variant("helper_bad_utf8", "", NULL, "fixed", &end), 0);
    CHECK_INT(collect(&end), 0);
    snprintf(results, sizeof results, "%s/results/test-env.json", work);
    CHECK(valid_json(results, "import json,sys; r=json.loads(open(sys.argv[1],'rb').read().decode('utf-8','strict'));"
                              "run=r['runs'][0]; o=run['stdout_tail'];"
                              "sys.exit(not (run['stderr_tail']=='bad \\ufffd|\\ufffd|\\ufffd|end\\n'"
                              " and o=='\\u20ac'*2730+'\\n' and run['truncated']['stdout_tail']==12001-8191))"));
    /* the report reads it (from the source tree, where the package is) */
    if (!source[0])
        return;
    snprintf(out, sizeof out, "%s/report-utf8", work);
    char *report[] = {"/usr/bin/env", "python3", "-m", "cuda_error_atlas", "report", "build", "--out", out,
                      results, NULL};
    char pythonpath[1300];
    snprintf(pythonpath, sizeof pythonpath, "PYTHONPATH=%s", source);
    char *env[] = {pythonpath, NULL};
    CHECK_INT(run(report, env, 120, &end), 0);
    if (end.kind != END_EXIT || end.code != 0)
        printf("report build said:\n%s\n%s\n", end.out, end.err);
}

/* Issue 19, item 2: options are strict. A misspelt option or a limit that
 * is not a number is a usage error (2) naming the option, never a run with
 * a 0-second limit. */
static void strict_options(void)
{
    char rules[1200], fp[1200], parts[1200], binary[1200];
    snprintf(rules, sizeof rules, "%s/rules-empty", work);
    mkdir(rules, 0755);
    snprintf(fp, sizeof fp, "%s/fingerprint.txt", work);
    snprintf(parts, sizeof parts, "%s/parts-strict", work);
    snprintf(binary, sizeof binary, "%s/helper_records", helpers);
    char path[1300];
    snprintf(path, sizeof path, "%s/helper_case.broken.started", parts);
    unlink(path); /* left by the last test run's good run below */
    static const struct {
        const char *option, *value, *message;
    } bad[] = {
        {"--timout", "5", "atlas-run case: unknown option '--timout'"},
        {"--timeout", "abc", "atlas-run case: --timeout takes a number from 0.001 to 1e+06, not 'abc'"},
        {"--timeout", "5s", "--timeout takes a number"},
        {"--timeout", "-1", "--timeout takes a number"},
        {"--timeout", "0", "--timeout takes a number"},
        {"--timeout", "1e999", "--timeout takes a number"},
        {"--timeout", "nan", "--timeout takes a number"},
        {"--timeout", "", "--timeout takes a number"},
        {"--repeat", "x", "atlas-run case: --repeat takes a whole number from 0 to 1e+06, not 'x'"},
        {"--repeat", "-3", "--repeat takes a whole number"},
        {"--repeat", "2.5", "--repeat takes a whole number"},
        {"--repeat", "99999999999999999999", "--repeat takes a whole number"},
        {"--budget", "lots", "atlas-run case: --budget takes a number"},
        {"stray", "word", "atlas-run case: unexpected argument 'stray'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *argv[] = {runner, "case", "--case", "helper_case", "--variant", "broken", "--rules", rules,
                        "--fingerprint", fp, "--parts", parts, (char *)bad[i].option, (char *)bad[i].value,
                        "--timeout", "5", "--", binary, NULL};
        struct atlas_end end;
        CHECK_INT(run(argv, NULL, 30, &end), 2);
        CHECK_CONTAINS(end.err, bad[i].message);
    }
    /* nothing ran, nothing was written */
    CHECK(access(path, F_OK) != 0);

    /* an option without its value, in every command */
    char *no_value[] = {runner, "case", "--case", "helper_case", "--variant", "broken", "--rules", rules,
                        "--fingerprint", fp, "--parts", parts, "--timeout", "--", binary, NULL};
    struct atlas_end end;
    CHECK_INT(run(no_value, NULL, 30, &end), 2);
    CHECK_CONTAINS(end.err, "atlas-run case: --timeout needs a value");
    char *collect_typo[] = {runner, "collect", "--parts", parts, "--fingerprnt", fp, NULL};
    CHECK_INT(run(collect_typo, NULL, 30, &end), 2);
    CHECK_CONTAINS(end.err, "atlas-run collect: unknown option '--fingerprnt'");
    char *begin_typo[] = {runner, "begin", "--parts", parts, "--fingerprint", fp, "--fingerprint-programme", "x", NULL};
    CHECK_INT(run(begin_typo, NULL, 30, &end), 2);
    CHECK_CONTAINS(end.err, "unknown option '--fingerprint-programme'");
    char *summary_typo[] = {runner, "summary", "--part", parts, NULL};
    CHECK_INT(run(summary_typo, NULL, 30, &end), 2);
    char *lint_typo[] = {runner, "lint", "--rules", rules, "--case", "a,b", NULL};
    CHECK_INT(run(lint_typo, NULL, 30, &end), 2);
    CHECK_CONTAINS(end.err, "atlas-run lint: unknown option '--case'");

    /* every option as CTest passes it (cmake/AtlasCase.cmake) still runs */
    char *good[] = {runner, "case", "--case", "helper_case", "--family", "tests", "--variant", "broken",
                    "--source", "helpers/x.c", "--rules", rules, "--fingerprint", fp, "--parts", parts,
                    "--timeout", "2.5", "--budget", "30", "--repeat", "2", "--nondeterministic", "--", binary, NULL};
    CHECK_INT(run(good, NULL, 30, &end), 0);
    CHECK_CONTAINS(end.out, "helper_case broken: match");
    snprintf(path, sizeof path, "%s/helper_case.broken.json", parts);
    CHECK_CONTAINS(read_all(path), "\"timeout_seconds\":2.5");
}

static int lint(const char *root, const char *rules, const char *extra, struct atlas_end *end)
{
    char *argv[] = {runner, "lint", "--rules", (char *)rules, "--root", (char *)root, "--cases", "fake_case,other",
                    (char *)extra, NULL};
    return run(argv, NULL, 30, end);
}

/* Issue 19, item 4: lint finds a misspelt status, a step the case never
 * records and a misspelt operator, each at its file:line; --json prints
 * every rule as the parser read it. */
static void lint_checks(void)
{
    char root[1200], path[1400], rules[1300];
    snprintf(root, sizeof root, "%s/lint-root", work);
    const char *dirs[] = {"", "/cases", "/cases/fam", "/data", "/data/status_names", "/rules", "/bad-rules", "/json-rules"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        snprintf(path, sizeof path, "%s%s", root, dirs[i]), mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/cases/fam/fake_case.c", root);
    write_file(path, "#include \"fake.h\"\n#include <stdio.h>\n"
                     "static void f(int i) { char s[32]; ATLAS_CUDA(\"alloc\", x);\n"
                     "  snprintf(s, sizeof s, \"init_r%d\", i); snprintf(s, sizeof s, \"%s_%s\", \"global\", \"event\"); }\n");
    snprintf(path, sizeof path, "%s/cases/fam/fake.h", root);
    write_file(path, "static const char *step = \"sync\";\n");
    snprintf(path, sizeof path, "%s/data/status_names/a.tsv", root);
    write_file(path, "# Columns: api, code, name, text\ncuda\t0\tcudaSuccess\tno error\n"
                     "cuda\t700\tcudaErrorIllegalAddress\tan illegal memory access was encountered\n");
    snprintf(path, sizeof path, "%s/data/status_names/b.tsv", root);
    write_file(path, "# Columns: name, meaning\nCUBLAS_STATUS_INVALID_VALUE\tan argument is wrong\n");
    snprintf(rules, sizeof rules, "%s/rules", root);
    snprintf(path, sizeof path, "%s/a.rules", rules);
    write_file(path, "fake_case broken alloc cudaErrorIllegalAddress cite=doc:x\n"
                     "fake_case broken sync CUBLAS_STATUS_INVALID_VALUE cite=doc:x\n"
                     "fake_case broken init_r1 result_wrong|<unknown:999>|not-reached cite=doc:x\n"
                     "fake_case broken global_event cudaSuccess cite=doc:x\n"
                     "fake_case broken alloc CUBLAS_STATUS_INVALID_VALEU driver>=580 cite=doc:x\n"
                     "fake_case broken allocc cudaSuccess cite=doc:x\n"
                     "fake_case broken end signal:SIGSEGV|exit:3 cite=doc:x\n"
                     "* * probe cudaErrorIllegalAddress cite=doc:x\n"
                     "missing_case broken sync cudaSuccess cite=doc:x\n"
                     "fake_case fixed global_evnt cudaSuccess cite=doc:x\n"
                     "fake_case fixed init_rx cudaSuccess cite=doc:x\n");
    struct atlas_end end;
    CHECK_INT(lint(root, rules, NULL, &end), 99);
    CHECK_CONTAINS(end.out, "/a.rules:5: 'CUBLAS_STATUS_INVALID_VALEU' is in no status table");
    CHECK_CONTAINS(end.out, "/a.rules:6: case 'fake_case' never records the step \"allocc\"");
    CHECK_CONTAINS(end.out, "/a.rules:9: no case is named 'missing_case'");
    CHECK_CONTAINS(end.out, "/a.rules:9: no source for case 'missing_case'");
    CHECK_CONTAINS(end.out, "/a.rules:10: case 'fake_case' never records the step \"global_evnt\"");
    CHECK_CONTAINS(end.out, "/a.rules:11: case 'fake_case' never records the step \"init_rx\"");
    CHECK_CONTAINS(end.out, "11 rules checked, 6 problems");
    CHECK(!strstr(end.out, "a.rules:1:") && !strstr(end.out, "a.rules:2:") && !strstr(end.out, "a.rules:3:")
          && !strstr(end.out, "a.rules:4:") && !strstr(end.out, "a.rules:7:") && !strstr(end.out, "a.rules:8:"));

    /* the status tables are found where --status-tables says */
    char tables[1400] = "--status-tables";
    CHECK_INT(lint(root, rules, tables, &end), 2); /* without its value */
    char *argv[] = {runner, "lint", "--rules", rules, "--root", root, "--status-tables", "/nonexistent", NULL};
    CHECK_INT(run(argv, NULL, 30, &end), 99);
    CHECK_CONTAINS(end.out, "/nonexistent: cannot read the status tables");

    /* a misspelt operator: a parse error at its file:line */
    snprintf(rules, sizeof rules, "%s/bad-rules", root);
    snprintf(path, sizeof path, "%s/b.rules", rules);
    write_file(path, "# one\nfake_case broken alloc cudaSuccess driver=>580 cite=doc:x\n");
    CHECK_INT(lint(root, rules, NULL, &end), 99);
    CHECK_CONTAINS(end.out, "/b.rules:2: 'driver=>580': '=>' is not an operator");

    /* --json: every rule as the parser read it, one object a line */
    snprintf(rules, sizeof rules, "%s/json-rules", root);
    snprintf(path, sizeof path, "%s/c.rules", rules);
    write_file(path, "# the Python reader must agree\n"
                     "fake_case broken alloc cudaErrorIllegalAddress|not-reached cudart=11.8..12.9 gpu~H100 "
                     "cite=run:data/r.json.gz # a note\n"
                     "* * probe cudaSuccess driver!=none cite=doc:x\n");
    CHECK_INT(lint(root, rules, "--json", &end), 0);
    snprintf(path, sizeof path, "%s/c.json", root);
    write_file(path, end.out);
    CHECK(valid_json(path, "import json,sys; r=[json.loads(l) for l in open(sys.argv[1])];"
                           "sys.exit(not (len(r)==2 and r[0]=={'file':r[0]['file'],'line':2,'case':'fake_case',"
                           "'variant':'broken','step':'alloc','expected':['cudaErrorIllegalAddress','not-reached'],"
                           "'conditions':[{'field':'cudart','op':'range','value':'11.8','high':'12.9'},"
                           "{'field':'gpu','op':'~','value':'H100'}],'cite':'run:data/r.json.gz # a note'}"
                           " and r[0]['file'].endswith('/c.rules') and r[1]['conditions']=="
                           "[{'field':'driver','op':'!=','value':'none'}] and r[1]['case']=='*'))"));
}

/* The one writer, for tools in other languages: atlas-run record. */
static void record_command(void)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/tool.record", work);
    unlink(path);
    char *argv[] = {runner, "record", path, "call", "gemm", "cublas", "7", "CUBLAS_STATUS_INVALID_VALUE", "0",
                    "cublasSgemm(h,\tN)", "note", "hello", "variant_end", "quantity", "q", "1", "B", NULL};
    struct atlas_end end;
    CHECK_INT(run(argv, NULL, 30, &end), 0);
    struct atlas_observed o;
    atlas_record_read(path, &o);
    CHECK_STR(o.format, ATLAS_RECORD_FORMAT);
    CHECK_INT(o.nsteps, 1);
    CHECK_STR(o.nsteps ? o.steps[0].text : "", "cublasSgemm(h, N)");
    CHECK(o.variant_end);
    CHECK_STR(o.notes[0], "hello");
    CHECK_STR(o.quantities[0][2], "B");
    atlas_observed_free(&o);
    char *bad[] = {runner, "record", path, "call", "gemm", NULL};
    CHECK_INT(run(bad, NULL, 30, &end), 99);
    CHECK_CONTAINS(end.err, "'call' at argument 3 is not a record kind with 6 fields after it");
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: test_runner ATLAS_RUN HELPER_DIR WORK_DIR [SOURCE_DIR]\n");
        return 99;
    }
    if (argc == 5)
        snprintf(source, sizeof source, "%s", argv[4]);
    snprintf(runner, sizeof runner, "%s", argv[1]);
    snprintf(helpers, sizeof helpers, "%s", argv[2]);
    snprintf(work, sizeof work, "%s", argv[3]);
    mkdir(work, 0755);
    char path[1200];
    snprintf(path, sizeof path, "%s/fingerprint.txt", work);
    write_file(path, "driver=580.159.04\ncudart=13.0\ncublas=13.1.0\ncc=9.0\ngpu=Test GPU\nmode=default\nid=test-env\n");

    struct atlas_end end;
    const char *steps = "create=CUBLAS_STATUS_SUCCESS gemm=CUBLAS_STATUS_INVALID_VALUE";
    /* match: every failing step has its rule */
    CHECK_INT(run_case("helper_records", "helper_case broken gemm CUBLAS_STATUS_INVALID_VALUE cite=doc:t\n", NULL, steps, &end), 0);
    CHECK_CONTAINS(end.out, "helper_case broken: match");
    char *part = read_all(strcat(strcpy(path, work), "/parts/helper_case.broken.json"));
    CHECK_CONTAINS(part, "{\"verdict\":\"match\",\"case\":\"helper_case\"");
    CHECK_CONTAINS(part, "\"library_messages\":[\"On entry to SGEMM  parameter number 8 had an illegal value\"]");
    CHECK_CONTAINS(part, "\"first_error\":{\"step\":\"gemm\",\"name\":\"CUBLAS_STATUS_INVALID_VALUE\",\"surfaced\":\"call\"}");
    CHECK_CONTAINS(part, "\"handles_created\":{\"value\":12,\"unit\":\"handles\"}");

    /* a deliberately wrong rule: a mismatch that names its file:line */
    CHECK_INT(run_case("helper_records", "# wrong on purpose\nhelper_case broken gemm CUBLAS_STATUS_NOT_SUPPORTED cite=doc:t\n",
                       NULL, steps, &end), 1);
    CHECK_CONTAINS(end.out, "gemm: observed CUBLAS_STATUS_INVALID_VALUE (7), expected CUBLAS_STATUS_NOT_SUPPORTED (rule ");
    CHECK_CONTAINS(end.out, "/case.rules:2)");

    /* better than expected is a mismatch too, so rules never go stale */
    CHECK_INT(run_case("helper_records", "helper_case broken gemm CUBLAS_STATUS_INVALID_VALUE cite=doc:t\n", NULL,
                       "gemm=CUBLAS_STATUS_SUCCESS", &end), 1);
    CHECK_CONTAINS(end.out, "observed CUBLAS_STATUS_SUCCESS (0), expected CUBLAS_STATUS_INVALID_VALUE");

    /* a failure no rule expects */
    CHECK_INT(run_case("helper_records", "", NULL, steps, &end), 1);
    CHECK_CONTAINS(end.out, "no rule: the default expects success");
    /* another library's status that no rule expects is a failure too */
    CHECK_INT(run_case("helper_records", "", NULL, "init=ncclInProgress", &end), 1);

    /* a step a rule names that never ran */
    CHECK_INT(run_case("helper_records", "helper_case broken sync cudaErrorIllegalAddress cite=doc:t\n", NULL,
                       "create=CUBLAS_STATUS_SUCCESS", &end), 1);
    CHECK_CONTAINS(end.out, "sync: never reached, expected cudaErrorIllegalAddress");
    /* ... unless the case stopped at a failure its rules expected */
    CHECK_INT(run_case("helper_records",
                       "helper_case broken create CUBLAS_STATUS_NOT_INITIALIZED cite=doc:t\n"
                       "helper_case broken sync cudaErrorIllegalAddress cite=doc:t\n",
                       NULL, "create=CUBLAS_STATUS_NOT_INITIALIZED", &end), 0);
    CHECK_CONTAINS(read_all(path), "{\"step\":\"sync\",\"expected\":\"cudaErrorIllegalAddress\"");
    CHECK_CONTAINS(read_all(path), "\"verdict\":\"waived\"");

    /* crashes are outcomes */
    CHECK_INT(run_case("helper_segfault", "", NULL, NULL, &end), 1);
    CHECK_CONTAINS(end.out, "the process ended with signal:SIGSEGV, expected exit:0");
    CHECK_INT(run_case("helper_segfault", "helper_case broken end signal:SIGSEGV|exit:0 cite=doc:t\n", NULL, NULL, &end), 0);
    CHECK_CONTAINS(read_all(path), "\"steps\":[{\"step\":\"first\"");
    CHECK_CONTAINS(read_all(path), "\"sticky\":null");

    /* a hang is stopped at its limit and recorded as a timeout */
    CHECK_INT(run_case("helper_hangs", "", NULL, NULL, &end), 1);
    CHECK_CONTAINS(end.out, "ended with timeout");
    CHECK_INT(run_case("helper_hangs", "helper_case broken end timeout cite=doc:t\n", NULL, NULL, &end), 0);

    /* skip, with its reason */
    CHECK_INT(run_case("helper_skips", "", NULL, NULL, &end), 77);
    CHECK_CONTAINS(end.out, "skip: needs two GPUs");

    /* a case whose library the build did not find: registered, and skipped with the reason */
    {
        char fp[1200], parts[1200], rules[1200];
        snprintf(fp, sizeof fp, "%s/fingerprint.txt", work);
        snprintf(parts, sizeof parts, "%s/parts", work);
        snprintf(rules, sizeof rules, "%s/rules1", work);
        char *argv[] = {runner, "case", "--case", "helper_case", "--variant", "broken", "--rules", rules,
                        "--fingerprint", fp, "--parts", parts, "--skip-reason",
                        "needs libcudnn, which the build did not find", "--", "/nonexistent/case", NULL};
        atlas_run_process(argv, NULL, 30, &end);
        CHECK_STR(end.text, "exit:77");
        CHECK_CONTAINS(end.out, "helper_case broken: skip: needs libcudnn, which the build did not find");
        snprintf(path, sizeof path, "%s/helper_case.broken.json", parts);
        CHECK_CONTAINS(read_all(path), "{\"verdict\":\"skip\",\"case\":\"helper_case\"");
        CHECK_CONTAINS(read_all(path), "\"skip_reason\":\"needs libcudnn, which the build did not find\"");
    }

    /* a case that cannot start is a harness error, and still in the results */
    CHECK_INT(run_case("helper_does_not_exist", "", NULL, NULL, &end), 99);
    CHECK_CONTAINS(end.out, "harness error: the case could not be started: cannot run ");
    CHECK_CONTAINS(read_all(strcat(strcpy(path, work), "/parts/helper_case.broken.json")), "{\"verdict\":\"error\"");

    /* replay: judge what was recorded elsewhere, without running anything */
    char dir[1200], file[1300];
    snprintf(dir, sizeof dir, "%s/replay", work);
    mkdir(dir, 0755);
    snprintf(file, sizeof file, "%s/helper_case.broken.record", dir);
    unlink(file);
    int fd = atlas_record_open(file);
    atlas_record_write_call(fd, "gemm", "cublas", 7, "CUBLAS_STATUS_INVALID_VALUE", false, "cublasSgemm(h, ...)");
    close(fd);
    snprintf(file, sizeof file, "%s/helper_case.broken.end", dir);
    write_file(file, "signal:SIGSEGV 0.25 11\n");
    snprintf(file, sizeof file, "%s/helper_case.broken.stdout", dir);
    write_file(file, " ** On entry to SGEMM  parameter number 8 had an illegal value\n");
    snprintf(replay_env, sizeof replay_env, "ATLAS_REPLAY=%s", dir);
    CHECK_INT(run_case("helper_does_not_exist",
                       "helper_case broken gemm CUBLAS_STATUS_INVALID_VALUE cite=doc:t\nhelper_case broken end signal:SIGSEGV cite=doc:t\n",
                       NULL, NULL, &end), 0);
    part = read_all(strcat(strcpy(path, work), "/parts/helper_case.broken.json"));
    CHECK_CONTAINS(part, "\"end\":{\"outcome\":\"signal:SIGSEGV\",\"kind\":\"signal\",\"code\":11");
    CHECK_CONTAINS(part, "\"library_messages\":[\"On entry to SGEMM  parameter number 8 had an illegal value\"]");
    CHECK_INT(run_case("helper_does_not_exist", "", NULL, NULL, &end), 1); /* the same record, other rules */
    snprintf(replay_env, sizeof replay_env, "ATLAS_REPLAY=");

    /* bad rules are a harness error naming file:line */
    CHECK_INT(run_case("helper_records", "helper_case broken gemm CUBLAS_STATUS_INVALID_VALUE\n", NULL, steps, &end), 99);
    CHECK_CONTAINS(end.out, "/case.rules:1: no cite=");

    /* a case that declares itself nondeterministic: differing repeats are
     * not flaky, but every repeat must match the rules */
    snprintf(path, sizeof path, "%s/counter", work);
    unlink(path); /* the stand-in alternates from its first run: success, then a fault */
    CHECK_INT(run_case("helper_flaky", "helper_case broken sync cudaSuccess|cudaErrorIllegalAddress cite=doc:t\n",
                       "--nondeterministic", NULL, &end), 0);
    CHECK_CONTAINS(read_all(strcat(strcpy(path, work), "/parts/helper_case.broken.json")),
                   "\"flaky\":false,\"nondeterministic\":true");
    snprintf(path, sizeof path, "%s/counter", work);
    unlink(path);
    CHECK_INT(run_case("helper_flaky", "", "--nondeterministic", NULL, &end), 1);
    CHECK_CONTAINS(end.out, "run 2 of 3: sync: observed cudaErrorIllegalAddress (700), expected success");
    snprintf(path, sizeof path, "%s/parts/helper_case.broken.json", work);

    /* the flake check: repeated runs that differ */
    CHECK_INT(run_case("helper_flaky", "", "--repeat", NULL, &end), 1);
    CHECK_CONTAINS(end.out, "FLAKY over 3 runs");
    CHECK_CONTAINS(read_all(path), "\"flaky\":true");

    /* nothing dropped silently: notes past the cap are counted */
    helper_notes = 40;
    CHECK_INT(run_case("helper_records", "", NULL, "", &end), 0);
    helper_notes = 0;
    snprintf(path, sizeof path, "%s/parts/helper_case.broken.json", work);
    CHECK_CONTAINS(read_all(path), "\"truncated\":{\"notes\":8}");
    CHECK_INT(run_case("helper_records", "", NULL, "", &end), 0);
    CHECK_CONTAINS(read_all(path), "\"truncated\":{}");

    time_limits();
    collect_cases();
    utf8_output();
    strict_options();
    lint_checks();
    record_command();
    return check_report();
}
