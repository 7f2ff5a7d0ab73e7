/* pbj_text.h: text-format printing primitives whose output is byte-identical to protoc 3.21's `--decode`. */
#ifndef PBJ_TEXT_H
#define PBJ_TEXT_H

/*
 * M_print(m, t) is pbj_table_print(&M__table, m, t): the walk of M's field table at the end of this
 * header, over the primitives before it, which a user may call too.
 *
 * The sink is a pbj_text: a growable char buffer. It starts empty (heap,
 * grown through PBJ_MALLOC/PBJ_FREE, the runtime's hooks) or on a buffer the
 * caller owns (pbj_text_init_buffer: used until it is full, then the text
 * moves to the heap; the caller's buffer is never freed). The text is always
 * NUL-terminated. An allocation failure is sticky: t->failed is set, nothing
 * more is written, and the text holds what fit. pbj_text_free releases the
 * heap part. No FILE*: write t->data, t->len where you like.
 *
 * Field lines: pbj_text_int32(t, "name", v) writes "<indent>name: v\n".
 * Nested messages: pbj_text_open(t, "name") writes "<indent>name {\n" and
 * indents by two more spaces; pbj_text_close(t) writes "<indent>}\n".
 * Depth: a message nested t->max_depth levels below the one printed
 * (PBJ_TEXT_MAX_DEPTH, the decoder's default limit: what decodes with default
 * options prints; set t->max_depth after pbj_text_init for more, at most
 * PBJ_MAX_DEPTH_CAP) stops the text there, as an allocation failure does, and
 * M_print returns PBJ_ERR_DEPTH (PBJ_ERR_NOMEM for a failed allocation). A
 * hand-built cycle or a 100,000-deep chain gives a bounded text, not a stack
 * overflow (a chain d deep prints d * d bytes of indent: the limit bounds it).
 * Unknown fields: pbj_text_unknown(t, bytes, len) prints raw wire bytes as
 * protoc prints a message's UnknownFieldSet.
 *
 * Numbers follow protoc: floats "%.6g", or "%.9g" when that does not read
 * back (strtof, errno checked, as protobuf's safe_strtof); doubles "%.15g",
 * or "%.17g" when strtod does not give the value back; "inf", "-inf", "nan".
 * Printing assumes the C locale's '.' radix (protoc delocalizes; we do not
 * call setlocale, and neither should a program that wants protoc's text).
 */

#include "pbj_core.h"     /* PBJ_MALLOC/PBJ_FREE, PBJ_OUTLINE, pbj_status */
#include "pbj_table.h"    /* M_print walks M's table (below) */
#include "pbj_view.h"     /* and M_view_print a view of M through it */

/* M_print in each generated message's API (PBJ_MESSAGE, pbj_table.h): as protoc --decode prints it */
#undef PBJ__API_PRINT
#define PBJ__API_PRINT(M) static inline pbj_status M##_print(const M *m, pbj_text *t) { return pbj_table_print(&M##__table, m, t); }

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pbj_text {
    char *data;          /* the text, NUL-terminated ("" before the first write) */
    size_t len;          /* bytes of text, the NUL excluded */
    size_t cap;          /* bytes available at data, the NUL included */
    int depth;           /* nesting: each level indents two spaces */
    int max_depth;       /* deepest nesting M_print enters (PBJ_TEXT_MAX_DEPTH) */
    bool heap;           /* data came from PBJ_MALLOC (pbj_text_free releases it) */
    bool failed;         /* an allocation failed, or too_deep; the text is a prefix */
    bool too_deep;       /* a message nested deeper than max_depth */
} pbj_text;

/* Protoc's recursion budget for reading length-delimited unknown fields as messages. */
#define PBJ_TEXT_UNKNOWN_BUDGET 10
/* Deepest nesting of unknown groups printed (protobuf's default recursion limit). */
#define PBJ_TEXT_GROUP_DEPTH 100
/* The nesting M_print enters by default: the decoder's default limit. */
#ifndef PBJ_TEXT_MAX_DEPTH
#define PBJ_TEXT_MAX_DEPTH PBJ_DEFAULT_MAX_DEPTH
#endif
/* Enough for any number this header formats, NUL included. */
#define PBJ_TEXT_NUMBER_MAX 32

/* ---- the sink ------------------------------------------------------------ */

static inline void pbj_text_init(pbj_text *t) {
    static char empty[1];
    t->data = empty;
    t->len = 0;
    t->cap = 0;          /* the shared "" is never written to */
    t->depth = 0;
    t->max_depth = PBJ_TEXT_MAX_DEPTH;
    t->heap = false;
    t->failed = false;
    t->too_deep = false;
}

/* Write into buf[0..cap) first; the heap takes over when it is full. */
static inline void pbj_text_init_buffer(pbj_text *t, char *buf, size_t cap) {
    pbj_text_init(t);
    if (cap > 0) {
        buf[0] = '\0';
        t->data = buf;
        t->cap = cap;
    }
}

static inline void pbj_text_free(pbj_text *t) {
    if (t->heap) PBJ_FREE(t->data);
    pbj_text_init(t);
}

/* The text fails: nothing more is written. */
static inline void pbj__text_stop(pbj_text *t) {
    t->failed = true;
    t->cap = t->len + 1;     /* no room left */
}

