/* symtab.h: a string-keyed hash table (xxHash, open addressing) for the resolver's symbols. */
#ifndef PBJC_SYMTAB_H
#define PBJC_SYMTAB_H

#include <stddef.h>

typedef struct symtab_slot {
    const char *key;             /* NUL-terminated, owned by the caller (IR pool) */
    size_t len;
    unsigned long long hash;
    void *value;
} symtab_slot;

typedef struct symtab {
    symtab_slot *slots;
    size_t cap, count;           /* cap is a power of two */
} symtab;

void  symtab_init(symtab *t);
void  symtab_init_for(symtab *t, size_t n);     /* room for n keys without growing */
void  symtab_free(symtab *t);
void *symtab_get(const symtab *t, const char *key, size_t len);    /* NULL when absent */
/* Inserts key -> value unless present; returns the value already there, or NULL when inserted. */
void *symtab_put(symtab *t, const char *key, size_t len, void *value);

#endif
