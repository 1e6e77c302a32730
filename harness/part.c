/* part.c — one variant's judged run as an element of the results file's
 * "runs" (README.md, "The results file"), and as summary lines. */
#define _GNU_SOURCE
#include "results.h"

#include <stdlib.h>
#include <string.h>

/* How many bytes from p form one well-formed UTF-8 character (1 to 4), or,
 * negated, how many form the longest start of one that is cut short or
 * broken (at least 1): the Unicode standard's "maximal subpart", which
 * becomes one U+FFFD. */
static int utf8_char(const unsigned char *p)
{
    int n;
    unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range; the lead narrows it */
    if (p[0] < 0x80)
        return 1;
    else if (p[0] >= 0xc2 && p[0] <= 0xdf)
        n = 2;
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
        n = 3, lo = p[0] == 0xe0 ? 0xa0 : 0x80, hi = p[0] == 0xed ? 0x9f : 0xbf; /* no overlongs, no surrogates */
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
        n = 4, lo = p[0] == 0xf0 ? 0x90 : 0x80, hi = p[0] == 0xf4 ? 0x8f : 0xbf; /* up to U+10FFFF */
    else
        return -1; /* a continuation byte alone, an overlong lead, or not UTF-8 at all */
    for (int i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
        if (p[i] < lo || p[i] > hi)
            return -i;
    return n;
}

size_t atlas_utf8_whole(const char *s, size_t n)
{
    size_t keep = 0;
    for (size_t i = 0; i < n;) {
        int len = utf8_char((const unsigned char *)s + i);
        size_t step = (size_t)(len < 0 ? -len : len);
        if (i + step > n)
            break; /* a character that n would cut */
        i += step;
        keep = i;
    }
    return keep;
}

/* Always valid UTF-8 (RFC 8259): bytes that are not become U+FFFD. */
void atlas_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
        int len = utf8_char(p);
        if (len < 0) {
            fputs("\xef\xbf\xbd", f);
            p += -len;
            continue;
        }
        if (len > 1) {
            fwrite(p, 1, (size_t)len, f);
            p += len;
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
        p++;
    }
    fputc('"', f);
}

void atlas_json_key(FILE *f, const char *key, bool first)
{
    if (!first)
        fputc(',', f);
    atlas_json_str(f, key);
    fputc(':', f);
}

void atlas_json_str_or_null(FILE *f, const char *s)
{
    if (s)
        atlas_json_str(f, s);
    else
        fputs("null", f);
}

static void rule_where(FILE *f, const struct atlas_rule *r)
{
    if (!r) {
        fputs("null", f);
        return;
    }
    char where[300];
    snprintf(where, sizeof where, "%s:%d", r->file, r->line);
    atlas_json_str(f, where);
}

static void write_end(FILE *f, const struct atlas_run *run)
{
    static const char *const kinds[] = {[END_EXIT] = "exit", [END_SIGNAL] = "signal", [END_TIMEOUT] = "timeout",
                                        [END_NOT_STARTED] = "not-started"};
    const struct atlas_end *end = run->end;
    atlas_json_key(f, "end", false);
    fputc('{', f);
    atlas_json_key(f, "outcome", true), atlas_json_str(f, end->text);
    atlas_json_key(f, "kind", false), atlas_json_str(f, kinds[end->kind]);
    atlas_json_key(f, "code", false), fprintf(f, "%d", end->code);
    atlas_json_key(f, "reached_end_of_variant", false), fputs(run->o->variant_end ? "true" : "false", f);
    atlas_json_key(f, "expected", false), atlas_json_str(f, run->j->end_rule ? run->j->end_rule->expected : "exit:0");
    atlas_json_key(f, "rule", false), rule_where(f, run->j->end_rule);
    atlas_json_key(f, "verdict", false), atlas_json_str_or_null(f, run->j->end_verdict);
    fputc('}', f);
}

