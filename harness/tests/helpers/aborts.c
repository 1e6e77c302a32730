/* Dies of SIGABRT, as a failed assert() does. */
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    fprintf(stderr, "about to abort\n");
    abort();
}
