/* Never ends by itself, and leaves a child in its process group that would
 * outlive it if only the direct child were killed. */
#include <unistd.h>
int main(void)
{
    if (fork() == 0)
        for (;;)
            pause();
    for (;;)
        pause();
}
