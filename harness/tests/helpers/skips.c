/* Records a step, then skips with a reason, as atlas_skip does. */
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    FILE *f = fopen(getenv("ATLAS_RECORD"), "a");
    fprintf(f, "call\tcount\tcuda\t0\tcudaSuccess\tcudaGetDeviceCount(&n)\n");
    fprintf(f, "skip\tneeds two GPUs\n");
    fclose(f);
    return 77;
}
