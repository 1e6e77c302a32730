/* Records a different status on every other run (a counter in a file). */
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    const char *counter = getenv("HELPER_COUNTER");
    int n = 0;
    FILE *c = fopen(counter, "r");
    if (c) {
        if (fscanf(c, "%d", &n) != 1)
            n = 0;
        fclose(c);
    }
    c = fopen(counter, "w");
    fprintf(c, "%d\n", n + 1);
    fclose(c);
    FILE *f = fopen(getenv("ATLAS_RECORD"), "a");
    fprintf(f, "call\tsync\tcuda\t%d\t%s\tcudaDeviceSynchronize()\n", n % 2 ? 700 : 0,
            n % 2 ? "cudaErrorIllegalAddress" : "cudaSuccess");
    fclose(f);
    return 0;
}
