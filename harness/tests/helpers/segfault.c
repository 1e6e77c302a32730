/* Dies of SIGSEGV after recording one step. */
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    FILE *f = fopen(getenv("ATLAS_RECORD"), "a");
    fprintf(f, "call\tfirst\tcuda\t0\tcudaSuccess\tfirst()\n");
    fclose(f);
    volatile int *p = NULL;
    return *p;
}
