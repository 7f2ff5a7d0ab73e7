/* pbj_text_read.h: text-format parsing as protoc 3.21's `--encode` reads it: the tokenizer and value readers of M_from_text. */
#ifndef PBJ_TEXT_READ_H
#define PBJ_TEXT_READ_H

/*
 * M_from_text(m, text, len, arena, opts) is pbj_table_from_text(&M__table, ...): the walk of M's field
 * table at the end of this header over the tokenizer and value readers before it. The grammar
 * and the errors are protobuf's TextFormat::Parser (as protoc --encode runs
 * it): '#' comments; fields separated by ',' ';' or nothing; ':' optional
 * before a message, whose body is in {} or <>; a repeated field given again
 * or as a list [a, b]; strings in '' or "" with C escapes (octal, \x, \u,
 * \U), adjacent strings joined; integers in decimal, hex (0x) and octal (0),
 * '-' for signed ones, range-checked per type; floats with an optional f
 * suffix, inf, infinity and nan in any case; bools as true/false/t/f/True/
 * False/1/0; enums by name or number (a closed enum only its known numbers);
 * groups by their type's name; map entries as repeated messages; extensions
 * as [pkg.ext]; an Any as [type.googleapis.com/pkg.M] { ... } when
 * opts->types holds pkg.M's table (&pkg_M__table). A singular field given twice, an unknown
 * name, a value out of range: PBJ_ERR_SYNTAX, and opts->error (when set)
 * holds protoc's message and its line and column ("3:7: Integer out of range
 * (300)", columns counted as protoc does: a tab goes to the next multiple of 8).
 * Nesting deeper than opts->max_depth messages (PBJ_DEFAULT_MAX_DEPTH when 0)
 * is PBJ_ERR_DEPTH. Strings of proto3 string fields must be UTF-8
 * (PBJ_ERR_UTF8). Reading never goes past text + len: no NUL is needed.
 */

#include "pbj_core.h"
#include "pbj_text.h"