static void write_steps(FILE *f, const struct atlas_observed *o, const struct atlas_judgement *j)
{
    atlas_json_key(f, "steps", false);
    fputc('[', f);
    const struct atlas_step *first_error = NULL;
    for (int i = 0; i < o->nsteps; i++) {
        const struct atlas_step *s = &o->steps[i];
        const struct atlas_rule *r = i < j->nsteps ? j->step_rule[i] : NULL;
        if (!s->success && !first_error)
            first_error = s;
        fputs(i ? ",{" : "{", f);
        atlas_json_key(f, "step", true), atlas_json_str(f, s->step);
        atlas_json_key(f, "api", false), atlas_json_str(f, s->api);
        atlas_json_key(f, "call", false), atlas_json_str(f, s->text);
        atlas_json_key(f, "code", false), fprintf(f, "%ld", s->code);
        atlas_json_key(f, "name", false), atlas_json_str(f, s->name);
        atlas_json_key(f, "success", false), fputs(s->success ? "true" : "false", f);
        atlas_json_key(f, "surfaced", false), atlas_json_str(f, atlas_surfaced_at(s->text));
        atlas_json_key(f, "expected", false), atlas_json_str(f, r ? r->expected : "success");
        atlas_json_key(f, "rule", false), rule_where(f, r);
        atlas_json_key(f, "cite", false), atlas_json_str_or_null(f, r ? r->cite : NULL);
        atlas_json_key(f, "verdict", false), atlas_json_str_or_null(f, i < j->nsteps ? j->step_verdict[i] : NULL);
        fputc('}', f);
    }
    fputc(']', f);

    atlas_json_key(f, "unreached", false);
    fputc('[', f);
    for (int i = 0; i < j->nunreached; i++) {
        const struct atlas_rule *r = j->unreached[i].rule;
        fputs(i ? ",{" : "{", f);
        atlas_json_key(f, "step", true), atlas_json_str(f, r->step);
        atlas_json_key(f, "expected", false), atlas_json_str(f, r->expected);
        atlas_json_key(f, "rule", false), rule_where(f, r);
        atlas_json_key(f, "verdict", false), atlas_json_str(f, j->unreached[i].verdict);
        fputc('}', f);
    }
    fputc(']', f);

    atlas_json_key(f, "first_error", false);
    if (first_error) {
        fputc('{', f);
        atlas_json_key(f, "step", true), atlas_json_str(f, first_error->step);
        atlas_json_key(f, "name", false), atlas_json_str(f, first_error->name);
        atlas_json_key(f, "surfaced", false), atlas_json_str(f, atlas_surfaced_at(first_error->text));
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    atlas_json_key(f, "sticky", false), fputs(atlas_sticky(o), f);
}

static void write_strings(FILE *f, const char *key, int n, const char *(*get)(const void *, int), const void *from)
{
    atlas_json_key(f, key, false);
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        atlas_json_str(f, get(from, i));
    }
    fputc(']', f);
}

static const char *mismatch_at(const void *j, int i) { return ((const struct atlas_judgement *)j)->mismatches[i]; }
static const char *signature_at(const void *run, int i) { return ((const struct atlas_run *)run)->signatures[i]; }

static void write_observations(FILE *f, const struct atlas_run *run)
{
    const struct atlas_observed *o = run->o;
    atlas_json_key(f, "quantities", false);
    fputc('{', f);
    for (int i = 0; i < o->nquantities; i++) {
        atlas_json_key(f, o->quantities[i][0], i == 0);
        fputc('{', f);
        atlas_json_key(f, "value", true);
        char *tail;
        double v = strtod(o->quantities[i][1], &tail);
        if (*tail || tail == o->quantities[i][1])
            atlas_json_str(f, o->quantities[i][1]);
        else
            fprintf(f, "%.17g", v);
        atlas_json_key(f, "unit", false), atlas_json_str(f, o->quantities[i][2]);
        fputc('}', f);
    }
    fputc('}', f);
    atlas_json_key(f, "notes", false);
    fputc('[', f);
    for (int i = 0; i < o->nnotes; i++)
        fputs(i ? "," : "", f), atlas_json_str(f, o->notes[i]);
    if (run->harness_note[0]) /* the runner's own, after the case's */
        fputs(o->nnotes ? "," : "", f), atlas_json_str(f, run->harness_note);
    fputc(']', f);
    atlas_json_key(f, "skip_reason", false), atlas_json_str_or_null(f, o->skip[0] ? o->skip : NULL);

    /* cuBLAS reports a bad argument on its own output, in lines like
     * " ** On entry to SGEMM  parameter number 8 had an illegal value". */
    atlas_json_key(f, "library_messages", false);
    fputc('[', f);
    const char *streams[] = {run->end->out, run->end->err};
    bool first = true;
    for (int s = 0; s < 2; s++)
        for (const char *p = strstr(streams[s], "On entry to"); p; p = strstr(p + 1, "On entry to")) {
            char line[256];
            size_t len = strcspn(p, "\n");
            fputs(first ? "" : ",", f);
            snprintf(line, sizeof line, "%.*s", (int)atlas_utf8_whole(p, len < sizeof line ? len : sizeof line - 1), p);
            atlas_json_str(f, line);
            first = false;
        }
    fputc(']', f);
    atlas_json_key(f, "stdout_tail", false), atlas_json_str(f, run->end->out);
    atlas_json_key(f, "stderr_tail", false), atlas_json_str(f, run->end->err);
}

