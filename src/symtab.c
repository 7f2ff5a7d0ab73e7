/* symtab.c: a string-keyed hash table (xxHash, open addressing) for the resolver's symbols. */
#include "symtab.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

void symtab_init(symtab *t) { symtab_init_for(t, 0); }

void symtab_init_for(symtab *t, size_t n)
{
    t->cap = 64;
    while (t->cap < 2 * n) t->cap *= 2;
    t->count = 0;
    t->slots = calloc(t->cap, sizeof *t->slots);
    if (!t->slots) abort();
}

void symtab_free(symtab *t)
{
    free(t->slots);
    t->slots = NULL;
    t->cap = t->count = 0;
}

/* The slot holding key, or the empty slot where it would go. */
static symtab_slot *find_slot(symtab_slot *slots, size_t cap, const char *key, size_t len,
                              unsigned long long hash)
{
    size_t i = (size_t)hash & (cap - 1);
    for (;; i = (i + 1) & (cap - 1)) {
        symtab_slot *s = &slots[i];
        if (!s->key) return s;
        if (s->hash == hash && s->len == len && memcmp(s->key, key, len) == 0) return s;
    }
}

static void grow(symtab *t)
{
    size_t cap = t->cap * 2;
    symtab_slot *slots = calloc(cap, sizeof *slots);
    if (!slots) abort();
    for (size_t i = 0; i < t->cap; i++) {
        symtab_slot *s = &t->slots[i];
        if (s->key) *find_slot(slots, cap, s->key, s->len, s->hash) = *s;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
}

void *symtab_get(const symtab *t, const char *key, size_t len)
{
    if (!t->slots) return NULL;
    symtab_slot *s = find_slot(t->slots, t->cap, key, len, XXH3_64bits(key, len));
    return s->key ? s->value : NULL;
}

void *symtab_put(symtab *t, const char *key, size_t len, void *value)
{
    if (!t->slots) symtab_init(t);
    if (2 * (t->count + 1) > t->cap) grow(t);
    unsigned long long hash = XXH3_64bits(key, len);
    symtab_slot *s = find_slot(t->slots, t->cap, key, len, hash);
    if (s->key) return s->value;
    s->key = key;
    s->len = len;
    s->hash = hash;
    s->value = value;
    t->count++;
    return NULL;
}