/* Make room for n more bytes and the NUL; false (and t->failed) when it cannot. */
PBJ_OUTLINE bool pbj__text_grow(pbj_text *t, size_t n) PBJ__PROTO
#if PBJ__BODIES
{
    if (t->failed) return false;
    size_t need = t->len + n + 1;
    size_t cap = t->cap < 256 ? 256 : t->cap;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) { cap = need; break; }
        cap *= 2;
    }
    char *data = need < t->len ? NULL : (char *)PBJ_MALLOC(cap);   /* need < len: overflow */
    if (!data) {
        pbj__text_stop(t);
        return false;
    }
    memcpy(data, t->data, t->len + 1);
    if (t->heap) PBJ_FREE(t->data);
    t->data = data;
    t->cap = cap;
    t->heap = true;
    return true;
}
#endif

static inline void pbj_text_put(pbj_text *t, const char *s, size_t n) {
    if (n == 0) return;
    if (t->cap - t->len <= n && !pbj__text_grow(t, n)) return;
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

static inline void pbj_text_puts(pbj_text *t, const char *s) {
    pbj_text_put(t, s, strlen(s));
}

static inline void pbj_text_indent(pbj_text *t) {
    static const char spaces[] = "                                ";
    size_t n = (size_t)(t->depth > 0 ? t->depth : 0) * 2;
    for (; n > sizeof spaces - 1; n -= sizeof spaces - 1)
        pbj_text_put(t, spaces, sizeof spaces - 1);
    pbj_text_put(t, spaces, n);
}

/* "<indent>name: " */
static inline void pbj_text_name(pbj_text *t, const char *name) {
    pbj_text_indent(t);
    pbj_text_puts(t, name);
    pbj_text_put(t, ": ", 2);
}

/* ---- values (no indent, no newline) ------------------------------------- */

/* v's decimal digits (as "%llu" writes them) ending just before end; returns where they start (at most 20 bytes
 * before end). Two digits at a time from a table: no printf in the JSON and text writers' numbers. */
static inline char *pbj__text_digits(char *end, uint64_t v) {
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    while (v >= 100) {
        const char *d = pairs + 2 * (v % 100);
        v /= 100;
        *--end = d[1];
        *--end = d[0];
    }
    if (v >= 10) {
        *--end = pairs[2 * v + 1];
        *--end = pairs[2 * v];
    } else {
        *--end = (char)('0' + v);
    }
    return end;
}

/* v as "%lld" writes it, ending just before end; returns where it starts (at most 20 bytes before end). */
static inline char *pbj__text_signed_digits(char *end, int64_t v) {
    char *s = pbj__text_digits(end, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
    if (v < 0) *--s = '-';
    return s;
}

static inline void pbj_text_put_int64(pbj_text *t, int64_t v) {
    char buf[PBJ_TEXT_NUMBER_MAX];
    char *s = pbj__text_signed_digits(buf + sizeof buf, v);
    pbj_text_put(t, s, (size_t)(buf + sizeof buf - s));
}

static inline void pbj_text_put_uint64(pbj_text *t, uint64_t v) {
    char buf[PBJ_TEXT_NUMBER_MAX];
    char *s = pbj__text_digits(buf + sizeof buf, v);
    pbj_text_put(t, s, (size_t)(buf + sizeof buf - s));
}

static inline void pbj_text_put_bool(pbj_text *t, bool v) {
    if (v) pbj_text_put(t, "true", 4);
    else pbj_text_put(t, "false", 5);
}

/* Protobuf's SimpleDtoa into buf (PBJ_TEXT_NUMBER_MAX bytes); returns the length. */
static inline size_t pbj_text_format_double(char *buf, double v) {
    if (isnan(v)) return (size_t)snprintf(buf, PBJ_TEXT_NUMBER_MAX, "nan");
    if (isinf(v)) return (size_t)snprintf(buf, PBJ_TEXT_NUMBER_MAX, v < 0 ? "-inf" : "inf");
    int n = snprintf(buf, PBJ_TEXT_NUMBER_MAX, "%.15g", v);
    if (strtod(buf, NULL) != v) n = snprintf(buf, PBJ_TEXT_NUMBER_MAX, "%.17g", v);
    return (size_t)n;
}

/* Protobuf's SimpleFtoa: its safe_strtof fails on ERANGE (e.g. subnormals). */
static inline size_t pbj_text_format_float(char *buf, float v) {
    if (isnan(v)) return (size_t)snprintf(buf, PBJ_TEXT_NUMBER_MAX, "nan");
    if (isinf(v)) return (size_t)snprintf(buf, PBJ_TEXT_NUMBER_MAX, v < 0 ? "-inf" : "inf");
    int n = snprintf(buf, PBJ_TEXT_NUMBER_MAX, "%.6g", (double)v);
    int saved = errno;
    errno = 0;
    float back = strtof(buf, NULL);
    if (errno != 0 || back != v) n = snprintf(buf, PBJ_TEXT_NUMBER_MAX, "%.9g", (double)v);
    errno = saved;
    return (size_t)n;
}

static inline void pbj_text_put_double(pbj_text *t, double v) {
    char buf[PBJ_TEXT_NUMBER_MAX];
    pbj_text_put(t, buf, pbj_text_format_double(buf, v));
}

static inline void pbj_text_put_float(pbj_text *t, float v) {
    char buf[PBJ_TEXT_NUMBER_MAX];
    pbj_text_put(t, buf, pbj_text_format_float(buf, v));
}

/* '"', then bytes escaped as protobuf's CEscape does, then '"'. */
static inline void pbj_text_put_quoted(pbj_text *t, const void *data, size_t len) {
    const unsigned char *s = (const unsigned char *)data;
    size_t run = 0;                            /* bytes of s[i - run, i) to copy as they are */
    pbj_text_put(t, "\"", 1);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        char esc[5];
        size_t n = 2;
        esc[0] = '\\';
        switch (c) {
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        case '"': esc[1] = '"'; break;
        case '\'': esc[1] = '\''; break;
        case '\\': esc[1] = '\\'; break;
        default:
            if (c >= 0x20 && c < 0x7f) { run++; continue; }
            esc[1] = (char)('0' + (c >> 6));   /* octal \ooo */
            esc[2] = (char)('0' + ((c >> 3) & 7));
            esc[3] = (char)('0' + (c & 7));
            n = 4;
        }
        pbj_text_put(t, (const char *)s + i - run, run);
        run = 0;
        pbj_text_put(t, esc, n);
    }
    if (run)   /* s may be NULL when len is 0: no pointer arithmetic on it then */
        pbj_text_put(t, (const char *)s + len - run, run);
    pbj_text_put(t, "\"", 1);
}

/* ---- field lines: "<indent>name: value\n" -------------------------------- */

/* pbj_text_int64, _uint64, _bool, _double, _float: one field line each */
#define PBJ__TEXT_LINE(kind, type)                                                 \
    static inline void pbj_text_##kind(pbj_text *t, const char *name, type v) {    \
        pbj_text_name(t, name);                                                    \
        pbj_text_put_##kind(t, v);                                                 \
        pbj_text_put(t, "\n", 1);                                                  \
    }