/* Where a cap cut something, how much: counts of dropped items, bytes of
 * dropped output. Empty when nothing was cut. */
static void write_truncated(FILE *f, const struct atlas_run *run)
{
    const struct {
        const char *field;
        long amount;
    } cuts[] = {
        {"stdout_tail", run->end->out_cut},         {"stderr_tail", run->end->err_cut},
        {"quantities", run->o->dropped_quantities}, {"notes", run->o->dropped_notes},
        {"record_fields", run->o->cut_bytes},       {"record_lines", run->o->unreadable_lines},
        {"mismatches", run->j->dropped_mismatches},
        {"unreached", run->j->dropped_unreached},   {"repeats", run->repeats_requested - run->repeats},
    };
    atlas_json_key(f, "truncated", false);
    fputc('{', f);
    bool first = true;
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++)
        if (cuts[i].amount > 0) {
            atlas_json_key(f, cuts[i].field, first);
            fprintf(f, "%ld", cuts[i].amount);
            first = false;
        }
    fputc('}', f);
}

void atlas_write_part(FILE *f, const struct atlas_run *run)
{
    const struct atlas_judgement *j = run->j;
    fputc('{', f);
    atlas_json_key(f, "verdict", true), atlas_json_str(f, atlas_verdicts[run->verdict].name);
    atlas_json_key(f, "case", false), atlas_json_str(f, run->case_name);
    atlas_json_key(f, "family", false), atlas_json_str(f, run->family);
    atlas_json_key(f, "variant", false), atlas_json_str(f, run->variant);
    atlas_json_key(f, "source", false), atlas_json_str(f, run->source);
    atlas_json_key(f, "seconds", false), fprintf(f, "%.3f", run->end->seconds);
    atlas_json_key(f, "timeout_seconds", false), fprintf(f, "%.1f", run->timeout);
    write_end(f, run);
    write_steps(f, run->o, j);
    write_observations(f, run);
    write_strings(f, "mismatches", j->nmismatches, mismatch_at, j);
    atlas_json_key(f, "error", false), atlas_json_str_or_null(f, j->error[0] ? j->error : NULL);
    atlas_json_key(f, "repeats", false), fprintf(f, "%d", run->repeats);
    atlas_json_key(f, "flaky", false), fputs(run->flaky ? "true" : "false", f);
    atlas_json_key(f, "nondeterministic", false), fputs(run->nondeterministic ? "true" : "false", f);
    write_strings(f, "signatures", run->repeats, signature_at, run);
    write_truncated(f, run);
    fputs("}\n", f);
}

void atlas_write_summary(FILE *f, const struct atlas_run *run)
{
    const struct atlas_judgement *j = run->j;
    const char *c = run->case_name, *v = run->variant;
    fprintf(f, "%s\n", atlas_verdicts[run->verdict].name);
    for (int i = 0; i < j->nmismatches; i++)
        fprintf(f, "%s/%s: %s\n", c, v, j->mismatches[i]);
    if (j->dropped_mismatches)
        fprintf(f, "%s/%s: ... and %d more mismatches (see the results file)\n", c, v, j->dropped_mismatches);
    if (run->verdict == ATLAS_SKIP)
        fprintf(f, "%s/%s: skipped: %s\n", c, v, run->o->skip);
    if (run->verdict == ATLAS_ERROR)
        fprintf(f, "%s/%s: %s\n", c, v, j->error);
    if (run->flaky)
        fprintf(f, "%s/%s: flaky over %d runs\n", c, v, run->repeats);
}
