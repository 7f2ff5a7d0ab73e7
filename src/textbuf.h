/* textbuf.h: text built by appending to one growing buffer (never a fresh copy per piece), then kept in a pool. */
#ifndef PBJC_TEXTBUF_H
#define PBJC_TEXTBUF_H

#include <stddef.h>
#include "ir.h"

typedef struct textbuf {
    char *s;                  /* NUL-terminated once anything was added; malloc'd */
    size_t len, cap;
} textbuf;

void textbuf_put(textbuf *b, const char *s, size_t n);
/* A bigger buffer, with room for n more bytes and a NUL. */
void textbuf_grow(textbuf *b, size_t n);

/* Room for n more bytes at the end of the text, counted in it (NUL after them): the caller fills them. */
static inline char *textbuf_extend(textbuf *b, size_t n)
{
    if (b->len + n + 1 > b->cap) textbuf_grow(b, n);
    char *at = b->s + b->len;
    b->len += n;
    b->s[b->len] = 0;
    return at;
}
void textbuf_puts(textbuf *b, const char *s);
void textbuf_printf(textbuf *b, const char *fmt, ...) IR_PRINTF(2, 3);
/* The text as one string in pool ("" when empty); the buffer is freed and empty again. */
const char *textbuf_finish(textbuf *b, ir_pool *pool);

#endif
