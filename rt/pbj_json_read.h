/* pbj_json_read.h: reading the proto3 JSON mapping: the tokenizer, the value parsers and the well-known types' forms. */
#ifndef PBJ_JSON_READ_H
#define PBJ_JSON_READ_H

/*
 * M_from_json(m, json, len, arena, options) is pbj_table_from_json over M's table (below). The input
 * is read in place (never past len, no NUL needed); strings, bytes and arrays
 * go into the arena. The first error stops the read: M_from_json returns
 * PBJ_ERR_SYNTAX (PBJ_ERR_DEPTH past max_depth, PBJ_ERR_TOO_LONG past
 * max_size, PBJ_ERR_NOMEM) and, when options->error is set, fills it with the
 * byte offset, line and column (from 1) and a message.
 *
 * What is accepted is the proto3 JSON mapping as protobuf's C++ runtime reads
 * it: field names in lowerCamelCase (or json_name) and as declared, each at
 * most once; null leaves a field unset (a google.protobuf.Value becomes
 * NullValue); integers as numbers or strings (an exponent or a fraction of
 * zeros allowed in numbers, never a fractional or out-of-range value);
 * floats as numbers or strings, "NaN", "Infinity", "-Infinity"; bytes in
 * base64, standard or URL-safe, padded or not; enums by name or number; map
 * keys as strings converted to the key's type; the well-known types' forms
 * (Timestamp, Duration, FieldMask, Struct, Value, ListValue, wrappers, Any).
 * Numbers are converted with strtod: the C locale's '.' radix is assumed.
 */

#include "pbj_json.h"   /* pbj_json_options and the shared parts */

/* M_from_json in each generated message's API with JSON (PBJ_MESSAGE, pbj_table.h) */
#undef PBJ__API_FROM_JSON
#define PBJ__API_FROM_JSON(M)                                                                                         \
    PBJ_MUST_USE static inline pbj_status M##_from_json(M *m, const char *json, size_t len, pbj_arena *arena, const pbj_json_options *o) { return pbj_table_from_json(&M##__table, m, json, len, arena, o); }

#include <math.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif


/* The state of one read, threaded through the generated readers. */
struct pbj__json_in {
    const uint8_t *start, *p, *end;
    pbj_arena *arena;
    const pbj_json_options *o;
    uint32_t depth_left;
    pbj_status st;
    const char *why;              /* the first error's message */
    const uint8_t *at;            /* and where it is */
    const uint8_t *key_at;        /* the last key read: where it is in the input (a key with escapes is read into a copy) */
    bool any_object;              /* the next object opened is an Any's: its "@type" is skipped */
};

/* One object being read: whether a key was read, and whether it is an Any's. */
typedef struct pbj__jin_obj {
    bool first, any;
} pbj__jin_obj;

/* ---- errors ---------------------------------------------------------------------- */

PBJ_OUTLINE bool pbj__jin_fail_st(pbj__json_in *j, const uint8_t *at, pbj_status st, const char *why) PBJ__PROTO
#if PBJ__BODIES
{
    if (j->st == PBJ_OK) {
        j->st = st;
        j->why = why;
        j->at = at;
    }
    return false;
}
#endif

PBJ_INLINE bool pbj__jin_fail(pbj__json_in *j, const uint8_t *at, const char *why)
{
    return pbj__jin_fail_st(j, at, PBJ_ERR_SYNTAX, why);
}

PBJ_INLINE void pbj__jin_in_init(pbj__json_in *j, const char *json, size_t len, pbj_arena *arena, const pbj_json_options *o)
{
    j->start = j->p = (const uint8_t *)json;
    j->end = j->start + (json ? len : 0);
    j->arena = arena;
    j->o = o;
    j->depth_left = o && o->max_depth ? o->max_depth : PBJ_DEFAULT_MAX_DEPTH;
    if (j->depth_left > PBJ_MAX_DEPTH_CAP) j->depth_left = PBJ_MAX_DEPTH_CAP;
    j->depth_left++;                          /* the top-level object is level 0 */
    j->st = PBJ_OK;
    j->why = NULL;
    j->at = j->key_at = j->start;
    j->any_object = false;
    if (o && o->error) memset(o->error, 0, sizeof *o->error);
    if (len > (o && o->max_size ? o->max_size : PBJ_DEFAULT_MAX_LENGTH))
        pbj__jin_fail_st(j, j->start, PBJ_ERR_TOO_LONG, "input longer than max_size");
}

PBJ_INLINE void pbj__jin_ws(pbj__json_in *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t')) j->p++;
}

/* The next byte after white space, or 0 at the end. */
PBJ_INLINE int pbj__jin_peek(pbj__json_in *j)
{
    pbj__jin_ws(j);
    return j->p < j->end ? *j->p : 0;
}

/* After the top-level value: only white space may follow; the error, when there is one, described in o->error. */
PBJ_OUTLINE pbj_status pbj__jin_in_finish(pbj__json_in *j, pbj_status st) PBJ__PROTO
#if PBJ__BODIES
{
    if (st == PBJ_OK && j->st == PBJ_OK && (pbj__jin_ws(j), j->p < j->end))      /* not peek: a NUL byte is text too */
        pbj__jin_fail(j, j->p, "unexpected text after the value");
    if (j->st == PBJ_OK && st != PBJ_OK) pbj__jin_fail_st(j, j->p, st, pbj_status_str(st));
    pbj_json_error *e = j->o ? j->o->error : NULL;
    if (j->at < j->start || j->at > j->end) j->at = j->p;    /* never: errors point into the input */
    if (e && j->st != PBJ_OK) {
        e->offset = (size_t)(j->at - j->start);
        e->line = 1;
        e->column = 1;
        for (const uint8_t *q = j->start; q < j->at; q++) {
            if (*q == '\n') e->line++, e->column = 1;
            else e->column++;
        }
        size_t n = 0;
        for (; j->why && j->why[n] && n < sizeof e->message - 1; n++) e->message[n] = j->why[n];
        e->message[n] = '\0';
    }
    return j->st;
}
#endif

/* ---- literals and structure -------------------------------------------------------- */