PBJ__TEXT_LINE(int64, int64_t)
PBJ__TEXT_LINE(uint64, uint64_t)
PBJ__TEXT_LINE(bool, bool)
PBJ__TEXT_LINE(double, double)
PBJ__TEXT_LINE(float, float)
#undef PBJ__TEXT_LINE

/* int32, sint32, sfixed32 */
static inline void pbj_text_int32(pbj_text *t, const char *name, int32_t v) {
    pbj_text_int64(t, name, v);
}

/* uint32, fixed32 */
static inline void pbj_text_uint32(pbj_text *t, const char *name, uint32_t v) {
    pbj_text_uint64(t, name, v);
}

/* string and bytes print alike: quoted, CEscape'd */
static inline void pbj_text_string(pbj_text *t, const char *name, const void *data, size_t len) {
    pbj_text_name(t, name);
    pbj_text_put_quoted(t, data, len);
    pbj_text_put(t, "\n", 1);
}

static inline void pbj_text_bytes(pbj_text *t, const char *name, const void *data, size_t len) {
    pbj_text_string(t, name, data, len);
}

/* An enum by its value's name, or by number when value_name is NULL (an unknown value). */
static inline void pbj_text_enum(pbj_text *t, const char *name, int32_t v, const char *value_name) {
    if (!value_name) {
        pbj_text_int32(t, name, v);
        return;
    }
    pbj_text_name(t, name);
    pbj_text_puts(t, value_name);
    pbj_text_put(t, "\n", 1);
}

/* "<indent>name {\n", one level deeper */
static inline void pbj_text_open(pbj_text *t, const char *name) {
    pbj_text_indent(t);
    pbj_text_puts(t, name);
    pbj_text_put(t, " {\n", 3);
    t->depth++;
}

/* One level up, "<indent>}\n" */
static inline void pbj_text_close(pbj_text *t) {
    t->depth--;
    pbj_text_indent(t);
    pbj_text_put(t, "}\n", 2);
}

/* Whether M_print may print a message at t's depth: false when the text has failed
 * or the message lies more than t->max_depth levels below the one printed (as decode's
 * max_depth counts: then too_deep, and nothing more is written). */
static inline bool pbj_text_enter(pbj_text *t) {
    int max = t->max_depth < PBJ_MAX_DEPTH_CAP ? t->max_depth : PBJ_MAX_DEPTH_CAP;
    if (t->depth > max && !t->failed) {
        t->too_deep = true;
        pbj__text_stop(t);
    }
    return !t->failed;
}

/* PBJ_ERR_DEPTH, PBJ_ERR_NOMEM or PBJ_OK, for what M_print returns. */
static inline pbj_status pbj_text_status(const pbj_text *t) {
    return t->too_deep ? PBJ_ERR_DEPTH : t->failed ? PBJ_ERR_NOMEM : PBJ_OK;
}

/* ---- unknown fields -------------------------------------------------------- */

/* A varint of at most 10 bytes (more bits than 64 are dropped, as protobuf's
 * CodedInputStream does); false when it runs past end or is longer. */
static inline bool pbj__text_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v) {
    const uint8_t *p = *pp;
    uint64_t x = 0;
    for (int i = 0; i < 10; i++) {
        if (p == end) return false;
        uint8_t b = *p++;
        x |= (uint64_t)(b & 0x7f) << (7 * i);   /* i <= 9: bits past 64 drop */
        if (!(b & 0x80)) {
            *pp = p;
            *v = x;
            return true;
        }
    }
    return false;
}

