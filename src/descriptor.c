/* descriptor.c: the resolved IR as a google.protobuf.FileDescriptorSet, byte for byte as protoc 3.21 writes it. */
#include "descriptor.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "numtext.h"
#include "../rt/pbj.h"    /* the varint writer, float and double bits */
#include "resolve.h"
#include "std_options.h"

/* protoc's FileDescriptor::CopyTo + CopyJsonNameTo, serialized by generated
 * code: every message's fields in field-number order, repeated elements in
 * declaration order. Options go through protoc's OptionInterpreter, which
 * leaves standard options as known fields (number order) and custom ones as
 * unknown fields after them, in the order the option statements were written. */

/* ---- a growable wire buffer --------------------------------------------- */

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_SGROUP = 3, WT_EGROUP = 4, WT_I32 = 5 };

typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
} wbuf;

static void wb_need(wbuf *b, size_t k)
{
    if (b->n + k <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + k)
        cap *= 2;
    b->p = realloc(b->p, cap);
    if (!b->p)
        abort();
    b->cap = cap;
}

static void wb_put(wbuf *b, const void *data, size_t k)
{
    if (k == 0)
        return;
    wb_need(b, k);
    memcpy(b->p + b->n, data, k);
    b->n += k;
}

static void wb_varint(wbuf *b, uint64_t v)
{
    uint8_t tmp[10];
    wb_put(b, tmp, (size_t)(pbj_put_varint(tmp, v) - tmp));
}

static void wb_fixed(wbuf *b, uint64_t v, int bytes)
{
    uint8_t tmp[8];
    for (int i = 0; i < bytes; i++)
        tmp[i] = (uint8_t)(v >> (8 * i));          /* little-endian on any host */
    wb_put(b, tmp, (size_t)bytes);
}

static void wb_tag(wbuf *b, uint32_t field, int wire_type)
{
    wb_varint(b, (uint64_t)field << 3 | (uint64_t)wire_type);
}

static void put_varint(wbuf *b, uint32_t field, uint64_t v)
{
    wb_tag(b, field, WT_VARINT);
    wb_varint(b, v);
}

static void put_int32(wbuf *b, uint32_t field, int32_t v)
{
    put_varint(b, field, (uint64_t)(int64_t)v);    /* negatives take ten bytes */
}

static void put_bytes(wbuf *b, uint32_t field, const void *data, size_t len)
{
    wb_tag(b, field, WT_LEN);
    wb_varint(b, len);
    wb_put(b, data, len);
}

static void put_string(wbuf *b, uint32_t field, const char *s)
{
    if (s)
        put_bytes(b, field, s, strlen(s));
}

/* A message value of field number: length-delimited, or between group tags. */
static void put_message_bytes(wbuf *b, uint32_t field, bool group, const void *data, size_t len)
{
    if (!group) {
        put_bytes(b, field, data, len);
        return;
    }
    wb_tag(b, field, WT_SGROUP);
    wb_put(b, data, len);
    wb_tag(b, field, WT_EGROUP);
}

/* A type reference: ".pkg.Name" when it was resolved (full_name), else the name as written. */
static void put_type_ref(wbuf *b, uint32_t field, const char *full_name, const char *written)
{
    if (!full_name) {
        put_string(b, field, written);
        return;
    }
    wb_tag(b, field, WT_LEN);
    wb_varint(b, strlen(full_name) + 1);
    wb_put(b, ".", 1);
    wb_put(b, full_name, strlen(full_name));
}

/* A length-delimited field whose size is known only once written: open, write, close. */
static size_t open_len(wbuf *b, uint32_t field)
{
    wb_tag(b, field, WT_LEN);
    return b->n;
}

static void close_len(wbuf *b, size_t start)
{
    uint8_t tmp[10];
    size_t len = b->n - start, k = (size_t)(pbj_put_varint(tmp, len) - tmp);
    wb_need(b, k);
    memmove(b->p + start + k, b->p + start, len);
    memcpy(b->p + start, tmp, k);
    b->n += k;
}

/* ---- the writer's context ----------------------------------------------- */

typedef struct writer {
    const ir_program *prog;
    const ir_file *file;         /* the file being written, for diagnostics */
    int errors;
} writer;

#define WRITER_ERROR(w, loc, ...)                                                 \
    do {                                                                          \
        diag_error((w)->file, (loc), __VA_ARGS__);                                \
        (w)->errors++;                                                            \
    } while (0)

/* ---- standard options: descriptor.proto 3.21, from src/std_options.h ------ */

static bool is_ident(const ir_value *v, const char *s)
{
    return v->kind == IR_VAL_IDENT && !v->negative && strcmp(v->text, s) == 0;
}

/* One standard option as its field of the options message. */
static void put_std_option(writer *w, wbuf *b, const std_option *so, const ir_option *o)
{
    const ir_value *v = &o->value;
    if (so->kind == KIND_STRING) {
        if (v->kind != IR_VAL_STRING) {
            WRITER_ERROR(w, v->loc, "Value must be quoted string for string option \"google.protobuf.%s.%s\".",
                         std_scope_message(so->scope), so->name);
            return;
        }
        put_bytes(b, so->number, v->str, v->str_len);
    } else if (so->kind == KIND_BOOL) {
        if (!is_ident(v, "true") && !is_ident(v, "false")) {
            WRITER_ERROR(w, v->loc, "Value must be \"true\" or \"false\" for boolean option \"google.protobuf.%s.%s\".",
                         std_scope_message(so->scope), so->name);
            return;
        }
        put_varint(b, so->number, is_ident(v, "true"));
    } else {
        const std_enum_value *ev;
        for (size_t i = 0; (ev = std_enum_value_at(i)); i++)
            if (ev->kind == so->kind && is_ident(v, ev->name)) {
                put_int32(b, so->number, ev->number);
                return;
            }
        WRITER_ERROR(w, v->loc, "Value must be identifier for enum-valued option \"google.protobuf.%s.%s\".",
                     std_scope_message(so->scope), so->name);
    }
}

/* ---- "was already set": protoc's ExamineIfOptionIsSet on what is written ---- */

static uint64_t wire_varint(const uint8_t **p, const uint8_t *end)
{
    uint64_t v = 0;
    for (int shift = 0; *p < end && shift < 64; shift += 7) {
        uint8_t c = *(*p)++;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            break;
    }
    return v;
}

