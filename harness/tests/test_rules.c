/* The rule parser and matcher: formats, errors with file:line, conflicts,
 * versions, ranges, sets, specificity. */
#include "check.h"
#include "rules.h"

#include <stdlib.h>

static struct atlas_fingerprint fingerprint(const char *const pairs[][2], int n)
{
    struct atlas_fingerprint fp = {0};
    for (int i = 0; i < n; i++) {
        snprintf(fp.key[i], sizeof fp.key[i], "%s", pairs[i][0]);
        snprintf(fp.value[i], sizeof fp.value[i], "%s", pairs[i][1]);
    }
    fp.n = n;
    return fp;
}

static const char *parse_error(const char *line)
{
    static char err[1024];
    struct atlas_rules rules = {0};
    err[0] = '\0';
    int rc = atlas_rules_parse_line(&rules, "t.rules", 7, line, err, sizeof err);
    atlas_rules_free(&rules);
    return rc == 0 ? NULL : err;
}

static void test_parse(void)
{
    struct atlas_rules rules = {0};
    char err[1024] = "";
    CHECK_INT(atlas_rules_parse_line(&rules, "a.rules", 3,
                                     "lda_smaller_than_rows broken gemm CUBLAS_STATUS_INVALID_VALUE|CUBLAS_STATUS_NOT_SUPPORTED"
                                     " cudart>=12.0 cc=8.0..9.0 cite=doc:https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm note # kept",
                                     err, sizeof err), 0);
    CHECK_INT(rules.n, 1);
    CHECK_STR(rules.rule[0].case_name, "lda_smaller_than_rows");
    CHECK_STR(rules.rule[0].variant, "broken");
    CHECK_STR(rules.rule[0].step, "gemm");
    CHECK_INT(rules.rule[0].ncond, 2);
    CHECK_INT(rules.rule[0].conditions[1].op, OP_RANGE);
    CHECK_STR(rules.rule[0].conditions[1].high, "9.0");
    CHECK_STR(rules.rule[0].cite, "doc:https://docs.nvidia.com/cuda/cublas/#cublas-t-gemm note # kept");
    CHECK_INT(rules.rule[0].line, 3);
    /* comments and blank lines add nothing */
    CHECK_INT(atlas_rules_parse_line(&rules, "a.rules", 4, "   # a comment", err, sizeof err), 0);
    CHECK_INT(atlas_rules_parse_line(&rules, "a.rules", 5, "", err, sizeof err), 0);
    CHECK_INT(rules.n, 1);
    atlas_rules_free(&rules);
}

static void test_malformed(void)
{
    CHECK_CONTAINS(parse_error("x broken gemm cite=run:r.json"), "t.rules:7: expected CASE VARIANT STEP EXPECTED");
    CHECK_CONTAINS(parse_error("x broken gemm CUBLAS_STATUS_INVALID_VALUE"), "t.rules:7: no cite=");
    CHECK_CONTAINS(parse_error("x sometimes gemm cudaSuccess cite=run:r.json"), "t.rules:7: variant 'sometimes'");
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess gpu_count=1 cite=run:r.json"), "t.rules:7: unknown field 'gpu_count'");
    CHECK_CONTAINS(parse_error("x broken gemm INVALID_VALUE cite=run:r.json"), "t.rules:7: 'INVALID_VALUE' is not a status name");
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess| cite=run:r.json"), "t.rules:7: empty alternative");
    CHECK_CONTAINS(parse_error("x broken end cudaSuccess cite=run:r.json"), "t.rules:7: 'cudaSuccess' is not a process end");
    CHECK_CONTAINS(parse_error("x broken end signal:SEGV cite=run:r.json"), "is not a process end");
    CHECK_CONTAINS(parse_error("x broken gemm exit:0 cite=run:r.json"), "'exit:0' is not a status name");
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess gpu>=H100 cite=run:r.json"), "field 'gpu' is not a version");
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess cudart=12..x cite=run:r.json"), "needs two versions");
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess cudart>=twelve cite=run:r.json"), "'twelve' is not a version");
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess driver cite=run:r.json"), "'driver' is not a condition");
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess cite=web:somewhere"), "must start with run:");
    CHECK(parse_error("x broken end signal:SIGSEGV|exit:0|timeout cite=run:r.json") == NULL);
    CHECK(parse_error("* * probe cudaErrorInsufficientDriver driver=none cite=run:r.json") == NULL);
    /* the other toolkit libraries' statuses (atlas_libraries.h) */
    CHECK(parse_error("x broken set CUDNN_STATUS_BAD_PARAM|CUFFT_INVALID_SIZE cite=run:r.json") == NULL);
    CHECK(parse_error("x broken compile NVRTC_ERROR_INVALID_OPTION cite=run:r.json") == NULL);
    CHECK(parse_error("x broken init ncclInvalidUsage|CUSOLVER_STATUS_INTERNAL_ERROR cite=run:r.json") == NULL);
    CHECK_CONTAINS(parse_error("x broken init NCCL_INVALID cite=run:r.json"), "'NCCL_INVALID' is not a status name");
    /* a misspelt operator is not a value starting with '>' (issue 19) */
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess driver=>580 cite=run:r.json"),
                   "t.rules:7: 'driver=>580': '=>' is not an operator");
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess cudart==12 cite=run:r.json"), "'==' is not an operator");
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess cc=<9 cite=run:r.json"), "'=<' is not an operator");
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess gpu~~h100 cite=run:r.json"), "'~~' is not an operator");
    CHECK_CONTAINS(parse_error("x broken gemm cudaSuccess cc>=<9 cite=run:r.json"), "'>=<' is not an operator");
    CHECK(parse_error("x broken gemm cudaSuccess driver!=none cc<9 gpu~h100 cite=run:r.json") == NULL);
}

