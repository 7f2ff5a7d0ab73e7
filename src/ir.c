/* ir.c: the IR's memory pool, type tables and finders. */
#define _DEFAULT_SOURCE       /* madvise's MADV_HUGEPAGE: glibc shows it only beside _POSIX_C_SOURCE when asked */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "ir.h"
#include "../rt/pbj_core.h"   /* wire type names */

/* ---- pool ------------------------------------------------------------------ */

typedef struct ir_chunk {
    struct ir_chunk *next;
    size_t used, size;
    _Alignas(max_align_t) unsigned char data[];
} ir_chunk;

#define IR_CHUNK 65536                         /* a pool's first chunk; each next one twice the last, up to: */
#define IR_CHUNK_MAX ((size_t)2 << 20)          /* a huge page */

/* bytes for a chunk. Those of IR_CHUNK_MAX or more start on a huge page's boundary and ask for huge pages where the
 * kernel has them (Linux's MADV_HUGEPAGE): a big plan (300 MB for a message of 100,000 fields) is then touched a
 * huge page at a time, not 4 KB at a time (a page fault each: a third of the run's time). */
static ir_chunk *chunk_memory(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    void *p;
    if (bytes >= IR_CHUNK_MAX && posix_memalign(&p, IR_CHUNK_MAX, bytes) == 0) {
        madvise(p, bytes, MADV_HUGEPAGE);
        return p;
    }
#endif
    return malloc(bytes);
}

/* The bytes of the next chunk of a pool whose current chunk is c. */
static size_t chunk_bytes(const ir_chunk *c)
{
    size_t bytes = c ? sizeof *c + c->size : IR_CHUNK / 2;
    return bytes < IR_CHUNK_MAX ? 2 * bytes : IR_CHUNK_MAX;
}

/* size bytes at an address that is a multiple of align (a power of two), not zeroed. A request of more than a
 * quarter of the next chunk gets a chunk of its own behind the current one, whose room stays in use. */
static void *pool_take(ir_pool *pool, size_t size, size_t align)
{
    ir_chunk *c = pool->chunks;
    size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;
    if (c && at <= c->size && c->size - at >= size) {
        c->used = at + size;
        return c->data + at;
    }
    size_t bytes = chunk_bytes(c);
    bool own = size > (bytes - sizeof *c) / 4;
    if (own) bytes = sizeof *c + size;
    ir_chunk *n = chunk_memory(bytes);
    if (!n) { fputs("pbjc: out of memory\n", stderr); abort(); }
    n->used = size;
    n->size = bytes - sizeof *n;
    if (own && c) n->next = c->next, c->next = n;
    else n->next = c, pool->chunks = n;
    return n->data;
}

void *ir_pool_alloc(ir_pool *pool, size_t size)
{
    return memset(pool_take(pool, size, _Alignof(max_align_t)), 0, size);
}

void ir_pool_free(ir_pool *pool)
{
    while (pool->chunks) {
        ir_chunk *next = pool->chunks->next;
        free(pool->chunks);
        pool->chunks = next;
    }
}

char *ir_pool_chars(ir_pool *pool, size_t n) { return pool_take(pool, n, 1); }

void *ir_pool_take(ir_pool *pool, size_t size) { return pool_take(pool, size, _Alignof(max_align_t)); }

