/* textbuf.c: text built by appending to one growing buffer, then kept in a pool. */
#include "textbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void textbuf_grow(textbuf *b, size_t n)
{
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) abort();
    b->s = s;
    b->cap = cap;
}

void textbuf_put(textbuf *b, const char *s, size_t n) { memcpy(textbuf_extend(b, n), s, n); }

void textbuf_puts(textbuf *b, const char *s) { textbuf_put(b, s, strlen(s)); }

void textbuf_printf(textbuf *b, const char *fmt, ...)
{
    if (b->cap - b->len < 256) textbuf_grow(b, 256);   /* most texts fit: printed once */
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0) abort();
    if (b->len + (size_t)n + 1 > b->cap) {
        textbuf_grow(b, (size_t)n);
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    b->len += (size_t)n;
}

const char *textbuf_finish(textbuf *b, ir_pool *pool)
{
    const char *s = b->s ? ir_pool_strndup(pool, b->s, b->len) : "";
    free(b->s);
    *b = (textbuf){0};
    return s;
}
