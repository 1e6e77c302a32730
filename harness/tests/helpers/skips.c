/* Records a step, then skips with a reason, as atlas_skip does. */
#include <stdlib.h>

#include "record.h"

int main(void)
{
    int fd = atlas_record_open(getenv("ATLAS_RECORD"));
    atlas_record_write_call(fd, "count", "cuda", 0, "cudaSuccess", true, "cudaGetDeviceCount(&n)");
    atlas_record_write(fd, "skip", 1, (const char *const[]){"needs two GPUs"});
    return 77;
}