/* M_from_text in each generated message's API with TEXT_READ (PBJ_MESSAGE, pbj_table.h) */
#undef PBJ__API_TEXT_READ
#define PBJ__API_TEXT_READ(M)                                                                                         \
    PBJ_MUST_USE static inline pbj_status M##_from_text(M *m, const char *text, size_t len, pbj_arena *arena, const pbj_text_read_options *o) \
    {                                                                                                                \
        return pbj_table_from_text(&M##__table, m, text, len, arena, o);                                             \
    }

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where and why reading failed (pbj_core.h): offset, line and column from 1, the message as protoc words it. */
typedef pbj_read_error pbj_text_error;

typedef struct pbj_text_reader pbj_text_reader;

typedef struct pbj_text_read_options {
    uint32_t max_depth;                  /* messages nested inside the top-level one; 0: PBJ_DEFAULT_MAX_DEPTH */
    bool partial;                        /* proto2: accept missing required fields (else PBJ_ERR_REQUIRED) */
    pbj_text_error *error;               /* the first error, when not NULL */
    const pbj_table *const *types;       /* Any: the types its [type URL] may name (each &M__table) */
    size_t type_count;
} pbj_text_read_options;

/* The kinds of tokens, as protobuf's io::Tokenizer has them. */
enum { PBJ__TK_END, PBJ__TK_IDENT, PBJ__TK_INT, PBJ__TK_FLOAT, PBJ__TK_STRING, PBJ__TK_SYMBOL };

struct pbj_text_reader {
    const char *start;                   /* the input's first byte */
    const char *p, *end;                 /* the next byte to scan */
    uint32_t line, col;                  /* of p, from 0 */
    int kind;                            /* the current token: kind, text, where it starts and ends */
    const char *tok;
    size_t tok_len;
    uint32_t tok_line, tok_col, prev_kind, prev_line, prev_end;
    pbj_arena *arena;
    uint32_t level;                      /* messages open around the current token */
    uint32_t max_depth;
    pbj_status st;                       /* the first failure (then every reader returns false) */
    const pbj_text_read_options *o;
    pbj_text_error *error;
    pbj_text_error own_error;
    char name[256];                      /* the field name read last ("[pkg.ext]" for bracketed ones) */
    size_t name_len;
};

/* ---- errors ------------------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
#define PBJ__TR_PRINTF __attribute__((format(printf, 5, 6)))
#else
#define PBJ__TR_PRINTF
#endif

/* The offset of line, col (from 0, counted as pbj__tr_step counts them) in r's input. */
static inline size_t pbj__tr_offset(const pbj_text_reader *r, uint32_t line, uint32_t col)
{
    const char *p = r->start;
    uint32_t l = 0, c = 0;
    while (p < r->end && (l < line || (l == line && c < col))) {
        char ch = *p++;
        if (ch == '\n') l++, c = 0;
        else c += ch == '\t' ? 8 - c % 8 : 1;
    }
    return (size_t)(p - r->start);
}

/* The first failure, with protoc's message at line, col (from 0); returns false. */
PBJ_OUTLINE PBJ__TR_PRINTF bool pbj__tr_fail_at(pbj_text_reader *r, pbj_status st, uint32_t line, uint32_t col, const char *fmt, ...) PBJ__PROTO
#if PBJ__BODIES
{
    if (r->st != PBJ_OK) return false;
    r->st = st;
    r->error->line = line + 1;
    r->error->column = col + 1;
    r->error->offset = pbj__tr_offset(r, line, col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error->message, sizeof r->error->message, fmt, ap);
    va_end(ap);
    return false;
}
#endif

#define PBJ__TR_FAIL(r, ...) pbj__tr_fail_at((r), PBJ_ERR_SYNTAX, (r)->tok_line, (r)->tok_col, __VA_ARGS__)
/* A token's text as a printf argument pair (long tokens cut). */
#define PBJ__TR_TEXT(r) (int)((r)->tok_len < 100 ? (r)->tok_len : 100), (r)->tok

PBJ_OUTLINE pbj_status pbj__tr_status(pbj_text_reader *r, pbj_status st) PBJ__PROTO
#if PBJ__BODIES
{
    if (st != PBJ_OK) pbj__tr_fail_at(r, st, r->tok_line, r->tok_col, "%s", pbj_status_str(st));
    return r->st;
}
#endif

PBJ_OUTLINE pbj_status pbj__tr_nomem(pbj_text_reader *r) PBJ__PROTO
#if PBJ__BODIES
{ return pbj__tr_status(r, PBJ_ERR_NOMEM); }
#endif

/* ---- the tokenizer --------------------------------------------------------------------- */

static inline bool pbj__tr_letter(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static inline bool pbj__tr_digit(int c) { return c >= '0' && c <= '9'; }
static inline bool pbj__tr_alnum(int c) { return pbj__tr_letter(c) || pbj__tr_digit(c); }
static inline bool pbj__tr_hex(int c) { return pbj__tr_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
static inline bool pbj__tr_octal(int c) { return c >= '0' && c <= '7'; }
static inline int pbj__tr_digit_value(int c) { return pbj__tr_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10; }

/* The byte at p, or 0 at the end. */
static inline int pbj__tr_peek(const pbj_text_reader *r) { return r->p < r->end ? (unsigned char)*r->p : 0; }
static inline int pbj__tr_peek2(const pbj_text_reader *r) { return r->end - r->p > 1 ? (unsigned char)r->p[1] : 0; }

/* One byte on, counting lines and columns as protobuf's tokenizer does (a tab to the next multiple of 8). */
static inline void pbj__tr_step(pbj_text_reader *r)
{
    char c = *r->p++;
    if (c == '\n') {
        r->line++;
        r->col = 0;
    } else r->col += c == '\t' ? 8 - r->col % 8 : 1;
}

static inline bool pbj__tr_take(pbj_text_reader *r, int c)
{
    if (r->p == r->end || *r->p != c) return false;
    pbj__tr_step(r);
    return true;
}

/* A tokenizer error at the scan position. */
#define PBJ__TR_SCAN_FAIL(r, ...) pbj__tr_fail_at((r), PBJ_ERR_SYNTAX, (r)->line, (r)->col, __VA_ARGS__)

/* The rest of a number token whose first character is read (io::Tokenizer::ConsumeNumber). */
PBJ_OUTLINE bool pbj__tr_number(pbj_text_reader *r, bool zero, bool dot) PBJ__PROTO
#if PBJ__BODIES
{
    bool is_float = dot;
    if (zero && (pbj__tr_take(r, 'x') || pbj__tr_take(r, 'X'))) {
        if (!pbj__tr_hex(pbj__tr_peek(r))) return PBJ__TR_SCAN_FAIL(r, "\"0x\" must be followed by hex digits.");
        while (pbj__tr_hex(pbj__tr_peek(r))) pbj__tr_step(r);
    } else if (zero && pbj__tr_digit(pbj__tr_peek(r))) {
        while (pbj__tr_octal(pbj__tr_peek(r))) pbj__tr_step(r);
        if (pbj__tr_digit(pbj__tr_peek(r))) return PBJ__TR_SCAN_FAIL(r, "Numbers starting with leading zero must be in octal.");
    } else {
        while (pbj__tr_digit(pbj__tr_peek(r))) pbj__tr_step(r);
        if (!dot && pbj__tr_take(r, '.')) {
            is_float = true;
            while (pbj__tr_digit(pbj__tr_peek(r))) pbj__tr_step(r);
        }
        if (pbj__tr_take(r, 'e') || pbj__tr_take(r, 'E')) {
            is_float = true;
            if (!pbj__tr_take(r, '-')) pbj__tr_take(r, '+');
            if (!pbj__tr_digit(pbj__tr_peek(r))) return PBJ__TR_SCAN_FAIL(r, "\"e\" must be followed by exponent.");
            while (pbj__tr_digit(pbj__tr_peek(r))) pbj__tr_step(r);
        }
        if (pbj__tr_take(r, 'f') || pbj__tr_take(r, 'F')) is_float = true;
    }
    if (pbj__tr_letter(pbj__tr_peek(r))) return PBJ__TR_SCAN_FAIL(r, "Need space between number and identifier.");
    if (pbj__tr_peek(r) == '.')
        return PBJ__TR_SCAN_FAIL(r, is_float ? "Already saw decimal point or exponent; can't have another one."
                                             : "Hex and octal numbers must be integers.");
    r->kind = is_float ? PBJ__TK_FLOAT : PBJ__TK_INT;
    return true;
}
#endif

/* n hex digits at s (they are there: the tokenizer checked) as a number. */
static inline uint32_t pbj__tr_hex_value(const char *s, int n)
{
    uint32_t v = 0;
    for (int i = 0; i < n; i++) v = v << 4 | (uint32_t)pbj__tr_digit_value(s[i]);
    return v;
}

/* Whether the n hex digits just read (a \u or \U escape's, at most 10ffff) are not a surrogate, not even of a
 * pair, as the conformance suite wants (C++ 3.21 reads surrogates, and a \U escape past 10ffff as its text). */
static inline bool pbj__tr_scalar_value(pbj_text_reader *r, int n)
{
    uint32_t c = pbj__tr_hex_value(r->p - n, n);
    if (c >= 0xd800 && c < 0xe000) return PBJ__TR_SCAN_FAIL(r, "A \\u or \\U escape cannot be a surrogate (d800 to dfff).");
    return true;
}

/* The rest of a string token after its opening quote q (io::Tokenizer::ConsumeString): escapes checked. */
PBJ_OUTLINE bool pbj__tr_quoted(pbj_text_reader *r, int q) PBJ__PROTO
#if PBJ__BODIES
{
    for (;;) {
        int c = pbj__tr_peek(r);
        if (r->p == r->end || c == 0) return PBJ__TR_SCAN_FAIL(r, "Unexpected end of string.");
        if (c == '\n') return PBJ__TR_SCAN_FAIL(r, "String literals cannot cross line boundaries.");
        pbj__tr_step(r);
        if (c == q) break;
        if (c != '\\') continue;
        c = pbj__tr_peek(r);
        if (c && strchr("abfnrtv\\?'\"", c)) pbj__tr_step(r);
        else if (pbj__tr_octal(c)) pbj__tr_step(r);
        else if (pbj__tr_take(r, 'x')) {
            if (!pbj__tr_hex(pbj__tr_peek(r))) return PBJ__TR_SCAN_FAIL(r, "Expected hex digits for escape sequence.");
        } else if (pbj__tr_take(r, 'u')) {
            for (int i = 0; i < 4; i++)
                if (!pbj__tr_hex(pbj__tr_peek(r)) || (pbj__tr_step(r), false))
                    return PBJ__TR_SCAN_FAIL(r, "Expected four hex digits for \\u escape sequence.");
            if (!pbj__tr_scalar_value(r, 4)) return false;
        } else if (pbj__tr_take(r, 'U')) {
            static const char want[] = "00";       /* then 0 or 1, then five hex digits */
            bool ok = true;
            for (int i = 0; i < 8 && ok; i++) {
                int d = pbj__tr_peek(r);
                ok = i < 2 ? d == want[i] : i == 2 ? (d == '0' || d == '1') : pbj__tr_hex(d);
                if (ok) pbj__tr_step(r);
            }
            if (!ok || pbj__tr_hex_value(r->p - 8, 8) > 0x10ffff)
                return PBJ__TR_SCAN_FAIL(r, "Expected eight hex digits up to 10ffff for \\U escape sequence");
            if (!pbj__tr_scalar_value(r, 8)) return false;
        } else return PBJ__TR_SCAN_FAIL(r, "Invalid escape sequence in string literal.");
    }
    r->kind = PBJ__TK_STRING;
    return true;
}
#endif

/* Whitespace and '#' comments up to the next token. False at an invalid byte (an error). */
PBJ_OUTLINE bool pbj__tr_skip_space(pbj_text_reader *r) PBJ__PROTO
#if PBJ__BODIES
{
    while (r->p < r->end) {
        int c = (unsigned char)*r->p;
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f') pbj__tr_step(r);
        else if (c == '#')
            while (r->p < r->end && *r->p != '\n') pbj__tr_step(r);
        else if (c < ' ') return PBJ__TR_SCAN_FAIL(r, "Invalid control characters encountered in text.");
        else if (c >= 0x80) return PBJ__TR_SCAN_FAIL(r, "Interpreting non ascii codepoint %d.", c);
        else break;
    }
    return true;
}
#endif

/* The next token becomes the current one (the previous one's kind and end are kept). False on an error. */
PBJ_OUTLINE bool pbj__tr_next(pbj_text_reader *r) PBJ__PROTO
#if PBJ__BODIES
{
    r->prev_kind = (uint32_t)r->kind;
    r->prev_line = r->tok_line;
    r->prev_end = r->tok_col + (uint32_t)r->tok_len;
    if (r->st != PBJ_OK) return false;
    bool ok = pbj__tr_skip_space(r);
    r->tok = r->p;
    r->tok_line = r->line;
    r->tok_col = r->col;
    r->kind = PBJ__TK_END;
    if (ok && r->p < r->end) {
        int c = (unsigned char)*r->p;
        pbj__tr_step(r);
        if (pbj__tr_letter(c)) {
            while (pbj__tr_alnum(pbj__tr_peek(r))) pbj__tr_step(r);
            r->kind = PBJ__TK_IDENT;
        } else if (c == '.' && pbj__tr_digit(pbj__tr_peek(r))) {
            if (r->prev_kind == PBJ__TK_IDENT && r->prev_line == r->tok_line && r->prev_end == r->tok_col)
                ok = pbj__tr_fail_at(r, PBJ_ERR_SYNTAX, r->tok_line, r->tok_col, "Need space between identifier and decimal point.");
            else ok = pbj__tr_number(r, false, true);
        } else if (pbj__tr_digit(c)) ok = pbj__tr_number(r, c == '0', false);
        else if (c == '"' || c == '\'') ok = pbj__tr_quoted(r, c);
        else r->kind = PBJ__TK_SYMBOL;
    }
    r->tok_len = (size_t)(r->p - r->tok);
    if (!ok) r->kind = PBJ__TK_END;
    return ok;
}
#endif

static inline bool pbj__tr_is(const pbj_text_reader *r, char c)
{
    return r->kind == PBJ__TK_SYMBOL && *r->tok == c;
}

/* TryConsume: the current token is the symbol c: it is taken. */
static inline bool pbj__tr_try(pbj_text_reader *r, char c)
{
    return pbj__tr_is(r, c) && pbj__tr_next(r);
}

/* Consume: the current token must be the symbol c. */
PBJ_OUTLINE bool pbj__tr_expect(pbj_text_reader *r, char c) PBJ__PROTO
#if PBJ__BODIES
{
    if (pbj__tr_try(r, c)) return true;
    return PBJ__TR_FAIL(r, "Expected \"%c\", found \"%.*s\".", c, PBJ__TR_TEXT(r));
}
#endif

PBJ_OUTLINE void pbj_text_reader_init(pbj_text_reader *r, const char *text, size_t len, pbj_arena *arena,
                                      const pbj_text_read_options *o) PBJ__PROTO
#if PBJ__BODIES
{
    memset(r, 0, sizeof *r);
    r->start = r->p = text;
    r->end = text ? text + len : text;
    r->arena = arena;
    r->o = o;
    r->max_depth = o && o->max_depth ? (o->max_depth < PBJ_MAX_DEPTH_CAP ? o->max_depth : PBJ_MAX_DEPTH_CAP)
                                     : PBJ_DEFAULT_MAX_DEPTH;
    r->error = o && o->error ? o->error : &r->own_error;
    memset(r->error, 0, sizeof *r->error);
    r->tok = text;
    pbj__tr_next(r);
}
#endif

/* ---- fields ------------------------------------------------------------------------------- */

/* Appends s[0..n) to the name. */
static inline bool pbj__tr_name_put(pbj_text_reader *r, const char *s, size_t n)
{
    if (n >= sizeof r->name - r->name_len) return PBJ__TR_FAIL(r, "Name too long.");
    memcpy(r->name + r->name_len, s, n);
    r->name_len += n;
    return true;
}

/* The identifier a name part must be. */
static inline bool pbj__tr_ident(pbj_text_reader *r)
{
    if (r->kind == PBJ__TK_IDENT) return true;
    return PBJ__TR_FAIL(r, "Expected identifier, got: %.*s", PBJ__TR_TEXT(r));
}

/* A name's dotted parts up to a token other than '.', appended to r->name. */
static inline bool pbj__tr_dotted(pbj_text_reader *r)
{
    for (;;) {
        if (!pbj__tr_ident(r) || !pbj__tr_name_put(r, r->tok, r->tok_len) || !pbj__tr_next(r)) return false;
        if (!pbj__tr_is(r, '.')) return true;
        if (!pbj__tr_name_put(r, ".", 1) || !pbj__tr_next(r)) return false;
    }
}

/* Whether another field follows in the message being read (else its end or its closing delimiter), and
 * if so its name into r->name: an identifier, or "[a.b.c]" (an extension), or in an Any (any) its
 * "[host.name/a.b.c]". Errors about the name are then reported at the token after it, as protoc does. */
PBJ_OUTLINE bool pbj__tr_field(pbj_text_reader *r, bool any) PBJ__PROTO
#if PBJ__BODIES
{
    if (r->st != PBJ_OK) return false;
    if (r->level ? pbj__tr_is(r, '}') || pbj__tr_is(r, '>') : r->kind == PBJ__TK_END) return false;
    if (r->level && r->kind == PBJ__TK_END) return PBJ__TR_FAIL(r, "Expected identifier, got: ");
    r->name_len = 0;
    if (!pbj__tr_is(r, '[')) {
        if (!pbj__tr_ident(r) || !pbj__tr_name_put(r, r->tok, r->tok_len) || !pbj__tr_next(r)) return false;
    } else {
        if (!pbj__tr_name_put(r, "[", 1) || !pbj__tr_next(r) || !pbj__tr_dotted(r)) return false;
        if (any && (!pbj__tr_expect(r, '/') || !pbj__tr_name_put(r, "/", 1) || !pbj__tr_dotted(r))) return false;
        if (!pbj__tr_expect(r, ']') || !pbj__tr_name_put(r, "]", 1)) return false;
    }
    return true;
}
#endif

/* The name read is no field of message full (an extension's: none of its extensions). */
PBJ_OUTLINE pbj_status pbj__tr_unknown(pbj_text_reader *r, const char *full) PBJ__PROTO
#if PBJ__BODIES
{
    if (r->name[0] == '[')
        PBJ__TR_FAIL(r, "Extension \"%.*s\" is not defined or is not an extension of \"%s\".", (int)r->name_len - 2,
                          r->name + 1, full);
    else PBJ__TR_FAIL(r, "Message type \"%s\" has no field named \"%.*s\".", full, (int)r->name_len, r->name);
    return r->st;
}
#endif

/* A singular field given a second time. */
PBJ_OUTLINE pbj_status pbj__tr_twice(pbj_text_reader *r) PBJ__PROTO
#if PBJ__BODIES
{
    PBJ__TR_FAIL(r, "Non-repeated field \"%.*s\" is specified multiple times.", (int)r->name_len, r->name);
    return r->st;
}
#endif

/* A member of oneof "oneof" given when its member "other" is set. */
PBJ_OUTLINE pbj_status pbj__tr_oneof_twice(pbj_text_reader *r, const char *other, const char *oneof) PBJ__PROTO
#if PBJ__BODIES
{
    PBJ__TR_FAIL(r, "Field \"%.*s\" is specified along with field \"%s\", another member of oneof \"%s\".",
                      (int)r->name_len, r->name, other, oneof);
    return r->st;
}
#endif

/* Whether extension records ext hold number. */
static inline bool pbj__tr_ext_has(pbj_slice ext, uint32_t number)
{
    size_t pos = 0;
    pbj__ext_rec rec;
    while (pbj__ext_next(ext, &pos, &rec))
        if (rec.number == number) return true;
    return false;
}

/* The ':' a value field needs. */
static inline bool pbj__tr_colon(pbj_text_reader *r) { return pbj__tr_expect(r, ':'); }

/* The values of a field: once for a singular one; for a repeated one, once, or as a list [a, b] (none for
 * []). *k holds the state: 0 before the first, 1 after a single value, 2 in a list. False when done (or failed). */
static inline bool pbj__tr_values(pbj_text_reader *r, int *k, bool repeated)
{
    if (r->st != PBJ_OK) return false;
    if (*k == 0) {
        *k = repeated && pbj__tr_try(r, '[') ? 2 : 1;
        return *k == 1 || !pbj__tr_try(r, ']');
    }
    return *k == 2 && !pbj__tr_try(r, ']') && pbj__tr_expect(r, ',');
}

/* ':' (optional) and a message's opening delimiter; its closing one in *close. */
PBJ_OUTLINE bool pbj__tr_open(pbj_text_reader *r, char *close, bool colon) PBJ__PROTO
#if PBJ__BODIES
{
    if (colon) pbj__tr_try(r, ':');
    if (r->level >= r->max_depth)
        return pbj__tr_fail_at(r, PBJ_ERR_DEPTH, r->tok_line, r->tok_col,
                               "Message is too deep, the parser exceeded the configured recursion limit of %u.",
                               (unsigned)r->max_depth);
    *close = pbj__tr_try(r, '<') ? '>' : '}';
    if (*close == '}' && !pbj__tr_expect(r, '{')) return false;
    r->level++;
    return true;
}
#endif

PBJ_OUTLINE bool pbj__tr_close(pbj_text_reader *r, char close) PBJ__PROTO
#if PBJ__BODIES
{
    if (!pbj__tr_expect(r, close)) return false;
    r->level--;
    return true;
}
#endif

/* After a field: an optional ';' or ','. */
static inline void pbj__tr_separator(pbj_text_reader *r)
{
    if (!pbj__tr_try(r, ';')) pbj__tr_try(r, ',');
}

/* ---- values -------------------------------------------------------------------------------- */

/* io::Tokenizer::ParseInteger: decimal, 0x hex or 0 octal, at most max. */
static inline bool pbj__tr_parse_uint(const char *s, size_t n, uint64_t max, uint64_t *out)
{
    size_t i = 0;
    unsigned base = 10;
    if (n > 1 && s[0] == '0') {
        base = (s[1] | 0x20) == 'x' ? 16 : 8;
        i = base == 16 ? 2 : 1;
    }
    uint64_t v = 0;
    for (; i < n; i++) {
        if (!pbj__tr_hex(s[i])) return false;
        unsigned d = (unsigned)pbj__tr_digit_value(s[i]);
        if (d >= base || d > max || v > (max - d) / base) return false;
        v = v * base + d;
    }
    *out = v;
    return true;
}

/* ConsumeUnsignedInteger: an integer token of at most max. */
PBJ_OUTLINE bool pbj__tr_uint(pbj_text_reader *r, uint64_t max, uint64_t *v) PBJ__PROTO
#if PBJ__BODIES
{
    if (r->kind != PBJ__TK_INT) return PBJ__TR_FAIL(r, "Expected integer, got: %.*s", PBJ__TR_TEXT(r));
    if (!pbj__tr_parse_uint(r->tok, r->tok_len, max, v)) return PBJ__TR_FAIL(r, "Integer out of range (%.*s)", PBJ__TR_TEXT(r));
    return pbj__tr_next(r);
}
#endif

/* ConsumeSignedInteger: '-' (then one more fits) and an integer of at most max. */
PBJ_OUTLINE bool pbj__tr_sint(pbj_text_reader *r, uint64_t max, int64_t *v) PBJ__PROTO
#if PBJ__BODIES
{
    bool minus = pbj__tr_try(r, '-');
    uint64_t u;
    if (!pbj__tr_uint(r, max + minus, &u)) return false;
    *v = minus ? (int64_t)(0 - u) : (int64_t)u;    /* two's complement: -2^63 too */
    return true;
}
#endif

/* Whether an identifier is s, ignoring case (s lower case). */
static inline bool pbj__tr_ident_is(const pbj_text_reader *r, const char *s)
{
    size_t n = strlen(s);
    if (r->kind != PBJ__TK_IDENT || r->tok_len != n) return false;
    for (size_t i = 0; i < n; i++)
        if ((r->tok[i] | 0x20) != s[i]) return false;
    return true;
}

/* ConsumeDouble: '-', then a decimal integer, a float (an f suffix allowed), inf, infinity or nan. */
PBJ_OUTLINE bool pbj__tr_double_value(pbj_text_reader *r, double *v) PBJ__PROTO
#if PBJ__BODIES
{
    bool minus = pbj__tr_try(r, '-');
    char buf[128];
    if (r->kind == PBJ__TK_INT || r->kind == PBJ__TK_FLOAT) {
        if (r->kind == PBJ__TK_INT && r->tok_len > 1 && r->tok[0] == '0')
            return PBJ__TR_FAIL(r, "Expect a decimal number, got: %.*s", PBJ__TR_TEXT(r));
        size_t n = r->tok_len < sizeof buf - 1 ? r->tok_len : 0;
        if (n == 0) {                            /* a long number: its digits read as strtod would */
            char *big = (char *)pbj_arena_alloc(r->arena, r->tok_len + 1);
            if (!big) return pbj__tr_nomem(r), false;
            memcpy(big, r->tok, r->tok_len);
            big[r->tok_len] = 0;
            *v = strtod(big, NULL);
        } else {
            memcpy(buf, r->tok, n);
            buf[n] = 0;
            *v = strtod(buf, NULL);              /* stops at an f suffix */
        }
    } else if (pbj__tr_ident_is(r, "inf") || pbj__tr_ident_is(r, "infinity")) *v = INFINITY;
    else if (pbj__tr_ident_is(r, "nan")) *v = NAN;
    else if (r->kind == PBJ__TK_IDENT) {
        size_t n = r->tok_len < 100 ? r->tok_len : 100;
        for (size_t i = 0; i < n; i++) buf[i] = (char)(r->tok[i] >= 'A' && r->tok[i] <= 'Z' ? r->tok[i] | 0x20 : r->tok[i]);
        return PBJ__TR_FAIL(r, "Expected double, got: %.*s", (int)n, buf);
    } else return PBJ__TR_FAIL(r, "Expected double, got: %.*s", PBJ__TR_TEXT(r));
    if (minus) *v = -*v;
    return pbj__tr_next(r);
}
#endif

/* The readers generated code calls: pbj_text_read_<type>(r, &v). */
static inline bool pbj_text_read_double(pbj_text_reader *r, double *v) { return pbj__tr_double_value(r, v); }

/* io::SafeDoubleToFloat: beyond the largest float, infinity (but what rounds to it prints as it). */
static inline bool pbj_text_read_float(pbj_text_reader *r, float *v)
{
    double d;
    if (!pbj__tr_double_value(r, &d)) return false;
    const double max_rounded = 3.4028235677973366e+38;
    *v = d > FLT_MAX ? (d <= max_rounded ? FLT_MAX : INFINITY) : d < -FLT_MAX ? (d >= -max_rounded ? -FLT_MAX : -INFINITY)
                                                                              : (float)d;
    return true;
}

#define PBJ__TR_SIGNED(name, type, max)                                          \
    static inline bool pbj_text_read_##name(pbj_text_reader *r, type *v) {       \
        int64_t x;                                                               \
        if (!pbj__tr_sint(r, max, &x)) return false;                             \
        *v = (type)x;                                                            \
        return true;                                                             \
    }
#define PBJ__TR_UNSIGNED(name, type, max)                                        \
    static inline bool pbj_text_read_##name(pbj_text_reader *r, type *v) {       \
        uint64_t x;                                                              \
        if (!pbj__tr_uint(r, max, &x)) return false;                             \
        *v = (type)x;                                                            \
        return true;                                                             \
    }
PBJ__TR_SIGNED(int32, int32_t, INT32_MAX)
PBJ__TR_SIGNED(sint32, int32_t, INT32_MAX)
PBJ__TR_SIGNED(sfixed32, int32_t, INT32_MAX)
PBJ__TR_SIGNED(int64, int64_t, INT64_MAX)
PBJ__TR_SIGNED(sint64, int64_t, INT64_MAX)
PBJ__TR_SIGNED(sfixed64, int64_t, INT64_MAX)
PBJ__TR_UNSIGNED(uint32, uint32_t, UINT32_MAX)
PBJ__TR_UNSIGNED(fixed32, uint32_t, UINT32_MAX)
PBJ__TR_UNSIGNED(uint64, uint64_t, UINT64_MAX)
PBJ__TR_UNSIGNED(fixed64, uint64_t, UINT64_MAX)
#undef PBJ__TR_SIGNED
#undef PBJ__TR_UNSIGNED

/* The field name for a value's error: the name read, an extension's last part. */
static inline int pbj__tr_short_name(const pbj_text_reader *r, const char **s)
{
    size_t i = r->name_len;
    if (r->name[0] != '[') {
        *s = r->name;
        return (int)i;
    }
    while (i > 1 && r->name[i - 1] != '.') i--;
    *s = r->name + i;
    return (int)(r->name_len - i - 1);
}

PBJ_OUTLINE bool pbj_text_read_bool(pbj_text_reader *r, bool *v) PBJ__PROTO
#if PBJ__BODIES
{
    if (r->kind == PBJ__TK_INT) {
        uint64_t x;
        if (!pbj__tr_uint(r, 1, &x)) return false;
        *v = x != 0;
        return true;
    }
    if (!pbj__tr_ident(r)) return false;
    static const char *const names[] = {"false", "False", "f", "true", "True", "t"};
    for (int i = 0; i < 6; i++)
        if (strlen(names[i]) == r->tok_len && memcmp(names[i], r->tok, r->tok_len) == 0) {
            *v = i >= 3;
            return pbj__tr_next(r);
        }
    const char *s;
    int n = pbj__tr_short_name(r, &s);
    char text[100];
    size_t len = r->tok_len < sizeof text ? r->tok_len : sizeof text;
    memcpy(text, r->tok, len);
    if (!pbj__tr_next(r)) return false;           /* protoc reports it at the token after */
    return PBJ__TR_FAIL(r, "Invalid value for boolean field \"%.*s\". Value: \"%.*s\".", n, s, (int)len, text);
}
#endif

/* An enum of e's type by name or number; a closed enum only takes the numbers it has. */
PBJ_OUTLINE bool pbj_text_read_enum(pbj_text_reader *r, int32_t *v, const pbj_enum *e) PBJ__PROTO
#if PBJ__BODIES
{
    const char *s;
    int n = pbj__tr_short_name(r, &s);
    char text[100];
    int len;
    if (r->kind == PBJ__TK_IDENT) {
        len = (int)(r->tok_len < sizeof text ? r->tok_len : sizeof text);
        memcpy(text, r->tok, (size_t)len);
        bool known = pbj_enum_value_named(e, r->tok, r->tok_len, v);
        if (!pbj__tr_next(r)) return false;
        if (known) return true;
    } else if (pbj__tr_is(r, '-') || r->kind == PBJ__TK_INT) {
        int64_t x;
        if (!pbj__tr_sint(r, INT32_MAX, &x)) return false;
        *v = (int32_t)x;
        if (!(e->flags & PBJ_E_CLOSED) || pbj_enum_find(e, *v)) return true;
        len = snprintf(text, sizeof text, "%d", (int)*v);
    } else return PBJ__TR_FAIL(r, "Expected integer or identifier, got: %.*s", PBJ__TR_TEXT(r));
    return PBJ__TR_FAIL(r, "Unknown enumeration value of \"%.*s\" for field \"%.*s\".", len, text, n, s);
}
#endif

/* The UTF-8 of code point c at o (a scalar value: the tokenizer refused surrogates and past 10ffff). */
static inline size_t pbj__tr_utf8(uint8_t *o, uint32_t c)
{
    if (c < 0x80) return o[0] = (uint8_t)c, 1;
    if (c < 0x800) return o[0] = (uint8_t)(0xc0 | c >> 6), o[1] = (uint8_t)(0x80 | (c & 0x3f)), 2;
    if (c < 0x10000) {
        o[0] = (uint8_t)(0xe0 | c >> 12);
        o[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3f));
        o[2] = (uint8_t)(0x80 | (c & 0x3f));
        return 3;
    }
    o[0] = (uint8_t)(0xf0 | c >> 18);
    o[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3f));
    o[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3f));
    o[3] = (uint8_t)(0x80 | (c & 0x3f));
    return 4;
}