static inline uint64_t pbj__text_le(const uint8_t *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* Skips fields as protobuf's WireFormat::SkipMessage does, with depth groups
 * allowed inside. Stops at the end (*end_tag = 0) or after an end-group tag
 * (*end_tag = that tag, *tag_at = where it starts). False when malformed. */
static inline bool pbj__text_skip_fields(const uint8_t **pp, const uint8_t *end, int depth,
                                         uint32_t *end_tag, const uint8_t **tag_at) {
    const uint8_t *p = *pp;
    for (;;) {
        uint64_t v;
        *tag_at = p;
        if (p == end) {
            *end_tag = 0;
            *pp = p;
            return true;
        }
        if (!pbj__text_varint(&p, end, &v)) return false;
        uint32_t tag = (uint32_t)v;               /* tags keep their low 32 bits */
        if (tag == 0) return false;
        if ((tag & 7) == 4) {
            *end_tag = tag;
            *pp = p;
            return true;
        }
        if (tag >> 3 == 0) return false;
        switch (tag & 7) {
        case 0:
            if (!pbj__text_varint(&p, end, &v)) return false;
            break;
        case 1:
            if (end - p < 8) return false;
            p += 8;
            break;
        case 5:
            if (end - p < 4) return false;
            p += 4;
            break;
        case 2:
            if (!pbj__text_varint(&p, end, &v)) return false;
            if ((uint32_t)v > INT32_MAX || (uint32_t)v > (size_t)(end - p)) return false;
            p += (uint32_t)v;
            break;
        case 3: {
            uint32_t inner_end;
            const uint8_t *inner_at;
            if (depth <= 0) return false;
            if (!pbj__text_skip_fields(&p, end, depth - 1, &inner_end, &inner_at)) return false;
            if (inner_end != ((tag >> 3) << 3 | 4)) return false;
            break;
        }
        default:
            return false;
        }
    }
}

/* Whether protoc reads these bytes as a message (UnknownFieldSet::ParseFromCodedStream
 * with the given recursion limit). */
static inline bool pbj__text_is_message(const uint8_t *p, size_t len, int budget) {
    uint32_t end_tag;
    const uint8_t *tag_at;
    return pbj__text_skip_fields(&p, p + len, budget, &end_tag, &tag_at) && end_tag == 0;
}

static inline void pbj__text_unknown_number(pbj_text *t, uint32_t number) {
    pbj_text_indent(t);
    pbj_text_put_uint64(t, number);
}

/* Prints fields up to end, with protoc's recursion budget; stops at anything malformed. */
static inline void pbj__text_unknown_fields(pbj_text *t, const uint8_t *p, const uint8_t *end, int budget) {
    while (p < end) {
        uint64_t v;
        char buf[PBJ_TEXT_NUMBER_MAX];
        if (!pbj__text_varint(&p, end, &v)) return;
        uint32_t tag = (uint32_t)v, number = tag >> 3;
        if (number == 0) return;
        switch (tag & 7) {
        case 0:
            if (!pbj__text_varint(&p, end, &v)) return;
            pbj__text_unknown_number(t, number);
            pbj_text_put(t, ": ", 2);
            pbj_text_put_uint64(t, v);
            pbj_text_put(t, "\n", 1);
            break;
        case 1:
        case 5: {
            int size = (tag & 7) == 1 ? 8 : 4;
            if (end - p < size) return;
            v = pbj__text_le(p, size);
            p += size;
            pbj__text_unknown_number(t, number);
            if (size == 8) pbj_text_put(t, buf, (size_t)snprintf(buf, sizeof buf, ": 0x%016llx\n", (unsigned long long)v));
            else pbj_text_put(t, buf, (size_t)snprintf(buf, sizeof buf, ": 0x%08lx\n", (unsigned long)(uint32_t)v));
            break;
        }
        case 2: {
            if (!pbj__text_varint(&p, end, &v)) return;
            size_t len = (uint32_t)v;
            if (len > (size_t)(end - p)) return;
            pbj__text_unknown_number(t, number);
            if (len > 0 && budget > 0 && pbj__text_is_message(p, len, budget)) {
                pbj_text_put(t, " {\n", 3);
                t->depth++;
                pbj__text_unknown_fields(t, p, p + len, budget - 1);
                pbj_text_close(t);
            } else {
                pbj_text_put(t, ": ", 2);
                pbj_text_put_quoted(t, p, len);
                pbj_text_put(t, "\n", 1);
            }
            p += len;
            break;
        }
        case 3: {
            const uint8_t *body = p, *body_end;
            uint32_t end_tag;
            if (!pbj__text_skip_fields(&p, end, PBJ_TEXT_GROUP_DEPTH, &end_tag, &body_end)) return;
            if (end_tag != (number << 3 | 4)) return;
            pbj__text_unknown_number(t, number);
            pbj_text_put(t, " {\n", 3);
            t->depth++;
            pbj__text_unknown_fields(t, body, body_end, budget - 1);
            pbj_text_close(t);
            break;
        }
        default:
            return;
        }
    }
}

/* A message's unknown fields, kept as raw wire bytes, as protoc prints them:
 * "N: varint", "N: 0x%08x" (fixed32), "N: 0x%016x" (fixed64), "N { ... }"
 * for groups and for length-delimited values that parse as a message, else
 * "N: \"escaped\"". */
static inline void pbj_text_unknown(pbj_text *t, const void *data, size_t len) {
    const uint8_t *p = (const uint8_t *)data;
    pbj__text_unknown_fields(t, p, p + len, PBJ_TEXT_UNKNOWN_BUDGET);
}

/* ---- printing a message through its table (M_print, M_view_print's messages) ----------------------------- */

PBJ_OUTLINE pbj_status pbj__table_print(const pbj_table *tb, const void *m, pbj_text *t);   /* recursive: below */

#if PBJ__BODIES   /* what the walk calls: only where its body is */

/* One value of type f->type at p (the member's bytes), no name, no newline. */
static inline void pbj__text_put_value(pbj_text *t, const pbj_field *f, const void *p)
{
    union { double d; float f; int64_t i; uint64_t u; int32_t i32; uint32_t u32; bool b; pbj_slice s; } v;
    switch (f->type) {
    case PBJ_TYPE_DOUBLE: memcpy(&v.d, p, 8); pbj_text_put_double(t, v.d); return;
    case PBJ_TYPE_FLOAT: memcpy(&v.f, p, 4); pbj_text_put_float(t, v.f); return;
    case PBJ_TYPE_INT64: case PBJ_TYPE_SINT64: case PBJ_TYPE_SFIXED64: memcpy(&v.i, p, 8); pbj_text_put_int64(t, v.i); return;
    case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: memcpy(&v.u, p, 8); pbj_text_put_uint64(t, v.u); return;
    case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: memcpy(&v.u32, p, 4); pbj_text_put_uint64(t, v.u32); return;
    case PBJ_TYPE_BOOL: memcpy(&v.b, p, sizeof v.b); pbj_text_put_bool(t, v.b); return;
    case PBJ_TYPE_STRING: case PBJ_TYPE_BYTES: memcpy(&v.s, p, sizeof v.s); pbj_text_put_quoted(t, pbj_slice_data(v.s), v.s.len); return;
    case PBJ_TYPE_ENUM: {
        const char *name;
        memcpy(&v.i32, p, 4);
        if (f->en && (name = pbj_enum_name(f->en, v.i32)) != NULL) pbj_text_puts(t, name);
        else pbj_text_put_int64(t, v.i32);
        return;
    }
    default: memcpy(&v.i32, p, 4); pbj_text_put_int64(t, v.i32); return;
    }
}

/* "<indent>name: value\n" */
static inline void pbj__text_line(pbj_text *t, const char *name, const pbj_field *f, const void *p)
{
    pbj_text_name(t, name);
    pbj__text_put_value(t, f, p);
    pbj_text_put(t, "\n", 1);
}

/* Whether the value at p is not zero (proto3's presence; a message's: not NULL). */
static inline bool pbj__text_nonzero(const pbj_field *f, const uint8_t *p)
{
    size_t n = pbj__elem_size(f);
    if (f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES) return pbj__count_at(p, 0) != 0;
    if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) n = sizeof(void *);
    for (size_t i = 0; i < n; i++)
        if (p[i]) return true;
    return false;
}


