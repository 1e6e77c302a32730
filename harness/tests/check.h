/* check.h — the assertions of the harness's own tests. Each failure prints
 * both values and where; the last line is "N passed, N failed". */
#ifndef CHECK_H
#define CHECK_H
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (cond)                                                                       \
            check_passed++;                                                             \
        else {                                                                          \
            check_failed++;                                                             \
            printf("%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond);                   \
        }                                                                               \
    } while (0)

#define CHECK_INT(got, want)                                                            \
    do {                                                                                \
        long g_ = (long)(got), w_ = (long)(want);                                       \
        if (g_ == w_)                                                                   \
            check_passed++;                                                             \
        else {                                                                          \
            check_failed++;                                                             \
            printf("%s:%d: FAILED: %s is %ld, expected %ld\n", __FILE__, __LINE__, #got, g_, w_); \
        }                                                                               \
    } while (0)

#define CHECK_STR(got, want)                                                            \
    do {                                                                                \
        const char *g_ = (got), *w_ = (want);                                           \
        if (g_ && strcmp(g_, w_) == 0)                                                  \
            check_passed++;                                                             \
        else {                                                                          \
            check_failed++;                                                             \
            printf("%s:%d: FAILED: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #got, \
                   g_ ? g_ : "(null)", w_);                                             \
        }                                                                               \
    } while (0)

#define CHECK_CONTAINS(got, part)                                                       \
    do {                                                                                \
        const char *g_ = (got), *p_ = (part);                                           \
        if (g_ && strstr(g_, p_))                                                       \
            check_passed++;                                                             \
        else {                                                                          \
            check_failed++;                                                             \
            printf("%s:%d: FAILED: %s is \"%s\", expected it to contain \"%s\"\n", __FILE__, \
                   __LINE__, #got, g_ ? g_ : "(null)", p_);                             \
        }                                                                               \
    } while (0)

static int check_report(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}
#endif