/* One field of [*p, end): its number, wire type and value bytes (a group's content); false at the end. */
static bool wire_field(const uint8_t **p, const uint8_t *end, uint32_t *num, int *wire_type, const uint8_t **val,
                       size_t *len)
{
    if (*p >= end)
        return false;
    uint64_t tag = wire_varint(p, end);
    *num = (uint32_t)(tag >> 3);
    *wire_type = (int)(tag & 7);
    *val = *p;
    size_t skip = *wire_type == WT_I64 ? 8 : *wire_type == WT_I32 ? 4 : 0;
    if (*wire_type == WT_VARINT) {
        wire_varint(p, end);
    } else if (*wire_type == WT_LEN) {
        skip = (size_t)wire_varint(p, end);
        *val = *p;
    } else if (*wire_type == WT_SGROUP) {                 /* up to its end tag */
        uint32_t inner;
        int inner_type;
        const uint8_t *before = *p, *v;
        size_t n;
        while (wire_field(p, end, &inner, &inner_type, &v, &n) && inner_type != WT_EGROUP)
            before = *p;
        *len = (size_t)(before - *val);
        return true;
    }
    *p = skip <= (size_t)(end - *p) ? *p + skip : end;
    *len = (size_t)(*p - *val);
    return true;
}

/* Whether the fields [p, end) already set the field path nums[0..n) ends at, through
 * every message (or group) value of the fields before it, as protoc's ExamineIfOptionIsSet. */
static bool path_is_set(const uint8_t *p, const uint8_t *end, const uint32_t *nums, size_t n)
{
    uint32_t num;
    int wire_type;
    const uint8_t *val;
    size_t len;
    while (wire_field(&p, end, &num, &wire_type, &val, &len)) {
        if (num != nums[0] || wire_type == WT_EGROUP)
            continue;
        if (n == 1)
            return true;
        if ((wire_type == WT_LEN || wire_type == WT_SGROUP) && path_is_set(val, val + len, nums + 1, n - 1))
            return true;
    }
    return false;
}

/* protoc's "was already set", for a singular option whose path is nums, against the options
 * message written from b->p + start on. */
static bool option_unset(writer *w, const wbuf *b, size_t start, const ir_option *o, const uint32_t *nums)
{
    if (!path_is_set(b->p + start, b->p + b->n, nums, o->name.n))
        return true;
    WRITER_ERROR(w, o->loc, "Option \"%s\" was already set.", resolve_option_name(o, o->name.n));
    return false;
}

/* ---- custom options: extension fields of the options message ----------- */

static void put_field_value(writer *w, wbuf *b, const ir_field *f, const ir_value *v);
static void put_option_path(writer *w, wbuf *b, const ir_field *const *path, size_t n, const ir_value *value);

/* The field a name part denotes inside message m (NULL for the options message). */
static const ir_field *option_part_field(writer *w, const ir_option *o, size_t i, const ir_message *m)
{
    const ir_optname_part *p = &o->name.v[i];
    if (p->extension) {
        if (!p->ext)
            WRITER_ERROR(w, o->loc, "Option \"(%s)\" unknown.", p->name);
        return p->ext;
    }
    if (m)
        for (size_t k = 0; k < m->fields.n; k++)
            if (strcmp(m->fields.v[k]->name, p->name) == 0)
                return m->fields.v[k];
    WRITER_ERROR(w, o->loc, "Option field \"%s\" is not a field or extension of \"%s\".",
                 p->name, m ? m->full_name : "the options message");
    return NULL;
}

/* (a).b.c = v: the leaf's value wrapped in one submessage per intermediate part; the
 * options message being written starts at b->p + start. */
static void put_custom_option(writer *w, wbuf *b, size_t start, const ir_option *o)
{
    size_t n = o->name.n;
    const ir_field **path = malloc(n * sizeof *path);
    uint32_t *nums = malloc(n * sizeof *nums);
    if (!path || !nums)
        abort();
    const ir_message *m = NULL;
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        path[i] = option_part_field(w, o, i, m);
        ok = path[i] != NULL;
        if (!ok)
            break;
        nums[i] = (uint32_t)path[i]->number;
        m = path[i]->message_type;
        if (i + 1 < n && !m) {
            WRITER_ERROR(w, o->loc, "Option \"%s\" is an atomic type, not a message.", o->name.v[i].name);
            ok = false;
        }
    }
    bool repeated = ok && (path[n - 1]->label == IR_LABEL_REPEATED || path[n - 1]->is_map);
    if (ok && (repeated || option_unset(w, b, start, o, nums)))
        put_option_path(w, b, path, n, &o->value);
    free(nums);
    free(path);
}

/* The value of path[n - 1], nested in one message value per part before it. */
static void put_option_path(writer *w, wbuf *b, const ir_field *const *path, size_t n, const ir_value *value)
{
    wbuf inner = { 0 };
    put_field_value(w, &inner, path[n - 1], value);
    for (size_t i = n - 1; i-- > 0;) {
        wbuf outer = { 0 };
        put_message_bytes(&outer, (uint32_t)path[i]->number, path[i]->type == IR_TYPE_GROUP, inner.p, inner.n);
        free(inner.p);
        inner = outer;
    }
    wb_put(b, inner.p, inner.n);
    free(inner.p);
}

/* The options message of one element: standard options by number, then custom ones as written. */
static void put_options(writer *w, wbuf *b, uint32_t field, std_scope scope, const ir_options *opts,
                        bool map_entry)
{
    if (opts->n == 0 && !map_entry)
        return;
    size_t start = open_len(b, field);
    const std_option *map_entry_opt = std_option_find(SCOPE_MESSAGE, "map_entry");
    bool map_entry_done = !map_entry;
    uint32_t last = 0;
    for (;;) {                                   /* standard ones, ascending field number */
        uint32_t next = UINT32_MAX;
        for (size_t i = 0; i < opts->n; i++) {
            const ir_option *o = &opts->v[i];
            const std_option *so = o->name.v[0].extension ? NULL : std_option_find(scope, o->name.v[0].name);
            if (so && so->number > last && so->number < next)
                next = so->number;
        }
        if (!map_entry_done && map_entry_opt->number > last && map_entry_opt->number < next)
            next = map_entry_opt->number;
        if (next == UINT32_MAX)
            break;
        for (size_t i = 0; i < opts->n; i++) {
            const ir_option *o = &opts->v[i];
            const std_option *so = o->name.v[0].extension ? NULL : std_option_find(scope, o->name.v[0].name);
            if (so && so->number == next) {
                if (o->name.n > 1)
                    WRITER_ERROR(w, o->loc, "Option \"%s\" is an atomic type, not a message.", so->name);
                else if (option_unset(w, b, start, o, &so->number))
                    put_std_option(w, b, so, o);
                if (so == map_entry_opt)
                    map_entry_done = true;
            }
        }
        if (!map_entry_done && next == map_entry_opt->number) {
            put_varint(b, next, 1);
            map_entry_done = true;
        }
        last = next;
    }
    for (size_t i = 0; i < opts->n; i++) {
        const ir_option *o = &opts->v[i];
        if (o->name.v[0].extension)
            put_custom_option(w, b, start, o);
        else if (!std_option_find(scope, o->name.v[0].name))
            WRITER_ERROR(w, o->loc, "Option \"%s\" unknown.", o->name.v[0].name);
    }
    close_len(b, start);
}