/* "<indent>name {\n", message m of sub's type (none when NULL), "<indent>}\n" */
static inline void pbj__text_message(pbj_text *t, const char *name, const pbj_table *sub, const void *m)
{
    pbj_text_open(t, name);
    if (m) (void)pbj__table_print(sub, m, t);
    pbj_text_close(t);
}

/* Field f of m, as the generated printers printed each shape. */
static inline void pbj__text_field(pbj_text *t, const pbj_table *tb, const pbj_field *f, const void *m)
{
    const char *name = tb->pool + f->name;
    const uint8_t *x = pbj__at(m, f->offset);
    bool message = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP;
    switch (f->mode) {
    case PBJ_MODE_REPEATED: case PBJ_MODE_MAP: {
        size_t n = pbj__count_at(m, f->offset), size = pbj__elem_size(f);
        const uint8_t *d = (const uint8_t *)pbj__ptr_at(m, f->offset);
        for (size_t i = 0; i < n; i++) {
            if (message) pbj__text_message(t, name, f->sub, d + i * size);
            else pbj__text_line(t, name, f, d + i * size);
        }
        return;
    }
    case PBJ_MODE_WRAPPER:
        if (!*pbj__at(m, f->presence)) return;
        pbj_text_open(t, name);
        if (pbj__text_nonzero(f, x)) pbj__text_line(t, "value", f, x);
        pbj_text_close(t);
        return;
    case PBJ_MODE_ONEOF:
        if (pbj__oneof_case(tb, f, m) != f->number) return;
        break;
    case PBJ_MODE_OPTIONAL: case PBJ_MODE_BY_VALUE:
        if ((!message || f->mode == PBJ_MODE_BY_VALUE) && !*pbj__at(m, f->presence)) return;
        break;
    case PBJ_MODE_IMPLICIT:
        if (!pbj__text_nonzero(f, x)) return;
        break;
    default:
        break;
    }
    if (message) pbj__text_message(t, name, f->sub, pbj__sub_of(f, m));
    else pbj__text_line(t, name, f, x);
}

/* The wire value v of an extension of f's type as its member would hold it, at p. */
static inline void pbj__text_from_wire(const pbj_field *f, uint64_t v, void *p)
{
    union { double d; float f; int64_t i; uint64_t u; int32_t i32; uint32_t u32; bool b; } x;
    size_t n = 4;
    switch (f->type) {
    case PBJ_TYPE_DOUBLE: x.d = pbj_bits_double(v), n = 8; break;
    case PBJ_TYPE_FLOAT: x.f = pbj_bits_float((uint32_t)v); break;
    case PBJ_TYPE_SINT64: x.i = pbj_unzigzag64(v), n = 8; break;
    case PBJ_TYPE_INT64: case PBJ_TYPE_SFIXED64: x.i = (int64_t)v, n = 8; break;
    case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: x.u = v, n = 8; break;
    case PBJ_TYPE_SINT32: x.i32 = pbj_unzigzag32((uint32_t)v); break;
    case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: x.u32 = (uint32_t)v; break;
    case PBJ_TYPE_BOOL: x.b = v != 0, n = sizeof x.b; break;
    default: x.i32 = (int32_t)v; break;
    }
    memcpy(p, &x, n);
}

/* The values of record r of scalar extension f (packed or not; a closed enum's only its known ones), printed
 * when print; returns how many. */