/* A \u or \U escape at s (after the backslash): the code point's UTF-8 at o. */
static inline const char *pbj__tr_unicode(const char *s, uint8_t *o, size_t *n)
{
    int len = *s == 'u' ? 4 : 8;
    *n = pbj__tr_utf8(o, pbj__tr_hex_value(s + 1, len));
    return s + 1 + len;
}

/* The bytes of one string token (quotes and escapes as io::Tokenizer::ParseStringAppend) at o; returns their count. */
static inline size_t pbj__tr_unquote(const char *s, size_t len, uint8_t *o)
{
    const char *end = s + len - 1;               /* the closing quote */
    size_t n = 0;
    for (s++; s < end; s++) {
        if (*s != '\\') {
            o[n++] = (uint8_t)*s;
            continue;
        }
        s++;
        if (pbj__tr_octal(*s)) {
            int code = *s - '0';
            for (int i = 0; i < 2 && s + 1 < end && pbj__tr_octal(s[1]); i++) code = code * 8 + *++s - '0';
            o[n++] = (uint8_t)code;
        } else if (*s == 'x') {
            int code = 0;
            for (int i = 0; i < 2 && s + 1 < end && pbj__tr_hex(s[1]); i++) code = code * 16 + pbj__tr_digit_value(*++s);
            o[n++] = (uint8_t)code;
        } else if (*s == 'u' || *s == 'U') {
            size_t k;
            s = pbj__tr_unicode(s, o + n, &k) - 1;
            n += k;
        } else {
            static const char from[] = "abfnrtv", to[] = "\a\b\f\n\r\t\v";
            const char *e = strchr(from, *s);
            o[n++] = (uint8_t)(e ? to[e - from] : *s);
        }
    }
    return n;
}

