/* Dies of SIGSEGV after recording one step. */
#include <stdlib.h>

#include "record.h"

int main(void)
{
    int fd = atlas_record_open(getenv("ATLAS_RECORD"));
    atlas_record_write_call(fd, "first", "cuda", 0, "cudaSuccess", true, "first()");
    volatile int *p = NULL;
    return *p;
}
