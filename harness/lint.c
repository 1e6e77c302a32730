/* lint.c — the lint command: every rule parses, names a case that exists, a
 * step that case records, statuses that a status table knows, and cites
 * results files that exist. With --json it prints every parsed rule instead,
 * so that another reader (the Python package's) can check it agrees with
 * this one, the authority. */
#define _GNU_SOURCE
#include "results.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What EXPECTED may hold besides status names (rules.h). */
static const char *const not_statuses[] = {"not-reached", "result_correct", "result_wrong"};

/* Steps the support library records for every case, whatever its source
 * says: atlas.c's probe of the context after the variant. */
static const char *const harness_steps[] = {"probe"};

struct words {
    char **v;
    size_t n, cap;
};

static int add_word(struct words *w, const char *s, size_t len)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 512;
        char **grown = realloc(w->v, cap * sizeof *grown);
        if (!grown)
            return -1;
        w->v = grown, w->cap = cap;
    }
    if (!(w->v[w->n] = strndup(s, len)))
        return -1;
    w->n++;
    return 0;
}

static bool has_word(const struct words *w, const char *s)
{
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->v[i], s) == 0)
            return true;
    return false;
}

static void free_words(struct words *w)
{
    for (size_t i = 0; i < w->n; i++)
        free(w->v[i]);
    free(w->v);
}

static int tsv_file(const struct dirent *d) { return atlas_ends_with(d->d_name, ".tsv"); }

/* Every name in every table of dir. A table is tab-separated; its
 * "# Columns: a, b, ..." comment says which column is the name (without
 * one: api, code, name, text). */
static int load_status_names(const char *dir, struct words *known)
{
    struct dirent **names;
    int n = scandir(dir, &names, tsv_file, alphasort);
    if (n < 0) {
        printf("%s: cannot read the status tables: %s (--status-tables DIR)\n", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char path[1200], *line = NULL;
        size_t size = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        free(names[i]);
        FILE *f = fopen(path, "r");
        int column = 2;
        while (rc == 0 && f && getline(&line, &size, f) >= 0) {
            line[strcspn(line, "\r\n")] = '\0';
            if (strncmp(line, "# Columns:", 10) == 0) {
                column = -1;
                int c = 0;
                for (char *save = NULL, *t = strtok_r(line + 10, ",", &save); t && column < 0;
                     t = strtok_r(NULL, ",", &save), c++) {
                    t += strspn(t, " ");
                    if (strncmp(t, "name", 4) == 0 && (t[4] == '\0' || t[4] == ' '))
                        column = c;
                }
                if (column < 0) {
                    printf("%s: its '# Columns:' line names no column 'name'\n", path);
                    rc = -1;
                }
                continue;
            }
            if (line[0] == '#' || !line[0])
                continue;
            char *field = line;
            for (int c = 0; c < column && field; c++)
                field = strchr(field, '\t') ? strchr(field, '\t') + 1 : NULL;
            if (field && *field)
                rc = add_word(known, field, strcspn(field, "\t"));
        }
        free(line);
        if (f)
            fclose(f);
    }
    free(names);
    if (rc == 0 && known->n == 0) {
        printf("%s: no status table (*.tsv) lists a name (--status-tables DIR)\n", dir);
        rc = -1;
    }
    return rc;
}

static bool is_unknown_code(const char *alt)
{
    size_t n = strlen(alt);
    if (strncmp(alt, "<unknown:", 9) != 0 || n < 11 || alt[n - 1] != '>')
        return false;
    const char *digits = alt + 9 + (alt[9] == '-');
    return strspn(digits, "0123456789") == (size_t)(alt + n - 1 - digits) && digits < alt + n - 1;
}

static bool known_status(const struct words *known, const char *alt)
{
    for (size_t i = 0; i < sizeof not_statuses / sizeof *not_statuses; i++)
        if (strcmp(alt, not_statuses[i]) == 0)
            return true;
    return is_unknown_code(alt) || has_word(known, alt);
}

/* The case's source, root/cases/FAMILY/CASE.c or .cu; false if none. */
static bool find_source(const char *root, const char *case_name, char *path, size_t size)
{
    static const char *const suffixes[] = {"c", "cu"};
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        char pattern[1200];
        glob_t g;
        snprintf(pattern, sizeof pattern, "%s/cases/*/%s.%s", root, case_name, suffixes[i]);
        bool found = glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0;
        if (found)
            snprintf(path, size, "%s", g.gl_pathv[0]);
        globfree(&g);
        if (found)
            return true;
    }
    return false;
}

/* Adds the string literals of the file and of the local headers it includes
 * (#include "x.h": beside the file, then in harness/), recursively. */