/* ConsumeString: one or more string tokens, joined, into arena. */
PBJ_OUTLINE bool pbj__tr_string_value(pbj_text_reader *r, pbj_slice *v) PBJ__PROTO
#if PBJ__BODIES
{
    if (r->kind != PBJ__TK_STRING) return PBJ__TR_FAIL(r, "Expected string, got: %.*s", PBJ__TR_TEXT(r));
    pbj_text_reader look = *r;                   /* the tokens' total length: each string's bytes are fewer */
    size_t cap = 0;
    while (look.kind == PBJ__TK_STRING && look.st == PBJ_OK) {
        cap += look.tok_len;
        look.error = &look.own_error;            /* an error past the strings is reported when reached */
        pbj__tr_next(&look);
    }
    uint8_t *o = (uint8_t *)pbj_arena_alloc(r->arena, cap);
    if (!o) return pbj__tr_nomem(r), false;
    size_t n = 0;
    while (r->kind == PBJ__TK_STRING) {
        n += pbj__tr_unquote(r->tok, r->tok_len, o + n);
        if (!pbj__tr_next(r)) return false;
    }
    *v = pbj_slice_make(o, n);
    return true;
}
#endif

static inline bool pbj_text_read_bytes(pbj_text_reader *r, pbj_slice *v) { return pbj__tr_string_value(r, v); }
static inline bool pbj_text_read_string(pbj_text_reader *r, pbj_slice *v) { return pbj__tr_string_value(r, v); }

