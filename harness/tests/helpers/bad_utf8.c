/* Output that is not all UTF-8: on stderr a byte 0xff, a lone continuation
 * byte and a 3-byte character cut short; on stdout more than the runner
 * keeps, of 3-byte characters, so that the tail's cut falls inside one. */
#include <stdio.h>

int main(void)
{
    fputs("bad \xff|\x80|\xe2\x82|end\n", stderr);
    for (int i = 0; i < 4000; i++)
        fputs("\xe2\x82\xac", stdout); /* U+20AC, the euro sign: 12000 bytes */
    fputs("\n", stdout);               /* 12001: the last 8192 start 2 bytes into a character */
    return 0;
}
