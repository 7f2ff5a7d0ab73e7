/* hooks.c: hapi_malloc/hapi_free passed on to the allocator of the driver linked with the shared objects
 * (HAPI_MALLOC_TO and HAPI_FREE_TO name it: the reverse driver's failing one, the writers' counting one;
 * left undefined, the C library's). */
#include <stdlib.h>
#include "alloc.h"

#ifdef HAPI_MALLOC_TO
void *HAPI_MALLOC_TO(size_t n);
void HAPI_FREE_TO(void *p);
#else
#define HAPI_MALLOC_TO malloc
#define HAPI_FREE_TO free
#endif

void *hapi_malloc(size_t n) { return HAPI_MALLOC_TO(n); }
void hapi_free(void *p) { HAPI_FREE_TO(p); }