/* ---- option values ------------------------------------------------------ */

static const ir_enum_value *enum_value_named(const ir_enum *e, const char *name)
{
    for (size_t i = 0; e && i < e->values.n; i++)
        if (strcmp(e->values.v[i]->name, name) == 0)
            return e->values.v[i];
    return NULL;
}

/* An integer option value in the range of f's type, as the bits it is written with. */
static bool value_as_int(writer *w, const ir_value *v, const ir_field *f, uint64_t *out)
{
    int64_t lo;
    uint64_t hi;
    numtext_int_range(f->type, &lo, &hi);
    if (v->kind != IR_VAL_INT) {
        WRITER_ERROR(w, v->loc, "Value must be integer for %s option \"%s\".",
                     ir_type_keyword(f->type), f->full_name ? f->full_name : f->name);
        return false;
    }
    if (!numtext_int_fits(v, lo, hi)) {
        WRITER_ERROR(w, v->loc, "Value out of range for %s option \"%s\".",
                     ir_type_keyword(f->type), f->full_name ? f->full_name : f->name);
        return false;
    }
    *out = v->negative ? (uint64_t)0 - v->u : v->u;
    if (f->type == IR_TYPE_SINT32)
        *out = (uint32_t)((uint32_t)*out << 1 ^ (uint32_t)((int32_t)*out >> 31));
    else if (f->type == IR_TYPE_SINT64)
        *out = *out << 1 ^ (uint64_t)((int64_t)*out >> 63);
    return true;
}

/* A scalar field: its tag, then bits as a varint or 4 or 8 little-endian bytes. */
static void put_scalar(wbuf *b, uint32_t field, int wire_type, uint64_t bits)
{
    wb_tag(b, field, wire_type);
    if (wire_type == WT_VARINT)
        wb_varint(b, bits);
    else
        wb_fixed(b, bits, wire_type == WT_I32 ? 4 : 8);
}

static bool put_aggregate(writer *w, wbuf *b, const ir_field *f, const ir_value *v);

/* A float option value: rounded to float as protoc does (IEEE, not C's cast). */
static uint32_t float_bits(double d) { return pbj_float_bits(numtext_to_float(d)); }

/* One value of extension or field f, tag included, as protoc's SetOptionValue. */
static void put_field_value(writer *w, wbuf *b, const ir_field *f, const ir_value *v)
{
    uint32_t num = (uint32_t)f->number;
    uint64_t u;
    double d;
    switch (f->type) {
    case IR_TYPE_INT32: case IR_TYPE_SINT32: case IR_TYPE_SFIXED32: case IR_TYPE_INT64: case IR_TYPE_SINT64:
    case IR_TYPE_SFIXED64: case IR_TYPE_UINT32: case IR_TYPE_FIXED32: case IR_TYPE_UINT64: case IR_TYPE_FIXED64:
        if (value_as_int(w, v, f, &u))
            put_scalar(b, num, ir_type_wire_type(f->type), u);
        break;
    case IR_TYPE_FLOAT:
    case IR_TYPE_DOUBLE:
        if (!numtext_value(v, false, &d)) {
            WRITER_ERROR(w, v->loc, "Value must be number for %s option \"%s\".",
                         ir_type_keyword(f->type), f->full_name ? f->full_name : f->name);
        } else {
            put_scalar(b, num, ir_type_wire_type(f->type), f->type == IR_TYPE_FLOAT ? float_bits(d) : pbj_double_bits(d));
        }
        break;
    case IR_TYPE_BOOL:
        if (!is_ident(v, "true") && !is_ident(v, "false"))
            WRITER_ERROR(w, v->loc, "Value must be \"true\" or \"false\" for boolean option \"%s\".",
                         f->full_name ? f->full_name : f->name);
        else
            put_varint(b, num, is_ident(v, "true"));
        break;
    case IR_TYPE_ENUM: {
        const ir_enum_value *ev = v->kind == IR_VAL_IDENT && !v->negative ? enum_value_named(f->enum_type, v->text) : NULL;
        if (!ev)
            WRITER_ERROR(w, v->loc, "Value must be identifier naming a value of enum \"%s\" for option \"%s\".",
                         f->enum_type ? f->enum_type->full_name : "?", f->full_name ? f->full_name : f->name);
        else
            put_int32(b, num, ev->number);
        break;
    }
    case IR_TYPE_STRING:
    case IR_TYPE_BYTES:
        if (v->kind != IR_VAL_STRING)
            WRITER_ERROR(w, v->loc, "Value must be quoted string for string option \"%s\".",
                         f->full_name ? f->full_name : f->name);
        else
            put_bytes(b, num, v->str, v->str_len);
        break;
    case IR_TYPE_MESSAGE:
    case IR_TYPE_GROUP:
        if (v->kind != IR_VAL_AGGREGATE)
            WRITER_ERROR(w, v->loc, "Option \"%s\" is a message. To set the entire message, use syntax like "
                         "\"%s = { <proto text format> }\". To set fields within it, use syntax like "
                         "\"%s.foo = value\".", f->name, f->name, f->name);
        else
            put_aggregate(w, b, f, v);
        break;
    default:
        WRITER_ERROR(w, v->loc, "Option \"%s\" has an unresolved type.", f->name);
        break;
    }
}

/* ---- aggregate option values: protobuf text format of a message -------- */

/* A text-format token: an identifier, a number, a string, or one punctuation byte. */
typedef enum tf_kind { TF_END, TF_IDENT, TF_NUMBER, TF_STRING, TF_SYMBOL } tf_kind;

typedef struct tf_lexer {
    writer *w;
    ir_loc loc;                  /* the option value, for diagnostics */
    const char *option;          /* the option's name, for diagnostics */
    const char *p;
    tf_kind kind;
    const char *tok;             /* the current token's text and length */
    size_t len;
} tf_lexer;

