/* lex.h: the lexer's interface (private to the front end: lex.re, parser.c). */
#ifndef PBJC_LEX_H
#define PBJC_LEX_H

#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "ir.h"

/* Token kinds the grammar never sees; grammar tokens are parse.h's TK_*. */
enum {
    LEX_EOF = 0,
    LEX_WS = 1000,          /* spaces, tabs, \r, \v, \f */
    LEX_NEWLINE,
    LEX_LINE_COMMENT,       /* "// ...", without the newline */
    LEX_BLOCK_COMMENT,      /* "/" "* ... *" "/" */
    LEX_ERROR               /* reported already; skip it */
};

/* A token: a span into the source and where it starts. */
typedef struct lex_token {
    int kind;
    const char *p;
    uint32_t len;
    ir_loc loc;
} lex_token;

typedef struct lexer {
    const char *path;       /* for diagnostics */
    const char *src;        /* NUL-terminated at src[len] */
    size_t len;
    const char *cur;
    const char *line_start;
    uint32_t line;
    int errors;
    diag_counts *diag;      /* what its errors count into (the run's) */
} lexer;

void lex_init(lexer *lx, diag_counts *diag, const char *path, const char *src, size_t len);
/* The next token, comments and whitespace included; LEX_EOF at the end. */
int lex_next(lexer *lx, lex_token *t);

/* The bytes of a string token (quotes, escapes decoded) appended to *buf;
 * the token was checked by the lexer, so this cannot fail. */
typedef struct lex_buf { char *p; size_t n, cap; ir_pool *pool; } lex_buf;   /* grown in pool */
void lex_string_append(lex_buf *b, const char *tok, size_t len);

/* Parse an integer token (decimal, 0octal, 0xhex); false on overflow of uint64. */
bool lex_parse_int(const char *tok, size_t len, uint64_t *out);

#endif