/* Whether the literal word (null, true, false) is next; taken when it is. */
PBJ_INLINE bool pbj__jin_word(pbj__json_in *j, const char *word, size_t n)
{
    if (pbj__jin_peek(j) != word[0] || (size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0) return false;
    const uint8_t *after = j->p + n;
    if (after < j->end && ((*after >= 'a' && *after <= 'z') || (*after >= '0' && *after <= '9'))) return false;
    j->p = after;
    return true;
}

PBJ_INLINE bool pbj__jin_null(pbj__json_in *j) { return pbj__jin_word(j, "null", 4); }

/* Takes byte c (after white space) or fails with why. */
PBJ_INLINE bool pbj__jin_expect(pbj__json_in *j, int c, const char *why)
{
    if (pbj__jin_peek(j) != c) return pbj__jin_fail(j, j->p, why);
    j->p++;
    return true;
}

/* Depth is counted as binary decode counts it, so that JSON the reader accepts decodes again as binary at the same
 * max_depth: a level for each message (whatever its JSON form: a wrapper's number, a Timestamp's string, each
 * Value, ListValue and Struct) and for each map's entries; none for a repeated field's array. A skipped value
 * (an unknown field's, an Any's other keys) counts each of its objects and arrays: only the stack is at stake. */
PBJ_INLINE bool pbj__jin_enter(pbj__json_in *j)
{
    if (j->depth_left == 0) return pbj__jin_fail_st(j, j->p, PBJ_ERR_DEPTH, "nested deeper than max_depth");
    j->depth_left--;
    return true;
}

PBJ_INLINE void pbj__jin_leave(pbj__json_in *j)
{
    j->depth_left++;
}

/* '{' of an object. */
PBJ_INLINE bool pbj__jin_object(pbj__json_in *j, pbj__jin_obj *ob)
{
    ob->first = true;
    ob->any = j->any_object;
    j->any_object = false;
    return pbj__jin_expect(j, '{', "expected an object");
}

/* '[' of an array. */
PBJ_INLINE bool pbj__jin_array(pbj__json_in *j, pbj__jin_obj *ob)
{
    ob->first = true;
    return pbj__jin_expect(j, '[', "expected an array");
}

/* Before the next element of an array: true when there is one, false at ']' (or on an error). */
PBJ_INLINE bool pbj__jin_next(pbj__json_in *j, pbj__jin_obj *ob)
{
    if (pbj__jin_peek(j) == ']') {
        j->p++;
        return false;
    }
    if (!ob->first && !pbj__jin_expect(j, ',', "expected ',' or ']'")) return false;
    ob->first = false;
    if (pbj__jin_peek(j) == ']') return pbj__jin_fail(j, j->p, "expected a value after ','");
    return true;
}

/* ---- strings ---------------------------------------------------------------------- */

PBJ_INLINE int pbj__jin_hex(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The code unit of \uXXXX at p (6 bytes available), or -1. */
PBJ_INLINE long pbj__jin_u4(const uint8_t *p)
{
    long v = 0;
    if (p[0] != '\\' || p[1] != 'u') return -1;
    for (int i = 2; i < 6; i++) {
        int h = pbj__jin_hex(p[i]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

PBJ_INLINE uint8_t *pbj__jin_put_utf8(uint8_t *o, unsigned long c)
{
    if (c < 0x80) *o++ = (uint8_t)c;
    else if (c < 0x800) *o++ = (uint8_t)(0xc0 | (c >> 6)), *o++ = (uint8_t)(0x80 | (c & 0x3f));
    else if (c < 0x10000)
        *o++ = (uint8_t)(0xe0 | (c >> 12)), *o++ = (uint8_t)(0x80 | ((c >> 6) & 0x3f)), *o++ = (uint8_t)(0x80 | (c & 0x3f));
    else
        *o++ = (uint8_t)(0xf0 | (c >> 18)), *o++ = (uint8_t)(0x80 | ((c >> 12) & 0x3f)),
        *o++ = (uint8_t)(0x80 | ((c >> 6) & 0x3f)), *o++ = (uint8_t)(0x80 | (c & 0x3f));
    return o;
}

/* One escape at p (after the backslash's position p), written to o (NULL: only checked); the bytes it takes, or 0. */
PBJ_OUTLINE size_t pbj__jin_escape(const uint8_t *p, const uint8_t *end, uint8_t **o) PBJ__PROTO
#if PBJ__BODIES
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    if (end - p < 2) return 0;
    const char *e = p[1] ? strchr(from, p[1]) : NULL;
    if (e && p[1] != 'u') {
        if (*o) *(*o)++ = (uint8_t)to[e - from];
        return 2;
    }
    long c = end - p >= 6 ? pbj__jin_u4(p) : -1;
    size_t n = 6;
    if (c < 0 || (c >= 0xdc00 && c <= 0xdfff)) return 0;      /* malformed, or a low surrogate alone */
    if (c >= 0xd800 && c <= 0xdbff) {                          /* a high surrogate: its low one must follow */
        long lo = end - p >= 12 ? pbj__jin_u4(p + 6) : -1;
        if (lo < 0xdc00 || lo > 0xdfff) return 0;
        c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
        n = 12;
    }
    if (*o) *o = pbj__jin_put_utf8(*o, (unsigned long)c);
    return n;
}
#endif

/* A string: its bytes (escapes decoded, in the arena when copy or when it has escapes; else in the input). */
PBJ_OUTLINE_WARM bool pbj__jin_string_in(pbj__json_in *j, pbj_slice *out, bool copy) PBJ__PROTO
#if PBJ__BODIES
{
    if (pbj__jin_peek(j) != '"') return pbj__jin_fail(j, j->p, "expected a string");
    const uint8_t *s = ++j->p, *p = s, *end = j->end;
    bool escapes = false;
    uint8_t *none = NULL;
    while (p < end && *p != '"') {                  /* check it, and find its end */
        if (*p == '\\') {
            size_t n = pbj__jin_escape(p, end, &none);
            if (!n) return pbj__jin_fail(j, p, "invalid escape (or an unpaired surrogate)");
            p += n;
            escapes = true;
        } else if (*p < 0x20) {
            return pbj__jin_fail(j, p, "control character in a string");
        } else if (*p < 0x80) {
            p++;
        } else {
            const uint8_t *q = p + 1;
            while (q < end && (*q & 0xc0) == 0x80 && q - p < 4) q++;
            if (!pbj__utf8_rest(p, q)) return pbj__jin_fail(j, p, "invalid UTF-8");
            p = q;
        }
    }
    if (p >= end) return pbj__jin_fail(j, s - 1, "unterminated string");
    j->p = p + 1;
    size_t len = (size_t)(p - s);
    if (!escapes && !copy) {
        *out = pbj_slice_make(s, len);
        return true;
    }
    uint8_t *buf = len ? (uint8_t *)pbj_arena_alloc(j->arena, len) : NULL, *o = buf;
    if (len && !buf) return pbj__jin_fail_st(j, s, PBJ_ERR_NOMEM, "out of memory");
    for (const uint8_t *q = s; q < p;) {
        if (*q == '\\') q += pbj__jin_escape(q, p, &o);
        else *o++ = *q++;
    }
    *out = pbj_slice_make(buf, (size_t)(o - buf));
    return true;
}
#endif

PBJ_INLINE bool pbj__jin_slice_is(pbj_slice s, const char *lit)
{
    size_t n = strlen(lit);
    return s.len == n && (n == 0 || memcmp(s.data, lit, n) == 0);
}

/* ---- skipping a value (unknown fields), checking its syntax ------------------------------ */

PBJ_INLINE const uint8_t *pbj__jin_number_end(const uint8_t *p, const uint8_t *end);

PBJ_OUTLINE bool pbj__jin_skip(pbj__json_in *j) PBJ__PROTO
#if PBJ__BODIES
{
    pbj__jin_obj ob;
    pbj_slice s;
    int c = pbj__jin_peek(j);
    if (c == '"') return pbj__jin_string_in(j, &s, false);
    if ((c == '{' || c == '[') && !pbj__jin_enter(j)) return false;
    if (c == '{') {
        if (!pbj__jin_object(j, &ob)) return false;
        for (;;) {
            if (pbj__jin_peek(j) == '}' && ob.first) break;
            if (!ob.first && !pbj__jin_expect(j, ',', "expected ',' or '}'")) return false;
            if (pbj__jin_peek(j) == '}') return pbj__jin_fail(j, j->p, "expected a key after ','");
            ob.first = false;
            if (!pbj__jin_string_in(j, &s, false) || !pbj__jin_expect(j, ':', "expected ':'") || !pbj__jin_skip(j)) return false;
            if (pbj__jin_peek(j) == '}') break;
        }
        j->p++;
        pbj__jin_leave(j);
        return true;
    }
    if (c == '[') {
        if (!pbj__jin_array(j, &ob)) return false;
        while (pbj__jin_next(j, &ob))
            if (!pbj__jin_skip(j)) return false;
        pbj__jin_leave(j);
        return j->st == PBJ_OK;
    }
    if (pbj__jin_word(j, "null", 4) || pbj__jin_word(j, "true", 4) || pbj__jin_word(j, "false", 5)) return true;
    const uint8_t *e = pbj__jin_number_end(j->p, j->end);
    if (!e) return pbj__jin_fail(j, j->p, "expected a value");
    j->p = e;
    return true;
}
#endif

/* ---- objects: keys, field lookup ---------------------------------------------------------- */

/* The next key of an object (its ':' taken): true when there is one, false at '}' (or on an error). An Any's
 * "@type" is passed over. */
PBJ_OUTLINE_WARM bool pbj__jin_key(pbj__json_in *j, pbj__jin_obj *ob, pbj_slice *key) PBJ__PROTO
#if PBJ__BODIES
{
    for (;;) {
        if (pbj__jin_peek(j) == '}' && ob->first) {
            j->p++;
            return false;
        }
        if (!ob->first) {
            if (pbj__jin_peek(j) == '}') {
                j->p++;
                return false;
            }
            if (!pbj__jin_expect(j, ',', "expected ',' or '}'")) return false;
            if (pbj__jin_peek(j) == '}') return pbj__jin_fail(j, j->p, "expected a key after ','");
        }
        ob->first = false;
        j->key_at = j->p;
        if (!pbj__jin_string_in(j, key, false) || !pbj__jin_expect(j, ':', "expected ':' after a key")) return false;
        if (!(ob->any && pbj__jin_slice_is(*key, "@type"))) return true;
        if (!pbj__jin_skip(j)) return false;
    }
}
#endif

/* Whether st (a helper's status) and the read are fine; the first error is kept. */
PBJ_INLINE bool pbj__jin_status(pbj__json_in *j, pbj_status st)
{
    return st == PBJ_OK ? j->st == PBJ_OK : pbj__jin_fail_st(j, j->p, st, pbj_status_str(st));
}

/* Field k of a message read once (seen: a bit per field). */
PBJ_INLINE bool pbj__jin_once(pbj__json_in *j, uint8_t *seen, int32_t k)
{
    if (seen[k >> 3] & (1u << (k & 7))) return pbj__jin_fail(j, j->key_at, "field given twice");
    seen[k >> 3] |= (uint8_t)(1u << (k & 7));
    return true;
}

/* A key no field has: skipped when asked, else an error. */
PBJ_OUTLINE bool pbj__jin_unknown(pbj__json_in *j) PBJ__PROTO
#if PBJ__BODIES
{
    if (!(j->o && j->o->ignore_unknown_fields)) return pbj__jin_fail(j, j->key_at, "no field of this name");
    return pbj__jin_skip(j);
}
#endif

/* A oneof whose case is set already (null values do not count). */
PBJ_INLINE bool pbj__jin_oneof_free(pbj__json_in *j, int set)
{
    return set == 0 || pbj__jin_fail(j, j->key_at, "a second field of one oneof");
}

/* ---- numbers -------------------------------------------------------------------------------- */

/* The end of a JSON number at p, or NULL when none starts there. */
PBJ_INLINE const uint8_t *pbj__jin_number_end(const uint8_t *p, const uint8_t *end)
{
    if (p < end && *p == '-') p++;
    if (p >= end || *p < '0' || *p > '9') return NULL;
    if (*p == '0') p++;
    else
        while (p < end && *p >= '0' && *p <= '9') p++;
    if (p < end && *p == '.') {
        if (++p >= end || *p < '0' || *p > '9') return NULL;
        while (p < end && *p >= '0' && *p <= '9') p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        if (++p < end && (*p == '+' || *p == '-')) p++;
        if (p >= end || *p < '0' || *p > '9') return NULL;
        while (p < end && *p >= '0' && *p <= '9') p++;
    }
    return p;
}

/* A number's text: bare (number) or in quotes (quoted); false, with nothing taken, when the next value is neither. */
PBJ_OUTLINE_WARM bool pbj__jin_number_text(pbj__json_in *j, pbj_slice *text, bool *quoted) PBJ__PROTO
#if PBJ__BODIES
{
    int c = pbj__jin_peek(j);
    *quoted = c == '"';
    if (*quoted) return pbj__jin_string_in(j, text, false);
    const uint8_t *e = pbj__jin_number_end(j->p, j->end);
    if (!e) return pbj__jin_fail(j, j->p, "expected a number");
    if (e < j->end && ((*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') || *e == '.' || *e == '-' || *e == '+'))
        return pbj__jin_fail(j, j->p, "malformed number");
    *text = pbj_slice_make(j->p, (size_t)(e - j->p));
    j->p = e;
    return true;
}
#endif

/* An integer's magnitude from a number's text s (an exponent or a fraction of zeros allowed when exponent):
 * false when it is not an integer or exceeds max. */
PBJ_OUTLINE_WARM bool pbj__jin_integer(pbj_slice s, bool exponent, bool *neg, uint64_t max, uint64_t *out) PBJ__PROTO
#if PBJ__BODIES
{
    const uint8_t *p = s.data, *end = p + s.len;
    *neg = p < end && *p == '-';
    p += *neg;
    const uint8_t *digits = p;
    while (p < end && *p >= '0' && *p <= '9') p++;
    const uint8_t *int_end = p, *frac = p, *frac_end = p;
    if (p == digits) return false;
    long long e10 = 0;
    if (p < end && *p == '.' && exponent) {
        frac = ++p;
        while (p < end && *p >= '0' && *p <= '9') p++;
        frac_end = p;
        if (frac_end == frac) return false;
    }
    if (p < end && (*p == 'e' || *p == 'E') && exponent) {
        bool eneg = ++p < end && *p == '-';
        if (p < end && (*p == '-' || *p == '+')) p++;
        if (p == end) return false;
        for (; p < end && *p >= '0' && *p <= '9'; p++)
            if (e10 < 100000) e10 = e10 * 10 + (*p - '0');
        if (eneg) e10 = -e10;
    }
    if (p != end) return false;
    /* value = digits(int . frac) * 10^(e10 - |frac|): the digits after the point the exponent leaves must be zeros */
    long long point = (long long)(int_end - digits) + e10;    /* digits before the decimal point */
    uint64_t v = 0;
    long long i = 0;
    for (const uint8_t *q = digits; q < frac_end; q++) {
        if (q == int_end) q = frac;
        if (q >= frac_end) break;
        int d = *q - '0';
        if (i++ >= point) {
            if (d) return false;                              /* a fraction */
            continue;
        }
        if (v > (max - (uint64_t)d) / 10) return false;
        v = v * 10 + (uint64_t)d;
    }
    for (; i < point; i++) {                                   /* zeros the exponent adds */
        if (v > max / 10) return false;
        v *= 10;
    }
    *out = v;
    return true;
}
#endif

/* An integer field's value in [min, max] (as int64, or as uint64 when unsigned). */
PBJ_OUTLINE_WARM bool pbj__jin_int(pbj__json_in *j, bool is_unsigned, int64_t min, uint64_t max, uint64_t *out) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_slice s;
    bool quoted, neg;
    uint64_t mag;
    const uint8_t *at = pbj__jin_peek(j) ? j->p : j->end;
    if (!pbj__jin_number_text(j, &s, &quoted)) return false;
    uint64_t limit = is_unsigned ? max : max + 1;              /* magnitude: -min is max + 1 for two's complement */
    if (!pbj__jin_integer(s, !quoted, &neg, limit, &mag)) return pbj__jin_fail(j, at, "not an integer in the field's range");
    if (neg && mag && (is_unsigned || mag > (uint64_t)-(min + 1) + 1)) return pbj__jin_fail(j, at, "integer out of range");
    if (!neg && mag > max) return pbj__jin_fail(j, at, "integer out of range");
    *out = neg ? (uint64_t)0 - mag : mag;
    return true;
}
#endif

PBJ_INLINE bool pbj__jin_int32(pbj__json_in *j, int32_t *v)
{
    uint64_t u;
    if (!pbj__jin_int(j, false, INT32_MIN, INT32_MAX, &u)) return false;
    *v = (int32_t)(int64_t)u;
    return true;
}

PBJ_INLINE bool pbj__jin_int64(pbj__json_in *j, int64_t *v)
{
    uint64_t u;
    if (!pbj__jin_int(j, false, INT64_MIN, INT64_MAX, &u)) return false;
    *v = (int64_t)u;
    return true;
}

PBJ_INLINE bool pbj__jin_uint32(pbj__json_in *j, uint32_t *v)
{
    uint64_t u;
    if (!pbj__jin_int(j, true, 0, UINT32_MAX, &u)) return false;
    *v = (uint32_t)u;
    return true;
}

PBJ_INLINE bool pbj__jin_uint64(pbj__json_in *j, uint64_t *v)
{
    return pbj__jin_int(j, true, 0, UINT64_MAX, v);
}

/* A double (or a float: is_float, stored in *f) from a number's text (JSON syntax; "NaN", "Infinity", "-Infinity"
 * when quoted); beyond the type's range is an error. */
PBJ_OUTLINE_WARM bool pbj__jin_real(pbj__json_in *j, double *v, float *f) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_slice s;
    bool quoted;
    const uint8_t *at = pbj__jin_peek(j) ? j->p : j->end;
    if (!pbj__jin_number_text(j, &s, &quoted)) return false;
    *v = pbj__jin_slice_is(s, "NaN") ? NAN : pbj__jin_slice_is(s, "Infinity") ? INFINITY : -INFINITY;
    if (quoted && (pbj__jin_slice_is(s, "NaN") || pbj__jin_slice_is(s, "Infinity") || pbj__jin_slice_is(s, "-Infinity"))) {
        if (f) *f = (float)*v;
        return true;
    }
    if (quoted && pbj__jin_number_end(s.data, s.data + s.len) != s.data + s.len) return pbj__jin_fail(j, at, "not a number");
    char small[64], *text = small;
    if (s.len >= sizeof small && !(text = (char *)pbj_arena_alloc(j->arena, s.len + 1)))
        return pbj__jin_fail_st(j, at, PBJ_ERR_NOMEM, "out of memory");
    memcpy(text, s.data, s.len);
    text[s.len] = 0;
    *v = strtod(text, NULL);
    if (f) *f = strtof(text, NULL);          /* rounded once, to float: FLT_MAX's shortest form 3.4028235e+38 fits */
    if (isinf(*v) || (f && isinf(*f))) return pbj__jin_fail(j, at, "number out of the field type's range");
    return true;
}
#endif

PBJ_INLINE bool pbj__jin_double(pbj__json_in *j, double *v) { return pbj__jin_real(j, v, NULL); }

PBJ_INLINE bool pbj__jin_float(pbj__json_in *j, float *v)
{
    double d;
    return pbj__jin_real(j, &d, v);
}

PBJ_INLINE bool pbj__jin_bool(pbj__json_in *j, bool *v)
{
    if (pbj__jin_word(j, "true", 4)) return *v = true, true;
    if (pbj__jin_word(j, "false", 5)) return *v = false, true;
    return pbj__jin_fail(j, j->p, "expected true or false");
}

/* ---- map keys: a string converted to the key's type ----------------------------------------------- */

/* The string k read as value by reader read (an integer or bool in the key's text); a failure is reported in j
 * when report. */
PBJ_OUTLINE bool pbj__jin_key_as(pbj__json_in *j, pbj_slice k, bool (*read)(pbj__json_in *, void *), void *v, bool report) PBJ__PROTO
#if PBJ__BODIES
{
    pbj__json_in sub = *j;                   /* the key's text as the whole input, quoted */
    uint8_t small[64], *buf = small;
    if (k.len + 2 > sizeof small && !(buf = (uint8_t *)pbj_arena_alloc(j->arena, k.len + 2)))
        return pbj__jin_fail_st(j, j->key_at, PBJ_ERR_NOMEM, "out of memory");
    buf[0] = '"';
    if (k.len) memcpy(buf + 1, k.data, k.len);
    buf[k.len + 1] = '"';
    sub.start = sub.p = buf;
    sub.end = buf + k.len + 2;
    if (read(&sub, v)) return true;
    return report && pbj__jin_fail_st(j, j->key_at, sub.st, sub.why);
}
#endif

PBJ_INLINE bool pbj__jin_key_bool_text(pbj__json_in *j, void *v)
{
    pbj_slice s;
    if (!pbj__jin_string_in(j, &s, false)) return false;
    if (pbj__jin_slice_is(s, "true")) return *(bool *)v = true, true;
    if (pbj__jin_slice_is(s, "false")) return *(bool *)v = false, true;
    return pbj__jin_fail(j, j->p, "a bool key must be \"true\" or \"false\"");
}

#define PBJ__JIN_KEY_READ(name, type)                                                                      \
    PBJ_INLINE bool pbj__jin_key_##name##_text(pbj__json_in *j, void *v) { return pbj__jin_##name(j, (type *)v); } \
    PBJ_INLINE bool pbj__jin_key_##name(pbj__json_in *j, pbj_slice k, type *v) { return pbj__jin_key_as(j, k, pbj__jin_key_##name##_text, v, true); }
PBJ__JIN_KEY_READ(int32, int32_t)
PBJ__JIN_KEY_READ(int64, int64_t)
PBJ__JIN_KEY_READ(uint32, uint32_t)
PBJ__JIN_KEY_READ(uint64, uint64_t)
#undef PBJ__JIN_KEY_READ

PBJ_INLINE bool pbj__jin_key_bool(pbj__json_in *j, pbj_slice k, bool *v) { return pbj__jin_key_as(j, k, pbj__jin_key_bool_text, v, true); }

PBJ_INLINE bool pbj__jin_key_string(pbj__json_in *j, pbj_slice k, pbj_slice *v)
{
    (void)j;
    *v = k;
    return true;
}

/* ---- strings, bytes, enums -------------------------------------------------------------------- */

PBJ_INLINE bool pbj__jin_string(pbj__json_in *j, pbj_slice *v) { return pbj__jin_string_in(j, v, true); }

/* Base64 in either alphabet, padded or not. */
PBJ_OUTLINE_WARM bool pbj__jin_bytes(pbj__json_in *j, pbj_slice *v) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_slice s;
    const uint8_t *at = pbj__jin_peek(j) ? j->p : j->end;
    if (!pbj__jin_string_in(j, &s, false)) return false;
    size_t n = s.len;
    while (n && s.data[n - 1] == '=' && s.len - n < 2) n--;
    if ((n != s.len && s.len % 4) || n % 4 == 1) return pbj__jin_fail(j, at, "malformed base64");
    uint8_t *buf = n ? (uint8_t *)pbj_arena_alloc(j->arena, n / 4 * 3 + 2) : NULL, *o = buf;
    if (n && !buf) return pbj__jin_fail_st(j, at, PBJ_ERR_NOMEM, "out of memory");
    uint32_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        int d = pbj_base64_value((char)s.data[i]);
        if (d < 0) return pbj__jin_fail(j, at, "malformed base64");
        acc = acc << 6 | (uint32_t)d;
        if (i % 4 == 3) *o++ = (uint8_t)(acc >> 16), *o++ = (uint8_t)(acc >> 8), *o++ = (uint8_t)acc;
    }
    if (n % 4 == 2) *o++ = (uint8_t)(acc >> 4);
    if (n % 4 == 3) *o++ = (uint8_t)(acc >> 10), *o++ = (uint8_t)(acc >> 2);
    *v = pbj_slice_make(buf, (size_t)(o - buf));
    return true;
}
#endif

/* Number v of enum e: any for an open enum, one of its values for a closed one. */
PBJ_INLINE bool pbj__jin_enum_known(pbj__json_in *j, const pbj_enum *e, int32_t v, const uint8_t *at)
{
    return !(e->flags & PBJ_E_CLOSED) || pbj_enum_find(e, v) || pbj__jin_fail(j, at, "unknown number of a closed enum");
}

/* An enum by name or number; *keep false when the name is unknown and the options say to skip it. */
PBJ_OUTLINE_WARM bool pbj__jin_enum(pbj__json_in *j, const pbj_enum *e, int32_t *v, bool *keep) PBJ__PROTO
#if PBJ__BODIES
{
    *keep = true;
    const uint8_t *at = pbj__jin_peek(j) ? j->p : j->end;
    if ((e->flags & PBJ_E_NULL_VALUE) && pbj__jin_null(j)) return *v = 0, true;
    if (pbj__jin_peek(j) == '"') {
        pbj_slice s;
        if (!pbj__jin_string_in(j, &s, false)) return false;
        if (pbj_enum_value_named(e, (const char *)pbj_slice_data(s), s.len, v)) return true;
        if (pbj__jin_key_as(j, s, pbj__jin_key_int32_text, v, false)) return pbj__jin_enum_known(j, e, *v, at);   /* "1" */
        if (j->o && j->o->ignore_unknown_fields) return *keep = false, true;
        return pbj__jin_fail(j, at, "unknown enum value name");
    }
    return pbj__jin_int32(j, v) && pbj__jin_enum_known(j, e, *v, at);
}
#endif

/* A map's key read with the entry's value: the key string copied into the arena (map keys are kept). */
PBJ_INLINE bool pbj__jin_map_key(pbj__json_in *j, pbj__jin_obj *ob, pbj_slice *key)
{
    if (!pbj__jin_key(j, ob, key)) return false;
    if (key->len) {
        uint8_t *b = (uint8_t *)pbj_arena_alloc(j->arena, key->len);
        if (!b) return pbj__jin_fail_st(j, j->key_at, PBJ_ERR_NOMEM, "out of memory");
        memcpy(b, key->data, key->len);
        *key = pbj_slice_make(b, key->len);
    }
    return true;
}

/* After a map's entries: *count of them, after of them left once sorted by key (-1: out of memory); fewer is a
 * key given twice, an error. */
PBJ_INLINE bool pbj__jin_map_done(pbj__json_in *j, size_t *count, size_t after, const uint8_t *at)
{
    if (after == (size_t)-1) return pbj__jin_fail_st(j, at, PBJ_ERR_NOMEM, "out of memory");
    if (after != *count) return pbj__jin_fail(j, at, "map key given twice");
    return true;
}

/* An array of count elements of size elem with room for one more (its new place), NULL after an error. */
PBJ_INLINE void *pbj__jin_more(pbj__json_in *j, void *data, size_t count, size_t elem)
{
    void *d = pbj__array_add(j->arena, data, count, elem);
    if (!d) pbj__jin_fail_st(j, j->p, PBJ_ERR_NOMEM, "out of memory");
    return d;
}

/* A null where an element or a map's value must be: the error. */
PBJ_OUTLINE pbj_status pbj__jin_null_element(pbj__json_in *j) PBJ__PROTO
#if PBJ__BODIES
{
    pbj__jin_fail(j, j->p - 4, "null is no element of a repeated field or value of a map");
    return j->st;
}
#endif

/* A new message of size bytes in the arena (the caller initialises it), NULL after an error. */
PBJ_INLINE void *pbj__jin_alloc(pbj__json_in *j, size_t size)
{
    void *m = pbj_arena_alloc(j->arena, size);
    if (!m) pbj__jin_fail_st(j, j->p, PBJ_ERR_NOMEM, "out of memory");
    return m;
}

/* ---- well-known types: Timestamp, Duration, FieldMask, Any ------------------------------------------ */

/* n digits at p as a number, or -1. */
PBJ_INLINE long pbj__jin_digits(const uint8_t *p, int n)
{
    long v = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') return -1;
        v = v * 10 + (p[i] - '0');
    }
    return v;
}

/* ".d{1,9}" at *p (before end; "." alone too when bare): nanoseconds, *p moved past; 0 when no '.' is there; -1 when
 * malformed. */
PBJ_INLINE long pbj__jin_nanos(const uint8_t **p, const uint8_t *end, bool bare)
{
    if (*p >= end || **p != '.') return 0;
    ++*p;
    long v = 0;
    int n = 0;
    while (*p < end && **p >= '0' && **p <= '9' && n < 10) v = v * 10 + (*(*p)++ - '0'), n++;
    if ((n == 0 && !bare) || n > 9) return -1;
    for (; n < 9; n++) v *= 10;
    return v;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
PBJ_INLINE int64_t pbj__jin_days(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400, yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* "YYYY-MM-DDThh:mm:ss[.f]Z" or with "+hh:mm"/"-hh:mm", between years 1 and 9999. */
PBJ_OUTLINE bool pbj__jin_timestamp(pbj__json_in *j, int64_t *seconds, int32_t *nanos) PBJ__PROTO
#if PBJ__BODIES
{
    static const uint8_t days_in[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    pbj_slice s;
    const uint8_t *at = pbj__jin_peek(j) ? j->p : j->end;
    if (!pbj__jin_string_in(j, &s, false)) return false;
    const uint8_t *p = s.data, *end = p + s.len;
    if (s.len < 20 || p[4] != '-' || p[7] != '-' || p[10] != 'T' || p[13] != ':' || p[16] != ':')
        return pbj__jin_fail(j, at, "malformed timestamp");
    long y = pbj__jin_digits(p, 4), mo = pbj__jin_digits(p + 5, 2), d = pbj__jin_digits(p + 8, 2);
    long h = pbj__jin_digits(p + 11, 2), mi = pbj__jin_digits(p + 14, 2), se = pbj__jin_digits(p + 17, 2);
    bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days_in[mo - 1] || (mo == 2 && d == 29 && !leap) || h < 0 || h > 23 ||
        mi < 0 || mi > 59 || se < 0 || se > 59)
        return pbj__jin_fail(j, at, "malformed timestamp");
    p += 19;
    long ns = pbj__jin_nanos(&p, end, false);
    if (ns < 0 || p >= end) return pbj__jin_fail(j, at, "malformed timestamp");
    int64_t secs = pbj__jin_days(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
    if (*p == 'Z') p++;
    else if ((*p == '+' || *p == '-') && end - p == 6 && p[3] == ':') {
        long oh = pbj__jin_digits(p + 1, 2), om = pbj__jin_digits(p + 4, 2);
        if (oh < 0 || oh > 23 || om < 0 || om > 59) return pbj__jin_fail(j, at, "malformed timestamp offset");
        secs -= (*p == '+' ? 1 : -1) * (oh * 3600 + om * 60);
        p += 6;
    }
    if (p != end) return pbj__jin_fail(j, at, "malformed timestamp");
    if (secs < INT64_C(-62135596800) || secs > INT64_C(253402300799)) return pbj__jin_fail(j, at, "timestamp out of range");
    *seconds = secs;
    *nanos = (int32_t)ns;
    return true;
}
#endif

/* "[-]S[.f]s" within +-315576000000 s. */
PBJ_OUTLINE bool pbj__jin_duration(pbj__json_in *j, int64_t *seconds, int32_t *nanos) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_slice s;
    const uint8_t *at = pbj__jin_peek(j) ? j->p : j->end;
    if (!pbj__jin_string_in(j, &s, false)) return false;
    const uint8_t *p = s.data, *end = p + s.len;
    bool neg = p < end && *p == '-';
    p += neg;
    int64_t secs = 0;
    const uint8_t *digits = p;
    while (p < end && *p >= '0' && *p <= '9' && p - digits < 13) secs = secs * 10 + (*p++ - '0');
    long ns = pbj__jin_nanos(&p, end, true);        /* "1.s" as C++ */
    if (p == digits || ns < 0 || end - p != 1 || *p != 's') return pbj__jin_fail(j, at, "malformed duration");
    if (secs > INT64_C(315576000000)) return pbj__jin_fail(j, at, "duration out of range");
    *seconds = neg ? -secs : secs;
    *nanos = (int32_t)(neg ? -ns : ns);
    return true;
}
#endif

/* "a.fooBar,b" -> paths "a.foo_bar", "b" (a path with '_' or an upper-case letter after '_' is rejected). */
PBJ_OUTLINE bool pbj__jin_field_mask(pbj__json_in *j, pbj_slice **paths, size_t *count) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_slice s;
    const uint8_t *at = pbj__jin_peek(j) ? j->p : j->end;
    if (!pbj__jin_string_in(j, &s, false)) return false;
    for (size_t i = 0; i < s.len;) {
        size_t n = 0, upper = 0;
        while (i + n < s.len && s.data[i + n] != ',') upper += s.data[i + n] >= 'A' && s.data[i + n] <= 'Z', n++;
        uint8_t *b = (uint8_t *)pbj_arena_alloc(j->arena, n + upper + 1), *o = b;
        pbj_slice *more = b ? (pbj_slice *)pbj__jin_more(j, *paths, *count, sizeof **paths) : NULL;
        if (!more) return pbj__jin_fail_st(j, at, PBJ_ERR_NOMEM, "out of memory");
        *paths = more;
        pbj_slice *e = &more[(*count)++];
        for (size_t k = 0; k < n; k++) {
            uint8_t c = s.data[i + k];
            if (c == '_') return pbj__jin_fail(j, at, "a FieldMask path in JSON has no '_'");
            if (c >= 'A' && c <= 'Z') *o++ = '_', c = (uint8_t)(c - 'A' + 'a');
            *o++ = c;
        }
        *e = pbj_slice_make(b, (size_t)(o - b));
        i += n + 1;
    }
    return true;
}
#endif

/* ---- reading a message through its table (M_from_json) ------------------------------------------------ */

PBJ_OUTLINE_WARM pbj_status pbj__jin_msg(pbj__json_in *j, const pbj_table *t, void *m);   /* recursive: below */

#if PBJ__BODIES   /* what the walk calls: only where its body is */

/* The type an Any's "@type" names (the part after the last '/'), among the options' types; NULL when unknown. */
PBJ_INLINE const pbj_table *pbj__jin_type_of(const pbj__json_in *j, pbj_slice url)
{
    pbj_slice name = pbj_json_url_type(url);
    return name.len < url.len ? pbj_json_find_type(j->o, name) : NULL;
}

/* A new message of t's type in the arena, made empty; NULL after an error. */
PBJ_INLINE void *pbj__jin_new(pbj__json_in *j, const pbj_table *t)
{
    void *m = pbj__jin_alloc(j, t->size);
    if (m) pbj__table_init(t, m);
    return m;
}

/* Message m of t's type encoded into the arena (M_encode: its required fields checked first). */
PBJ_INLINE pbj_status pbj__jin_encoded(pbj__json_in *j, const pbj_table *t, const void *m, pbj_slice *out)
{
    size_t n = t->codec->size(m), len = 0;
    uint8_t *buf = (uint8_t *)pbj__jin_alloc(j, n ? n : 1);
    if (!buf) return j->st;
    pbj_status st = pbj_missing_status(pbj_table_missing(t, m));
    if (st == PBJ_OK) st = t->codec->encode(m, buf, n, &len);
    *out = pbj_slice_make(buf, len);
    return st;
}

/* An Any: {"@type": url, fields...} or, for a type with a form of its own, {"@type": url, "value": form}. */
PBJ_INLINE bool pbj__jin_any(pbj__json_in *j, pbj_slice *type_url, pbj_slice *value)
{
    pbj__jin_obj ob;
    pbj_slice key, url = {NULL, 0}, bytes;
    pbj__jin_ws(j);
    const uint8_t *open = j->p;
    bool found = false;
    if (!pbj__jin_object(j, &ob)) return false;
    while (pbj__jin_key(j, &ob, &key)) {                    /* first pass: find "@type", wherever it is */
        if (!pbj__jin_slice_is(key, "@type")) {
            if (!pbj__jin_skip(j)) return false;
            continue;
        }
        if (found) return pbj__jin_fail(j, j->key_at, "\"@type\" given twice");
        if (!pbj__jin_string(j, &url)) return false;
        found = true;
    }
    if (j->st != PBJ_OK) return false;
    if (ob.first) return true;                               /* {}: an empty Any */
    if (!found) return pbj__jin_fail(j, open, "an Any without \"@type\"");
    const pbj_table *t = pbj__jin_type_of(j, url);
    if (!t) return pbj__jin_fail(j, open, "an Any's \"@type\" names no type the options list");
    const uint8_t *after = j->p;
    void *m = pbj__jin_new(j, t);
    if (!m) return false;
    j->p = open;
    if (pbj_json_any_value(t)) {                                      /* {"@type": ..., "value": form} */
        bool value_seen = false;
        if (!pbj__jin_object(j, &ob)) return false;
        ob.any = true;
        while (pbj__jin_key(j, &ob, &key)) {
            if (!pbj__jin_slice_is(key, "value") || value_seen) return pbj__jin_fail(j, j->key_at, "an Any of this type has only \"value\"");
            value_seen = true;
            pbj_status st = pbj__jin_msg(j, t, m);
            if (st != PBJ_OK) return pbj__jin_fail_st(j, j->p, st, "bad value");
        }
        if (j->st != PBJ_OK) return false;
    } else {
        j->any_object = true;
        pbj_status st = pbj__jin_msg(j, t, m);
        if (st != PBJ_OK) return pbj__jin_fail_st(j, j->p, st, "bad value");
    }
    j->p = after;
    pbj_status st = pbj__jin_encoded(j, t, m, &bytes);
    if (j->st != PBJ_OK) return false;
    if (st != PBJ_OK) return pbj__jin_fail_st(j, open, st, "the Any's message does not encode");
    *type_url = url;
    *value = bytes;
    return true;
}

/* Whether null is a value of f's type (google.protobuf.Value, NullValue), not an absent field or element. */
PBJ_INLINE bool pbj__jin_null_is_value(const pbj_field *f)
{
    if (f->type == PBJ_TYPE_ENUM) return f->en && (f->en->flags & PBJ_E_NULL_VALUE);
    return (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) && f->sub->wkt == PBJ_WKT_VALUE;
}

/* One value of scalar field f (not a message) into v, its member's C type; *keep false: an unknown enum name
 * skipped. */
PBJ_INLINE bool pbj__jin_value(pbj__json_in *j, const pbj_field *f, void *v, bool *keep)
{
    *keep = true;
    switch (f->type) {
    case PBJ_TYPE_DOUBLE: return pbj__jin_double(j, (double *)v);
    case PBJ_TYPE_FLOAT: return pbj__jin_float(j, (float *)v);
    case PBJ_TYPE_INT64: case PBJ_TYPE_SINT64: case PBJ_TYPE_SFIXED64: return pbj__jin_int64(j, (int64_t *)v);
    case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: return pbj__jin_uint64(j, (uint64_t *)v);
    case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: return pbj__jin_uint32(j, (uint32_t *)v);
    case PBJ_TYPE_BOOL: return pbj__jin_bool(j, (bool *)v);
    case PBJ_TYPE_STRING: return pbj__jin_string(j, (pbj_slice *)v);
    case PBJ_TYPE_BYTES: return pbj__jin_bytes(j, (pbj_slice *)v);
    case PBJ_TYPE_ENUM: return f->en ? pbj__jin_enum(j, f->en, (int32_t *)v, keep) : pbj__jin_int32(j, (int32_t *)v);
    default: return pbj__jin_int32(j, (int32_t *)v);
    }
}

/* A map's key k (a string) as the entry's key field f into v. */
PBJ_INLINE bool pbj__jin_map_key_as(pbj__json_in *j, const pbj_field *f, pbj_slice k, void *v)
{
    switch (f->type) {
    case PBJ_TYPE_STRING: return pbj__jin_key_string(j, k, (pbj_slice *)v);
    case PBJ_TYPE_BOOL: return pbj__jin_key_bool(j, k, (bool *)v);
    case PBJ_TYPE_INT64: case PBJ_TYPE_SINT64: case PBJ_TYPE_SFIXED64: return pbj__jin_key_int64(j, k, (int64_t *)v);
    case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: return pbj__jin_key_uint64(j, k, (uint64_t *)v);
    case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: return pbj__jin_key_uint32(j, k, (uint32_t *)v);
    default: return pbj__jin_key_int32(j, k, (int32_t *)v);
    }
}

/* A message value of f (its type f->sub) into the pointer at x (held by value: at x), one level deeper. */
PBJ_INLINE bool pbj__jin_sub(pbj__json_in *j, const pbj_field *f, uint8_t *x)
{
    void *e = x;
    if (f->mode == PBJ_MODE_BY_VALUE) pbj__table_init(f->sub, x);
    else if (!(e = pbj__jin_new(j, f->sub))) return false;
    else memcpy(x, &e, sizeof e);
    return pbj__jin_msg(j, f->sub, e) == PBJ_OK;
}

/* One value of f (a message's: a pointer to it) into the member at x; false on an error or a skipped enum name. */
PBJ_INLINE bool pbj__jin_member(pbj__json_in *j, const pbj_field *f, uint8_t *x, bool *keep)
{
    union { double d; int64_t i; pbj_slice s; } v;
    *keep = true;
    if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) return pbj__jin_sub(j, f, x);
    if (!pbj__jin_value(j, f, &v, keep)) return false;
    if (*keep) memcpy(x, &v, pbj__elem_size(f));
    return true;
}

/* An array member {T *data; size_t count;} at x: grown by one element (made empty for a message); NULL after an
 * error. */
PBJ_INLINE uint8_t *pbj__jin_append(pbj__json_in *j, const pbj_field *f, uint8_t *x, size_t size)
{
    void *data;
    size_t n;
    memcpy(&data, x, sizeof data);
    memcpy(&n, x + sizeof data, sizeof n);
    if (!(data = pbj__jin_more(j, data, n, size))) return NULL;
    memcpy(x, &data, sizeof data);
    n++;
    memcpy(x + sizeof data, &n, sizeof n);
    uint8_t *e = (uint8_t *)data + (n - 1) * size;
    if (f && (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP)) pbj__table_init(f->sub, e);
    return e;
}

/* A repeated field's array of values into the member at x. */
PBJ_INLINE pbj_status pbj__jin_list(pbj__json_in *j, const pbj_field *f, uint8_t *x)
{
    pbj__jin_obj list;
    bool message = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP, null_value = pbj__jin_null_is_value(f);
    size_t size = pbj__elem_size(f);
    if (!pbj__jin_array(j, &list)) return j->st;
    while (pbj__jin_next(j, &list)) {
        union { double d; int64_t i; pbj_slice s; } v;
        bool keep;
        uint8_t *e;
        if (!null_value && pbj__jin_null(j)) return pbj__jin_null_element(j);
        if (message) {
            if (!(e = pbj__jin_append(j, f, x, size)) || pbj__jin_msg(j, f->sub, e) != PBJ_OK) return j->st;
            continue;
        }
        memset(&v, 0, sizeof v);
        if (!pbj__jin_value(j, f, &v, &keep)) return j->st;
        if (!keep) continue;
        if (!(e = pbj__jin_append(j, NULL, x, size))) return j->st;
        memcpy(e, &v, size);
    }
    return j->st;
}

/* A map's object of entries (of type f->sub: key, value) into the member at x, sorted by key; a key twice is an
 * error. */
PBJ_INLINE pbj_status pbj__jin_map(pbj__json_in *j, const pbj_field *f, uint8_t *x)
{
    const pbj_table *et = f->sub;
    const pbj_field *kf = &et->fields[0], *vf = &et->fields[1];
    bool null_value = pbj__jin_null_is_value(vf);
    pbj__jin_obj map;
    pbj_slice mk;
    const uint8_t *at = j->p;
    void *data;
    size_t n;
    if (!pbj__jin_enter(j) || !pbj__jin_object(j, &map)) return j->st;   /* the entries: one level, as in binary */
    while (pbj__jin_map_key(j, &map, &mk)) {
        bool keep = true;
        uint8_t *e = pbj__jin_append(j, f, x, et->size);
        if (!e || !pbj__jin_map_key_as(j, kf, mk, e + kf->offset)) return j->st;
        if (!null_value && pbj__jin_null(j)) return pbj__jin_null_element(j);
        if (!pbj__jin_member(j, vf, e + vf->offset, &keep)) return j->st;
        if (!keep) {                                   /* an unknown enum name skipped: the entry with it */
            memcpy(&n, x + sizeof data, sizeof n);
            n--;
            memcpy(x + sizeof data, &n, sizeof n);
        }
    }
    if (j->st != PBJ_OK) return j->st;
    pbj__jin_leave(j);
    memcpy(&data, x, sizeof data);
    memcpy(&n, x + sizeof data, sizeof n);
    pbj__jin_map_done(j, &n, pbj_sort_unique(data, n, et->size, pbj__key_cmp_of(kf), j->arena), at);
    return j->st;
}

/* Oneof member f of t is set in m: its case. */
PBJ_INLINE void pbj__jin_set_case(const pbj_table *t, const pbj_field *f, void *m)
{
    const pbj_oneof *o = &t->oneofs[f->presence];
    uint8_t *c = (uint8_t *)m + o->case_offset, v8 = (uint8_t)f->number;
    uint16_t v16 = (uint16_t)f->number;
    if (o->case_size == 1) memcpy(c, &v8, 1);
    else if (o->case_size == 2) memcpy(c, &v16, 2);
    else memcpy(c, &f->number, 4);
}

/* Field f of t, after its key, into m: null leaves it unset (but is a Value's or NullValue's value). */
PBJ_INLINE pbj_status pbj__jin_field(pbj__json_in *j, const pbj_table *t, const pbj_field *f, void *m)
{
    uint8_t *x = (uint8_t *)m + f->offset;
    bool keep;
    if (f->mode == PBJ_MODE_REPEATED || f->mode == PBJ_MODE_MAP) {
        if (pbj__jin_null(j)) return j->st;
        return f->mode == PBJ_MODE_MAP ? pbj__jin_map(j, f, x) : pbj__jin_list(j, f, x);
    }
    if (!pbj__jin_null_is_value(f) && pbj__jin_null(j)) return j->st;
    if (f->mode == PBJ_MODE_ONEOF && !pbj__jin_oneof_free(j, (int)pbj__oneof_case(t, f, m))) return j->st;
    if (!pbj__jin_member(j, f, x, &keep) || !keep) return j->st;
    if (pbj__has_bit(f)) *((uint8_t *)m + f->presence) = 1;
    else if (f->mode == PBJ_MODE_ONEOF) pbj__jin_set_case(t, f, m);
    return j->st;
}

/* One value of extension f (null: none) as a record in ext: replacing its record (set) or after the others. */
PBJ_INLINE pbj_status pbj__jin_ext_value(pbj__json_in *j, const pbj_field *f, pbj_slice *ext, bool set)
{
    union { double d; int64_t i; pbj_slice s; } v;
    bool keep = true;
    void *x = &v;
    uint8_t *rec = NULL;
    size_t n;
    if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) {
        if (!(x = pbj__jin_new(j, f->sub)) || pbj__jin_msg(j, f->sub, x) != PBJ_OK) return j->st;
    } else if (!pbj__jin_value(j, f, &v, &keep) || !keep) return j->st;
    pbj_status st = pbj__ext_record_of(j->arena, f, x, &rec, &n);
    if (st == PBJ_OK) st = set ? pbj__ext_set(j->arena, ext, f->number, rec, n) : pbj__ext_insert(j->arena, ext, rec, n, f->number, false);
    pbj__jin_status(j, st);
    return j->st;
}

/* A packed extension's array: one record of every value. */
PBJ_INLINE pbj_status pbj__jin_ext_packed(pbj__json_in *j, const pbj_field *f, pbj_slice *ext)
{
    pbj__jin_obj list;
    uint64_t *ws = NULL;
    size_t n = 0;
    if (!pbj__jin_array(j, &list)) return j->st;
    while (pbj__jin_next(j, &list)) {
        union { double d; int64_t i; pbj_slice s; } v;
        bool keep;
        if (!pbj__jin_null_is_value(f) && pbj__jin_null(j)) return pbj__jin_null_element(j);
        if (!pbj__jin_value(j, f, &v, &keep)) return j->st;
        if (!keep) continue;
        if (!(ws = (uint64_t *)pbj__jin_more(j, ws, n, sizeof *ws))) return j->st;
        ws[n++] = pbj__tr_to_wire(f, &v);
    }
    if (j->st != PBJ_OK || !n) return j->st;
    pbj__jin_status(j, pbj__ext_packed_set(j->arena, f, ws, n, ext));
    return j->st;
}

/* Extension f (a row of t->exts), after its key: its records in ext. */
PBJ_INLINE pbj_status pbj__jin_ext(pbj__json_in *j, const pbj_field *f, pbj_slice *ext)
{
    pbj__jin_obj list;
    if (f->mode != PBJ_MODE_REPEATED) {
        if (!pbj__jin_null_is_value(f) && pbj__jin_null(j)) return j->st;
        return pbj__jin_ext_value(j, f, ext, true);
    }
    if (pbj__jin_null(j)) return j->st;
    if (f->flags & PBJ_F_PACKED) return pbj__jin_ext_packed(j, f, ext);
    if (!pbj__jin_array(j, &list)) return j->st;
    while (pbj__jin_next(j, &list)) {
        if (!pbj__jin_null_is_value(f) && pbj__jin_null(j)) return pbj__jin_null_element(j);
        if (pbj__jin_ext_value(j, f, ext, false) != PBJ_OK) return j->st;
    }
    return j->st;
}

/* Whether the pool string z is key (its first byte compared here: most rows differ there). */
PBJ_INLINE bool pbj__jin_is(const char *z, pbj_slice key)
{
    const char *s = (const char *)pbj_slice_data(key);
    return key.len ? *z == *s && pbj__name_cmp(z, s, key.len) == 0 : *z == 0;
}

/* Row i of t's fields then its extensions' names: its JSON name, or (proto) its .proto one (a group field's follows
 * its JSON name; an extension's is the text format's "[pkg.ext]"). */
PBJ_INLINE const char *pbj__jin_row_name(const pbj_table *t, uint32_t i, bool proto)
{
    bool ext = i >= t->count;
    const pbj_field *f = ext ? &t->exts[i - t->count] : &t->fields[i];
    const char *json = t->pool + f->json_name;
    if (!proto) return json;
    return f->type == PBJ_TYPE_GROUP && !ext ? json + strlen(json) + 1 : t->pool + f->name;
}

/* Whether row i of t's fields then extensions is one JSON reads: not an extension whose type t cannot name. */
PBJ_INLINE bool pbj__jin_row_typed(const pbj_table *t, uint32_t i)
{
    return i < t->count || !(t->exts[i - t->count].flags & PBJ_F_UNTYPED);
}

/* The index of the row named key: t's fields first, then its extensions (count + i); -1 for none. JSON names are
 * looked at first, from *next on (the row after the last one found: input in field order finds each key at once),
 * then .proto names. */
PBJ_INLINE int32_t pbj__jin_lookup(const pbj_table *t, pbj_slice key, uint32_t *next)
{
    uint32_t n = t->count + t->ext_count;
    for (int proto = 0; proto < 2; proto++)
        for (uint32_t k = 0, i = *next; k < n; k++, i = i + 1 < n ? i + 1 : 0)
            if (pbj__jin_is(pbj__jin_row_name(t, i, proto), key) && pbj__jin_row_typed(t, i)) {
                *next = i + 1 < n ? i + 1 : 0;
                return (int32_t)i;
            }
    return -1;
}

/* An object of t's fields (and extensions) into m, each at most once. */
PBJ_INLINE pbj_status pbj__jin_fields(pbj__json_in *j, const pbj_table *t, void *m)
{
    uint8_t small[16] = {0}, *seen = small;
    size_t bytes = (t->count + t->ext_count) / 8 + 1;
    uint32_t next = 0;
    pbj__jin_obj ob;
    pbj_slice key;
    if (bytes > sizeof small) {
        if (!(seen = (uint8_t *)pbj__jin_alloc(j, bytes))) return j->st;
        memset(seen, 0, bytes);
    }
    if (!pbj__jin_object(j, &ob)) return j->st;
    while (pbj__jin_key(j, &ob, &key)) {
        int32_t k = pbj__jin_lookup(t, key, &next);
        if (k < 0) {
            if (!pbj__jin_unknown(j)) return j->st;
        } else if (!pbj__jin_once(j, seen, k)) {
            return j->st;
        } else if ((uint32_t)k < t->count) {
            if (pbj__jin_field(j, t, &t->fields[k], m) != PBJ_OK) return j->st;
        } else if (pbj__jin_ext(j, &t->exts[(uint32_t)k - t->count], (pbj_slice *)(void *)((uint8_t *)m + t->ext)) != PBJ_OK)
            return j->st;
    }
    return j->st;
}

/* A Value: its kind by the JSON value's first byte. */
PBJ_INLINE pbj_status pbj__jin_kind(pbj__json_in *j, const pbj_table *t, void *m)
{
    uint32_t kind;
    bool keep;
    switch (pbj__jin_peek(j)) {
    case '{': kind = 5; break;                             /* struct_value */
    case '[': kind = 6; break;                             /* list_value */
    case '"': kind = 3; break;                             /* string_value */
    case 't': case 'f': kind = 4; break;                   /* bool_value */
    default: kind = pbj__jin_null(j) ? 1 : 2; break;      /* null_value, number_value */
    }
    const pbj_field *f = pbj_table_find(t, kind);
    if (!f) return pbj__jin_fail(j, j->p, "expected a value"), j->st;
    uint8_t *x = (uint8_t *)m + f->offset;
    if (kind == 1) {
        int32_t zero = 0;
        memcpy(x, &zero, sizeof zero);
    } else if (kind == 5 || kind == 6) {
        void *e = pbj__jin_new(j, f->sub);
        if (!e) return j->st;
        memcpy(x, &e, sizeof e);
        pbj__jin_set_case(t, f, m);
        return pbj__jin_msg(j, f->sub, e);
    } else if (!pbj__jin_value(j, f, x, &keep)) return j->st;
    pbj__jin_set_case(t, f, m);
    return PBJ_OK;
}

/* m in t's form: an object of fields, or a well-known type's own. */
PBJ_INLINE pbj_status pbj__jin_form(pbj__json_in *j, const pbj_table *t, void *m)
{
    const pbj_field *a = t->count ? &t->fields[0] : NULL, *b = t->count > 1 ? &t->fields[1] : NULL;
    uint8_t *x = a ? (uint8_t *)m + a->offset : NULL;
    bool keep;
    switch (t->wkt) {
    case PBJ_WKT_NONE: case PBJ_WKT_EMPTY: return pbj__jin_fields(j, t, m);
    case PBJ_WKT_ANY: return pbj__jin_any(j, (pbj_slice *)(void *)x, (pbj_slice *)(void *)((uint8_t *)m + b->offset)) ? PBJ_OK : j->st;
    case PBJ_WKT_TIMESTAMP: case PBJ_WKT_DURATION: {
        int64_t seconds;
        int32_t nanos;
        bool ok = t->wkt == PBJ_WKT_TIMESTAMP ? pbj__jin_timestamp(j, &seconds, &nanos) : pbj__jin_duration(j, &seconds, &nanos);
        if (!ok) return j->st;
        memcpy(x, &seconds, sizeof seconds);
        memcpy((uint8_t *)m + b->offset, &nanos, sizeof nanos);
        return PBJ_OK;
    }
    case PBJ_WKT_FIELD_MASK: {
        pbj_slice *paths;
        size_t count;
        memcpy(&paths, x, sizeof paths);
        memcpy(&count, x + sizeof paths, sizeof count);
        bool ok = pbj__jin_field_mask(j, &paths, &count);
        memcpy(x, &paths, sizeof paths);
        memcpy(x + sizeof paths, &count, sizeof count);
        return ok ? PBJ_OK : j->st;
    }
    case PBJ_WKT_VALUE: return pbj__jin_kind(j, t, m);
    case PBJ_WKT_STRUCT: return pbj__jin_map(j, a, x);
    case PBJ_WKT_LIST_VALUE: return pbj__jin_list(j, a, x);
    default:                                            /* the wrappers: their value */
        if (pbj__jin_member(j, a, x, &keep)) return PBJ_OK;
        return j->st;
    }
}

#endif

/* Message m of t's type read, one level deeper (as binary decode counts messages). */
PBJ_OUTLINE_WARM pbj_status pbj__jin_msg(pbj__json_in *j, const pbj_table *t, void *m) PBJ__PROTO
#if PBJ__BODIES
{
    if (!pbj__jin_enter(j)) return j->st;
    pbj_status st = pbj__jin_form(j, t, m);
    pbj__jin_leave(j);
    return st;
}

#endif

/* m, a message of t's type, read from JSON (M_from_json): made empty first, strings, bytes and arrays in arena;
 * PBJ_ERR_SYNTAX (o->error says where and why), PBJ_ERR_DEPTH, PBJ_ERR_TOO_LONG, PBJ_ERR_NOMEM; o may be NULL. */
PBJ_OUTLINE_WARM pbj_status pbj_table_from_json(const pbj_table *t, void *m, const char *json, size_t len, pbj_arena *arena,
                                           const pbj_json_options *o) PBJ__PROTO
#if PBJ__BODIES
{
    pbj__json_in j;
    pbj__jin_in_init(&j, json, len, arena, o);
    pbj__table_init(t, m);
    return pbj__jin_in_finish(&j, j.st == PBJ_OK ? pbj__jin_msg(&j, t, m) : j.st);
}
#endif

#ifdef __cplusplus
}
#endif

#endif
