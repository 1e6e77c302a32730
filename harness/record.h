/* record.h — the record a case leaves for the runner: the one description of
 * its format, its one writer (used by the support library, the harness's test
 * helpers and `atlas-run record`, which replay uses) and its one reader.
 *
 * The file is named by $ATLAS_RECORD. Text, one record per line, fields
 * separated by tabs (a tab, CR or newline inside a field becomes a space),
 * each line written by one write(2) so that a crash loses nothing already
 * recorded. The first line names the format:
 *
 *   format       cuda-error-atlas/record/1
 *   call         STEP  API  CODE  NAME  SUCCESS  TEXT
 *                  STEP: what rules name; API: cuda | cublas | cu | check;
 *                  CODE: the number; NAME: its symbolic name (<unknown:N>);
 *                  SUCCESS: 1 when CODE is the API's success, else 0 (decided
 *                  by the caller, who knows the API, never from NAME);
 *                  TEXT: the call as written
 *   quantity     NAME  VALUE  UNIT
 *   note         TEXT
 *   skip         REASON               (the case then exits with 77)
 *   variant_end                       (the variant returned; the probe follows)
 *   cut          BYTES                (the line before lost BYTES to the
 *                                      ATLAS_RECORD_LINE limit)
 *
 * A reader skips (and counts) lines of kinds it does not know, or with fewer
 * fields than their kind takes (a crash mid-line, a program built for
 * another format), so kinds can be added and nothing is lost silently.
 */
#ifndef ATLAS_RECORD_H
#define ATLAS_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#define ATLAS_RECORD_FORMAT "cuda-error-atlas/record/1"
#define ATLAS_RECORD_LINE 4096 /* bytes in one record line, newline included */

/* ---- writing ---------------------------------------------------------- */

/* Opens (creating, with its format line, if new) the record file for
 * appending; -1 if path is NULL, empty or cannot be opened. */
int atlas_record_open(const char *path);

/* One record of `kind` with its fields; NULL fields are empty. Returns the
 * bytes cut to fit ATLAS_RECORD_LINE (a `cut` record follows such a line). */
size_t atlas_record_write(int fd, const char *kind, int nfields, const char *const fields[]);

/* A `call` record. */
size_t atlas_record_write_call(int fd, const char *step, const char *api, long code, const char *name, bool success,
                               const char *text);

/* How many fields each kind takes, or -1 for a kind this format lacks. */
int atlas_record_fields(const char *kind);

/* ---- reading ---------------------------------------------------------- */

#define ATLAS_MAX_QUANTITIES 64
#define ATLAS_MAX_NOTES 32

struct atlas_step {
    char step[64], api[16], name[96], text[1024];
    long code;
    bool success;
};

struct atlas_observed {
    struct atlas_step *steps;
    int nsteps, cap;
    char quantities[ATLAS_MAX_QUANTITIES][3][128]; /* name, value, unit */
    int nquantities;
    char notes[ATLAS_MAX_NOTES][512];
    int nnotes;
    char skip[512];
    bool variant_end;
    char format[64];                  /* the format line, "" when absent */
    int dropped_quantities, dropped_notes; /* records beyond the caps above */
    long cut_bytes;                   /* bytes lost from fields, by the writer or here */
    int unreadable_lines;             /* lines of no known kind, or with too few fields */
};

/* Reads a record file into o (zeroed first). A file that does not exist is
 * an empty record (the case died before recording anything): returns 0.
 * Returns -1 only when memory runs out. */
int atlas_record_read(const char *path, struct atlas_observed *o);
void atlas_observed_free(struct atlas_observed *o);

#endif