/* A proto3 string's bytes must be UTF-8. */
PBJ_OUTLINE bool pbj_text_read_utf8(pbj_text_reader *r, pbj_slice *v) PBJ__PROTO
#if PBJ__BODIES
{
    uint32_t line = r->tok_line, col = r->tok_col;
    if (!pbj__tr_string_value(r, v)) return false;
    if (pbj_utf8_valid(v->data, v->len)) return true;
    const char *s;
    int n = pbj__tr_short_name(r, &s);
    return pbj__tr_fail_at(r, PBJ_ERR_UTF8, line, col, "String field \"%.*s\" contains invalid UTF-8 data.", n, s);
}
#endif

/* ---- the end, Any -------------------------------------------------------------------------- */

/* After the top-level message: the status, with a missing required field's name when there is one. */
PBJ_OUTLINE pbj_status pbj__tr_finish(pbj_text_reader *r, const char *missing) PBJ__PROTO
#if PBJ__BODIES
{
    if (r->st == PBJ_OK && missing && !(r->o && r->o->partial))
        pbj__tr_fail_at(r, PBJ_ERR_REQUIRED, r->tok_line, r->tok_col, "Message missing required fields: %s", missing);
    return r->st;
}
#endif

/* ---- reading a message through its table (M_from_text) ---------------------------------------------------- */

PBJ_OUTLINE pbj_status pbj__tr_message(pbj_text_reader *r, const pbj_table *t, void *m);   /* recursive: below */

#if PBJ__BODIES   /* what the walk calls: only where its body is */

/* The table of the type named s[0..n) among r's Any types, or NULL. */
static inline const pbj_table *pbj__tr_find_type(const pbj_text_reader *r, const char *s, size_t n)
{
    for (size_t i = 0; r->o && i < r->o->type_count; i++) {
        const pbj_table *t = r->o->types[i];
        if (pbj__name_cmp(t->pool + t->name, s, n) == 0) return t;
    }
    return NULL;
}

/* A message of t's type in r's arena, made empty; NULL (r failed) when it cannot be had. */
static inline void *pbj__tr_new(pbj_text_reader *r, const pbj_table *t)
{
    void *m = pbj_arena_alloc(r->arena, t->size);
    if (!m) { pbj__tr_nomem(r); return NULL; }
    pbj__table_init(t, m);
    return m;
}

