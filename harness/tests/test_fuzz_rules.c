/* The rule parser, fuzzed: lines from real rule files, mutated at random
 * (bytes flipped, tokens of the rule language inserted, pieces cut, lines
 * spliced), are parsed, checked for conflicts and looked up, for a bounded
 * time. Built with ASan and UBSan (the test preset), any memory error or
 * undefined behaviour ends the run; the input that caused it is written to
 * --crashes first, to be kept in fuzz/rules/ as a regression input.
 *
 *   test_fuzz_rules [--seconds S (3)] [--seed N (time)] [--seeds DIR (none)]
 *                   [--regressions DIR (none)] [--crashes DIR (.)]
 *
 * Regression inputs (every file in --regressions, one rule line per line)
 * are parsed first, every time.
 */
#define _GNU_SOURCE
#include "rules.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char current[8192];
static char crashes[1024] = ".";

/* Called by the sanitizers before they end the process, and on a signal. */
static void save_current(void)
{
    char path[1200];
    unsigned long h = 5381;
    for (const char *p = current; *p; p++)
        h = h * 33 + (unsigned char)*p;
    mkdir(crashes, 0755);
    snprintf(path, sizeof path, "%s/crash-%08lx.txt", crashes, h & 0xffffffffUL);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(current, f);
        fputs("\n", f);
        fclose(f);
    }
    fprintf(stderr, "fuzz-rules: the input that crashed is in %s:\n%s\n", path, current);
}

static void on_signal(int sig)
{
    save_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static struct atlas_fingerprint fingerprint(void)
{
    static const char *const fields[][2] = {{"driver", "580.159.04"}, {"cudart", "13.0"}, {"cublas", "13.1.0"},
                                            {"cc", "9.0"}, {"gpu", "NVIDIA H200"}, {"mode", "default"},
                                            {"devices", "1"}, {"pageable", "no"}};
    struct atlas_fingerprint fp = {0};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        snprintf(fp.key[fp.n], sizeof fp.key[0], "%s", fields[i][0]);
        snprintf(fp.value[fp.n++], sizeof fp.value[0], "%s", fields[i][1]);
    }
    return fp;
}

/* One input: every line parsed into one rule set, then used as the runner uses it. */
static int exercise(const char *text, const struct atlas_fingerprint *fp)
{
    snprintf(current, sizeof current, "%s", text);
    struct atlas_rules rules = {0};
    char err[1024], buf[8192];
    snprintf(buf, sizeof buf, "%s", text);
    int parsed = 0, line = 0;
    for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        parsed += atlas_rules_parse_line(&rules, "fuzz.rules", ++line, l, err, sizeof err) == 0;
    atlas_rules_check_conflicts(&rules, err, sizeof err);
    for (size_t i = 0; i < rules.n; i++) {
        const struct atlas_rule *r = &rules.rule[i];
        bool contradiction;
        atlas_rules_find(&rules, fp, r->case_name, strcmp(r->variant, "*") ? r->variant : "broken", r->step,
                         &contradiction, err, sizeof err);
        atlas_expected_includes(r->expected, "cudaSuccess");
        atlas_rule_applies(r, fp);
        int cmp;
        for (int c = 0; c < r->ncond; c++)
            atlas_version_compare(r->conditions[c].value, r->conditions[c].high[0] ? r->conditions[c].high : "1", &cmp);
    }
    atlas_rules_free(&rules);
    return parsed;
}

static char **lines;
static size_t nlines, cap;

static void add_line(const char *text)
{
    if (nlines == cap) {
        cap = cap ? cap * 2 : 256;
        lines = realloc(lines, cap * sizeof *lines);
    }
    lines[nlines++] = strdup(text);
}

/* Calls each(line) for every line of every regular file in dir. */
static int read_dir(const char *dir, void (*each)(const char *))
{
    DIR *d = opendir(dir);
    int files = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[1300], line[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = e->d_name[0] == '.' ? NULL : fopen(path, "r");
        while (f && fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = '\0';
            each(line);
        }
        if (f)
            fclose(f), files++;
    }
    if (d)
        closedir(d);
    return files;
}

static const struct atlas_fingerprint *regression_fp;
static long regressions;
static void run_regression(const char *line)
{
    exercise(line, regression_fp);
    regressions++;
}

static const char *const tokens[] = {
    "cite=",  "cite=run:", "cite=doc:", "..",    "|",     "=",     ">=",    "<=",     "!=",    "~",      "*",
    "end",    "not-reached", "exit:",   "signal:SIG", "timeout", " ",  "\t",    "#",      "driver", "cudart",
    "1.2.3",  "9..",       "..9",       "=..",   "exit:256", "exit:-1", "<unknown:", ">", "||", "env.CUDA_LAUNCH_BLOCKING",
    "\r",     "\x01",      "99999999999999999999999", "cc=9.0..9.0", "fixed", "broken",
};

