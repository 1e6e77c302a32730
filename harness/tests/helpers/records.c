/* A stand-in case that needs no GPU: records the steps named on its command
 * line after the variant ("step=STATUS ..."), prints a cuBLAS-style message,
 * then exits with 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    const char *steps = getenv("HELPER_STEPS");
    FILE *f = fopen(getenv("ATLAS_RECORD"), "a");
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", steps ? steps : "");
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        char *eq = strchr(t, '=');
        if (!eq)
            continue;
        *eq = '\0';
        int ok = strcmp(eq + 1, "cudaSuccess") == 0 || strcmp(eq + 1, "CUBLAS_STATUS_SUCCESS") == 0;
        fprintf(f, "call\t%s\tcuda\t%d\t%s\t%s(%s)\n", t, ok ? 0 : 7, eq + 1, t, argc > 1 ? argv[1] : "");
    }
    fprintf(f, "quantity\thandles_created\t12\thandles\n");
    fclose(f);
    printf(" ** On entry to SGEMM  parameter number 8 had an illegal value\n");
    return 0;
}