/* The fields of a message of t's type up to the closing delimiter, encoded into r's arena (an Any's value). */
static inline pbj_status pbj__tr_encoded(pbj_text_reader *r, const pbj_table *t, pbj_slice *out)
{
    void *m = pbj__tr_new(r, t);
    size_t n, len = 0;
    uint8_t *buf;
    if (!m) return r->st;
    if (pbj__tr_status(r, pbj__tr_message(r, t, m)) != PBJ_OK || pbj__tr_status(r, pbj_table_sort_maps(t, m, r->arena)) != PBJ_OK)
        return r->st;
    n = t->codec->size(m);
    if (!(buf = (uint8_t *)pbj_arena_alloc(r->arena, n ? n : 1))) return pbj__tr_nomem(r);
    if (pbj__tr_status(r, t->codec->encode(m, buf, n, &len)) != PBJ_OK) return r->st;
    *out = pbj_slice_make(buf, len);
    return PBJ_OK;
}

/* An Any's expanded form, [type.googleapis.com/pkg.M] { fields of pkg.M }: its type URL and encoded value. */
static inline pbj_status pbj__tr_any(pbj_text_reader *r, pbj_slice *type_url, pbj_slice *value)
{
    size_t n = r->name_len - 2;                   /* the URL, without the brackets */
    const char *slash = (const char *)memchr(r->name + 1, '/', n);
    size_t host = slash ? (size_t)(slash - r->name - 1) : 0;
    bool known_host = host == 19 && (memcmp(r->name + 1, "type.googleapis.com", 19) == 0 ||
                                     memcmp(r->name + 1, "type.googleprod.com", 19) == 0);
    const pbj_table *t = known_host ? pbj__tr_find_type(r, slash + 1, n - host - 1) : NULL;
    char close;
    pbj_slice out;
    if (!t) {
        PBJ__TR_FAIL(r, "Could not find type \"%.*s\" stored in google.protobuf.Any.", (int)n, r->name + 1);
        return r->st;
    }
    uint8_t *url = (uint8_t *)pbj_arena_alloc(r->arena, n);   /* the value's fields reuse r->name */
    if (!url) return pbj__tr_nomem(r);
    memcpy(url, r->name + 1, n);
    if (!pbj__tr_open(r, &close, true)) return r->st;
    if (pbj__tr_encoded(r, t, &out) != PBJ_OK || !pbj__tr_close(r, close)) return r->st;
    if (type_url->len || value->len) {           /* protoc checks once the value is read */
        PBJ__TR_FAIL(r, "Non-repeated Any specified multiple times.");
        return r->st;
    }
    *type_url = pbj_slice_make(url, n);
    *value = out;
    return PBJ_OK;
}

/* One value of f into v (its member's C type): false when it failed. */
static inline bool pbj__tr_value(pbj_text_reader *r, const pbj_field *f, void *v)
{
    switch (f->type) {
    case PBJ_TYPE_DOUBLE: return pbj_text_read_double(r, (double *)v);
    case PBJ_TYPE_FLOAT: return pbj_text_read_float(r, (float *)v);
    case PBJ_TYPE_INT64: case PBJ_TYPE_SINT64: case PBJ_TYPE_SFIXED64: return pbj_text_read_int64(r, (int64_t *)v);
    case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: return pbj_text_read_uint64(r, (uint64_t *)v);
    case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: return pbj_text_read_uint32(r, (uint32_t *)v);
    case PBJ_TYPE_BOOL: return pbj_text_read_bool(r, (bool *)v);
    case PBJ_TYPE_STRING: case PBJ_TYPE_BYTES:
        return f->flags & PBJ_F_UTF8 ? pbj_text_read_utf8(r, (pbj_slice *)v) : pbj__tr_string_value(r, (pbj_slice *)v);
    case PBJ_TYPE_ENUM: return pbj_text_read_enum(r, (int32_t *)v, f->en);
    default: return pbj_text_read_int32(r, (int32_t *)v);
    }
}

/* ':' and one value of f into the member at x. */
static inline bool pbj__tr_colon_value(pbj_text_reader *r, const pbj_field *f, uint8_t *x)
{
    union { double d; int64_t i; pbj_slice s; } v;
    if (!pbj__tr_colon(r) || !pbj__tr_value(r, f, &v)) return false;
    memcpy(x, &v, pbj__elem_size(f));
    return true;
}

/* One more element of f's array in m, made empty for a message: NULL (r failed) when it cannot grow. */
static inline uint8_t *pbj__tr_append(pbj_text_reader *r, const pbj_field *f, void *m)
{
    uint8_t *at = (uint8_t *)m + f->offset;
    size_t n = pbj__count_at(m, f->offset), size = pbj__elem_size(f);
    void *data = pbj__array_add(r->arena, (void *)(uintptr_t)pbj__ptr_at(m, f->offset), n, size);
    if (!data) { pbj__tr_nomem(r); return NULL; }
    memcpy(at, &data, sizeof data);
    n++;
    memcpy(at + sizeof(void *), &n, sizeof n);
    uint8_t *e = (uint8_t *)data + (n - 1) * size;
    if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) pbj__table_init(f->sub, e);
    return e;
}

/* The body of message e of sub's type after its opening delimiter, and its closing one. */
static inline bool pbj__tr_body(pbj_text_reader *r, const pbj_table *sub, void *e, char close)
{
    return pbj__tr_status(r, pbj__tr_message(r, sub, e)) == PBJ_OK && pbj__tr_close(r, close);
}

/* A repeated field's (or a map's) values: a list, or one; messages with an optional ':'. */
static inline pbj_status pbj__tr_repeated(pbj_text_reader *r, const pbj_field *f, void *m)
{
    bool message = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP;
    char close;
    if (message) pbj__tr_try(r, ':');
    else if (!pbj__tr_colon(r)) return r->st;
    for (int k = 0; pbj__tr_values(r, &k, true);) {
        uint8_t *e;
        if (message) {
            if (!pbj__tr_open(r, &close, false) || !(e = pbj__tr_append(r, f, m)) || !pbj__tr_body(r, f->sub, e, close)) return r->st;
        } else {
            union { double d; int64_t i; pbj_slice s; } v;
            if (!pbj__tr_value(r, f, &v) || !(e = pbj__tr_append(r, f, m))) return r->st;
            memcpy(e, &v, pbj__elem_size(f));
        }
    }
    return r->st;
}

/* A wrapper's type: google.protobuf.<Type>Value. */
static inline const char *pbj__tr_wrapper_name(const pbj_field *f)
{
    switch (f->type) {
    case PBJ_TYPE_DOUBLE: return "google.protobuf.DoubleValue";
    case PBJ_TYPE_FLOAT: return "google.protobuf.FloatValue";
    case PBJ_TYPE_INT64: return "google.protobuf.Int64Value";
    case PBJ_TYPE_UINT64: return "google.protobuf.UInt64Value";
    case PBJ_TYPE_UINT32: return "google.protobuf.UInt32Value";
    case PBJ_TYPE_BOOL: return "google.protobuf.BoolValue";
    case PBJ_TYPE_STRING: return "google.protobuf.StringValue";
    case PBJ_TYPE_BYTES: return "google.protobuf.BytesValue";
    default: return "google.protobuf.Int32Value";
    }
}

/* A wrapper's body { value: v }. */
static inline pbj_status pbj__tr_wrapper(pbj_text_reader *r, const pbj_field *f, void *m)
{
    uint8_t *x = (uint8_t *)m + f->offset;
    char close;
    if (!pbj__tr_open(r, &close, true)) return r->st;
    *((uint8_t *)m + f->presence) = 1;
    while (pbj__tr_field(r, false)) {                 /* the wrapper's one field, value */
        if (r->name_len != 5 || memcmp(r->name, "value", 5) != 0) return pbj__tr_unknown(r, pbj__tr_wrapper_name(f));
        if (pbj__text_nonzero(f, x)) return pbj__tr_twice(r);
        if (!pbj__tr_colon_value(r, f, x)) return r->st;
        pbj__tr_separator(r);
    }
    pbj__tr_close(r, close);
    return r->st;
}

