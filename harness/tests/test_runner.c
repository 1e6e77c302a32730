/* atlas-run end to end, on stand-in cases that need no GPU: match,
 * mismatch naming the rule's file:line, an outcome better than expected,
 * crashes, hangs, skips, flakes, bad rules, and the results file. */
#define _GNU_SOURCE
#include "check.h"
#include "process.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char runner[1024], helpers[1024], work[1024], replay_env[1300] = "ATLAS_REPLAY=";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* Runs one case through atlas-run with the given rules; returns the exit code. */
static int run_case(const char *helper, const char *rules_text, const char *mode, const char *steps,
                    struct atlas_end *end)
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
    char *argv[] = {runner, "case", "--case", "helper_case", "--family", "tests", "--variant", "broken",
                    "--rules", rules_dir, "--fingerprint", fp, "--parts", parts, "--timeout", "1",
                    "--source", "helpers/x.c", "--repeat", mode ? "3" : "1",
                    (char *)(mode && strcmp(mode, "--nondeterministic") == 0 ? mode : "--source"), "helpers/x.c",
                    "--", binary, NULL};
    char env_steps[512], counter[1300];
    snprintf(env_steps, sizeof env_steps, "HELPER_STEPS=%s", steps ? steps : "");
    snprintf(counter, sizeof counter, "HELPER_COUNTER=%s/counter", work);
    char *env[] = {env_steps, counter, replay_env, NULL};
    atlas_run_process(argv, env, 60, end);
    return end->kind == END_EXIT ? end->code : -1;
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

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_runner ATLAS_RUN HELPER_DIR WORK_DIR\n");
        return 99;
    }
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
    /* the other libraries' success codes are success too (atlas_libraries.h) */
    CHECK_INT(run_case("helper_records", "", NULL,
                       "create=CUSOLVER_STATUS_SUCCESS plan=CUFFT_SUCCESS dnn=CUDNN_STATUS_SUCCESS init=ncclSuccess", &end),
              0);
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

    /* a case that cannot start is a harness error, and still in the results */
    CHECK_INT(run_case("helper_does_not_exist", "", NULL, NULL, &end), 99);
    CHECK_CONTAINS(end.out, "harness error: the case could not be started: cannot run ");
    CHECK_CONTAINS(read_all(strcat(strcpy(path, work), "/parts/helper_case.broken.json")), "{\"verdict\":\"error\"");

    /* replay: judge what was recorded elsewhere, without running anything */
    char dir[1200], file[1300];
    snprintf(dir, sizeof dir, "%s/replay", work);
    mkdir(dir, 0755);
    snprintf(file, sizeof file, "%s/helper_case.broken.record", dir);
    write_file(file, "call\tgemm\tcublas\t7\tCUBLAS_STATUS_INVALID_VALUE\tcublasSgemm(h, ...)\n");
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

    /* collect: one results file, named after the environment, valid JSON */
    char parts[1200], out[1200];
    snprintf(path, sizeof path, "%s/fingerprint.txt", work);
    snprintf(parts, sizeof parts, "%s/parts", work);
    snprintf(out, sizeof out, "%s/results", work);
    char *collect[] = {runner, "collect", "--fingerprint", path, "--parts", parts, "--out", out, NULL};
    atlas_run_process(collect, NULL, 30, &end);
    CHECK_STR(end.text, "exit:1"); /* something did not match: the summary must show */
    CHECK_CONTAINS(end.out, "1 runs: 0 match, 0 mismatch, 0 skip, 1 flaky, 0 harness error");
    CHECK_CONTAINS(end.out, "  helper_case/broken: flaky over 3 runs\n");
    CHECK_CONTAINS(end.out, "results file: ");
    snprintf(path, sizeof path, "%s/results/test-env.json", work);
    CHECK_CONTAINS(read_all(path), "\"environment\":{\"driver\":\"580.159.04\"");
    char *validate[] = {"/usr/bin/env", "python3", "-c", "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(len(r['runs']) != 1)", path, NULL};
    atlas_run_process(validate, NULL, 30, &end);
    CHECK_STR(end.text, "exit:0");
    return check_report();
}