static inline size_t pbj__text_ext_values(pbj_text *t, const char *name, const pbj_field *f, const pbj__ext_rec *r, bool print)
{
    int kind = pbj__ext_kind(f), wt = kind & 7;
    const uint8_t *p = r->payload, *end = r->end;
    uint64_t len;
    size_t k = 0;
    if (!pbj__ext_fits(r->tag, kind) || pbj__ext_check(r, kind) != PBJ_OK) return 0;
    if ((int)(r->tag & 7) != wt) p = pbj_get_varint(p, end, &len);     /* packed */
    while (p < end) {
        uint64_t x;
        if (wt == PBJ_WT_I32) x = pbj_load_le32(p), p += 4;
        else if (wt == PBJ_WT_I64) x = pbj_load_le64(p), p += 8;
        else p = pbj_get_varint(p, end, &x);
        if (!(f->flags & PBJ_F_CLOSED_ENUM) || pbj_enum_find(f->en, (int32_t)x)) {
            k++;
            if (print) {
                uint64_t v[1];
                pbj__text_from_wire(f, x, v);
                pbj__text_line(t, name, f, v);
            }
        }
        if ((r->tag & 7) != PBJ_WT_LEN) break;
    }
    return k;
}

/* Record r of message extension f, decoded and printed: false when it does not decode (printed raw then). */
static inline bool pbj__text_ext_message(pbj_text *t, const char *name, const pbj_field *f, const pbj__ext_rec *r)
{
    pbj_slice one = pbj_slice_make(r->start, (size_t)(r->end - r->start)), s;
    pbj_arena a;
    pbj_decoder d;
    pbj_status st = PBJ_ERR_NOMEM;
    void *x;
    if (!pbj__ext_payloads(one, r->number, pbj__ext_kind(f), 0, &s)) return false;
    pbj_arena_init(&a, NULL, 0);
    pbj_decoder_init(&d, &a, NULL);
    if ((x = pbj_arena_alloc(&a, f->sub->size)) != NULL) {
        pbj__table_init(f->sub, x);
        st = f->sub->codec->decode(x, s.data, s.data + s.len, &d);
    } else pbj__text_stop(t);
    if (st == PBJ_OK) pbj__text_message(t, name, f->sub, x);
    pbj_arena_free(&a);
    return st == PBJ_OK || !x;
}

PBJ_INLINE bool pbj__view_ext_message(pbj_text *t, const char *name, const pbj_field *f, const pbj__ext_rec *r);   /* below */

/* Record r of scalar, string or message extension f printed by name (a message decoded, or read through its view
 * when view): false when it does not print so (then it prints as an unknown field). */
static inline bool pbj__text_ext_named(pbj_text *t, const char *name, const pbj_field *f, const pbj__ext_rec *r, bool view)
{
    if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP)
        return view ? pbj__view_ext_message(t, name, f, r) : pbj__text_ext_message(t, name, f, r);
    if (f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES) {
        pbj_slice s;
        if (!pbj__ext_payloads(pbj_slice_make(r->start, (size_t)(r->end - r->start)), r->number, pbj__ext_kind(f), 0, &s))
            return false;
        pbj__text_line(t, name, f, &s);
        return true;
    }
    if (!pbj__text_ext_values(t, name, f, r, false)) return false;
    pbj__text_ext_values(t, name, f, r, true);
    return true;
}

/* The extension records of m numbered lo to hi, by name when tb knows them, else as unknown fields. */
static inline void pbj__text_exts(pbj_text *t, const pbj_table *tb, const void *m, uint32_t lo, uint32_t hi)
{
    pbj_slice ext;
    size_t pos = 0;
    pbj__ext_rec r;
    memcpy(&ext, pbj__at(m, tb->ext), sizeof ext);
    while (pbj__ext_next(ext, &pos, &r)) {
        if (r.number < lo || r.number > hi) continue;
        const pbj_field *f = pbj_table_ext(tb, r.number);
        if (!f || !pbj__text_ext_named(t, tb->pool + f->name, f, &r, false)) pbj_text_unknown(t, r.start, (size_t)(r.end - r.start));
    }
}

/* Where extension ranges from *k on come among the fields: the run of ranges starting before number (all that
 * are left at UINT32_MAX) as [*lo, *hi], *k past them; false when none starts there. */
static inline bool pbj__text_ext_run(const pbj_table *tb, uint32_t *k, uint32_t number, uint32_t *lo, uint32_t *hi)
{
    const uint32_t *rg = tb->ext_ranges;
    if (*k >= tb->ext_range_count || rg[2 * *k] > number) return false;
    *lo = rg[2 * *k], *hi = rg[2 * *k + 1];
    for (++*k; *k < tb->ext_range_count && (rg[2 * *k] < number || number == UINT32_MAX); ++*k) *hi = rg[2 * *k + 1];
    return true;
}

#endif

/* Message m of tb's type, its fields in number order, extensions among them, then its unknown fields. */
PBJ_OUTLINE pbj_status pbj__table_print(const pbj_table *tb, const void *m, pbj_text *t) PBJ__PROTO
#if PBJ__BODIES
{
    uint32_t k = 0, lo, hi;
    if (!pbj_text_enter(t)) return pbj_text_status(t);
    for (uint32_t i = 0; i < tb->count; i++) {
        if (pbj__text_ext_run(tb, &k, tb->fields[i].number, &lo, &hi)) pbj__text_exts(t, tb, m, lo, hi);
        pbj__text_field(t, tb, &tb->fields[i], m);
    }
    if (pbj__text_ext_run(tb, &k, UINT32_MAX, &lo, &hi)) pbj__text_exts(t, tb, m, lo, hi);
    if (tb->unknown != PBJ_TABLE_NONE) {
        const pbj_slice *u;
        memcpy(&u, pbj__at(m, tb->unknown), sizeof u);
        if (u && u->len) pbj_text_unknown(t, u->data, u->len);
    }
    return pbj_text_status(t);
}
#endif

/* m, a message of t's type, in the text format protoc --decode prints (M_print): PBJ_OK, PBJ_ERR_DEPTH past
 * out->max_depth, PBJ_ERR_NOMEM. */