/* Field f of t (not repeated) read into m: a second value refused. */
static inline pbj_status pbj__tr_single(pbj_text_reader *r, const pbj_table *t, const pbj_field *f, void *m)
{
    uint8_t *x = (uint8_t *)m + f->offset;
    bool message = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP;
    if (f->mode == PBJ_MODE_ONEOF) {
        uint32_t set = pbj__oneof_case(t, f, m);
        if (set) return set == f->number ? pbj__tr_twice(r)
                                         : pbj__tr_oneof_twice(r, pbj_table_name_of(t, set), t->pool + t->oneofs[f->presence].name);
    } else if (pbj__has_bit(f) ? *((uint8_t *)m + f->presence) != 0 : pbj__text_nonzero(f, x))
        return pbj__tr_twice(r);
    if (message) {
        char close;
        void *e = x;   /* held by value (PBJ_MODE_BY_VALUE), else made in the arena */
        if (!pbj__tr_open(r, &close, true)) return r->st;
        if (f->mode == PBJ_MODE_BY_VALUE) pbj__table_init(f->sub, x);
        else if (!(e = pbj__tr_new(r, f->sub))) return r->st;
        else memcpy(x, &e, sizeof e);
        if (!pbj__tr_body(r, f->sub, e, close)) return r->st;
    } else if (!pbj__tr_colon_value(r, f, x)) return r->st;
    if (pbj__has_bit(f)) *((uint8_t *)m + f->presence) = 1;
    if (f->mode == PBJ_MODE_ONEOF) {
        const pbj_oneof *o = &t->oneofs[f->presence];
        uint8_t *c = (uint8_t *)m + o->case_offset;
        uint8_t v8 = (uint8_t)f->number;
        uint16_t v16 = (uint16_t)f->number;
        if (o->case_size == 1) memcpy(c, &v8, 1);
        else if (o->case_size == 2) memcpy(c, &v16, 2);
        else memcpy(c, &f->number, 4);
    }
    return r->st;
}

/* The wire form of value v (its member's C type) of scalar extension f. */
static inline uint64_t pbj__tr_to_wire(const pbj_field *f, const void *v)
{
    union { double d; float f; int64_t i; uint64_t u; int32_t i32; uint32_t u32; bool b; } x;
    size_t n = pbj__elem_size(f);
    memcpy(&x, v, n < sizeof x ? n : sizeof x);   /* a scalar's: 1, 4 or 8 (bounded for gcc's -Wstringop-overflow) */
    switch (f->type) {
    case PBJ_TYPE_DOUBLE: return pbj_double_bits(x.d);
    case PBJ_TYPE_FLOAT: return pbj_float_bits(x.f);
    case PBJ_TYPE_INT64: case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: case PBJ_TYPE_SFIXED64: return x.u;
    case PBJ_TYPE_SINT64: return pbj_zigzag64(x.i);
    case PBJ_TYPE_SINT32: return pbj_zigzag32(x.i32);
    case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: return x.u32;
    case PBJ_TYPE_BOOL: return x.b;
    default: return (uint64_t)(int64_t)x.i32;
    }
}

/* A scalar's wire value w written at p (of wire type wt). */
static inline uint8_t *pbj__tr_put_wire(uint8_t *p, int wt, uint64_t w)
{
    return wt == PBJ_WT_I32 ? pbj_put_fixed32(p, (uint32_t)w) : wt == PBJ_WT_I64 ? pbj_put_fixed64(p, w) : pbj_put_varint(p, w);
}

static inline size_t pbj__tr_wire_size(int wt, uint64_t w)
{
    return wt == PBJ_WT_I32 ? 4 : wt == PBJ_WT_I64 ? 8 : pbj_varint_size(w);
}

/* The record of extension f holding value v (a message: encoded), in arena a: *rec, its length *n (JSON input's too). */
static inline pbj_status pbj__ext_record_of(pbj_arena *a, const pbj_field *f, const void *v, uint8_t **rec_out, size_t *n)
{
    int wt = pbj__ext_kind(f) & 7;
    bool message = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP, item = (f->flags & PBJ_F_ITEM) != 0;
    uint8_t tag[10], *rec, *p;
    size_t s = 0, tag_len = (size_t)(pbj_put_varint(tag, PBJ_TAG(f->number, wt)) - tag);
    uint64_t w = 0;
    pbj_slice b = {NULL, 0};
    if (message) {
        if ((s = f->sub->codec->size(v)) == PBJ_SIZE_ERROR) return PBJ_ERR_DEPTH;
        *n = item ? 4 + pbj_varint_size(f->number) + pbj_len_size(s) : wt == PBJ_WT_SGROUP ? 2 * tag_len + s : tag_len + pbj_len_size(s);
    } else if (wt == PBJ_WT_LEN) {
        memcpy(&b, v, sizeof b);
        *n = tag_len + pbj_len_size(b.len);
    } else {
        w = pbj__tr_to_wire(f, v);
        *n = tag_len + pbj__tr_wire_size(wt, w);
    }
    if (!(p = rec = (uint8_t *)pbj_arena_alloc(a, *n))) return PBJ_ERR_NOMEM;
    if (item) {                                 /* an item: group 1 { type_id = 2; message = 3 } */
        *p++ = 0x0b;
        *p++ = 0x10;
        p = pbj_put_varint(p, f->number);
        *p++ = 0x1a;
    } else p = (uint8_t *)memcpy(p, tag, tag_len) + tag_len;
    if (message) {
        size_t len;
        pbj_status st;
        if (wt != PBJ_WT_SGROUP) p = pbj_put_varint(p, s);
        if ((st = f->sub->codec->encode(v, p, s, &len)) != PBJ_OK) return st;
        p += s;
        if (item) *p++ = 0x0c;
        else if (wt == PBJ_WT_SGROUP) p = pbj_put_varint(p, PBJ_TAG(f->number, PBJ_WT_EGROUP));
    } else if (wt == PBJ_WT_LEN) p = pbj_put_bytes(p, b);
    else p = pbj__tr_put_wire(p, wt, w);
    *n = (size_t)(p - rec);
    *rec_out = rec;
    return PBJ_OK;
}

/* The same in r's arena, a failure kept in r: NULL then. */
static inline uint8_t *pbj__tr_ext_record(pbj_text_reader *r, const pbj_field *f, const void *v, size_t *n)
{
    uint8_t *rec = NULL;
    pbj_status st = pbj__ext_record_of(r->arena, f, v, &rec, n);
    if (st == PBJ_ERR_NOMEM) pbj__tr_nomem(r);
    else if (st != PBJ_OK) pbj__tr_status(r, st);
    return st == PBJ_OK ? rec : NULL;
}

/* The n wire values ws of packed extension f as its one record in the records ext, in arena a (JSON input's too). */
static inline pbj_status pbj__ext_packed_set(pbj_arena *a, const pbj_field *f, const uint64_t *ws, size_t n, pbj_slice *ext)
{
    int wt = pbj__ext_kind(f) & 7;
    uint8_t tag[10], *rec, *p;
    size_t s = 0, tag_len = (size_t)(pbj_put_varint(tag, PBJ_TAG(f->number, PBJ_WT_LEN)) - tag);
    for (size_t i = 0; i < n; i++) s += pbj__tr_wire_size(wt, ws[i]);
    if (!(p = rec = (uint8_t *)pbj_arena_alloc(a, tag_len + pbj_len_size(s)))) return PBJ_ERR_NOMEM;
    p = (uint8_t *)memcpy(p, tag, tag_len) + tag_len;
    p = pbj_put_varint(p, s);
    for (size_t i = 0; i < n; i++) p = pbj__tr_put_wire(p, wt, ws[i]);
    return pbj__ext_set(a, ext, f->number, rec, (size_t)(p - rec));
}