/* Nothing too long for its buffer is cut silently (issue 19): an error naming file:line. */
static void test_too_long(void)
{
    char line[1024], value[200];
    memset(value, 'v', 120), value[120] = '\0';
    snprintf(line, sizeof line, "x broken gemm cudaSuccess gpu=%s cite=run:r.json", value);
    CHECK_CONTAINS(parse_error(line), "t.rules:7: value longer than 95 characters in 'gpu=vvv");
    snprintf(line, sizeof line, "x broken gemm cudaSuccess cudart=12.0..%.100s cite=run:r.json", "1.2.3.4.5.6.7.8.9.10.11.12.13.14.15.16.17.18.19.20.21.22.23.24.25.26.27.28.29.30.31.32.33.34.35.36");
    CHECK_CONTAINS(parse_error(line), "t.rules:7: value longer than 95 characters");
    snprintf(line, sizeof line, "x broken gemm cudaSuccess %s=1 cite=run:r.json", value);
    CHECK_CONTAINS(parse_error(line), "t.rules:7: field name longer than 47 characters");
    snprintf(line, sizeof line, "%s broken gemm cudaSuccess cite=run:r.json", value);
    CHECK_CONTAINS(parse_error(line), "t.rules:7: the case name 'vvv");
    snprintf(line, sizeof line, "x broken %s cudaSuccess cite=run:r.json", value);
    CHECK_CONTAINS(parse_error(line), "t.rules:7: the step name 'vvv");
    char cite[700];
    memset(cite, 'c', 600), cite[600] = '\0';
    snprintf(line, sizeof line, "x broken gemm cudaSuccess cite=doc:%s", cite);
    CHECK_CONTAINS(parse_error(line), "t.rules:7: cite= is longer than 511 characters");
    /* just within every limit: kept whole */
    struct atlas_rules rules = {0};
    char err[1024] = "";
    value[95] = '\0';
    snprintf(line, sizeof line, "x broken gemm cudaSuccess gpu=%s cite=run:r.json", value);
    CHECK_INT(atlas_rules_parse_line(&rules, "t.rules", 1, line, err, sizeof err), 0);
    CHECK_STR(rules.n ? rules.rule[0].conditions[0].value : "", value);
    atlas_rules_free(&rules);
}

