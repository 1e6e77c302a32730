/* rules.c — see rules.h. */
#define _GNU_SOURCE
#include "rules.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fingerprint fields a condition may name, and whether they are versions
 * (ordered, dotted numbers) or plain words. */
static const struct {
    const char *name;
    bool version;
} known_fields[] = {
    {"driver", true},         {"cuda", true},         {"cudart", true},
    {"cudart_header", true},  {"cublas", true},       {"cublas_header", true},
    {"cc", true},             {"devices", true},      {"memory_bytes", true},
    {"gpu", false},           {"pageable", false},    {"pageable_uses_host_page_tables", false},
    {"module_loading", false}, {"mode", false},       {"os", false},
    {"arch", false},          {"kernel", false},      {"driver_source", false},
    {"env.CUDA_LAUNCH_BLOCKING", false}, {"env.CUDA_MODULE_LOADING", false},
    {"env.CUBLAS_WORKSPACE_CONFIG", false}, {"env.CUDA_VISIBLE_DEVICES", false},
};

static int field_index(const char *name)
{
    for (size_t i = 0; i < sizeof known_fields / sizeof *known_fields; i++)
        if (strcmp(known_fields[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int fail(char *err, size_t errsize, const char *file, int line, const char *fmt, ...)
{
    int n = snprintf(err, errsize, "%s:%d: ", file, line);
    if (n < 0 || (size_t)n >= errsize)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errsize - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static bool is_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
            return false;
    return true;
}

/* One alternative of EXPECTED. The step "end" takes process ends; every
 * other step takes status names or not-reached. */
static bool valid_alternative(const char *alt, bool for_end)
{
    if (for_end) {
        if (strcmp(alt, "timeout") == 0)
            return true;
        if (strncmp(alt, "exit:", 5) == 0) {
            char *tail;
            long code = strtol(alt + 5, &tail, 10);
            return alt[5] && !*tail && code >= 0 && code <= 255;
        }
        if (strncmp(alt, "signal:SIG", 10) == 0)
            return is_name(alt + 10);
        return false;
    }
    if (strcmp(alt, "not-reached") == 0 || strcmp(alt, "result_correct") == 0
        || strcmp(alt, "result_wrong") == 0)
        return true;
    if (strncmp(alt, "<unknown:", 9) == 0)
        return alt[strlen(alt) - 1] == '>';
    if (strncmp(alt, "cuda", 4) == 0 || strncmp(alt, "CUBLAS_STATUS_", 14) == 0
        || strncmp(alt, "CUDA_ERROR_", 11) == 0 || strcmp(alt, "CUDA_SUCCESS") == 0)
        return is_name(alt);
    /* the other toolkit libraries (atlas_libraries.h) */
    if (strncmp(alt, "CUSOLVER_STATUS_", 16) == 0 || strncmp(alt, "CUFFT_", 6) == 0
        || strncmp(alt, "CURAND_STATUS_", 14) == 0 || strncmp(alt, "CUSPARSE_STATUS_", 16) == 0 || strncmp(alt, "CUDNN_STATUS_", 13) == 0 || strncmp(alt, "nccl", 4) == 0
        || strncmp(alt, "NVRTC_", 6) == 0)
        return is_name(alt);
    return false;
}

static int parse_condition(struct atlas_condition *c, const char *tok, const char *file,
                           int line, char *err, size_t errsize)
{
    static const struct {
        const char *text;
        enum atlas_op op;
    } ops[] = {{"!=", OP_NE}, {">=", OP_GE}, {"<=", OP_LE}, {"=", OP_EQ},
               {">", OP_GT},  {"<", OP_LT},  {"~", OP_CONTAINS}};
    const char *at = NULL;
    size_t oplen = 0;
    memset(c, 0, sizeof *c);
    for (const char *p = tok; *p && !at; p++)
        for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
            if (strncmp(p, ops[i].text, strlen(ops[i].text)) == 0) {
                at = p;
                oplen = strlen(ops[i].text);
                c->op = ops[i].op;
                break;
            }
    if (!at || at == tok || !at[oplen])
        return fail(err, errsize, file, line,
                    "'%s' is not a condition (FIELD=VALUE, FIELD>=VERSION, FIELD=LOW..HIGH, ...)", tok);
    /* The first operator found ends the field, so "driver=>580" would read
     * as driver = ">580": an operator character opening the value is a
     * misspelt operator, never a value. */
    if (strchr("=<>!~", at[oplen]))
        return fail(err, errsize, file, line,
                    "'%s': '%.*s' is not an operator (operators are = != >= <= > < ~, ranges FIELD=LOW..HIGH)", tok,
                    (int)(oplen + strspn(at + oplen, "=<>!~")), at);
    if ((size_t)(at - tok) >= sizeof c->field)
        return fail(err, errsize, file, line, "field name longer than %zu characters in '%s'", sizeof c->field - 1,
                    tok);
    memcpy(c->field, tok, (size_t)(at - tok));
    int f = field_index(c->field);
    if (f < 0)
        return fail(err, errsize, file, line, "unknown field '%s' (fields are those of the fingerprint)", c->field);
    const char *value = at + oplen;
    const char *dots = strstr(value, "..");
    size_t low_len = c->op == OP_EQ && dots ? (size_t)(dots - value) : strlen(value);
    if (low_len >= sizeof c->value || (c->op == OP_EQ && dots && strlen(dots + 2) >= sizeof c->high))
        return fail(err, errsize, file, line, "value longer than %zu characters in '%.40s...'", sizeof c->value - 1,
                    tok);
    if (c->op == OP_EQ && dots) {
        c->op = OP_RANGE;
        snprintf(c->value, sizeof c->value, "%.*s", (int)(dots - value), value);
        snprintf(c->high, sizeof c->high, "%s", dots + 2);
        int ignored;
        if (!atlas_version_compare(c->value, c->high, &ignored))
            return fail(err, errsize, file, line, "range '%s' needs two versions, LOW..HIGH", value);
    } else {
        snprintf(c->value, sizeof c->value, "%s", value);
    }
    bool ordered = c->op == OP_GE || c->op == OP_LE || c->op == OP_GT || c->op == OP_LT || c->op == OP_RANGE;
    if (ordered && !known_fields[f].version)
        return fail(err, errsize, file, line, "field '%s' is not a version: use =, != or ~", c->field);
    int ignored;
    if (ordered && c->op != OP_RANGE && !atlas_version_compare(c->value, c->value, &ignored))
        return fail(err, errsize, file, line, "'%s' is not a version", c->value);
    return 0;
}

static int add_rule(struct atlas_rules *rules, const struct atlas_rule *r)
{
    if (rules->n == rules->cap) {
        size_t cap = rules->cap ? rules->cap * 2 : 64;
        struct atlas_rule *grown = realloc(rules->rule, cap * sizeof *grown);
        if (!grown)
            return -1;
        rules->rule = grown;
        rules->cap = cap;
    }
    rules->rule[rules->n++] = *r;
    return 0;
}

int atlas_rules_parse_line(struct atlas_rules *rules, const char *file, int line,
                           const char *text, char *err, size_t errsize)
{
    char buf[2048];
    if (strlen(text) >= sizeof buf)
        return fail(err, errsize, file, line, "line longer than %zu characters", sizeof buf - 1);
    snprintf(buf, sizeof buf, "%s", text);
    buf[strcspn(buf, "\r\n")] = '\0';

    char *p = buf;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '\0' || *p == '#')
        return 0;

    struct atlas_rule r;
    memset(&r, 0, sizeof r);
    if (strlen(file) >= sizeof r.file)
        return fail(err, errsize, file, line, "the rules file's path is longer than %zu characters", sizeof r.file - 1);
    snprintf(r.file, sizeof r.file, "%s", file);
    r.line = line;

    /* cite= takes the rest of the line: a citation may hold spaces and '#'. */
    char *cite = strstr(p, "cite=");
    while (cite && cite != p && !isspace((unsigned char)cite[-1]))
        cite = strstr(cite + 1, "cite=");
    if (!cite)
        return fail(err, errsize, file, line,
                    "no cite= (every rule names its evidence: cite=run:RESULTS.json or cite=doc:URL)");
    *cite = '\0';
    cite += 5;
    while (*cite && isspace((unsigned char)cite[strlen(cite) - 1]))
        cite[strlen(cite) - 1] = '\0';
    if (strncmp(cite, "run:", 4) != 0 && strncmp(cite, "doc:", 4) != 0)
        return fail(err, errsize, file, line, "cite= must start with run: (a results file) or doc: (a documentation section)");
    if (strlen(cite) <= 4)
        return fail(err, errsize, file, line, "cite= names no evidence");
    if (strlen(cite) >= sizeof r.cite)
        return fail(err, errsize, file, line, "cite= is longer than %zu characters", sizeof r.cite - 1);
    snprintf(r.cite, sizeof r.cite, "%s", cite);

    char *tok[4 + ATLAS_MAX_CONDITIONS + 1];
    int ntok = 0;
    for (char *t = strtok(p, " \t"); t; t = strtok(NULL, " \t")) {
        if (ntok == (int)(sizeof tok / sizeof *tok))
            return fail(err, errsize, file, line, "more than %d conditions", ATLAS_MAX_CONDITIONS);
        tok[ntok++] = t;
    }
    if (ntok < 4)
        return fail(err, errsize, file, line,
                    "expected CASE VARIANT STEP EXPECTED [CONDITION...] cite=EVIDENCE, found %d field%s before cite=",
                    ntok, ntok == 1 ? "" : "s");

    if (strcmp(tok[0], "*") != 0 && !is_name(tok[0]))
        return fail(err, errsize, file, line, "'%s' is not a case name", tok[0]);
    if (strcmp(tok[1], "fixed") != 0 && strcmp(tok[1], "broken") != 0 && strcmp(tok[1], "*") != 0)
        return fail(err, errsize, file, line, "variant '%s' is not fixed, broken or *", tok[1]);
    if (strcmp(tok[2], "*") != 0 && !is_name(tok[2]))
        return fail(err, errsize, file, line, "'%s' is not a step name", tok[2]);
    const struct {
        const char *what, *text;
        size_t size;
    } sized[] = {{"case name", tok[0], sizeof r.case_name}, {"step name", tok[2], sizeof r.step},
                 {"EXPECTED", tok[3], sizeof r.expected}};
    for (size_t i = 0; i < sizeof sized / sizeof *sized; i++)
        if (strlen(sized[i].text) >= sized[i].size)
            return fail(err, errsize, file, line, "the %s '%.40s...' is longer than %zu characters", sized[i].what,
                        sized[i].text, sized[i].size - 1);
    snprintf(r.case_name, sizeof r.case_name, "%s", tok[0]);
    snprintf(r.variant, sizeof r.variant, "%s", tok[1]);
    snprintf(r.step, sizeof r.step, "%s", tok[2]);
    snprintf(r.expected, sizeof r.expected, "%s", tok[3]);

    bool for_end = strcmp(r.step, "end") == 0;
    char alts[256];
    snprintf(alts, sizeof alts, "%s", r.expected);
    char *save = NULL;
    int nalt = 0;
    for (char *a = strtok_r(alts, "|", &save); a; a = strtok_r(NULL, "|", &save), nalt++)
        if (!valid_alternative(a, for_end))
            return fail(err, errsize, file, line,
                        for_end ? "'%s' is not a process end (exit:N, signal:SIGNAME, timeout)"
                                : "'%s' is not a status name (cuda..., CUBLAS_STATUS_..., CUDA_ERROR_..., CUSOLVER_STATUS_..., CUFFT_..., CURAND_STATUS_..., CUSPARSE_STATUS_..., CUDNN_STATUS_..., nccl..., NVRTC_..., result_correct, result_wrong, not-reached)",
                        a);
    if (nalt == 0 || r.expected[0] == '|' || r.expected[strlen(r.expected) - 1] == '|' || strstr(r.expected, "||"))
        return fail(err, errsize, file, line, "empty alternative in '%s'", r.expected);

    for (int i = 4; i < ntok; i++) {
        if (parse_condition(&r.conditions[r.ncond], tok[i], file, line, err, errsize) != 0)
            return -1;
        r.ncond++;
    }
    if (add_rule(rules, &r) != 0)
        return fail(err, errsize, file, line, "out of memory");
    return 0;
}

int atlas_rules_load_file(struct atlas_rules *rules, const char *path, char *err, size_t errsize)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, errsize, path, 0, "cannot read: %s", strerror(errno));
    char line[4096];
    int number = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        number++;
        if (!strchr(line, '\n') && !feof(f)) {
            rc = fail(err, errsize, path, number, "line too long");
            break;
        }
        rc = atlas_rules_parse_line(rules, path, number, line, err, errsize);
    }
    fclose(f);
    return rc;
}