char *ir_pool_strndup(ir_pool *pool, const char *s, size_t n)
{
    char *p = pool_take(pool, n + 1, 1);      /* text needs no alignment, nor zeroing */
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *ir_pool_strdup(ir_pool *pool, const char *s) { return ir_pool_strndup(pool, s, strlen(s)); }

/* The digits of v in base (10 or 16), at least width of them ('0' before), ending at end; returns where they begin. */
static char *digits_before(char *end, unsigned long long v, unsigned base, int width)
{
    char *p = end;
    do *--p = "0123456789abcdef"[v % base];
    while ((v /= base) || end - p < width);
    return p;
}

/* The length of the conversion after a '%' when quick_format prints it (s d u x %, zu, 02x), else 0. */
static size_t quick_conversion(const char *c)
{
    switch (c[0]) {
    case 's': case 'd': case 'u': case 'x': case '%': return 1;
    case 'z': return c[1] == 'u' ? 2 : 0;
    case '0': return c[1] == '2' && c[2] == 'x' ? 3 : 0;
    default: return 0;
    }
}

/* One argument of conversion c as text ending at end (a number) or elsewhere (%s); *stop is where it ends. */
static const char *quick_value(const char *c, va_list *ap, char *end, const char **stop)
{
    *stop = end;
    switch (*c) {
    case 'u': return digits_before(end, va_arg(*ap, unsigned), 10, 1);
    case 'x': return digits_before(end, va_arg(*ap, unsigned), 16, 1);
    case 'z': return digits_before(end, va_arg(*ap, size_t), 10, 1);
    case '0': return digits_before(end, va_arg(*ap, unsigned), 16, 2);
    case 'd': {
        int v = va_arg(*ap, int);
        char *p = digits_before(end, v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v, 10, 1);
        if (v < 0) *--p = '-';
        return p;
    }
    case 's': {
        const char *s = va_arg(*ap, const char *);
        *stop = s + strlen(s);
        return s;
    }
    default: *stop = c + 1; return c;    /* %% */
    }
}

/* fmt printed into out (room bytes with its NUL) when its conversions are all quick_conversion's and it fits: the
 * length, else -1. printf's text, without printf's cost per call (the plan prints a hundred strings a field). */
static int quick_format(char *out, size_t room, const char *fmt, va_list ap)
{
    for (const char *f = strchr(fmt, '%'); f; f = strchr(f + 1 + quick_conversion(f + 1), '%'))
        if (!quick_conversion(f + 1)) return -1;
    char num[24], *o = out, *last = out + room - 1;    /* room for the NUL at last */
    va_list args;
    va_copy(args, ap);
    const char *f = fmt;
    for (; *f && o < last; f++) {
        if (*f != '%') {
            *o++ = *f;
            continue;
        }
        const char *stop, *s = quick_value(f + 1, &args, num + sizeof num, &stop);
        f += quick_conversion(f + 1);
        size_t k = (size_t)(stop - s);
        if (k > (size_t)(last - o)) break;
        memcpy(o, s, k);
        o += k;
    }
    va_end(args);
    *o = 0;
    return *f ? -1 : (int)(o - out);
}

char *ir_pool_vprintf(ir_pool *pool, const char *fmt, va_list ap)
{
    char buf[256];                            /* most texts fit: printed once, then copied */
    int n = quick_format(buf, sizeof buf, fmt, ap);
    if (n >= 0) return ir_pool_strndup(pool, buf, (size_t)n);
    va_list ap2;
    va_copy(ap2, ap);
    n = vsnprintf(buf, sizeof buf, fmt, ap2);
    va_end(ap2);
    if (n < 0) n = 0;
    if ((size_t)n < sizeof buf) return ir_pool_strndup(pool, buf, (size_t)n);
    char *p = pool_take(pool, (size_t)n + 1, 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *ir_pool_printf(ir_pool *pool, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = ir_pool_vprintf(pool, fmt, ap);
    va_end(ap);
    return p;
}

char *ir_pool_strcat(ir_pool *pool, const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = pool_take(pool, na + nb + 1, 1);
    memcpy(p, a, na);
    memcpy(p + na, b, nb);
    p[na + nb] = 0;
    return p;
}

void *ir_pool_vec_grow(ir_pool *pool, void *data, size_t *cap, size_t elem_size)
{
    size_t ncap = *cap ? *cap * 2 : 8;
    unsigned char *p = pool_take(pool, ncap * elem_size, _Alignof(max_align_t));
    if (*cap) memcpy(p, data, *cap * elem_size);
    memset(p + *cap * elem_size, 0, (ncap - *cap) * elem_size);     /* the room after the items, zeroed as before */
    *cap = ncap;
    return p;
}

/* ---- types ------------------------------------------------------------------ */

static const char *const type_keywords[] = {
#define X(N, kw, num, wt) [IR_TYPE_##N] = kw,
    IR_FIELD_TYPES(X)
#undef X
};

static const signed char wire_types[] = {
#define X(N, kw, num, wt) [IR_TYPE_##N] = PBJ_WT_##wt,
    IR_FIELD_TYPES(X)
#undef X
};

const char *ir_type_keyword(ir_type t)
{
    if (t == IR_TYPE_MESSAGE) return "message";
    if (t == IR_TYPE_ENUM) return "enum";
    return t > 0 && (size_t)t < sizeof type_keywords / sizeof *type_keywords ? type_keywords[t] : NULL;
}

int ir_type_wire_type(ir_type t)
{
    return t > 0 && (size_t)t < sizeof wire_types / sizeof *wire_types ? wire_types[t] : -1;
}

bool ir_type_is_packable(ir_type t)
{
    int wt = ir_type_wire_type(t);
    return wt == PBJ_WT_VARINT || wt == PBJ_WT_I64 || wt == PBJ_WT_I32;
}

ir_type ir_type_from_keyword(const char *s, size_t n)
{
    for (size_t t = 1; t < sizeof type_keywords / sizeof *type_keywords; t++)
        if (type_keywords[t] && strlen(type_keywords[t]) == n && memcmp(s, type_keywords[t], n) == 0) return (ir_type)t;
    return IR_TYPE_UNRESOLVED;
}

/* ---- names and finders ---------------------------------------------------------------- */

ir_file *ir_file_new(ir_pool *pool, struct diag_counts *diag, const char *name, const char *path, const char *source,
                     size_t len)
{
    ir_file *f = ir_pool_alloc(pool, sizeof *f);
    f->pool = pool;
    f->diag = diag;
    f->name = name;
    f->path = path;
    f->source = source;
    f->source_len = len;
    f->syntax = IR_PROTO2;
    return f;
}

const char *ir_join_name(ir_pool *pool, const char *scope, const char *name)
{
    return scope && *scope ? ir_pool_printf(pool, "%s.%s", scope, name) : name;
}

const ir_option *ir_option_get(const ir_options *opts, const char *simple_name)
{
    for (size_t i = 0; i < opts->n; i++) {
        const ir_option *o = &opts->v[i];
        if (o->name.n == 1 && !o->name.v[0].extension && strcmp(o->name.v[0].name, simple_name) == 0)
            return o;
    }
    return NULL;
}

bool ir_option_is_feature(const ir_option *o)
{
    return o->name.n > 0 && !o->name.v[0].extension && strcmp(o->name.v[0].name, "features") == 0;
}

const char *ir_option_name(ir_pool *pool, const ir_option *o, size_t parts)
{
    const char *s = "";
    for (size_t i = 0; i < parts; i++) {
        const ir_optname_part *p = &o->name.v[i];
        s = ir_pool_printf(pool, "%s%s%s%s%s", s, i ? "." : "", p->extension ? "(" : "", p->name, p->extension ? ")" : "");
    }
    return s;
}

const char *ir_option_find(const ir_options *opts, const char *simple_name)
{
    const ir_option *o = ir_option_get(opts, simple_name);
    if (!o) return NULL;
    if (o->value.kind == IR_VAL_IDENT) return o->value.text;
    if (o->value.kind == IR_VAL_STRING) return o->value.str;
    return NULL;
}

static void each_message(ir_message *m, ir_message_fn fn, void *ctx)
{
    fn(m, ctx);
    for (size_t i = 0; i < m->messages.n; i++) each_message(m->messages.v[i], fn, ctx);
}

void ir_each_message(ir_file *f, ir_message_fn fn, void *ctx)
{
    for (size_t i = 0; i < f->messages.n; i++) each_message(f->messages.v[i], fn, ctx);
}

static const struct { const char *name; ir_type type; } wrappers[] = {
    {"google.protobuf.DoubleValue", IR_TYPE_DOUBLE}, {"google.protobuf.FloatValue", IR_TYPE_FLOAT},
    {"google.protobuf.Int64Value", IR_TYPE_INT64},   {"google.protobuf.UInt64Value", IR_TYPE_UINT64},
    {"google.protobuf.Int32Value", IR_TYPE_INT32},   {"google.protobuf.UInt32Value", IR_TYPE_UINT32},
    {"google.protobuf.BoolValue", IR_TYPE_BOOL},     {"google.protobuf.StringValue", IR_TYPE_STRING},
    {"google.protobuf.BytesValue", IR_TYPE_BYTES},
};

ir_type ir_wrapper_type(const ir_message *m)
{
    for (size_t i = 0; m && m->full_name && i < sizeof wrappers / sizeof *wrappers; i++)
        if (strcmp(m->full_name, wrappers[i].name) == 0) return wrappers[i].type;
    return IR_TYPE_UNRESOLVED;
}

/* ---- what later phases ask of the resolved features ------------------------------- */

feature_edition features_edition(const ir_file *f)
{
    return f->edition ? f->edition : f->syntax == IR_PROTO3 ? EDITION_PROTO3 : EDITION_PROTO2;
}

bool features_explicit_presence(const ir_field *f)
{
    return f->features.v[FEATURE_field_presence] != FEATURE_field_presence_IMPLICIT;
}

bool features_required(const ir_field *f)
{
    return f->features.v[FEATURE_field_presence] == FEATURE_field_presence_LEGACY_REQUIRED;
}

bool features_closed_enum(const ir_enum *e)
{
    return e->features.v[FEATURE_enum_type] == FEATURE_enum_type_CLOSED;
}

bool features_utf8_checked(const ir_field *f)
{
    return f->type == IR_TYPE_STRING && f->features.v[FEATURE_utf8_validation] == FEATURE_utf8_validation_VERIFY;
}

/* Group framing: a group, or a message field encoded DELIMITED (never a map or a map entry's value, as protoc). */
bool features_delimited(const ir_field *f)
{
    if (f->type == IR_TYPE_GROUP) return true;
    return f->type == IR_TYPE_MESSAGE && !f->is_map && f->message_type && !f->message_type->map_entry &&
           !(f->parent && f->parent->map_entry && !f->extend) &&
           f->features.v[FEATURE_message_encoding] == FEATURE_message_encoding_DELIMITED;
}

bool features_group_like(const ir_field *f)
{
    if (!features_delimited(f) || !f->message_type) return false;
    if (f->type == IR_TYPE_GROUP) return true;
    const ir_message *t = f->message_type;
    const ir_message *scope = f->extend ? f->extend->scope : f->parent;
    if (t->file != f->file || t->parent != scope || strlen(t->name) != strlen(f->name)) return false;
    for (size_t i = 0; f->name[i]; i++)
        if (f->name[i] != (t->name[i] >= 'A' && t->name[i] <= 'Z' ? t->name[i] - 'A' + 'a' : t->name[i])) return false;
    return true;
}