static inline pbj_status pbj_table_print(const pbj_table *t, const void *m, pbj_text *out)
{
    return pbj__table_print(t, m, out);
}

/* ---- printing a view through its table (M_view_print) ------------------------------------------------------ */

/* A view (M_view, rt/pbj_view.h) is read where its table's view layout says (pbj_view_layout, rt/pbj_table.h):
 * each field's slot, each oneof's case, the records of its extension ranges. It prints what the records it reads
 * hold, as M_print prints the fields it reads: a singular field's last record (a message's last, not merged), a
 * repeated field's values in the order written (a closed enum's known ones), the extensions the run knew in number
 * order (a singular one's last record, those whose type is out of scope as unknown fields), no unknown fields. A
 * nested message's view is made on the stack as its accessor makes it (its layout's visit): one that does not
 * scan prints empty, and ends its repeated field. */

PBJ_OUTLINE void pbj__view_print(const pbj_table *tb, const void *view, pbj_text *t);   /* recursive: below */

#if PBJ__BODIES

/* What a nested view is printed with: its table, the text, the name it prints under (NULL: none). */
typedef struct pbj__view_ctx {
    const pbj_table *tb;
    pbj_text *t;
    const char *name;
} pbj__view_ctx;

static inline void pbj__view_visited(const void *view, void *ctx)
{
    const pbj__view_ctx *c = (const pbj__view_ctx *)ctx;
    if (c->name) pbj_text_open(c->t, c->name);
    pbj__view_print(c->tb, view, c->t);
    if (c->name) pbj_text_close(c->t);
}

/* [buf, buf + len) read as a view of sub's type at depth and printed ("name { ... }" when name): the scan's status
 * (a type another run generated without views: PBJ_ERR_TAG, as bytes no view reads). */
static inline pbj_status pbj__view_sub(pbj_text *t, const char *name, const pbj_table *sub, const uint8_t *buf, size_t len,
                                       const uint8_t *limit, uint32_t depth)
{
    pbj__view_ctx c;
    c.tb = sub, c.t = t, c.name = name;
    return sub->view ? sub->view->visit(buf, len, limit, depth, pbj__view_visited, &c) : PBJ_ERR_TAG;
}

/* Repeated field f (REPEATED, MAP) of view v, its records from slot s on: numbers (packed or not; a closed enum's
 * known ones), strings, or messages up to the first whose view does not scan. */
static inline void pbj__view_items(pbj_text *t, const char *name, const pbj_field *f, const pbj_view *v, const pbj_view_slot *s)
{
    uint32_t tag = PBJ_TAG(f->number, pbj__type_wire(f->type)), one = tag < 0x80 ? tag : 0;
    bool message = pbj__is_message(f), number = !message && !pbj__is_slice(f);
    pbj_view_iter it = pbj_view_items(v, s, tag, number ? PBJ_TAG(f->number, PBJ_WT_LEN) : 0);
    const uint8_t *at;
    size_t len;
    uint64_t w;
    while (number && pbj_view_next_value(&it, &w)) {
        uint64_t x[1] = {0};
        if ((f->flags & PBJ_F_CLOSED_ENUM) && f->en && !pbj_enum_find(f->en, (int32_t)w)) continue;
        pbj__text_from_wire(f, w, x);
        pbj__text_line(t, name, f, x);
    }
    while (!number && (f->type == PBJ_TYPE_GROUP ? pbj__view_next_group(&it, one, &at, &len) : pbj__view_next_payload(&it, one, &at, &len))) {
        pbj_slice x = pbj_slice_make(len ? at : NULL, len);
        if (!message) pbj__text_line(t, name, f, &x);
        else if ((it.status = pbj__view_sub(t, name, f->sub, at, len, it.limit, it.depth + 1)) != PBJ_OK) pbj__view_stop(&it);
    }
}

/* Field f of a view at its slot s, as M_print prints the field decoded from the record the view reads. */
static inline void pbj__view_field(pbj_text *t, const pbj_table *tb, const pbj_field *f, const void *view, const pbj_view_slot *s)
{
    const pbj_view *v = (const pbj_view *)view;
    const uint32_t *cases = (const uint32_t *)(const void *)pbj__at(view, tb->view->cases);
    const char *name = tb->pool + f->name;
    bool present = f->mode == PBJ_MODE_ONEOF ? cases[f->presence] == f->number
                 : pbj__is_message(f) && f->mode != PBJ_MODE_WRAPPER ? s->v != 0 : s->n != 0;   /* a message's offset: never 0 when present */
    union { uint64_t u; pbj_slice s; } x;
    if (f->mode == PBJ_MODE_REPEATED || f->mode == PBJ_MODE_MAP) {
        pbj__view_items(t, name, f, v, s);
        return;
    }
    if (pbj__is_message(f)) {   /* a map entry's value always: an absent one's view is empty */
        if (!present && f->mode != PBJ_MODE_ALWAYS) return;
        pbj_text_open(t, name);
        (void)pbj__view_sub(t, NULL, f->sub, v->buf + (present ? s->v : 0), present ? s->len : 0, v->limit, v->depth + 1);
        pbj_text_close(t);
        return;
    }
    if (!present && f->mode != PBJ_MODE_ALWAYS && f->mode != PBJ_MODE_IMPLICIT) return;
    memset(&x, 0, sizeof x);
    if (pbj__is_slice(f)) x.s = pbj_view_slice(v, s);
    else pbj__text_from_wire(f, s->v, &x);
    if (f->mode == PBJ_MODE_WRAPPER) {
        pbj_text_open(t, name);
        if (pbj__text_nonzero(f, (const uint8_t *)&x)) pbj__text_line(t, "value", f, &x);
        pbj_text_close(t);
    } else if (f->mode != PBJ_MODE_IMPLICIT || pbj__text_nonzero(f, (const uint8_t *)&x)) {
        pbj__text_line(t, name, f, &x);
    }
}

