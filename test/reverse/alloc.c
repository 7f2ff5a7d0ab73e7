/* alloc.c: the reverse encoder's tests' PBJ_MALLOC (alloc.h): malloc, failing once rev_allowed runs out. */
#include "alloc.h"

#include <stdlib.h>

long rev_allowed = -1;

void *rev_malloc(size_t n)
{
    if (rev_allowed == 0) return NULL;
    if (rev_allowed > 0) rev_allowed--;
    return malloc(n);
}

void rev_free(void *p) { free(p); }
