/* Writes far more than the runner keeps, ending with a known line. */
#include <stdio.h>
int main(void)
{
    for (int i = 0; i < 100000; i++)
        printf("line %d of noise\n", i);
    printf("the last line\n");
    return 3;
}