static bool is_alpha_(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static void tf_next(tf_lexer *lx)
{
    const char *p = lx->p;
    for (;;) {                                     /* whitespace and # comments */
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
            p++;
        if (*p != '#')
            break;
        while (*p && *p != '\n')
            p++;
    }
    lx->tok = p;
    if (!*p) {
        lx->kind = TF_END;
    } else if (is_alpha_((unsigned char)*p)) {
        lx->kind = TF_IDENT;
        while (is_alpha_((unsigned char)*p) || is_digit((unsigned char)*p))
            p++;
    } else if (is_digit((unsigned char)*p) || (*p == '.' && is_digit((unsigned char)p[1]))) {
        lx->kind = TF_NUMBER;
        while (is_alpha_((unsigned char)*p) || is_digit((unsigned char)*p) || *p == '.' ||
               ((*p == '-' || *p == '+') && (p[-1] == 'e' || p[-1] == 'E') &&
                !(lx->tok[0] == '0' && (lx->tok[1] == 'x' || lx->tok[1] == 'X'))))
            p++;
    } else if (*p == '"' || *p == '\'') {
        lx->kind = TF_STRING;
        char q = *p++;
        while (*p && *p != q && *p != '\n')
            p += (*p == '\\' && p[1]) ? 2 : 1;
        if (*p == q)
            p++;
    } else {
        lx->kind = TF_SYMBOL;
        p++;
    }
    lx->len = (size_t)(p - lx->tok);
    lx->p = p;
}

static bool tf_is(const tf_lexer *lx, const char *s)
{
    return lx->kind != TF_END && lx->kind != TF_STRING && strlen(s) == lx->len && memcmp(lx->tok, s, lx->len) == 0;
}

static bool tf_accept(tf_lexer *lx, const char *s)
{
    if (!tf_is(lx, s))
        return false;
    tf_next(lx);
    return true;
}

/* protoc's wording: Error while parsing option value for "name": what went wrong. */
static bool tf_error(tf_lexer *lx, const char *fmt, ...) DIAG_PRINTF(2, 3);
static bool tf_error(tf_lexer *lx, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    WRITER_ERROR(lx->w, lx->loc, "Error while parsing option value for \"%s\": %s", lx->option, msg);
    return false;
}

static bool tf_fail(tf_lexer *lx, const char *what)
{
    return tf_error(lx, "Expected %s, found \"%.*s\".", what, (int)(lx->kind == TF_END ? 3 : (int)lx->len),
                    lx->kind == TF_END ? "end" : lx->tok);
}

static bool tf_expect(tf_lexer *lx, const char *s)
{
    return tf_accept(lx, s) || tf_fail(lx, s);
}

static int hex_value(int c)
{
    return is_digit(c) ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
}

static void utf8_put(wbuf *b, uint32_t cp)
{
    uint8_t u[4];
    size_t k;
    if (cp < 0x80) { u[0] = (uint8_t)cp; k = 1; }
    else if (cp < 0x800) { u[0] = (uint8_t)(0xC0 | cp >> 6); u[1] = (uint8_t)(0x80 | (cp & 0x3F)); k = 2; }
    else if (cp < 0x10000) { u[0] = (uint8_t)(0xE0 | cp >> 12); u[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
                             u[2] = (uint8_t)(0x80 | (cp & 0x3F)); k = 3; }
    else { u[0] = (uint8_t)(0xF0 | cp >> 18); u[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
           u[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F)); u[3] = (uint8_t)(0x80 | (cp & 0x3F)); k = 4; }
    wb_put(b, u, k);
}

/* One quoted literal, escapes applied, appended to out. */
static void tf_unquote(const char *s, size_t len, wbuf *out)
{
    const char *e = s + len - (len >= 2 && s[len - 1] == s[0]);
    for (const char *p = s + 1; p < e;) {
        if (*p != '\\' || p + 1 >= e) {
            wb_put(out, p++, 1);
            continue;
        }
        p++;
        char c = *p++;
        uint8_t byte;
        switch (c) {
        case 'n': byte = '\n'; break;
        case 't': byte = '\t'; break;
        case 'r': byte = '\r'; break;
        case 'a': byte = '\a'; break;
        case 'b': byte = '\b'; break;
        case 'f': byte = '\f'; break;
        case 'v': byte = '\v'; break;
        case 'x': case 'X': {
            unsigned v = 0;
            for (int k = 0; k < 2 && p < e && hex_value((unsigned char)*p) >= 0; k++)
                v = v * 16 + (unsigned)hex_value((unsigned char)*p++);
            byte = (uint8_t)v;
            break;
        }
        case 'u': case 'U': {
            uint32_t v = 0;
            for (int k = 0; k < (c == 'u' ? 4 : 8) && p < e && hex_value((unsigned char)*p) >= 0; k++)
                v = v * 16 + (uint32_t)hex_value((unsigned char)*p++);
            utf8_put(out, v);
            continue;
        }
        default:
            if (c >= '0' && c <= '7') {
                unsigned v = (unsigned)(c - '0');
                for (int k = 0; k < 2 && p < e && *p >= '0' && *p <= '7'; k++)
                    v = v * 8 + (unsigned)(*p++ - '0');
                byte = (uint8_t)v;
            } else {
                byte = (uint8_t)c;               /* \\ \' \" \? */
            }
        }
        wb_put(out, &byte, 1);
    }
}

/* One field's payload in a message being assembled: what follows the tag. */
typedef struct tf_entry {
    const ir_field *field;
    wbuf payload;                /* varint / fixed bytes, or the content of a LEN or group */
    size_t order;                /* parse order, to keep the sort stable */
} tf_entry;

typedef IR_VEC(tf_entry) tf_entries;

static bool tf_message(tf_lexer *lx, const ir_message *m, const char *close, wbuf *out);

static bool field_is_packed(const ir_field *f)
{
    if (f->label != IR_LABEL_REPEATED || !ir_type_is_packable(f->type))
        return false;
    const char *packed = ir_option_find(&f->options, "packed");
    if (packed)
        return strcmp(packed, "true") == 0;
    return f->file && f->file->syntax == IR_PROTO3;
}

/* proto3 fields without presence are not written when they hold their zero value. */
static bool field_has_presence(const ir_field *f)
{
    return f->label == IR_LABEL_REPEATED || !f->file || f->file->syntax != IR_PROTO3 || f->proto3_optional ||
           f->oneof || f->extend || f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP ||
           (f->parent && f->parent->map_entry);      /* map entries keep a zero key or value */
}

static bool payload_is_zero(const ir_field *f, const wbuf *p)
{
    if (f->type == IR_TYPE_STRING || f->type == IR_TYPE_BYTES)
        return p->n == 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->p[i] != 0)
            return false;
    return true;
}

/* A scalar text-format value of field f (the lexer is on it) into payload. */
static bool tf_scalar(tf_lexer *lx, const ir_field *f, wbuf *payload)
{
    bool negative = tf_accept(lx, "-");
    ir_value v = { .kind = IR_VAL_IDENT, .loc = lx->loc, .negative = negative };
    char text[128];
    if (lx->kind == TF_STRING && !negative) {
        wbuf s = { 0 };
        while (lx->kind == TF_STRING) {                 /* adjacent literals concatenate */
            tf_unquote(lx->tok, lx->len, &s);
            tf_next(lx);
        }
        if (f->type != IR_TYPE_STRING && f->type != IR_TYPE_BYTES) {
            free(s.p);
            return tf_fail(lx, "a non-string value");
        }
        wb_put(payload, s.p, s.n);
        free(s.p);
        return true;
    }
    if ((lx->kind != TF_IDENT && lx->kind != TF_NUMBER) || lx->len >= sizeof text)
        return tf_fail(lx, "a value");
    memcpy(text, lx->tok, lx->len);
    text[lx->len] = 0;
    bool number = lx->kind == TF_NUMBER;
    tf_next(lx);
    v.text = text;
    if (number) {
        char *end;
        errno = 0;
        bool hex_or_octal = text[0] == '0' && text[1] != '.' && text[1] != 'e' && text[1] != 'E' && text[1];
        unsigned long long u = strtoull(text, &end, 0);
        if (!*end && errno == 0) {
            v.kind = IR_VAL_INT;
            v.u = u;
            v.d = negative ? -(double)u : (double)u;
        } else if (hex_or_octal && !strchr(text, '.')) {
            return tf_fail(lx, "an integer in range");
        } else {
            size_t n = strlen(text);
            if (n && (text[n - 1] == 'f' || text[n - 1] == 'F'))
                text[n - 1] = 0;                        /* 1.5f */
            v.kind = IR_VAL_FLOAT;
            v.d = strtod(text, &end);
            if (*end)
                return tf_fail(lx, "a number");
            v.d = negative ? -v.d : v.d;
        }
    }
    double d;
    switch (f->type) {
    case IR_TYPE_FLOAT:
    case IR_TYPE_DOUBLE:
        if (v.kind == IR_VAL_IDENT) {
            for (char *c = text; *c; c++)
                *c = (char)(*c | 0x20);
            if (strcmp(text, "infinity") == 0)
                strcpy(text, "inf");
        }
        if (!numtext_value(&v, true, &d))
            return tf_fail(lx, "a number");
        if (f->type == IR_TYPE_FLOAT)
            wb_fixed(payload, float_bits(d), 4);
        else
            wb_fixed(payload, pbj_double_bits(d), 8);
        return true;
    case IR_TYPE_BOOL:
        if (v.kind == IR_VAL_INT && v.u <= 1 && !negative) {
            wb_varint(payload, v.u);
            return true;
        }
        if (!negative && (!strcmp(text, "true") || !strcmp(text, "True") || !strcmp(text, "t"))) {
            wb_varint(payload, 1);
            return true;
        }
        if (!negative && (!strcmp(text, "false") || !strcmp(text, "False") || !strcmp(text, "f"))) {
            wb_varint(payload, 0);
            return true;
        }
        return tf_fail(lx, "true or false");
    case IR_TYPE_ENUM:
        if (v.kind == IR_VAL_INT) {
            if (v.u > (negative ? (uint64_t)INT32_MAX + 1 : (uint64_t)INT32_MAX))
                return tf_fail(lx, "an enum number in range");
            wb_varint(payload, negative ? (uint64_t)0 - v.u : v.u);
            return true;
        }
        if (v.kind == IR_VAL_IDENT && !negative) {
            const ir_enum_value *ev = enum_value_named(f->enum_type, text);
            if (!ev)
                return tf_fail(lx, "a value of the enum");
            wb_varint(payload, (uint64_t)(int64_t)ev->number);
            return true;
        }
        return tf_fail(lx, "an enum value");
    default: {
        wbuf tmp = { 0 };                               /* reuse the option encoder, drop its tag */
        int errors = lx->w->errors;
        put_field_value(lx->w, &tmp, f, &v);
        if (lx->w->errors == errors) {
            uint8_t tag[10];
            size_t k = (size_t)(pbj_put_varint(tag, (uint64_t)(uint32_t)f->number << 3) - tag);
            wb_put(payload, tmp.p + k, tmp.n - k);
        }
        free(tmp.p);
        return lx->w->errors == errors;
    }
    }
}

/* A value of field f: a message in {} or <>, or a scalar. */
static bool tf_value(tf_lexer *lx, const ir_field *f, tf_entries *entries)
{
    tf_entry e = { .field = f, .order = entries->n };
    bool ok;
    if (f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP) {
        const char *close = tf_is(lx, "<") ? ">" : "}";
        ok = (tf_accept(lx, "{") || tf_expect(lx, "<")) && tf_message(lx, f->message_type, close, &e.payload);
    } else {
        ok = tf_scalar(lx, f, &e.payload);
    }
    if (ok && !field_has_presence(f) && payload_is_zero(f, &e.payload)) {
        free(e.payload.p);
        return true;
    }
    if (ok)
        ir_vec_push(entries, e);
    else
        free(e.payload.p);
    return ok;
}

/* A message or an extension of the whole program by full name, for [ext.name] and Any. */
typedef struct name_search {
    const char *name;
    const ir_message *message;
    const ir_field *extension;
} name_search;

static void extension_with_name(const ir_field *const *fields, size_t n, name_search *q)
{
    for (size_t i = 0; i < n && !q->extension; i++)
        if (fields[i]->full_name && strcmp(fields[i]->full_name, q->name) == 0)
            q->extension = fields[i];
}

static void search_message(ir_message *m, void *ctx)
{
    name_search *q = ctx;
    if (!q->message && m->full_name && strcmp(m->full_name, q->name) == 0)
        q->message = m;
    extension_with_name((const ir_field *const *)m->extensions.v, m->extensions.n, q);
}

static name_search search_program(const ir_program *prog, const char *name)
{
    name_search q = { .name = name[0] == '.' ? name + 1 : name };
    for (size_t i = 0; i < prog->files.n; i++) {
        ir_file *f = prog->files.v[i];
        extension_with_name((const ir_field *const *)f->extensions.v, f->extensions.n, &q);
        ir_each_message(f, search_message, &q);
    }
    return q;
}

static const ir_field *field_named(const ir_message *m, const char *name)
{
    for (size_t i = 0; m && i < m->fields.n; i++)
        if (strcmp(m->fields.v[i]->name, name) == 0)
            return m->fields.v[i];
    return NULL;
}

/* "[a.b.c]" or "[type.googleapis.com/a.b.C]", the brackets consumed; NULL after an error. */
static char *tf_bracket_name(tf_lexer *lx)
{
    wbuf name = { 0 };
    while (lx->kind == TF_IDENT || tf_is(lx, ".") || tf_is(lx, "/")) {
        wb_put(&name, lx->tok, lx->len);
        tf_next(lx);
    }
    wb_put(&name, "", 1);
    char *s = ir_strdup((const char *)name.p);
    free(name.p);
    return tf_expect(lx, "]") ? s : NULL;
}

/* An expanded google.protobuf.Any: "[prefix/type] { fields of type }" sets type_url and value. */
static bool tf_any(tf_lexer *lx, const ir_message *any, const char *url, tf_entries *entries)
{
    const char *slash = strrchr(url, '/');
    const ir_message *type = search_program(lx->w->prog, slash + 1).message;
    const ir_field *type_url = field_named(any, "type_url"), *value = field_named(any, "value");
    bool known_prefix = (size_t)(slash - url) == strlen("type.googleapis.com") ?
                        strncmp(url, "type.googleapis.com", (size_t)(slash - url)) == 0 :
                        strncmp(url, "type.googleprod.com/", (size_t)(slash - url) + 1) == 0;
    if (!type || !known_prefix || !type_url || !value)
        return tf_error(lx, "Could not find type \"%s\" stored in google.protobuf.Any.", url);
    tf_accept(lx, ":");
    const char *close = tf_is(lx, "<") ? ">" : "}";
    tf_entry url_entry = { .field = type_url, .order = entries->n };
    tf_entry value_entry = { .field = value, .order = entries->n + 1 };
    if (!(tf_accept(lx, "{") || tf_expect(lx, "<")) || !tf_message(lx, type, close, &value_entry.payload)) {
        free(value_entry.payload.p);
        return false;
    }
    wb_put(&url_entry.payload, url, strlen(url));
    ir_vec_push(entries, url_entry);
    ir_vec_push(entries, value_entry);
    return true;
}

/* An extension named relative to the option's package, innermost scope first, as protoc's LookupSymbol. */
static const ir_field *search_scopes(tf_lexer *lx, const char *name)
{
    const char *package = lx->w->file && lx->w->file->package ? lx->w->file->package : "";
    if (name[0] != '.')
        for (size_t len = strlen(package); len > 0;) {
            const ir_field *f = search_program(lx->w->prog, ir_printf("%.*s.%s", (int)len, package, name)).extension;
            if (f)
                return f;
            while (len > 0 && package[--len] != '.')
                ;
        }
    return search_program(lx->w->prog, name).extension;
}

/* The field a name in message m denotes: a field (a group by its type's name) or an extension. */
static const ir_field *tf_field_named(tf_lexer *lx, const ir_message *m, const char *name, bool extension)
{
    if (extension) {
        const ir_field *f = search_scopes(lx, name);
        if (!f || f->extend->extendee != m)
            tf_error(lx, "Extension \"%s\" is not defined or is not an extension of \"%s\".", name,
                     m ? m->full_name : "?");
        return f && f->extend->extendee == m ? f : NULL;
    }
    for (size_t i = 0; m && i < m->fields.n; i++) {
        const ir_field *f = m->fields.v[i];
        bool group = f->type == IR_TYPE_GROUP && f->message_type;
        if (strcmp(group ? f->message_type->name : f->name, name) == 0)   /* groups go by their type name */
            return f;
    }
    tf_error(lx, "Message type \"%s\" has no field named \"%s\".", m ? m->full_name : "?", name);
    return NULL;
}

/* protoc's text parser rejects a second value for a field that already has one, or for a set oneof. */
static bool tf_check_unset(tf_lexer *lx, const ir_field *f, const tf_entries *entries)
{
    bool repeated = f->label == IR_LABEL_REPEATED || f->is_map;
    for (size_t i = 0; i < entries->n; i++) {
        const ir_field *g = entries->v[i].field;
        if (f->oneof && !f->extend && g->oneof == f->oneof)
            return tf_error(lx, "Field \"%s\" is specified along with field \"%s\", another member of oneof \"%s\".",
                            f->name, g->name, f->oneof->name);
        if (g == f && !repeated)
            return tf_error(lx, "Non-repeated field \"%s\" is specified multiple times.",
                            f->extend && f->full_name ? f->full_name : f->name);
    }
    return true;
}

static int entry_cmp(const void *a, const void *b)
{
    const tf_entry *x = a, *y = b;
    if (x->field->number != y->field->number)
        return x->field->number < y->field->number ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Serialize entries as a generated message would: by field number, packed where packed. */
static void tf_serialize(tf_entries *entries, wbuf *out)
{
    if (entries->n)
        qsort(entries->v, entries->n, sizeof *entries->v, entry_cmp);
    for (size_t i = 0; i < entries->n;) {
        const ir_field *f = entries->v[i].field;
        uint32_t num = (uint32_t)f->number;
        size_t j = i;
        if (field_is_packed(f)) {
            size_t start = open_len(out, num);
            for (; j < entries->n && entries->v[j].field == f; j++)
                wb_put(out, entries->v[j].payload.p, entries->v[j].payload.n);
            close_len(out, start);
        } else {
            for (; j < entries->n && entries->v[j].field == f; j++) {
                const wbuf *p = &entries->v[j].payload;
                int wire_type = ir_type_wire_type(f->type);
                if (wire_type == WT_LEN || wire_type == WT_SGROUP) {
                    put_message_bytes(out, num, wire_type == WT_SGROUP, p->p, p->n);
                } else {
                    wb_tag(out, num, wire_type);
                    wb_put(out, p->p, p->n);
                }
            }
        }
        i = j;
    }
}

/* A map entry is written with its key and its value, zero when not given. */
static void add_missing_map_entry_fields(const ir_message *entry, tf_entries *entries)
{
    for (size_t i = 0; i < entry->fields.n; i++) {
        const ir_field *f = entry->fields.v[i];
        bool given = false;
        for (size_t k = 0; k < entries->n; k++)
            given |= entries->v[k].field == f;
        if (given)
            continue;
        tf_entry e = { .field = f, .order = entries->n };
        static const uint8_t zeros[8] = { 0 };
        int wire_type = ir_type_wire_type(f->type);
        wb_put(&e.payload, zeros, wire_type == WT_VARINT ? 1 : wire_type == WT_I32 ? 4 : wire_type == WT_I64 ? 8 : 0);
        ir_vec_push(entries, e);
    }
}

/* message := { (name | '[' ext ']') [':'] (value | '[' value {, value} ']') [';' | ','] } close
 *            | '[' prefix/type ']' [':'] message      (an expanded Any) */
static bool tf_message(tf_lexer *lx, const ir_message *m, const char *close, wbuf *out)
{
    tf_entries entries = { 0 };
    bool ok = true;
    while (ok && !tf_is(lx, close)) {
        if (lx->kind == TF_END) {
            ok = close[0] == 0 || tf_fail(lx, close);
            break;
        }
        const ir_field *f = NULL;
        if (tf_accept(lx, "[")) {
            char *name = tf_bracket_name(lx);
            if (name && strchr(name, '/') && m && m->full_name && strcmp(m->full_name, "google.protobuf.Any") == 0) {
                ok = tf_any(lx, m, name, &entries);
                if (ok && !tf_accept(lx, ";"))
                    tf_accept(lx, ",");
                continue;
            }
            f = name ? tf_field_named(lx, m, name, true) : NULL;
        } else if (lx->kind == TF_IDENT) {
            char *name = ir_strndup(lx->tok, lx->len);
            tf_next(lx);
            f = tf_field_named(lx, m, name, false);
        } else {
            tf_fail(lx, "a field name");
        }
        if (!f || !tf_check_unset(lx, f, &entries)) {
            ok = false;
            break;
        }
        bool is_message = f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP;
        if (!tf_accept(lx, ":") && !is_message) {
            ok = tf_fail(lx, "\":\"");
            break;
        }
        if (tf_accept(lx, "[")) {                       /* a list of values of a repeated field */
            while (ok && !tf_accept(lx, "]"))
                ok = tf_value(lx, f, &entries) && (tf_is(lx, "]") || tf_expect(lx, ","));
        } else {
            ok = tf_value(lx, f, &entries);
        }
        if (ok && !tf_accept(lx, ";"))
            tf_accept(lx, ",");
    }
    if (ok && close[0])
        tf_next(lx);                                    /* the closing brace */
    if (ok && m && m->map_entry)
        add_missing_map_entry_fields(m, &entries);
    if (ok)
        tf_serialize(&entries, out);
    for (size_t i = 0; i < entries.n; i++)
        free(entries.v[i].payload.p);
    return ok;
}

/* An aggregate value { text format } of message-typed f, tag included. */
static bool put_aggregate(writer *w, wbuf *b, const ir_field *f, const ir_value *v)
{
    tf_lexer lx = { .w = w, .loc = v->loc, .option = f->name, .p = v->text ? v->text : "" };
    wbuf content = { 0 };
    tf_next(&lx);
    bool ok = tf_message(&lx, f->message_type, "", &content);
    if (ok)
        put_message_bytes(b, (uint32_t)f->number, f->type == IR_TYPE_GROUP, content.p, content.n);
    free(content.p);
    return ok;
}

/* ---- descriptors -------------------------------------------------------- */

/* protoc's default json_name: underscores dropped, the letter after one upper-cased. */
static const char *json_name_of(const ir_field *f)
{
    if (f->json_name)
        return f->json_name;
    char *s = ir_strdup(f->name), *o = s;
    bool upper = false;
    for (const char *p = f->name; *p; p++) {
        if (*p == '_') {
            upper = true;
            continue;
        }
        *o++ = upper && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
        upper = false;
    }
    *o = 0;
    return s;
}

/* FieldDescriptorProto */
static void put_field(writer *w, wbuf *b, uint32_t tag, const ir_field *f)
{
    size_t start = open_len(b, tag);
    put_string(b, 1, f->name);
    if (f->extend)
        put_type_ref(b, 2, f->extend->extendee ? f->extend->extendee->full_name : NULL, f->extend->extendee_name);
    put_int32(b, 3, f->number);
    put_varint(b, 4, f->is_map ? IR_LABEL_REPEATED : f->label == IR_LABEL_NONE ? IR_LABEL_OPTIONAL : f->label);
    ir_type type = f->type;
    if (type == IR_TYPE_UNRESOLVED)
        type = f->enum_type ? IR_TYPE_ENUM : IR_TYPE_MESSAGE;
    put_varint(b, 5, (uint64_t)type);
    const char *type_full = f->message_type ? f->message_type->full_name : NULL;
    if (!type_full && f->enum_type)
        type_full = f->enum_type->full_name;
    put_type_ref(b, 6, type_full, f->type_name);
    put_string(b, 7, f->default_value);
    put_options(w, b, 8, SCOPE_FIELD, &f->options, false);
    if (f->oneof && !f->extend)
        put_int32(b, 9, f->oneof->index);
    put_string(b, 10, json_name_of(f));
    if (f->proto3_optional)
        put_varint(b, 17, 1);
    close_len(b, start);
}

/* DescriptorProto.ReservedRange / ExtensionRange: end exclusive; EnumReservedRange: end inclusive. */
static void put_range(writer *w, wbuf *b, uint32_t tag, const ir_range *r, int32_t end, bool with_options)
{
    size_t start = open_len(b, tag);
    put_int32(b, 1, r->start);
    put_int32(b, 2, end);
    if (with_options)
        put_options(w, b, 3, SCOPE_EXTENSION_RANGE, &r->options, false);
    close_len(b, start);
}

/* EnumDescriptorProto */
static void put_enum(writer *w, wbuf *b, uint32_t tag, const ir_enum *e)
{
    size_t start = open_len(b, tag);
    put_string(b, 1, e->name);
    for (size_t i = 0; i < e->values.n; i++) {
        const ir_enum_value *v = e->values.v[i];
        size_t vs = open_len(b, 2);
        put_string(b, 1, v->name);
        put_int32(b, 2, v->number);
        put_options(w, b, 3, SCOPE_ENUM_VALUE, &v->options, false);
        close_len(b, vs);
    }
    put_options(w, b, 3, SCOPE_ENUM, &e->options, false);
    for (size_t i = 0; i < e->reserved_ranges.n; i++) {
        const ir_range *r = &e->reserved_ranges.v[i];
        put_range(w, b, 4, r, r->end, false);
    }
    for (size_t i = 0; i < e->reserved_names.n; i++)
        put_string(b, 5, e->reserved_names.v[i]);
    close_len(b, start);
}

/* A range's exclusive end; "to max" in a message_set_wire_format message reaches INT32_MAX. */
static int32_t exclusive_end(const ir_message *m, const ir_range *r)
{
    const char *msw = ir_option_find(&m->options, "message_set_wire_format");
    if (r->end >= 536870911 && msw && strcmp(msw, "true") == 0)
        return INT32_MAX;
    return r->end + 1;
}

/* DescriptorProto */
static void put_message(writer *w, wbuf *b, uint32_t tag, const ir_message *m)
{
    size_t start = open_len(b, tag);
    put_string(b, 1, m->name);
    for (size_t i = 0; i < m->fields.n; i++)
        put_field(w, b, 2, m->fields.v[i]);
    for (size_t i = 0; i < m->messages.n; i++)
        put_message(w, b, 3, m->messages.v[i]);
    for (size_t i = 0; i < m->enums.n; i++)
        put_enum(w, b, 4, m->enums.v[i]);
    for (size_t i = 0; i < m->extension_ranges.n; i++) {
        const ir_range *r = &m->extension_ranges.v[i];
        put_range(w, b, 5, r, exclusive_end(m, r), true);
    }
    for (size_t i = 0; i < m->extensions.n; i++)
        put_field(w, b, 6, m->extensions.v[i]);
    put_options(w, b, 7, SCOPE_MESSAGE, &m->options, m->map_entry && !ir_option_get(&m->options, "map_entry"));
    for (size_t i = 0; i < m->oneofs.n; i++) {
        const ir_oneof *o = m->oneofs.v[i];
        size_t os = open_len(b, 8);
        put_string(b, 1, o->name);
        put_options(w, b, 2, SCOPE_ONEOF, &o->options, false);
        close_len(b, os);
    }
    for (size_t i = 0; i < m->reserved_ranges.n; i++) {
        const ir_range *r = &m->reserved_ranges.v[i];
        put_range(w, b, 9, r, exclusive_end(m, r), false);
    }
    for (size_t i = 0; i < m->reserved_names.n; i++)
        put_string(b, 10, m->reserved_names.v[i]);
    close_len(b, start);
}

/* ServiceDescriptorProto */
static void put_service(writer *w, wbuf *b, uint32_t tag, const ir_service *s)
{
    size_t start = open_len(b, tag);
    put_string(b, 1, s->name);
    for (size_t i = 0; i < s->methods.n; i++) {
        const ir_method *md = s->methods.v[i];
        size_t ms = open_len(b, 2);
        put_string(b, 1, md->name);
        put_type_ref(b, 2, md->input ? md->input->full_name : NULL, md->input_name);
        put_type_ref(b, 3, md->output ? md->output->full_name : NULL, md->output_name);
        if (md->options.n == 0 && md->has_body)   /* protoc writes empty options for "{ }" */
            put_bytes(b, 4, "", 0);
        else
            put_options(w, b, 4, SCOPE_METHOD, &md->options, false);
        if (md->client_streaming)
            put_varint(b, 5, 1);
        if (md->server_streaming)
            put_varint(b, 6, 1);
        close_len(b, ms);
    }
    put_options(w, b, 3, SCOPE_SERVICE, &s->options, false);
    close_len(b, start);
}

/* FileDescriptorProto */
static void put_file(writer *w, wbuf *b, const ir_file *f)
{
    w->file = f;
    size_t start = open_len(b, 1);
    put_string(b, 1, f->name);
    if (f->package && f->package[0])
        put_string(b, 2, f->package);
    for (size_t i = 0; i < f->imports.n; i++)
        put_string(b, 3, f->imports.v[i].name);
    for (size_t i = 0; i < f->messages.n; i++)
        put_message(w, b, 4, f->messages.v[i]);
    for (size_t i = 0; i < f->enums.n; i++)
        put_enum(w, b, 5, f->enums.v[i]);
    for (size_t i = 0; i < f->services.n; i++)
        put_service(w, b, 6, f->services.v[i]);
    for (size_t i = 0; i < f->extensions.n; i++)
        put_field(w, b, 7, f->extensions.v[i]);
    put_options(w, b, 8, SCOPE_FILE, &f->options, false);
    for (size_t i = 0; i < f->imports.n; i++)
        if (f->imports.v[i].kind == IR_IMPORT_PUBLIC)
            put_int32(b, 10, (int32_t)i);
    for (size_t i = 0; i < f->imports.n; i++)
        if (f->imports.v[i].kind == IR_IMPORT_WEAK)
            put_int32(b, 11, (int32_t)i);
    if (f->syntax == IR_PROTO3)
        put_string(b, 12, "proto3");
    close_len(b, start);
}

/* ---- the set: files in protoc's order ---------------------------------- */

typedef IR_VEC(const ir_file *) file_list;

static bool listed(const file_list *l, const ir_file *f)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i] == f)
            return true;
    return false;
}

