/* Records a different status on every other run (a counter in a file). */
#include <stdio.h>
#include <stdlib.h>

#include "record.h"

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
    int fd = atlas_record_open(getenv("ATLAS_RECORD"));
    atlas_record_write_call(fd, "sync", "cuda", n % 2 ? 700 : 0, n % 2 ? "cudaErrorIllegalAddress" : "cudaSuccess",
                            n % 2 == 0, "cudaDeviceSynchronize()");
    return 0;
}
