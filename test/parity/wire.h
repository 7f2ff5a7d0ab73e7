/* wire.h: a small protobuf wire writer and seeded PRNG for the parity tests (independent of rt/). */
#ifndef PARITY_WIRE_H
#define PARITY_WIRE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
} wbuf;

static inline void wb_reserve(wbuf *b, size_t more) {
    if (b->cap - b->n >= more) return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap - b->n < more) cap *= 2;
    b->p = realloc(b->p, cap);
    if (!b->p) { perror("realloc"); exit(2); }
    b->cap = cap;
}

static inline void wb_bytes(wbuf *b, const void *data, size_t n) {
    if (n == 0) return;
    wb_reserve(b, n);
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static inline void wb_byte(wbuf *b, uint8_t c) { wb_bytes(b, &c, 1); }

static inline void wb_varint(wbuf *b, uint64_t v) {
    do {
        wb_byte(b, (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
        v >>= 7;
    } while (v);
}

static inline void wb_tag(wbuf *b, uint32_t number, int wire_type) {
    wb_varint(b, (uint64_t)number << 3 | (uint32_t)wire_type);
}

static inline void wb_fixed(wbuf *b, uint64_t v, int size) {
    for (int i = 0; i < size; i++) wb_byte(b, (uint8_t)(v >> (8 * i)));
}

/* tag, length, bytes */
static inline void wb_len_field(wbuf *b, uint32_t number, const void *data, size_t n) {
    wb_tag(b, number, 2);
    wb_varint(b, n);
    wb_bytes(b, data, n);
}

static inline void wb_free(wbuf *b) {
    free(b->p);
    memset(b, 0, sizeof *b);
}

static inline int wb_write_file(const wbuf *b, const char *path) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = b->n ? fwrite(b->p, 1, b->n, f) : 0;
    return fclose(f) == 0 && w == b->n ? 0 : -1;
}

/* splitmix64: a seeded PRNG, the same sequence on every host */
typedef struct rng { uint64_t s; } rng;

static inline uint64_t rng_next(rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* uniform in [0, n) (n > 0) */
static inline uint64_t rng_below(rng *r, uint64_t n) { return rng_next(r) % n; }

/* true with probability 1/n */
static inline int rng_one_in(rng *r, uint64_t n) { return rng_below(r, n) == 0; }

#endif