static const ir_file *import_target(const ir_program *prog, const ir_import *imp)
{
    if (imp->file)
        return imp->file;
    for (size_t i = 0; i < prog->files.n; i++)
        if (strcmp(prog->files.v[i]->name, imp->name) == 0)
            return prog->files.v[i];
    return NULL;
}

/* protoc's GetTransitiveDependencies: imports first, depth first, in import order. */
static void add_with_imports(const ir_program *prog, const ir_file *f, file_list *seen, file_list *out)
{
    if (!f || listed(seen, f))
        return;
    ir_vec_push(seen, f);
    for (size_t i = 0; i < f->imports.n; i++)
        add_with_imports(prog, import_target(prog, &f->imports.v[i]), seen, out);
    ir_vec_push(out, f);
}

/* Each file of order encoded after the other into *set; returns the number of errors. */
static int encode_files(const ir_program *prog, const file_list *order, wbuf *set)
{
    writer w = { .prog = prog };
    for (size_t i = 0; i < order->n; i++)
        put_file(&w, set, order->v[i]);
    return w.errors;
}

int descriptor_validate(const ir_program *prog)
{
    file_list seen = { 0 }, order = { 0 };
    for (size_t i = 0; i < prog->files.n; i++)       /* as protoc builds them: imports first */
        add_with_imports(prog, prog->files.v[i], &seen, &order);
    wbuf set = { 0 };
    int errors = encode_files(prog, &order, &set);
    free(set.p);
    return errors;
}

