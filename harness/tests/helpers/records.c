/* A stand-in case that needs no GPU: records the steps named in
 * $HELPER_STEPS ("step=STATUS ...", success when STATUS is a success name),
 * prints a cuBLAS-style message, then exits with 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

int main(int argc, char **argv)
{
    const char *steps = getenv("HELPER_STEPS");
    int fd = atlas_record_open(getenv("ATLAS_RECORD"));
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", steps ? steps : "");
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        char *eq = strchr(t, '=');
        if (!eq)
            continue;
        *eq = '\0';
        bool ok = strcmp(eq + 1, "cudaSuccess") == 0 || strcmp(eq + 1, "CUBLAS_STATUS_SUCCESS") == 0;
        char text[300];
        snprintf(text, sizeof text, "%s(%s)", t, argc > 1 ? argv[1] : "");
        atlas_record_write_call(fd, t, "cuda", ok ? 0 : 7, eq + 1, ok, text);
    }
    atlas_record_write(fd, "quantity", 3, (const char *const[]){"handles_created", "12", "handles"});
    /* HELPER_NOTES=N: more notes than a run keeps */
    for (int i = 0, n = getenv("HELPER_NOTES") ? atoi(getenv("HELPER_NOTES")) : 0; i < n; i++)
        atlas_record_write(fd, "note", 1, (const char *const[]){"a note"});
    printf(" ** On entry to SGEMM  parameter number 8 had an illegal value\n");
    return 0;
}
