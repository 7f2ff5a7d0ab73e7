/* alloc.h: PBJ_MALLOC/PBJ_FREE of hapi's shared test objects (forced into each unit): hooks.c defines them. */
#ifndef HAPI_ALLOC_H
#define HAPI_ALLOC_H
#include <stddef.h>
void *hapi_malloc(size_t n);
void hapi_free(void *p);
#define PBJ_MALLOC(n) hapi_malloc(n)
#define PBJ_FREE(p) hapi_free(p)
#endif