int descriptor_write_set(const ir_program *prog, bool include_imports, const char *path)
{
    file_list seen = { 0 }, order = { 0 };
    if (!include_imports) {                      /* imports that are not inputs stop the walk */
        file_list inputs = { 0 };
        for (size_t i = 0; i < prog->inputs.n; i++)
            ir_vec_push(&inputs, prog->inputs.v[i]);
        for (size_t i = 0; i < prog->inputs.n; i++)
            for (size_t k = 0; k < prog->inputs.v[i]->imports.n; k++) {
                const ir_file *dep = import_target(prog, &prog->inputs.v[i]->imports.v[k]);
                if (dep && !listed(&inputs, dep) && !listed(&seen, dep))
                    ir_vec_push(&seen, dep);
            }
    }
    for (size_t i = 0; i < prog->inputs.n; i++)
        add_with_imports(prog, prog->inputs.v[i], &seen, &order);

    wbuf set = { 0 };
    if (encode_files(prog, &order, &set)) {
        free(set.p);
        return 1;
    }
    FILE *out = fopen(path, "wb");
    bool ok = out && fwrite(set.p ? (const void *)set.p : "", 1, set.n, out) == set.n;
    int err = errno;
    if (out && fclose(out) != 0 && ok) {
        ok = false;
        err = errno;
    }
    free(set.p);
    if (!ok) {
        diag_error(NULL, (ir_loc){ 0, 0 }, "%s: %s", path, strerror(err));
        return 1;
    }
    return 0;
}