static void test_file_and_conflicts(const char *dir)
{
    char path[1024], err[1024] = "";
    struct atlas_rules rules = {0};
    snprintf(path, sizeof path, "%s/malformed.rules", dir);
    CHECK_INT(atlas_rules_load_file(&rules, path, err, sizeof err), -1);
    char want[1100];
    snprintf(want, sizeof want, "%s:4: unknown field 'compute'", path);
    CHECK_CONTAINS(err, want);
    atlas_rules_free(&rules);

    snprintf(path, sizeof path, "%s/overlong.rules", dir);
    CHECK_INT(atlas_rules_load_file(&rules, path, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:3: value longer than 95 characters", path);
    CHECK_CONTAINS(err, want);
    atlas_rules_free(&rules);

    snprintf(path, sizeof path, "%s/conflict", dir);
    CHECK_INT(atlas_rules_load_dir(&rules, path, err, sizeof err), -1);
    CHECK_CONTAINS(err, "b.rules:2: contradicts ");
    CHECK_CONTAINS(err, "a.rules:3 (same case, variant, step and conditions, different expectation)");
    atlas_rules_free(&rules);

    snprintf(path, sizeof path, "%s/missing-folder", dir);
    CHECK_INT(atlas_rules_load_dir(&rules, path, err, sizeof err), -1);
    CHECK_CONTAINS(err, "cannot read the rules folder");
    atlas_rules_free(&rules);
}

static void test_versions(void)
{
    int r = 99;
    CHECK(atlas_version_compare("580.159.04", "580.65.06", &r) && r == 1);
    CHECK(atlas_version_compare("9.0", "9", &r) && r == 0);
    CHECK(atlas_version_compare("11.8", "12.4", &r) && r == -1);
    CHECK(!atlas_version_compare("none", "12.0", &r));
    CHECK(!atlas_version_compare("12.x", "12.0", &r));
}

static void test_matching(void)
{
    static const char *const h100[][2] = {{"driver", "580.159.04"}, {"cudart", "13.0"}, {"cublas", "13.1.0"},
                                          {"cc", "9.0"}, {"gpu", "NVIDIA H100 80GB HBM3"}, {"pageable", "no"},
                                          {"mode", "default"}};
    static const char *const old[][2] = {{"driver", "580.159.04"}, {"cudart", "11.8"}, {"cublas", "11.11.3"},
                                         {"cc", "9.0"}, {"gpu", "NVIDIA H100 80GB HBM3"}, {"mode", "default"}};
    static const char *const none[][2] = {{"driver", "none"}, {"cudart", "13.0"}, {"cc", "none"}};
    struct atlas_fingerprint fp_h100 = fingerprint(h100, 7), fp_old = fingerprint(old, 6), fp_none = fingerprint(none, 3);
    struct atlas_rules rules = {0};
    char err[1024];
    const char *lines[] = {
        "c broken launch cudaErrorInvalidConfiguration cite=run:r.json",                      /* 1 */
        "c broken launch cudaErrorLaunchFailure cudart<12.0 cite=run:r.json",                 /* 2 */
        "c * launch cudaErrorInsufficientDriver driver=none cite=run:r.json",                /* 3 */
        "* * probe cudaErrorInsufficientDriver driver=none cite=run:r.json",                 /* 4 */
        "c broken end signal:SIGSEGV|exit:0 gpu~h100 cite=run:r.json",                        /* 5 */
        "d broken gemm CUBLAS_STATUS_INVALID_VALUE cublas=13.0..13.9 cite=run:r.json",       /* 6 */
        "e broken gemm CUBLAS_STATUS_INVALID_VALUE cc>=9.0 cite=run:r.json",                 /* 7 */
        "e broken gemm CUBLAS_STATUS_NOT_SUPPORTED driver>=580 cite=run:r.json",             /* 8 */
        "c * * cudaErrorNoDevice mode=launch_blocking cite=run:r.json",                      /* 9 */
    };
    for (int i = 0; i < (int)(sizeof lines / sizeof *lines); i++)
        CHECK_INT(atlas_rules_parse_line(&rules, "m.rules", i + 1, lines[i], err, sizeof err), 0);
    CHECK_INT(atlas_rules_check_conflicts(&rules, err, sizeof err), 0);

    bool contradiction;
    const struct atlas_rule *r;
    /* the unconditioned rule is the default; a version condition overrides it */
    r = atlas_rules_find(&rules, &fp_h100, "c", "broken", "launch", &contradiction, err, sizeof err);
    CHECK(r && r->line == 1);
    r = atlas_rules_find(&rules, &fp_old, "c", "broken", "launch", &contradiction, err, sizeof err);
    CHECK(r && r->line == 2);
    r = atlas_rules_find(&rules, &fp_none, "c", "fixed", "launch", &contradiction, err, sizeof err);
    CHECK(r && r->line == 3);
    /* wildcards: any case's probe; but '*' steps never stand for the process end */
    r = atlas_rules_find(&rules, &fp_none, "other", "broken", "probe", &contradiction, err, sizeof err);
    CHECK(r && r->line == 4);
    CHECK(atlas_rules_find(&rules, &fp_h100, "other", "broken", "probe", &contradiction, err, sizeof err) == NULL);
    r = atlas_rules_find(&rules, &fp_h100, "c", "broken", "end", &contradiction, err, sizeof err);
    CHECK(r && r->line == 5);
    CHECK(atlas_expected_includes(r->expected, "exit:0"));
    CHECK(atlas_expected_includes(r->expected, "signal:SIGSEGV"));
    CHECK(!atlas_expected_includes(r->expected, "signal:SIGSEGVX"));
    CHECK(!atlas_expected_includes(r->expected, "exit:1"));
    /* ranges */
    CHECK(atlas_rules_find(&rules, &fp_h100, "d", "broken", "gemm", &contradiction, err, sizeof err) != NULL);
    CHECK(atlas_rules_find(&rules, &fp_old, "d", "broken", "gemm", &contradiction, err, sizeof err) == NULL);
    /* two rules that both apply, equally specific, expecting different things */
    r = atlas_rules_find(&rules, &fp_h100, "e", "broken", "gemm", &contradiction, err, sizeof err);
    CHECK(r == NULL && contradiction);
    CHECK_CONTAINS(err, "m.rules:8: contradicts m.rules:7 here");
    /* conditions that do not hold leave the default */
    r = atlas_rules_find(&rules, &fp_h100, "c", "fixed", "sync", &contradiction, err, sizeof err);
    CHECK(r == NULL && !contradiction);
    atlas_rules_free(&rules);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_rules FIXTURE_DIR\n");
        return 99;
    }
    test_parse();
    test_malformed();
    test_too_long();
    test_file_and_conflicts(argv[1]);
    test_versions();
    test_matching();
    return check_report();
}