static int rules_file(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 6 && strcmp(d->d_name + n - 6, ".rules") == 0;
}

int atlas_rules_load_dir(struct atlas_rules *rules, const char *dir, char *err, size_t errsize)
{
    struct dirent **names;
    int n = scandir(dir, &names, rules_file, alphasort); /* no locale is set: byte order */
    if (n < 0)
        return fail(err, errsize, dir, 0, "cannot read the rules folder: %s", strerror(errno));
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (rc == 0)
            rc = atlas_rules_load_file(rules, path, err, errsize);
        free(names[i]);
    }
    free(names);
    return rc == 0 ? atlas_rules_check_conflicts(rules, err, errsize) : rc;
}

static bool same_conditions(const struct atlas_rule *a, const struct atlas_rule *b)
{
    if (a->ncond != b->ncond)
        return false;
    for (int i = 0; i < a->ncond; i++) {
        bool found = false;
        for (int j = 0; j < b->ncond && !found; j++)
            found = strcmp(a->conditions[i].field, b->conditions[j].field) == 0
                    && a->conditions[i].op == b->conditions[j].op
                    && strcmp(a->conditions[i].value, b->conditions[j].value) == 0
                    && strcmp(a->conditions[i].high, b->conditions[j].high) == 0;
        if (!found)
            return false;
    }
    return true;
}

