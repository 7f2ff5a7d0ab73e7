/* count.h: every PBJ_MALLOC of the runtime counted (forced into each unit of the writers tests). */
#ifndef WRITERS_COUNT_H
#define WRITERS_COUNT_H
#include <stddef.h>
extern size_t wtest_mallocs;
void *wtest_malloc(size_t n);
void wtest_free(void *p);
#define PBJ_MALLOC(n) wtest_malloc(n)
#define PBJ_FREE(p) wtest_free(p)
#endif