static void read_literals(const char *root, const char *path, struct words *literals, int depth)
{
    FILE *f = depth < 8 ? fopen(path, "r") : NULL;
    if (!f)
        return;
    char *line = NULL;
    size_t size = 0;
    struct words includes = {0};
    while (getline(&line, &size, f) >= 0) {
        const char *p = line + strspn(line, " \t");
        if (*p == '#' && (p = p + 1 + strspn(p + 1, " \t"), strncmp(p, "include", 7) == 0)) {
            p += 7 + strspn(p + 7, " \t");
            if (*p == '"' && strchr(p + 1, '"'))
                add_word(&includes, p + 1, (size_t)(strchr(p + 1, '"') - p - 1));
            continue;
        }
        for (const char *q = strchr(line, '"'); q; q = strchr(q + 1, '"')) {
            if (q > line && q[-1] == '\'')
                continue; /* the character '"' */
            const char *end = q + 1;
            while (*end && *end != '"')
                end += *end == '\\' && end[1] ? 2 : 1;
            if (!*end)
                break;
            add_word(literals, q + 1, (size_t)(end - q - 1));
            q = end;
        }
    }
    free(line);
    fclose(f);
    const char *slash = strrchr(path, '/');
    for (size_t i = 0; i < includes.n; i++) {
        char header[1300];
        snprintf(header, sizeof header, "%.*s/%s", slash ? (int)(slash - path) : 1, slash ? path : ".", includes.v[i]);
        if (access(header, R_OK) != 0)
            snprintf(header, sizeof header, "%s/harness/%s", root, includes.v[i]);
        read_literals(root, header, literals, depth + 1);
    }
    free_words(&includes);
}

/* Whether step is what the format literal makes, its %d being digits and
 * each %s another literal of the source: "init_r%d" makes init_r0, and
 * "%s_%s" with "global" and "event_sync" makes global_event_sync; a %s may
 * also be what another format literal makes (one level deep). */
static bool formats(const char *format, const char *step, const struct words *literals, int depth)
{
    if (!*format)
        return !*step;
    if (format[0] != '%' || depth > 4)
        return *format == *step && formats(format + 1, step + 1, literals, depth);
    if (format[1] == 'd' || format[1] == 'u' || format[1] == 'i') {
        for (size_t n = strspn(step, "0123456789"); n > 0; n--)
            if (formats(format + 2, step + n, literals, depth))
                return true;
        return false;
    }
    if (format[1] == 's') {
        for (size_t i = 0; i < literals->n; i++) {
            size_t n = strlen(literals->v[i]);
            if (n && !strchr(literals->v[i], '%') && strncmp(step, literals->v[i], n) == 0
                && formats(format + 2, step + n, literals, depth + 1))
                return true;
        }
        /* a %s filled by what another format literal makes ("%s_result" of "%s_update" of "node") */
        char prefix[256];
        for (size_t k = 1; depth == 0 && k < sizeof prefix && step[k - 1]; k++) {
            memcpy(prefix, step, k);
            prefix[k] = '\0';
            for (size_t i = 0; i < literals->n; i++)
                if (strchr(literals->v[i], '%') && formats(literals->v[i], prefix, literals, 3)
                    && formats(format + 2, step + k, literals, 3))
                    return true;
        }
        return false;
    }
    return false;
}

/* Whether the case's source records the step: a string literal, or what a
 * format literal makes (formats above). */
static bool records_step(const char *root, const char *path, const char *step)
{
    struct words literals = {0};
    read_literals(root, path, &literals, 0);
    bool found = has_word(&literals, step);
    for (size_t i = 0; i < literals.n && !found; i++)
        found = strchr(literals.v[i], '%') && formats(literals.v[i], step, &literals, 0);
    free_words(&literals);
    return found;
}

static void print_json(const struct atlas_rule *r)
{
    static const char *const ops[] = {[OP_EQ] = "=", [OP_NE] = "!=", [OP_GE] = ">=",      [OP_LE] = "<=",
                                      [OP_GT] = ">", [OP_LT] = "<",  [OP_CONTAINS] = "~", [OP_RANGE] = "range"};
    fputc('{', stdout);
    atlas_json_key(stdout, "file", true), atlas_json_str(stdout, r->file);
    atlas_json_key(stdout, "line", false), printf("%d", r->line);
    atlas_json_key(stdout, "case", false), atlas_json_str(stdout, r->case_name);
    atlas_json_key(stdout, "variant", false), atlas_json_str(stdout, r->variant);
    atlas_json_key(stdout, "step", false), atlas_json_str(stdout, r->step);
    atlas_json_key(stdout, "expected", false), fputc('[', stdout);
    for (const char *p = r->expected; *p;) {
        size_t len = strcspn(p, "|");
        char alt[sizeof r->expected];
        snprintf(alt, sizeof alt, "%.*s", (int)len, p);
        fputs(p == r->expected ? "" : ",", stdout), atlas_json_str(stdout, alt);
        p += len + (p[len] == '|');
    }
    fputc(']', stdout);
    atlas_json_key(stdout, "conditions", false), fputc('[', stdout);
    for (int i = 0; i < r->ncond; i++) {
        const struct atlas_condition *c = &r->conditions[i];
        fputs(i ? ",{" : "{", stdout);
        atlas_json_key(stdout, "field", true), atlas_json_str(stdout, c->field);
        atlas_json_key(stdout, "op", false), atlas_json_str(stdout, ops[c->op]);
        atlas_json_key(stdout, "value", false), atlas_json_str(stdout, c->value);
        if (c->op == OP_RANGE)
            atlas_json_key(stdout, "high", false), atlas_json_str(stdout, c->high);
        fputc('}', stdout);
    }
    fputc(']', stdout);
    atlas_json_key(stdout, "cite", false), atlas_json_str(stdout, r->cite);
    fputs("}\n", stdout);
}