int atlas_rules_check_conflicts(const struct atlas_rules *rules, char *err, size_t errsize)
{
    for (size_t i = 0; i < rules->n; i++)
        for (size_t j = i + 1; j < rules->n; j++) {
            const struct atlas_rule *a = &rules->rule[i], *b = &rules->rule[j];
            if (strcmp(a->case_name, b->case_name) || strcmp(a->variant, b->variant)
                || strcmp(a->step, b->step) || !same_conditions(a, b))
                continue;
            bool same = strcmp(a->expected, b->expected) == 0;
            return fail(err, errsize, b->file, b->line, "%s %s:%d (same case, variant, step and conditions%s)",
                        same ? "repeats" : "contradicts", a->file, a->line,
                        same ? "" : ", different expectation");
        }
    return 0;
}

void atlas_rules_free(struct atlas_rules *rules)
{
    free(rules->rule);
    memset(rules, 0, sizeof *rules);
}

int atlas_fingerprint_load(struct atlas_fingerprint *fp, const char *path, char *err, size_t errsize)
{
    memset(fp, 0, sizeof *fp);
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, errsize, path, 0, "cannot read the fingerprint: %s", strerror(errno));
    char line[512];
    int number = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        line[strcspn(line, "\r\n")] = '\0';
        char *eq = strchr(line, '=');
        if (!line[0])
            continue;
        if (!eq || eq == line || fp->n == ATLAS_MAX_FIELDS) {
            fclose(f);
            return fail(err, errsize, path, number, "not a key=value line");
        }
        *eq = '\0';
        snprintf(fp->key[fp->n], sizeof fp->key[0], "%s", line);
        snprintf(fp->value[fp->n], sizeof fp->value[0], "%s", eq + 1);
        fp->n++;
    }
    fclose(f);
    return 0;
}

