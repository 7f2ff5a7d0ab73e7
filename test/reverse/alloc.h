/* alloc.h: PBJ_MALLOC for the reverse encoder's tests (forced into every file): it fails when told to. */
#ifndef REVERSE_ALLOC_H
#define REVERSE_ALLOC_H
#include <stddef.h>
extern long rev_allowed;          /* blocks PBJ_MALLOC still gives before it fails; -1: never fails */
void *rev_malloc(size_t n);
void rev_free(void *p);
#define PBJ_MALLOC(n) rev_malloc(n)
#define PBJ_FREE(p) rev_free(p)
#endif
