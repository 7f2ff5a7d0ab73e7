/* wire.h: a small protobuf wire writer and seeded PRNG for the parity tests (independent of rt/). */
#ifndef PARITY_WIRE_H
#define PARITY_WIRE_H

#include <stdbool.h>
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

static inline int wb_read_file(wbuf *b, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    uint8_t chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) wb_bytes(b, chunk, got);
    int err = ferror(f);
    fclose(f);
    return err ? -1 : 0;
}

/* A whole file in a new malloc'd block (not NULL for an empty file); NULL when it cannot be read. */
static inline uint8_t *wb_slurp(const char *path, size_t *len) {
    wbuf b = {0};
    wb_reserve(&b, 1);
    if (wb_read_file(&b, path) != 0) {
        wb_free(&b);
        return NULL;
    }
    *len = b.n;
    return b.p;
}

static inline int wb_read_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v) {
    uint64_t x = 0;
    for (int shift = 0; shift < 64 && *pp < end; shift += 7) {
        uint8_t c = *(*pp)++;
        x |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) { *v = x; return 1; }
    }
    return 0;
}

/* The next item of a batch: a field 1 length-delimited record. */
static inline int wb_next_item(const uint8_t **pp, const uint8_t *end, const uint8_t **item, size_t *len) {
    uint64_t tag, n;
    if (!wb_read_varint(pp, end, &tag) || tag != 0x0a || !wb_read_varint(pp, end, &n) ||
        n > (uint64_t)(end - *pp))
        return 0;
    *item = *pp, *len = (size_t)n;
    *pp += n;
    return 1;
}

/* Whether a text shows an unknown field (a line whose name is a number). */
static inline bool shows_unknown(const char *text)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        while (*line == ' ') line++;
        if (*line >= '0' && *line <= '9') return true;
    }
    return false;
}

static inline uint64_t zigzag_s64(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t unzigzag_s64(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

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


/* ---- random unknown fields ------------------------------------------------ */

static inline void wb_random_fields(wbuf *b, rng *r, int depth);

/* A field number: small ones often, any up to 2^29-1 sometimes. */
static inline uint32_t wb_random_number(rng *r) {
    return rng_one_in(r, 8) ? 1 + (uint32_t)rng_below(r, 536870911) : 1 + (uint32_t)rng_below(r, 40);
}

/* A length-delimited payload: a message, or something that is almost one. */
static inline void wb_random_payload(wbuf *b, rng *r, int depth) {
    switch (rng_below(r, 12)) {
    case 0: break;                                              /* empty */
    case 1: {                                                   /* random bytes */
        size_t n = rng_below(r, 20);
        for (size_t i = 0; i < n; i++) wb_byte(b, (uint8_t)rng_next(r));
        break;
    }
    case 2: wb_bytes(b, "hello, world", 12); break;            /* text */
    case 3:                                                     /* a message, then damage */
        wb_random_fields(b, r, depth);
        switch (rng_below(r, 8)) {
        case 0: if (b->n) b->n--; break;                      /* truncated */
        case 1: wb_byte(b, 0); break;                          /* tag 0 */
        case 2: wb_tag(b, 1 + (uint32_t)rng_below(r, 20), 4); break;   /* stray end group */
        case 3: wb_tag(b, 0, (int)rng_below(r, 6)); wb_byte(b, 1); break; /* field number 0 */
        case 4: wb_tag(b, 3, 6 + (int)rng_below(r, 2)); break; /* wire types 6, 7 */
        case 5: wb_tag(b, 5, 3); wb_tag(b, 6, 4); break;      /* mismatched end group */
        case 6: wb_tag(b, 5, 2); wb_varint(b, 0x80000000u); break;    /* huge length */
        default: wb_bytes(b, "\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12); break; /* 11-byte varint */
        }
        break;
    case 4:                                                     /* over-long encodings */
        wb_bytes(b, "\x88\x80\x80\x80\x80\x80\x80\x80\x80\x00\x2a", 11);   /* 10-byte tag of field 1 */
        if (rng_below(r, 2)) wb_bytes(b, "\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 11); /* 10-byte varint */
        if (rng_below(r, 2)) wb_bytes(b, "\x1a\x82\x80\x80\x80\x80\x80\x80\x80\x80\x00hi", 13);
        if (rng_below(r, 2)) wb_bytes(b, "\x8d\x80\x80\x80\x10\x01\x02\x03\x04", 9);  /* tag > 32 bits */
        break;
    default: wb_random_fields(b, r, depth); break;             /* a valid message */
    }
}

/* One well-formed field of a random wire type; payloads and groups nest up to depth. */
static inline void wb_random_field(wbuf *b, rng *r, uint32_t number, int depth) {
    switch (rng_below(r, depth > 0 ? 6 : 4)) {
    case 0: wb_tag(b, number, 0); wb_varint(b, rng_next(r) >> rng_below(r, 64)); break;
    case 1: wb_tag(b, number, 1); wb_fixed(b, rng_next(r), 8); break;
    case 2: wb_tag(b, number, 5); wb_fixed(b, rng_next(r) >> rng_below(r, 64), 4); break;
    case 3: {
        uint8_t s[24];
        size_t len = rng_below(r, sizeof s);
        for (size_t k = 0; k < len; k++) s[k] = (uint8_t)rng_next(r);
        wb_len_field(b, number, s, len);
        break;
    }
    case 4: {
        wbuf inner = {0};
        wb_random_payload(&inner, r, depth - 1);
        wb_len_field(b, number, inner.p, inner.n);
        wb_free(&inner);
        break;
    }
    default:
        wb_tag(b, number, 3);
        wb_random_fields(b, r, depth - 1);
        wb_tag(b, number, 4);
        break;
    }
}

/* One to four well-formed fields. */
static inline void wb_random_fields(wbuf *b, rng *r, int depth) {
    size_t n = 1 + rng_below(r, 4);
    for (size_t i = 0; i < n; i++) wb_random_field(b, r, wb_random_number(r), depth);
}

#endif