/* A packed extension's values: the ones it holds, then those read, as one packed record. */
static inline pbj_status pbj__tr_ext_packed(pbj_text_reader *r, const pbj_field *f, pbj_slice *ext)
{
    int kind = pbj__ext_kind(f);
    uint64_t w = 0, v[1];
    size_t n = pbj__ext_values(*ext, f->number, kind, NULL, (size_t)-1, &w);
    uint64_t *ws = n ? (uint64_t *)pbj__array_grow(r->arena, NULL, 0, n, sizeof *ws) : NULL;
    if (n && !ws) return pbj__tr_nomem(r);
    for (size_t i = 0; i < n; i++) {           /* earlier values first, as their C values write */
        pbj__ext_values(*ext, f->number, kind, NULL, i, &w);
        pbj__text_from_wire(f, w, v);
        ws[i] = pbj__tr_to_wire(f, v);
    }
    if (!pbj__tr_colon(r)) return r->st;
    for (int k = 0; pbj__tr_values(r, &k, true);) {
        if (!pbj__tr_value(r, f, v)) return r->st;
        if (!(ws = (uint64_t *)pbj__array_grow(r->arena, ws, n, 1, sizeof *ws))) return pbj__tr_nomem(r);
        ws[n++] = pbj__tr_to_wire(f, v);
    }
    if (r->st != PBJ_OK || !n) return r->st;
    pbj_status st = pbj__ext_packed_set(r->arena, f, ws, n, ext);
    return st == PBJ_ERR_NOMEM ? pbj__tr_nomem(r) : pbj__tr_status(r, st);
}

/* One value of extension f (a message's body after its delimiter) as a record in the extension records ext:
 * replacing (set) or after the others. */
static inline pbj_status pbj__tr_ext_value(pbj_text_reader *r, const pbj_field *f, pbj_slice *ext, bool set)
{
    bool message = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP;
    union { double d; int64_t i; pbj_slice s; } v;
    const void *x = &v;
    uint8_t *rec;
    size_t n;
    if (message) {
        char close;
        void *e;
        if (!pbj__tr_open(r, &close, true) || !(e = pbj__tr_new(r, f->sub)) || !pbj__tr_body(r, f->sub, e, close) ||
            pbj__tr_status(r, pbj_table_sort_maps(f->sub, e, r->arena)) != PBJ_OK)
            return r->st;
        x = e;
    } else if (!pbj__tr_value(r, f, &v)) return r->st;
    if (!(rec = pbj__tr_ext_record(r, f, x, &n))) return r->st;
    return pbj__tr_status(r, set ? pbj__ext_set(r->arena, ext, f->number, rec, n) : pbj__ext_insert(r->arena, ext, rec, n, f->number, false));
}

/* Extension f of a message whose records are ext. */
static inline pbj_status pbj__tr_ext(pbj_text_reader *r, const pbj_field *f, pbj_slice *ext)
{
    bool message = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP;
    if (f->mode != PBJ_MODE_REPEATED) {
        if (pbj__tr_ext_has(*ext, f->number)) return pbj__tr_twice(r);
        if (!message && !pbj__tr_colon(r)) return r->st;
        return pbj__tr_ext_value(r, f, ext, true);
    }
    if (f->flags & PBJ_F_PACKED) return pbj__tr_ext_packed(r, f, ext);
    if (message) pbj__tr_try(r, ':');
    else if (!pbj__tr_colon(r)) return r->st;
    for (int k = 0; pbj__tr_values(r, &k, true);) {
        if (message) {
            char close;
            void *e;
            uint8_t *rec;
            size_t n;
            if (!pbj__tr_open(r, &close, false) || !(e = pbj__tr_new(r, f->sub)) || !pbj__tr_body(r, f->sub, e, close) ||
                pbj__tr_status(r, pbj_table_sort_maps(f->sub, e, r->arena)) != PBJ_OK || !(rec = pbj__tr_ext_record(r, f, e, &n)) ||
                pbj__tr_status(r, pbj__ext_insert(r->arena, ext, rec, n, f->number, false)) != PBJ_OK)
                return r->st;
        } else if (pbj__tr_ext_value(r, f, ext, false) != PBJ_OK) return r->st;
    }
    return r->st;
}

/* The row named r->name among rows[0..n) (their names in pool), or NULL. */
static inline const pbj_field *pbj__tr_named(const pbj_text_reader *r, const char *pool, const pbj_field *rows, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)   /* an extension whose type the table cannot name: not one it reads */
        if (pbj__name_cmp(pool + rows[i].name, r->name, r->name_len) == 0 && !(rows[i].flags & PBJ_F_UNTYPED)) return &rows[i];
    return NULL;
}

/* After the fields: a map entry's absent message value is an empty message, as decode makes it. */
static inline pbj_status pbj__tr_entry_end(pbj_text_reader *r, const pbj_table *t, void *m)
{
    for (uint32_t i = 0; i < t->count; i++) {
        const pbj_field *f = &t->fields[i];
        void *e;
        if (f->mode != PBJ_MODE_ALWAYS || f->type != PBJ_TYPE_MESSAGE || pbj__ptr_at(m, f->offset)) continue;
        if (!(e = pbj__tr_new(r, f->sub))) return r->st;
        memcpy((uint8_t *)m + f->offset, &e, sizeof e);
    }
    return r->st;
}

#endif

/* Message m of t's type: its fields up to the end or the closing delimiter. */
PBJ_OUTLINE pbj_status pbj__tr_message(pbj_text_reader *r, const pbj_table *t, void *m) PBJ__PROTO
#if PBJ__BODIES
{
    bool any = t->count == 2 && strcmp(t->pool + t->name, "google.protobuf.Any") == 0;   /* [type URL] {...} */
    while (pbj__tr_field(r, any)) {
        const pbj_field *f = pbj__tr_named(r, t->pool, t->fields, t->count);
        if (f && (f->mode == PBJ_MODE_REPEATED || f->mode == PBJ_MODE_MAP)) {
            if (pbj__tr_repeated(r, f, m) != PBJ_OK) return r->st;
        } else if (f && f->mode == PBJ_MODE_WRAPPER) {
            if (*((uint8_t *)m + f->presence)) return pbj__tr_twice(r);
            if (pbj__tr_wrapper(r, f, m) != PBJ_OK) return r->st;
        } else if (f) {
            if (pbj__tr_single(r, t, f, m) != PBJ_OK) return r->st;
        } else if (any && r->name[0] == '[') {
            if (pbj__tr_any(r, (pbj_slice *)(void *)((uint8_t *)m + t->fields[0].offset),
                            (pbj_slice *)(void *)((uint8_t *)m + t->fields[1].offset)) != PBJ_OK)
                return r->st;
        } else if ((f = pbj__tr_named(r, t->pool, t->exts, t->ext_count)) != NULL) {
            if (pbj__tr_ext(r, f, (pbj_slice *)(void *)((uint8_t *)m + t->ext)) != PBJ_OK) return r->st;
        } else return pbj__tr_unknown(r, t->pool + t->name);
        pbj__tr_separator(r);
    }
    if (t->flags & PBJ_T_MAP_ENTRY) pbj__tr_entry_end(r, t, m);
    return r->st;
}

#endif

/* m, a message of t's type, read from the text format (M_from_text): cleared first, strings and arrays in
 * arena; PBJ_ERR_SYNTAX (o->error says where and why), PBJ_ERR_DEPTH, PBJ_ERR_UTF8, PBJ_ERR_REQUIRED,
 * PBJ_ERR_NOMEM; o may be NULL. */
PBJ_OUTLINE pbj_status pbj_table_from_text(const pbj_table *t, void *m, const char *text, size_t len, pbj_arena *arena,
                                           const pbj_text_read_options *o) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_text_reader r;
    pbj_text_reader_init(&r, text, len, arena, o);
    pbj__table_init(t, m);
    if (pbj__tr_status(&r, pbj__tr_message(&r, t, m)) != PBJ_OK || pbj__tr_status(&r, pbj_table_sort_maps(t, m, arena)) != PBJ_OK)
        return r.st;
    return pbj__tr_finish(&r, pbj_table_missing(t, m));
}
#endif

#ifdef __cplusplus
}
#endif

#endif
