/* atlas-run — the command line. The case command is case.c; begin and
 * summary state.c; collect collect.c. Below them: reading records record.c,
 * judging judge.c, writing a run's part part.c, running a process process.c. */
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
    "Exit codes of case: 0 match, 1 mismatch or flaky, 77 skip, 99 harness error. Every command:\n"
    "2 for a usage error (an unknown option, an option without its value, a value that is not a number).\n";

/* ---- lint and record ------------------------------------------------------ */

static int lint(int argc, char **argv)
{
    static const struct atlas_option known[] = {{"--rules", true}, {"--root", true}, {"--cases", true}, {NULL, false}};
    atlas_check_options("lint", argc, argv, known);
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
    } commands[] = {{"case", atlas_case},    {"begin", atlas_begin}, {"collect", atlas_collect},
                    {"summary", atlas_show_summary}, {"lint", lint}, {"record", record}};
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    for (size_t i = 0; argc >= 2 && i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0) {
            if (atlas_has_flag(argc - 2, argv + 2, "--help")) {
                fputs(usage, stdout);
                return 0;
            }
            return commands[i].run(argc - 2, argv + 2);
        }
    fputs(usage, stderr);
    return atlas_verdicts[ATLAS_ERROR].exit_code;
}