/* Whether decode keeps record r as one of the extension numbered number, of kind (f: its row when the table lists
 * it; a closed enum's record holds a value of the enum; in a message set, any item of that type_id). */
static inline bool pbj__view_ext_kept(const pbj__ext_rec *r, uint32_t number, int kind, const pbj_field *f, bool msgset)
{
    if (r->number != number) return false;
    if (msgset && r->tag == PBJ_TAG(1, PBJ_WT_SGROUP)) return true;
    if (!pbj__ext_fits(r->tag, kind)) return false;
    return !f || !(f->flags & PBJ_F_CLOSED_ENUM) || pbj__text_ext_values(NULL, NULL, f, r, false) > 0;
}

/* The records of the extension numbered number, of kind (f: its row when listed), among a view's records of
 * extension ranges: those decode keeps, in the order written (a singular one's last), by name when f prints them. */
static inline void pbj__view_ext(pbj_text *t, const pbj_table *tb, pbj_slice ext, uint32_t number, int kind, const pbj_field *f)
{
    bool msgset = (tb->flags & PBJ_T_MSGSET) != 0, last = f && f->mode != PBJ_MODE_REPEATED && !pbj__is_message(f);
    size_t pos = 0, at = 0;
    pbj__ext_rec r;
    while (last && pbj__ext_next(ext, &at, &r))   /* a later record replaces it: the last one decode keeps */
        if (pbj__view_ext_kept(&r, number, kind, f, msgset)) pos = (size_t)(r.start - ext.data);
    while (pbj__ext_next(ext, &pos, &r))
        if (pbj__view_ext_kept(&r, number, kind, f, msgset) && (!f || !pbj__text_ext_named(t, tb->pool + f->name, f, &r, true)))
            pbj_text_unknown(t, r.start, (size_t)(r.end - r.start));
}

/* A view's extensions numbered lo to hi: those the run knew, by number (tb's exts, and its view layout's ext_raw). */
static inline void pbj__view_exts(pbj_text *t, const pbj_table *tb, const void *view, uint32_t lo, uint32_t hi)
{
    const pbj_view_layout *l = tb->view;
    const uint32_t *raw = l->ext_raw;
    pbj_slice ext = pbj_slice_make(NULL, 0);
    uint32_t i = 0;
    if (l->ext != PBJ_TABLE_NONE) ext = pbj__view_ext_slice((const pbj_view *)view, (const pbj_view_slot *)(const void *)pbj__at(view, l->ext));
    while (i < tb->ext_count || (raw && *raw)) {
        if (i < tb->ext_count && (tb->exts[i].flags & PBJ_F_UNTYPED)) {   /* its type out of scope: raw lists it */
            i++;
            continue;
        }
        bool listed = !(raw && *raw) || (i < tb->ext_count && tb->exts[i].number < *raw >> 3);
        const pbj_field *f = listed ? &tb->exts[i++] : NULL;
        uint32_t number = f ? f->number : *raw >> 3;
        int kind = f ? pbj__ext_kind(f) : (int)(*raw++ & 7);
        if (number >= lo && number <= hi) pbj__view_ext(t, tb, ext, number, kind, f);
    }
}

/* Record r of message extension f through its type's view (made as M_view_init makes one), printed: false when it
 * holds no message or the view does not scan. */
PBJ_INLINE bool pbj__view_ext_message(pbj_text *t, const char *name, const pbj_field *f, const pbj__ext_rec *r)
{
    pbj_slice s;
    if (!pbj__ext_payloads(pbj_slice_make(r->start, (size_t)(r->end - r->start)), r->number, pbj__ext_kind(f), 0, &s)) return false;
    const uint8_t *buf = s.len ? s.data : (const uint8_t *)"";
    return pbj__view_sub(t, name, f->sub, buf, s.len, buf + s.len, 0) == PBJ_OK;
}

#endif

/* A view of a message of tb's type: its fields in number order, extensions among them. */
PBJ_OUTLINE void pbj__view_print(const pbj_table *tb, const void *view, pbj_text *t) PBJ__PROTO
#if PBJ__BODIES
{
    const pbj_view_slot *slots = (const pbj_view_slot *)(const void *)pbj__at(view, tb->view->slots);
    uint32_t plain = 0, slot = 0, k = 0, lo, hi;
    for (uint32_t i = 0; i < tb->count; i++) plain += tb->fields[i].mode != PBJ_MODE_ONEOF;
    for (uint32_t i = 0; i < tb->count; i++) {   /* a field's slot: the fields outside oneofs in order, then the oneofs' */
        const pbj_field *f = &tb->fields[i];
        if (pbj__text_ext_run(tb, &k, f->number, &lo, &hi)) pbj__view_exts(t, tb, view, lo, hi);
        pbj__view_field(t, tb, f, view, f->mode == PBJ_MODE_ONEOF ? &slots[plain + f->presence] : &slots[slot++]);
    }
    if (pbj__text_ext_run(tb, &k, UINT32_MAX, &lo, &hi)) pbj__view_exts(t, tb, view, lo, hi);
}
#endif

/* v, a view of a message of t's type (M_view_print), as M_print prints the message decoded from its bytes with
 * unknown fields dropped: from the records the view reads (above). */
static inline void pbj_table_view_print(const pbj_table *t, const void *v, pbj_text *out)
{
    pbj__view_print(t, v, out);
}

#ifdef __cplusplus
}
#endif

#endif