const char *atlas_fingerprint_get(const struct atlas_fingerprint *fp, const char *key)
{
    for (int i = 0; i < fp->n; i++)
        if (strcmp(fp->key[i], key) == 0)
            return fp->value[i];
    return NULL;
}

bool atlas_version_compare(const char *a, const char *b, int *result)
{
    if (!isdigit((unsigned char)*a) || !isdigit((unsigned char)*b))
        return false;
    while (*a || *b) {
        char *ea, *eb;
        long va = *a ? strtol(a, &ea, 10) : 0, vb = *b ? strtol(b, &eb, 10) : 0;
        if (*a && ea == a)
            return false;
        if (*b && eb == b)
            return false;
        if (!*a)
            ea = (char *)a;
        if (!*b)
            eb = (char *)b;
        if (va != vb) {
            *result = va < vb ? -1 : 1;
            return true;
        }
        if ((*ea && *ea != '.') || (*eb && *eb != '.'))
            return false;
        a = *ea ? ea + 1 : ea;
        b = *eb ? eb + 1 : eb;
    }
    *result = 0;
    return true;
}

bool atlas_condition_holds(const struct atlas_condition *c, const struct atlas_fingerprint *fp)
{
    const char *have = atlas_fingerprint_get(fp, c->field);
    if (!have)
        have = "none";
    int cmp, cmp_high;
    bool numeric = atlas_version_compare(have, c->value, &cmp);
    switch (c->op) {
    case OP_EQ: return numeric ? cmp == 0 : strcmp(have, c->value) == 0;
    case OP_NE: return numeric ? cmp != 0 : strcmp(have, c->value) != 0;
    case OP_GE: return numeric && cmp >= 0;
    case OP_LE: return numeric && cmp <= 0;
    case OP_GT: return numeric && cmp > 0;
    case OP_LT: return numeric && cmp < 0;
    case OP_CONTAINS: return strcasestr(have, c->value) != NULL;
    case OP_RANGE:
        return numeric && cmp >= 0 && atlas_version_compare(have, c->high, &cmp_high) && cmp_high <= 0;
    }
    return false;
}