/* Appends at most max bytes of s, always terminated. */
static void append(char *out, size_t size, const char *s, size_t max)
{
    size_t n = strlen(out), len = strlen(s);
    if (len > max)
        len = max;
    if (n + len >= size)
        len = size - n - 1;
    memcpy(out + n, s, len);
    out[n + len] = '\0';
}

static void mutate(char *out, size_t size, unsigned *seed)
{
    snprintf(out, size, "%s", lines[(size_t)rand_r(seed) % nlines]);
    int rounds = 1 + rand_r(seed) % 6;
    for (int r = 0; r < rounds; r++) {
        size_t n = strlen(out), at = n ? (size_t)rand_r(seed) % (n + 1) : 0;
        char tail[8192];
        switch (rand_r(seed) % 6) {
        case 0: /* flip a byte */
            if (n)
                out[at % n] = (char)(rand_r(seed) % 255 + 1);
            break;
        case 1: { /* insert a token of the language */
            const char *t = tokens[(size_t)rand_r(seed) % (sizeof tokens / sizeof *tokens)];
            snprintf(tail, sizeof tail, "%s", out + at);
            snprintf(out + at, size - at, "%s%s", t, tail);
            break;
        }
        case 2: { /* cut a piece */
            size_t len = (size_t)rand_r(seed) % 16;
            if (at + len > n)
                len = n - at;
            memmove(out + at, out + at + len, n - at - len + 1);
            break;
        }
        case 3: /* splice with another line */
            snprintf(tail, sizeof tail, "%s", lines[(size_t)rand_r(seed) % nlines]);
            snprintf(out + at, size - at, "%s", tail + (strlen(tail) ? (size_t)rand_r(seed) % strlen(tail) : 0));
            break;
        case 4: { /* repeat a piece, to reach the length limits */
            size_t times = 1 + (size_t)rand_r(seed) % 200;
            snprintf(tail, sizeof tail, "%s", out + at);
            for (size_t k = 0; k < times && strlen(out) + 8 < size; k++)
                append(out, size, tail, 8);
            break;
        }
        default: /* several lines in one input: conflicts and lookups across rules */
            append(out, size, "\n", 1);
            append(out, size, lines[(size_t)rand_r(seed) % nlines], size);
        }
    }
}

int main(int argc, char **argv)
{
    double seconds = 3;
    unsigned seed = (unsigned)time(NULL);
    const char *seeds = NULL, *regression_dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0) {
            printf("usage: test_fuzz_rules [--seconds S (3)] [--seed N (the time)] [--seeds DIR (none)]\n"
                   "                       [--regressions DIR (none)] [--crashes DIR (.)]\n");
            return 0;
        } else if (v && strcmp(a, "--seconds") == 0) {
            seconds = strtod(v, NULL), i++;
        } else if (v && strcmp(a, "--seed") == 0) {
            seed = (unsigned)strtoul(v, NULL, 10), i++;
        } else if (v && strcmp(a, "--seeds") == 0) {
            seeds = v, i++;
        } else if (v && strcmp(a, "--regressions") == 0) {
            regression_dir = v, i++;
        } else if (v && strcmp(a, "--crashes") == 0) {
            snprintf(crashes, sizeof crashes, "%s", v), i++;
        } else {
            fprintf(stderr, "test_fuzz_rules: unknown argument %s (--help)\n", a);
            return 99;
        }
    }
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(save_current);
    signal(SIGSEGV, on_signal);
    signal(SIGABRT, on_signal);
    signal(SIGFPE, on_signal);

    struct atlas_fingerprint fp = fingerprint();
    regression_fp = &fp;
    if (regression_dir)
        read_dir(regression_dir, run_regression);
    add_line("lda_smaller_than_rows broken gemm CUBLAS_STATUS_INVALID_VALUE driver>=580 cudart=12.0..13.0 cite=run:x.json");
    add_line("*  *  probe  cudaErrorInsufficientDriver  driver=none  cite=run:reports/results/x.json");
    add_line("c * end signal:SIGSEGV|exit:0|timeout gpu~H200 mode!=sanitizer cite=doc:https://x \"a sentence\"");
    int files = seeds ? read_dir(seeds, add_line) : 0;

    printf("fuzz-rules: seed %u, %.0f s, %zu seed lines from %d files, %ld regression inputs\n", seed, seconds, nlines,
           files, regressions);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long inputs = 0, accepted = 0;
    char input[8192];
    do {
        for (int k = 0; k < 100; k++, inputs++) {
            mutate(input, sizeof input, &seed);
            accepted += exercise(input, &fp) > 0;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
    printf("fuzz-rules: %ld inputs, %ld with at least one valid rule, no crash\n", inputs, accepted);
    for (size_t i = 0; i < nlines; i++)
        free(lines[i]);
    free(lines);
    /* A fuzzer that accepted nothing exercised only the error paths. */
    return accepted > 0 && inputs > 1000 ? 0 : 1;
}
