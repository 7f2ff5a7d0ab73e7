/* lex.re: the .proto lexer (re2c): NUL-terminated source bytes to tokens with line/col. */
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include "lex.h"
#include "parse.h"
#include "diag.h"

/*!re2c
    re2c:define:YYCTYPE = "unsigned char";
    re2c:yyfill:enable = 0;
    re2c:flags:tags = 0;

    hexd = [0-9a-fA-F];
    octd = [0-7];
    letter = [A-Za-z_];
    exp = [eE] [+-]? [0-9]+;
*/

/* ---- string bodies: one piece (a byte or an escape) at a time ------------ */

typedef enum str_piece {
    PIECE_BYTE,          /* *value is the byte */
    PIECE_CODEPOINT,     /* \u or \U: *value is a code point for UTF-8 */
    PIECE_END,           /* the closing quote (or the NUL/newline that ends it badly) */
    PIECE_BAD_ESCAPE,
    PIECE_BAD_HEX,
    PIECE_BAD_U4,
    PIECE_BAD_U8
} str_piece;

static uint32_t hex_value(const unsigned char *p, int n)
{
    uint32_t v = 0;
    for (int i = 0; i < n; i++) {
        unsigned c = p[i];
        v = v * 16 + (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* Scan one piece of a string body starting at *pp; quote is ' or ". */
static str_piece string_piece(const unsigned char **pp, unsigned char quote, uint32_t *value)
{
    const unsigned char *YYCURSOR = *pp, *YYMARKER = YYCURSOR, *start = YYCURSOR;
    str_piece kind;
    /*!re2c
        "\\a"  { *value = '\a'; kind = PIECE_BYTE; goto done; }
        "\\b"  { *value = '\b'; kind = PIECE_BYTE; goto done; }
        "\\f"  { *value = '\f'; kind = PIECE_BYTE; goto done; }
        "\\n"  { *value = '\n'; kind = PIECE_BYTE; goto done; }
        "\\r"  { *value = '\r'; kind = PIECE_BYTE; goto done; }
        "\\t"  { *value = '\t'; kind = PIECE_BYTE; goto done; }
        "\\v"  { *value = '\v'; kind = PIECE_BYTE; goto done; }
        "\\" [\\?'"] { *value = start[1]; kind = PIECE_BYTE; goto done; }
        "\\" octd{1,3} {
            uint32_t v = 0;
            for (const unsigned char *q = start + 1; q < YYCURSOR; q++) v = v * 8 + (uint32_t)(*q - '0');
            *value = v & 0xff; kind = PIECE_BYTE; goto done;
        }
        "\\x" hexd{1,2} { *value = hex_value(start + 2, (int)(YYCURSOR - start - 2)); kind = PIECE_BYTE; goto done; }
        "\\x"         { kind = PIECE_BAD_HEX; goto done; }
        "\\u" hexd{4} { *value = hex_value(start + 2, 4); kind = PIECE_CODEPOINT; goto done; }
        "\\u"         { kind = PIECE_BAD_U4; goto done; }
        "\\U00" [01] hexd{5} { *value = hex_value(start + 2, 8); kind = PIECE_CODEPOINT; goto done; }
        "\\U"         { kind = PIECE_BAD_U8; goto done; }
        "\\"          { kind = PIECE_BAD_ESCAPE; goto done; }
        [\x00\n]      { YYCURSOR = start; kind = PIECE_END; goto done; }
        *             { *value = *start; kind = *start == quote ? PIECE_END : PIECE_BYTE; goto done; }
    */
done:
    *pp = YYCURSOR;
    return kind;
}

static bool is_high_surrogate(uint32_t c) { return c >= 0xd800 && c <= 0xdbff; }
static bool is_low_surrogate(uint32_t c) { return c >= 0xdc00 && c <= 0xdfff; }

static void buf_put(lex_buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        char *p = ir_pool_alloc(b->pool, b->cap);
        if (b->n) memcpy(p, b->p, b->n);
        b->p = p;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

/* A code point as UTF-8 (beyond 0x10ffff protoc writes it back as "\U%08x"). */
static void put_utf8(lex_buf *b, uint32_t c)
{
    char u[16];
    size_t n;
    if (c < 0x80) { u[0] = (char)c; n = 1; }
    else if (c < 0x800) { u[0] = (char)(0xc0 | c >> 6); u[1] = (char)(0x80 | (c & 0x3f)); n = 2; }
    else if (c < 0x10000) {
        u[0] = (char)(0xe0 | c >> 12); u[1] = (char)(0x80 | (c >> 6 & 0x3f));
        u[2] = (char)(0x80 | (c & 0x3f)); n = 3;
    } else if (c <= 0x10ffff) {
        u[0] = (char)(0xf0 | c >> 18); u[1] = (char)(0x80 | (c >> 12 & 0x3f));
        u[2] = (char)(0x80 | (c >> 6 & 0x3f)); u[3] = (char)(0x80 | (c & 0x3f)); n = 4;
    } else {
        n = (size_t)snprintf(u, sizeof u, "\\U%08x", (unsigned)c);
    }
    buf_put(b, u, n);
}

void lex_string_append(lex_buf *b, const char *tok, size_t len)
{
    const unsigned char *p = (const unsigned char *)tok + 1, *end = (const unsigned char *)tok + len;
    unsigned char quote = (unsigned char)tok[0];
    buf_put(b, "", 0);
    while (p < end) {
        uint32_t v = 0;
        str_piece k = string_piece(&p, quote, &v);
        if (k == PIECE_END) break;
        if (k == PIECE_BYTE) {
            char c = (char)v;
            buf_put(b, &c, 1);
        } else if (k == PIECE_CODEPOINT) {
            const unsigned char *q = p;
            uint32_t lo = 0;
            /* a surrogate pair written as two \u escapes is one code point */
            if (is_high_surrogate(v) && string_piece(&q, quote, &lo) == PIECE_CODEPOINT && is_low_surrogate(lo)) {
                v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
                p = q;
            }
            put_utf8(b, v);
        }
    }
}

bool lex_parse_int(const char *tok, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    unsigned base = 10;
    size_t i = 0;
    if (len > 1 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) { base = 16; i = 2; }
    else if (len > 1 && tok[0] == '0') { base = 8; i = 1; }
    for (; i < len; i++) {
        unsigned c = (unsigned char)tok[i];
        unsigned d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        if (v > (UINT64_MAX - d) / base) return false;
        v = v * base + d;
    }
    *out = v;
    return true;
}

/* ---- the token scanner ------------------------------------------------------ */

void lex_init(lexer *lx, diag_counts *diag, const char *path, const char *src, size_t len)
{
    memset(lx, 0, sizeof *lx);
    lx->diag = diag;
    lx->path = path;
    lx->src = src;
    lx->len = len;
    lx->cur = src;
    if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0) lx->cur += 3;   /* UTF-8 BOM */
    lx->line_start = lx->cur;
    lx->line = 1;
}

static ir_loc loc_of(const lexer *lx, const char *p)
{
    return (ir_loc){ lx->line, (uint32_t)(p - lx->line_start) + 1 };
}

static void lex_error(lexer *lx, const char *p, const char *msg)
{
    diag_error_at_in(lx->diag, lx->path, lx->src, loc_of(lx, p), "%s", msg);
    lx->errors++;
}

/* Where protoc reports a bad escape starting at the backslash at: the first byte that does not fit. */
static const unsigned char *bad_escape_at(const unsigned char *at, str_piece k)
{
    const unsigned char *p = at + 2;
    if (k == PIECE_BAD_ESCAPE) return at + 1;
    if (k == PIECE_BAD_U8) {                 /* "\\U" then 0, 0, 0 or 1, then five hex digits */
        if (p[0] != '0') return p;
        if (p[1] != '0') return p + 1;
        if (p[2] != '0' && p[2] != '1') return p + 2;
        p += 3;
    }
    for (int n = k == PIECE_BAD_U4 ? 4 : 5; n > 0 && isxdigit(*p); n--) p++;
    return p;
}

/* After a string's opening quote: check it to its end; report the first problem. */
static void scan_string(lexer *lx, const unsigned char **pp, const char *start)
{
    const unsigned char *p = *pp;
    unsigned char quote = (unsigned char)start[0];
    static const char *const bad[] = {
        [PIECE_BAD_ESCAPE] = "invalid escape sequence in string literal",
        [PIECE_BAD_HEX] = "expected hex digits for \\x escape sequence",
        [PIECE_BAD_U4] = "expected four hex digits for \\u escape sequence",
        [PIECE_BAD_U8] = "expected eight hex digits up to 10ffff for \\U escape sequence",
    };
    for (;;) {
        const unsigned char *at = p;
        uint32_t v;
        str_piece k = string_piece(&p, quote, &v);
        if (k == PIECE_END) {
            if (p != at) break;
            if (*p == '\n') lex_error(lx, start, "string literal not terminated before the end of the line");
            else if ((const char *)p < lx->src + lx->len) lex_error(lx, (const char *)p, "NUL character in a string literal");
            else lex_error(lx, start, "string literal not terminated before the end of the file");
            break;
        }
        if (k >= PIECE_BAD_ESCAPE) lex_error(lx, (const char *)bad_escape_at(at, k), bad[k]);
    }
    *pp = p;
}

/* After "/" "*": to the end of the comment, counting lines; an open one is reported at the end of the file. */
static void scan_block_comment(lexer *lx, const unsigned char **pp, const char *start)
{
    const unsigned char *p = *pp;
    ir_loc at = loc_of(lx, start);
    for (;;) {
        if (*p == '\0' && (const char *)p >= lx->src + lx->len) {
            diag_error_at_in(lx->diag, lx->path, lx->src, loc_of(lx, (const char *)p),
                             "block comment not terminated before the end of the file (it starts at line %u)", at.line);
            lx->errors++;
            break;
        }
        if (p[0] == '*' && p[1] == '/') { p += 2; break; }
        if (p[0] == '/' && p[1] == '*') lex_error(lx, (const char *)p, "\"/*\" inside block comment; block comments cannot be nested");
        if (*p == '\n') { lx->line++; lx->line_start = (const char *)p + 1; }
        p++;
    }
    *pp = p;
}

/* protoc wants a space between a number and what follows it. */
static void check_after_number(lexer *lx, const unsigned char *p, bool is_float)
{
    if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_')
        lex_error(lx, (const char *)p, "need space between number and identifier");
    else if (*p == '.')
        lex_error(lx, (const char *)p, is_float ? "already saw decimal point or exponent; can't have another one"
                                                : "hex and octal numbers must be integers");
}

/* 2024's "export" and "local" are keywords only before "message" or "enum" (blanks between);
 * elsewhere they stay identifiers, as a type named "local" in older files. */
static int visibility_or_ident(const unsigned char *p, int keyword)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f') p++;
    size_t n = strncmp((const char *)p, "message", 7) == 0 ? 7 : strncmp((const char *)p, "enum", 4) == 0 ? 4 : 0;
    bool word_ends = n && !((p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9') || p[n] == '_');
    return word_ends ? keyword : TK_IDENT;
}

int lex_next(lexer *lx, lex_token *t)
{
    const unsigned char *YYCURSOR = (const unsigned char *)lx->cur, *YYMARKER = YYCURSOR;
    const char *start = lx->cur;
    int kind;
    t->loc = loc_of(lx, start);
    /*!re2c
        "\x00" {
            if (start >= lx->src + lx->len) { YYCURSOR--; kind = LEX_EOF; goto done; }
            lex_error(lx, start, "NUL character in the source"); kind = LEX_ERROR; goto done;
        }
        [ \t\v\f\r]+ { kind = LEX_WS; goto done; }
        "\n" { kind = LEX_NEWLINE; goto done; }
        "//" [^\n\x00]* { kind = LEX_LINE_COMMENT; goto done; }
        "/*" { scan_block_comment(lx, &YYCURSOR, start); kind = LEX_BLOCK_COMMENT; goto done; }

        "syntax"     { kind = TK_SYNTAX; goto done; }
        "edition"    { kind = TK_EDITION; goto done; }
        "import"     { kind = TK_IMPORT; goto done; }
        "weak"       { kind = TK_WEAK; goto done; }
        "public"     { kind = TK_PUBLIC; goto done; }
        "package"    { kind = TK_PACKAGE; goto done; }
        "option"     { kind = TK_OPTION; goto done; }
        "message"    { kind = TK_MESSAGE; goto done; }
        "enum"       { kind = TK_ENUM; goto done; }
        "service"    { kind = TK_SERVICE; goto done; }
        "rpc"        { kind = TK_RPC; goto done; }
        "returns"    { kind = TK_RETURNS; goto done; }
        "stream"     { kind = TK_STREAM; goto done; }
        "extend"     { kind = TK_EXTEND; goto done; }
        "extensions" { kind = TK_EXTENSIONS; goto done; }
        "reserved"   { kind = TK_RESERVED; goto done; }
        "to"         { kind = TK_TO; goto done; }
        "max"        { kind = TK_MAX; goto done; }
        "oneof"      { kind = TK_ONEOF; goto done; }
        "map"        { kind = TK_MAP; goto done; }
        "optional"   { kind = TK_OPTIONAL; goto done; }
        "required"   { kind = TK_REQUIRED; goto done; }
        "repeated"   { kind = TK_REPEATED; goto done; }
        "group"      { kind = TK_GROUP; goto done; }
        "export"     { kind = visibility_or_ident(YYCURSOR, TK_EXPORT); goto done; }
        "local"      { kind = visibility_or_ident(YYCURSOR, TK_LOCAL); goto done; }
        letter (letter | [0-9])* { kind = TK_IDENT; goto done; }

        "0" [xX] hexd+ | "0" octd* | [1-9] [0-9]* {
            check_after_number(lx, YYCURSOR, false); kind = TK_INT; goto done;
        }
        "0" [xX] { lex_error(lx, start, "\"0x\" must be followed by hex digits"); kind = TK_INT; goto done; }
        "0" octd* [89] [0-9]* {
            lex_error(lx, start, "numbers starting with leading zero must be in octal"); kind = TK_INT; goto done;
        }
        ([0-9]+ "." [0-9]* | "." [0-9]+) exp? | [0-9]+ exp {
            check_after_number(lx, YYCURSOR, true); kind = TK_FLOAT; goto done;
        }
        ([0-9]+ ("." [0-9]*)? | "." [0-9]+) [eE] [+-]? {
            lex_error(lx, start, "\"e\" must be followed by exponent"); kind = TK_FLOAT; goto done;
        }

        ["'] { scan_string(lx, &YYCURSOR, start); kind = TK_STRING; goto done; }

        ";" { kind = TK_SEMI; goto done; }
        "{" { kind = TK_LBRACE; goto done; }
        "}" { kind = TK_RBRACE; goto done; }
        "(" { kind = TK_LPAREN; goto done; }
        ")" { kind = TK_RPAREN; goto done; }
        "[" { kind = TK_LBRACKET; goto done; }
        "]" { kind = TK_RBRACKET; goto done; }
        "<" { kind = TK_LT; goto done; }
        ">" { kind = TK_GT; goto done; }
        "=" { kind = TK_EQ; goto done; }
        "," { kind = TK_COMMA; goto done; }
        "." { kind = TK_DOT; goto done; }
        "-" { kind = TK_MINUS; goto done; }
        [!-~] { kind = TK_SYMBOL; goto done; }
        [\x01-\x1f\x7f] { lex_error(lx, start, "invalid control character in the source"); kind = LEX_ERROR; goto done; }
        * { lex_error(lx, start, "non-ASCII character outside a string or comment"); kind = LEX_ERROR; goto done; }
    */
done:
    (void)YYMARKER;
    t->kind = kind;
    t->p = start;
    t->len = (uint32_t)((const char *)YYCURSOR - start);
    lx->cur = (const char *)YYCURSOR;
    if (kind == LEX_NEWLINE) { lx->line++; lx->line_start = lx->cur; }
    return kind;
}