bool atlas_rule_applies(const struct atlas_rule *r, const struct atlas_fingerprint *fp)
{
    for (int i = 0; i < r->ncond; i++)
        if (!atlas_condition_holds(&r->conditions[i], fp))
            return false;
    return true;
}

static int specificity(const struct atlas_rule *r)
{
    return r->ncond * 8 + (strcmp(r->case_name, "*") != 0) * 4 + (strcmp(r->variant, "*") != 0) * 2
           + (strcmp(r->step, "*") != 0);
}

static bool names(const char *pattern, const char *name) { return strcmp(pattern, "*") == 0 || strcmp(pattern, name) == 0; }

const struct atlas_rule *atlas_rules_find(const struct atlas_rules *rules,
                                          const struct atlas_fingerprint *fp,
                                          const char *case_name, const char *variant,
                                          const char *step, bool *contradiction,
                                          char *err, size_t errsize)
{
    const struct atlas_rule *best = NULL;
    *contradiction = false;
    for (size_t i = 0; i < rules->n; i++) {
        const struct atlas_rule *r = &rules->rule[i];
        /* "end" is the process end, never a step: '*' does not reach it. */
        bool step_matches = strcmp(step, "end") == 0 ? strcmp(r->step, "end") == 0 : names(r->step, step);
        if (!names(r->case_name, case_name) || !names(r->variant, variant) || !step_matches
            || !atlas_rule_applies(r, fp))
            continue;
        if (!best || specificity(r) > specificity(best)) {
            best = r;
            *contradiction = false;
        } else if (specificity(r) == specificity(best) && strcmp(r->expected, best->expected) != 0) {
            *contradiction = true;
            fail(err, errsize, r->file, r->line,
                 "contradicts %s:%d here: both apply to %s %s %s equally, one expects %s, the other %s",
                 best->file, best->line, case_name, variant, step, best->expected, r->expected);
        }
    }
    return *contradiction ? NULL : best;
}

bool atlas_expected_includes(const char *expected, const char *observed)
{
    size_t n = strlen(observed);
    for (const char *p = expected; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, observed, n) == 0)
            return true;
        p += len + (bar != NULL);
    }
    return false;
}
