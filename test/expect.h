/* expect.h: EXPECT(cond, format, ...) for plain-C tests: a failed condition printed as "FAIL <EXPECT_NAME>: ..."
 * and counted in expect_failures (define EXPECT_NAME before including it). */
#ifndef PBJ_TEST_EXPECT_H
#define PBJ_TEST_EXPECT_H

#include <stdio.h>

static int expect_failures;

#define EXPECT(cond, ...)                                    \
    do {                                                     \
        if (!(cond)) {                                       \
            fprintf(stderr, "FAIL " EXPECT_NAME ": " __VA_ARGS__); \
            fprintf(stderr, "\n");                           \
            expect_failures++;                               \
        }                                                    \
    } while (0)

#endif
