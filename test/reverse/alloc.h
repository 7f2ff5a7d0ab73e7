/* alloc.h: PBJ_MALLOC for the reverse encoder's tests (forced into every file): it fails when told to. */
#ifndef REVERSE_ALLOC_H
#define REVERSE_ALLOC_H
#include <stddef.h>
void *rev_malloc(size_t n);
void rev_free(void *p);
#define PBJ_MALLOC(n) rev_malloc(n)
#define PBJ_FREE(p) rev_free(p)
#endif