/* The problems of one rule, printed as file:line: why; returns how many. */
static int lint_rule(const struct atlas_rule *r, const char *root, const char *cases, const char *list,
                     const struct words *statuses, FILE *out)
{
    int problems = 0;
    char want[128];
    snprintf(want, sizeof want, ",%s,", r->case_name);
    bool named = strcmp(r->case_name, "*") != 0;
    if (cases && named && !strstr(list, want)) {
        fprintf(out, "%s:%d: no case is named '%s'\n", r->file, r->line, r->case_name);
        problems++;
    }
    if (strcmp(r->step, "end") != 0) {
        char alts[sizeof r->expected];
        snprintf(alts, sizeof alts, "%s", r->expected);
        for (char *save = NULL, *a = strtok_r(alts, "|", &save); a; a = strtok_r(NULL, "|", &save))
            if (!known_status(statuses, a)) {
                fprintf(out, "%s:%d: '%s' is in no status table (a misspelling? the tables: --status-tables)\n",
                        r->file, r->line, a);
                problems++;
            }
    }
    bool harness_step = false;
    for (size_t i = 0; i < sizeof harness_steps / sizeof *harness_steps; i++)
        harness_step |= strcmp(r->step, harness_steps[i]) == 0;
    char source[1200];
    if (named && strcmp(r->step, "*") != 0 && strcmp(r->step, "end") != 0 && !harness_step) {
        if (!find_source(root, r->case_name, source, sizeof source)) {
            fprintf(out, "%s:%d: no source for case '%s' (%s/cases/*/%s.c or .cu)\n", r->file, r->line,
                    r->case_name, root, r->case_name);
            problems++;
        } else if (!records_step(root, source, r->step)) {
            fprintf(out, "%s:%d: case '%s' never records the step \"%s\" (no such string literal, nor a format of literals making it, in %s or its local headers)\n",
                    r->file, r->line, r->case_name, r->step, source);
            problems++;
        }
    }
    /* Every results file a citation names (run:A run:B ...) must exist. */
    char cite[sizeof r->cite];
    snprintf(cite, sizeof cite, "%s", r->cite);
    for (char *save = NULL, *t = strtok_r(cite, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", root, t + 4);
        if (strncmp(t, "run:", 4) == 0 && access(path, R_OK) != 0) {
            fprintf(out, "%s:%d: the cited results file %s does not exist\n", r->file, r->line, t + 4);
            problems++;
        }
    }
    return problems;
}

int atlas_lint(int argc, char **argv)
{
    static const struct atlas_option known[] = {{"--rules", true},         {"--root", true}, {"--cases", true},
                                                {"--status-tables", true}, {"--json", false}, {NULL, false}};
    atlas_check_options("lint", argc, argv, known);
    const char *dir = atlas_need(argc, argv, "--rules"), *root = atlas_opt(argc, argv, "--root", ".");
    const char *cases = atlas_opt(argc, argv, "--cases", NULL);
    bool json = atlas_has_flag(argc, argv, "--json");
    char tables[1200];
    snprintf(tables, sizeof tables, "%s/data/status_names", root);
    const char *tables_dir = atlas_opt(argc, argv, "--status-tables", tables);
    FILE *out = json ? stderr : stdout; /* with --json, stdout holds only the rules */
    char err[1024];
    struct atlas_rules rules = {0};
    if (atlas_rules_load_dir(&rules, dir, err, sizeof err) != 0) {
        fprintf(out, "%s\n", err);
        atlas_rules_free(&rules);
        return atlas_verdicts[ATLAS_ERROR].exit_code;
    }
    struct words statuses = {0};
    if (!json && load_status_names(tables_dir, &statuses) != 0) {
        free_words(&statuses);
        atlas_rules_free(&rules);
        return atlas_verdicts[ATLAS_ERROR].exit_code;
    }
    static char list[1 << 16];
    snprintf(list, sizeof list, ",%s,", cases ? cases : "");
    int problems = 0;
    for (size_t i = 0; i < rules.n; i++)
        if (json)
            print_json(&rules.rule[i]);
        else
            problems += lint_rule(&rules.rule[i], root, cases, list, &statuses, out);
    if (!json)
        fprintf(out, "%zu rules checked, %d problem%s\n", rules.n, problems, problems == 1 ? "" : "s");
    free_words(&statuses);
    atlas_rules_free(&rules);
    return problems ? atlas_verdicts[ATLAS_ERROR].exit_code : 0;
}
