/* atlas-run — the command line. The case command is case.c; begin and
 * summary state.c; collect collect.c; lint lint.c. Below them: reading records record.c,
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
    "  lint     --rules DIR [--root DIR (.)] [--cases a,b,...] [--status-tables DIR] [--json]\n"
    "           every rule parses, names a case that exists (one of --cases, when given), a step its\n"
    "           source ROOT/cases/*/CASE.{c,cu} records as a string literal (itself or a local header it\n"
    "           includes), statuses that a status table lists (--status-tables, default\n"
    "           ROOT/data/status_names), and cites results files that exist; prints file:line: why\n"
    "             --json  print every parsed rule instead, one JSON object a line: file, line, case,\n"
    "                     variant, step, expected [...], conditions [{field, op, value}] (op: = != >= <=\n"
    "                     > < ~, or range with value LOW and high HIGH), cite\n"
    "  record   FILE KIND [FIELD...] [KIND [FIELD...]]...\n"
    "           append records to FILE in the case record format (harness/record.h)\n"
    "\n"
    "Exit codes of case: 0 match, 1 mismatch or flaky, 77 skip, 99 harness error. Every command:\n"
    "2 for a usage error (an unknown option, an option without its value, a value that is not a number).\n";

/* ---- record ---------------------------------------------------------------- */

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
                    {"summary", atlas_show_summary}, {"lint", atlas_lint}, {"record", record}};
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
