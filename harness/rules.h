/* rules.h — expectations: parse, validate, and find the rule for a step.
 *
 * One rule per line (expected/README.md has the full format):
 *
 *   CASE VARIANT STEP EXPECTED [CONDITION...] cite=EVIDENCE
 *
 *   lda_smaller_than_rows broken gemm CUBLAS_STATUS_INVALID_VALUE cite=run:reports/results/x.json
 *   *  *  probe  cudaErrorInsufficientDriver  driver=none  cite=run:reports/results/no-driver_x.json
 *
 * EXPECTED is a status name, several joined by '|', or "not-reached"; for the
 * step "end" (how the process ended) exit:N, signal:SIGNAME or timeout.
 * A CONDITION is FIELD OP VALUE on a fingerprint field, OP one of
 * = != >= <= > < ~ (contains), or FIELD=LOW..HIGH (inclusive range).
 */
#ifndef ATLAS_RULES_H
#define ATLAS_RULES_H

#include <stdbool.h>
#include <stddef.h>

enum atlas_op { OP_EQ, OP_NE, OP_GE, OP_LE, OP_GT, OP_LT, OP_CONTAINS, OP_RANGE };

struct atlas_condition {
    char field[48];
    enum atlas_op op;
    char value[96];
    char high[96]; /* OP_RANGE only */
};

#define ATLAS_MAX_CONDITIONS 8

struct atlas_rule {
    char file[256];
    int line;
    char case_name[96];
    char variant[16];
    char step[64];
    char expected[256]; /* alternatives joined by '|' */
    struct atlas_condition conditions[ATLAS_MAX_CONDITIONS];
    int ncond;
    char cite[512];
};

struct atlas_rules {
    struct atlas_rule *rule;
    size_t n, cap;
};

/* A fingerprint: the key=value lines atlas-fingerprint writes. */
#define ATLAS_MAX_FIELDS 64
struct atlas_fingerprint {
    char key[ATLAS_MAX_FIELDS][48];
    char value[ATLAS_MAX_FIELDS][256];
    int n;
};

/* Each returns 0 on success; on failure it writes "file:line: why" to err. */
int atlas_rules_parse_line(struct atlas_rules *rules, const char *file, int line,
                           const char *text, char *err, size_t errsize);
int atlas_rules_load_file(struct atlas_rules *rules, const char *path, char *err, size_t errsize);
/* Every *.rules file in dir, in name order. */
int atlas_rules_load_dir(struct atlas_rules *rules, const char *dir, char *err, size_t errsize);
/* Two rules for the same case, variant, step and conditions are an error. */
int atlas_rules_check_conflicts(const struct atlas_rules *rules, char *err, size_t errsize);
void atlas_rules_free(struct atlas_rules *rules);

int atlas_fingerprint_load(struct atlas_fingerprint *fp, const char *path, char *err, size_t errsize);
const char *atlas_fingerprint_get(const struct atlas_fingerprint *fp, const char *key);

bool atlas_condition_holds(const struct atlas_condition *c, const struct atlas_fingerprint *fp);
bool atlas_rule_applies(const struct atlas_rule *r, const struct atlas_fingerprint *fp);

/* The most specific rule that applies to (case, variant, step) here, or NULL.
 * Specificity: more conditions first, then a named case, variant and step
 * over '*'. Two equally specific rules that expect different things are a
 * contradiction: returns NULL and sets *contradiction and err. */
const struct atlas_rule *atlas_rules_find(const struct atlas_rules *rules,
                                          const struct atlas_fingerprint *fp,
                                          const char *case_name, const char *variant,
                                          const char *step, bool *contradiction,
                                          char *err, size_t errsize);

/* Whether an observed outcome is one of the rule's alternatives. */
bool atlas_expected_includes(const char *expected, const char *observed);

/* Numeric comparison of dotted versions ("580.159.04", "9.0"); false if
 * either is not a version. */
bool atlas_version_compare(const char *a, const char *b, int *result);

#endif
