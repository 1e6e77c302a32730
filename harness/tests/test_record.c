/* The record format: what the one writer writes, the one reader reads back,
 * and nothing is cut without saying how much. */
#define _GNU_SOURCE
#include "check.h"
#include "record.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_record WORK_DIR\n");
        return 99;
    }
    mkdir(argv[1], 0755);
    char path[1200];
    snprintf(path, sizeof path, "%s/x.record", argv[1]);
    unlink(path);

    struct atlas_observed o;
    CHECK_INT(atlas_record_read(path, &o), 0); /* no file: nothing recorded */
    CHECK_INT(o.nsteps, 0);

    int fd = atlas_record_open(path);
    CHECK(fd >= 0);
    CHECK_INT(atlas_record_write_call(fd, "gemm", "cublas", 7, "CUBLAS_STATUS_INVALID_VALUE", false,
                                      "cublasSgemm(h,\tN)\n"), 0);
    CHECK_INT(atlas_record_write_call(fd, "odd", "cuda", 0, "cudaSuccess", false, "recorded as a failure"), 0);
    atlas_record_write(fd, "quantity", 3, (const char *const[]){"bytes", "1024", "bytes"});
    atlas_record_write(fd, "note", 1, (const char *const[]){"hello"});
    atlas_record_write(fd, "future_kind", 1, (const char *const[]){"ignored by this reader"});
    atlas_record_write(fd, "variant_end", 0, NULL);
    char big[6000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    size_t cut = atlas_record_write(fd, "note", 1, (const char *const[]){big});
    CHECK(cut > 0);
    for (int i = 0; i < ATLAS_MAX_NOTES + 3; i++)
        atlas_record_write(fd, "note", 1, (const char *const[]){"more"});
    close(fd);
    /* a second writer (a forked child, say) appends without a second format line */
    fd = atlas_record_open(path);
    atlas_record_write(fd, "skip", 1, (const char *const[]){"needs two GPUs"});
    close(fd);

    CHECK_INT(atlas_record_read(path, &o), 0);
    CHECK_STR(o.format, ATLAS_RECORD_FORMAT);
    CHECK_INT(o.nsteps, 2);
    CHECK_INT(o.unreadable_lines, 1); /* the future kind */
    CHECK_STR(o.steps[0].name, "CUBLAS_STATUS_INVALID_VALUE");
    CHECK_STR(o.steps[0].text, "cublasSgemm(h, N) "); /* tabs and newlines become spaces */
    CHECK_INT(o.steps[0].code, 7);
    CHECK(!o.steps[0].success);
    CHECK(!o.steps[1].success); /* as recorded, whatever the name */
    CHECK_STR(o.quantities[0][0], "bytes");
    CHECK_STR(o.notes[0], "hello");
    CHECK(o.variant_end);
    CHECK_STR(o.skip, "needs two GPUs");
    CHECK_INT(o.nnotes, ATLAS_MAX_NOTES);
    CHECK_INT(o.dropped_notes, 1 + 1 + ATLAS_MAX_NOTES + 3 - ATLAS_MAX_NOTES);
    /* the writer cut the long note to its line, the reader to its field: both counted */
    CHECK_INT(o.cut_bytes, (long)strlen(big) - (long)(sizeof o.notes[0] - 1));
    atlas_observed_free(&o);

    /* a line cut short by a crash is skipped, not misread */
    FILE *f = fopen(path, "w");
    fputs("format\t" ATLAS_RECORD_FORMAT "\ncall\tgemm\tcublas\t7\n", f);
    fclose(f);
    CHECK_INT(atlas_record_read(path, &o), 0);
    CHECK_INT(o.nsteps, 0);
    CHECK_INT(o.unreadable_lines, 1); /* and counted */
    atlas_observed_free(&o);
    return check_report();
}
