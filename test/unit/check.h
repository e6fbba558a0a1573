/* check.h: the unit tests' whole framework. CHECK records a failure (with its
 * file and line) and goes on; CHECK_DONE() is main's return value: non-zero if
 * any check failed, so CTest sees the failure.
 */
#ifndef PTOC_TEST_CHECK_H
#define PTOC_TEST_CHECK_H

#include <stdio.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        check_count++;                                                                  \
        if (!(cond)) {                                                                  \
            check_failures++;                                                           \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);    \
        }                                                                               \
    } while (0)

#define CHECK_DONE()                                                                    \
    (fprintf(stderr, "%d checks, %d failed\n", check_count, check_failures), check_failures != 0)

#endif
