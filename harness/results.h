/* results.h — writing the results: one run's part (part.c) and the results
 * file collected from every part (collect.c), and the commands that do it. The results file's schema is
 * README.md's "The results file"; this is its one writer.
 *
 * The state folder a run keeps (--parts DIR):
 *   DIR/.begin                      written by begin: parts older than it are stale
 *   DIR/<case>.<variant>.started    the runner began this variant
 *   DIR/<case>.<variant>.record     what the case recorded (record.h)
 *   DIR/<case>.<variant>.json       the judged run: one element of "runs"
 *   DIR/<case>.<variant>.summary    its verdict, then its reasons, one per line
 *   DIR/summary.txt                 what collect said, printed at the end of ctest
 */
#ifndef ATLAS_RESULTS_H
#define ATLAS_RESULTS_H

#include <stdbool.h>
#include <stdio.h>

#include "judge.h"

#define ATLAS_RESULTS_SCHEMA "cuda-error-atlas/results/1"
#define ATLAS_MAX_REPEATS 100

/* JSON, escaped, and always valid UTF-8: bytes that are not UTF-8 become
 * U+FFFD, one for each broken or cut-short character. */
void atlas_json_str(FILE *f, const char *s);
void atlas_json_key(FILE *f, const char *key, bool first);
void atlas_json_str_or_null(FILE *f, const char *s);
/* How many of the first n bytes of s to keep so that no character is cut. */
size_t atlas_utf8_whole(const char *s, size_t n);

/* Everything known about one variant's run(s). */
struct atlas_run {
    const char *case_name, *family, *variant, *source;
    double timeout;                /* seconds each run was allowed */
    const struct atlas_observed *o; /* the first run */
    const struct atlas_end *end;
    const struct atlas_judgement *j; /* of every repeat together */
    enum atlas_verdict verdict;
    int repeats, repeats_requested;
    char (*signatures)[2048];
    bool flaky, nondeterministic;
    char harness_note[512]; /* what the runner itself has to say, or "" */
};

/* The run as one JSON object (an element of "runs") and its summary lines. */
void atlas_write_part(FILE *f, const struct atlas_run *run);
void atlas_write_summary(FILE *f, const struct atlas_run *run);

/* The commands (runner.c's usage says what they take). */
int atlas_case(int argc, char **argv);
int atlas_begin(int argc, char **argv);
int atlas_collect(int argc, char **argv);
int atlas_show_summary(int argc, char **argv);
int atlas_lint(int argc, char **argv);

/* The options a command takes: each --NAME with a value, or a flag. */
struct atlas_option {
    const char *name;
    bool takes_value;
};
#define ATLAS_USAGE_ERROR 2

/* Every argument before "--" must be one of the command's options (with its
 * value, when it takes one) or --help: otherwise prints what is wrong, naming
 * the option, and exits ATLAS_USAGE_ERROR. The list ends with {NULL}. */
void atlas_check_options(const char *command, int argc, char **argv, const struct atlas_option known[]);
/* The option's value as a number in [min, max] (its fallback when absent); a
 * value that is not a whole such number (abc, 5x, -1, 1e999, nan) is a usage
 * error naming the option. integer: no fraction either. */
double atlas_opt_number(const char *command, int argc, char **argv, const char *name, const char *fallback, double min,
                        double max, bool integer);

/* Shared by the commands: options before "--", files. */
bool atlas_has_flag(int argc, char **argv, const char *name);
const char *atlas_opt(int argc, char **argv, const char *name, const char *fallback);
const char *atlas_need(int argc, char **argv, const char *name);
void atlas_make_dir(const char *path);
void atlas_read_text(const char *path, char *into, size_t size);
bool atlas_ends_with(const char *name, const char *suffix);

#endif
