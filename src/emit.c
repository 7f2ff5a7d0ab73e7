/* emit.c: writes x.pb.h and x.pb.c for each input file from its plan, through the templates in gen-templates/. */
#include "emit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "diag.h"
#include "plan.h"
#include "gen-templates/templates.inc"   /* $(B)/gen-templates, made by src/tools/tmpl2c */

#include "../rt/pbj.h"     /* PBJ_RUNTIME_VERSION: the runtime the generated code is made for */

/* ---- output text ------------------------------------------------------------- */

typedef struct out {
    char *s;
    size_t len, cap;
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + n + 1) cap *= 2;
        char *ns = realloc(o->s, cap);
        if (!ns) abort();
        o->s = ns;
        o->cap = cap;
    }
    memcpy(o->s + o->len, s, n);
    o->len += n;
    o->s[o->len] = 0;
}

static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }

static void printf_(out *o, const char *fmt, ...) DIAG_PRINTF(2, 3);
static void printf_(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    s = malloc((size_t)n + 1);
    if (!s) abort();
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    put(o, s, (size_t)n);
    free(s);
}

/* printf_ that returns 1 (to count what was written). */
#define printf_n(...) (printf_(__VA_ARGS__), 1)

/* Expand template t: $name$ takes the value given after "name" in the
 * NULL-terminated list of name/value pairs; $$ is a dollar sign. */
static void tmpl(out *o, const char *t, ...)
{
    while (*t) {
        const char *d = strchr(t, '$');
        if (!d) {
            puts_(o, t);
            return;
        }
        put(o, t, (size_t)(d - t));
        const char *e = strchr(d + 1, '$');
        if (!e) {
            puts_(o, d);
            return;
        }
        size_t n = (size_t)(e - d - 1);
        if (n == 0) puts_(o, "$");
        else {
            va_list ap;
            va_start(ap, t);
            const char *k, *v = NULL;
            while ((k = va_arg(ap, const char *)) != NULL) {
                const char *val = va_arg(ap, const char *);
                if (strlen(k) == n && strncmp(k, d + 1, n) == 0) {
                    v = val;
                    break;
                }
            }
            va_end(ap);
            if (!v) {
                fprintf(stderr, "pbjc: internal error: template variable $%.*s$ not given\n", (int)n, d + 1);
                abort();
            }
            puts_(o, v);
        }
        t = e + 1;
    }
}

/* ---- values by type ----------------------------------------------------------------- */

typedef enum wire { W_VARINT, W_BOOL, W_FIXED32, W_FIXED64, W_SLICE } wire;

static wire wire_of(ir_type t)
{
    switch (t) {
    case IR_TYPE_BOOL: return W_BOOL;
    case IR_TYPE_FIXED32: case IR_TYPE_SFIXED32: case IR_TYPE_FLOAT: return W_FIXED32;
    case IR_TYPE_FIXED64: case IR_TYPE_SFIXED64: case IR_TYPE_DOUBLE: return W_FIXED64;
    case IR_TYPE_STRING: case IR_TYPE_BYTES: return W_SLICE;
    default: return W_VARINT;
    }
}

/* The unsigned wire value of x (varint, fixed32 or fixed64 payload). */
static char *wire_value(ir_type t, const char *x)
{
    switch (t) {
    case IR_TYPE_INT32: case IR_TYPE_ENUM: return ir_printf("(uint64_t)(int64_t)%s", x);
    case IR_TYPE_INT64: return ir_printf("(uint64_t)%s", x);
    case IR_TYPE_SINT32: return ir_printf("pbj_zigzag32(%s)", x);
    case IR_TYPE_SINT64: return ir_printf("pbj_zigzag64(%s)", x);
    case IR_TYPE_SFIXED32: return ir_printf("(uint32_t)%s", x);
    case IR_TYPE_SFIXED64: return ir_printf("(uint64_t)%s", x);
    case IR_TYPE_FLOAT: return ir_printf("pbj_float_bits(%s)", x);
    case IR_TYPE_DOUBLE: return ir_printf("pbj_double_bits(%s)", x);
    case IR_TYPE_BOOL: return ir_printf("(uint8_t)%s", x);
    default: return ir_strdup(x);
    }
}

/* The C value of wire value v (uint64_t, or uint32_t for fixed32). */
static char *from_wire(ir_type t, const char *v)
{
    switch (t) {
    case IR_TYPE_INT32: case IR_TYPE_ENUM: case IR_TYPE_SFIXED32: return ir_printf("(int32_t)%s", v);
    case IR_TYPE_INT64: case IR_TYPE_SFIXED64: return ir_printf("(int64_t)%s", v);
    case IR_TYPE_UINT32: case IR_TYPE_FIXED32: return ir_printf("(uint32_t)%s", v);
    case IR_TYPE_SINT32: return ir_printf("pbj_unzigzag32((uint32_t)%s)", v);
    case IR_TYPE_SINT64: return ir_printf("pbj_unzigzag64(%s)", v);
    case IR_TYPE_FLOAT: return ir_printf("pbj_bits_float((uint32_t)%s)", v);
    case IR_TYPE_DOUBLE: return ir_printf("pbj_bits_double(%s)", v);
    case IR_TYPE_BOOL: return ir_printf("(%s != 0)", v);
    default: return ir_strdup(v);
    }
}

/* Whether x differs from the proto3 default (floats by bits: -0.0 is written, as protoc does). */
static char *nonzero(ir_type t, const char *x)
{
    switch (wire_of(t)) {
    case W_SLICE: return ir_printf("%s.len != 0", x);
    default:
        if (t == IR_TYPE_FLOAT) return ir_printf("pbj_float_bits(%s) != 0", x);
        if (t == IR_TYPE_DOUBLE) return ir_printf("pbj_double_bits(%s) != 0", x);
        return ir_printf("%s", x);
    }
}

/* Encoded size of one value x (no tag). */
static char *value_size(ir_type t, const char *x)
{
    switch (wire_of(t)) {
    case W_BOOL: return ir_strdup("1");
    case W_FIXED32: return ir_strdup("4");
    case W_FIXED64: return ir_strdup("8");
    case W_SLICE: return ir_printf("pbj_len_size(%s.len)", x);
    default: return ir_printf("pbj_varint_size(%s)", wire_value(t, x));
    }
}

/* "p = ...;" writing value x. */
static char *value_write(ir_type t, const char *x)
{
    switch (wire_of(t)) {
    case W_BOOL: return ir_printf("*p++ = %s;", wire_value(t, x));
    case W_FIXED32: return ir_printf("p = pbj_put_fixed32(p, %s);", wire_value(t, x));
    case W_FIXED64: return ir_printf("p = pbj_put_fixed64(p, %s);", wire_value(t, x));
    case W_SLICE: return ir_printf("p = pbj_put_bytes(p, %s);", x);
    default: return ir_printf("p = pbj_put_varint(p, %s);", wire_value(t, x));
    }
}

static int wire_type_of(ir_type t)
{
    switch (wire_of(t)) {
    case W_FIXED32: return 5;
    case W_FIXED64: return 1;
    case W_SLICE: return 2;
    default: return 0;
    }
}

static void tag_write(out *o, const char *ind, const uint8_t *tag, int n)
{
    if (n == 1) {
        printf_(o, "%s*p++ = 0x%02x;\n", ind, tag[0]);
        return;
    }
    printf_(o, "%smemcpy(p, \"", ind);
    for (int i = 0; i < n; i++) printf_(o, "\\x%02x", tag[i]);
    printf_(o, "\", %d);\n%sp += %d;\n", n, ind, n);
}

/* Reads one value of field pf into the lvalue x (bounded by end expression e),
 * then runs the statement after (or nothing when NULL). A closed (proto2)
 * enum's unknown value goes to the unknown fields instead, as protobuf does. */
static void value_read(out *o, const char *ind, const plan_field *pf, const char *x, const char *e, const char *after)
{
    ir_type t = pf->type;
    if (!after) after = "";
    switch (wire_of(t)) {
    case W_FIXED32:
        printf_(o, "%sif (%s - p < 4) return PBJ_ERR_TRUNCATED;\n", ind, e);
        printf_(o, "%s%s = %s;\n%sp += 4;\n", ind, x, from_wire(t, "pbj_load_le32(p)"), ind);
        if (*after) printf_(o, "%s%s\n", ind, after);
        break;
    case W_FIXED64:
        printf_(o, "%sif (%s - p < 8) return PBJ_ERR_TRUNCATED;\n", ind, e);
        printf_(o, "%s%s = %s;\n%sp += 8;\n", ind, x, from_wire(t, "pbj_load_le64(p)"), ind);
        if (*after) printf_(o, "%s%s\n", ind, after);
        break;
    case W_SLICE:
        printf_(o, "%s{\n%s    size_t len;\n", ind, ind);
        printf_(o, "%s    if (!(p = pbj_get_len(p, %s, d, &len, &st))) return st;\n", ind, e);
        if (pf->utf8) printf_(o, "%s    if (!pbj_utf8_valid(p, len)) return PBJ_ERR_UTF8;\n", ind);
        printf_(o, "%s    if ((st = pbj_take_slice(d, p, len, &%s)) != PBJ_OK) return st;\n", ind, x);
        printf_(o, "%s    p += len;\n%s%s\n%s}\n", ind, ind, after, ind);
        break;
    default:
        printf_(o, "%s{\n%s    uint64_t v;\n", ind, ind);
        printf_(o, "%s    if (PBJ_LIKELY(p < %s && *p < 0x80)) v = *p++;\n", ind, e);
        printf_(o, "%s    else if (!(p = pbj_get_varint_st(p, %s, &v, &st))) return st;\n", ind, e);
        if (pf->closed_enum && pf->type_cname) {
            printf_(o, "%s    if (%s_name((int32_t)v)) {\n%s        %s = (int32_t)v;\n%s        %s\n%s    }", ind,
                    pf->type_cname, ind, x, ind, after, ind);
            printf_(o, " else if (!pbj_unknown_varint(d, &m->pbj_unknown, %d, (uint64_t)(int64_t)(int32_t)v, &st)) return st;\n%s}\n",
                    pf->number, ind);
        } else printf_(o, "%s    %s = %s;\n%s    %s\n%s}\n", ind, x, from_wire(t, "v"), ind, after, ind);
    }
}

/* ---- per field code ------------------------------------------------------------------ */

typedef struct ctx {
    const plan_message *pm;
    out *o;
} ctx;

/* The member's lvalue given the struct pointer name (m, a, b). */
static char *lval(const plan_field *pf, const char *s)
{
    if (pf->oneof) return ir_printf("%s->%s.%s", s, pf->oneof->member, pf->member);
    return ir_printf("%s->%s", s, pf->member);
}

static const char *case_const(const plan_message *pm, const plan_field *pf)
{
    return ir_printf("%s_%s_%s", pm->cname, pf->oneof->member, pf->member);
}

/* Condition for writing or printing a singular field; NULL = always. */
static char *present(const plan_field *pf, const char *x, const char *s)
{
    if (pf->oneof || pf->always) return NULL;
    if (pf->has_member) return ir_printf("%s->%s", s, pf->has_member);
    if (pf->kind == PLAN_MESSAGE) return ir_strdup(x);
    return nonzero(pf->type, x);
}

static void open_if(out *o, const char *ind, const char *cond)
{
    if (cond) printf_(o, "%sif (%s) {\n", ind, cond);
    else printf_(o, "%s{\n", ind);
}

/* The size of a wrapper's payload: field 1 when not default. */
static char *wrapper_inner_size(const plan_field *pf, const char *x)
{
    int inner_tag_len = 1;
    return ir_printf("(%s ? %d + %s : 0)", nonzero(pf->type, x), inner_tag_len, value_size(pf->type, x));
}

static void gen_size_field(ctx *c, const plan_field *pf, const char *ind)
{
    out *o = c->o;
    const char *x = lval(pf, "m");
    if (pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP) {
        const char *sub = pf->type_cname;
        const char *framed = pf->group ? ir_printf("%d + s", 2 * pf->tag_len) : ir_printf("%d + pbj_len_size(s)", pf->tag_len);
        if (pf->repeated || pf->kind == PLAN_MAP) {
            printf_(o, "%sfor (size_t i = 0; i < %s.count; i++) {\n", ind, x);
            printf_(o, "%s    size_t s = %s_size(&%s.data[i]);\n", ind, sub, x);
            printf_(o, "%s    n += %s;\n%s}\n", ind, framed, ind);
            return;
        }
        printf_(o, "%sif (%s) {\n", ind, x);
        printf_(o, "%s    size_t s = %s_size(%s);\n", ind, sub, x);
        printf_(o, "%s    n += %s;\n%s}", ind, framed, ind);
        if (pf->oneof || pf->always) printf_(o, " else {\n%s    n += %d;\n%s}", ind, pf->group ? 2 * pf->tag_len : pf->tag_len + 1, ind);
        puts_(o, "\n");
        return;
    }
    if (pf->kind == PLAN_WRAPPER) {
        printf_(o, "%sif (m->%s) {\n", ind, pf->has_member);
        printf_(o, "%s    size_t s = %s;\n", ind, wrapper_inner_size(pf, x));
        printf_(o, "%s    n += %d + pbj_len_size(s);\n%s}\n", ind, pf->tag_len, ind);
        return;
    }
    if (pf->repeated) {
        const char *e = ir_printf("%s.data[i]", x);
        wire w = wire_of(pf->type);
        const char *payload = w == W_BOOL ? ir_printf("%s.count", x)
                            : w == W_FIXED32 ? ir_printf("%s.count * 4", x)
                            : w == W_FIXED64 ? ir_printf("%s.count * 8", x) : NULL;
        if (pf->packed) {
            printf_(o, "%sif (%s.count) {\n", ind, x);
            if (payload) printf_(o, "%s    size_t s = %s;\n", ind, payload);
            else {
                printf_(o, "%s    size_t s = 0;\n", ind);
                printf_(o, "%s    for (size_t i = 0; i < %s.count; i++) s += %s;\n", ind, x, value_size(pf->type, e));
            }
            printf_(o, "%s    n += %d + pbj_len_size(s);\n%s}\n", ind, pf->tag_len, ind);
            return;
        }
        printf_(o, "%sn += %s.count * %d;\n", ind, x, pf->tag_len);
        if (payload) printf_(o, "%sn += %s;\n", ind, payload);
        else printf_(o, "%sfor (size_t i = 0; i < %s.count; i++) n += %s;\n", ind, x, value_size(pf->type, e));
        return;
    }
    const char *cond = present(pf, x, "m");
    if (cond) printf_(o, "%sif (%s) n += %d + %s;\n", ind, cond, pf->tag_len, value_size(pf->type, x));
    else printf_(o, "%sn += %d + %s;\n", ind, pf->tag_len, value_size(pf->type, x));
}

/* A nested message at pointer expression x: tag, length (or, for a group, an end tag after it). */
static void write_message(out *o, const char *ind, const plan_field *pf, const char *x)
{
    tag_write(o, ind, pf->tag, pf->tag_len);
    if (!pf->group) printf_(o, "%sp = pbj_put_varint(p, (%s)->pbj__cached_size);\n", ind, x);
    printf_(o, "%sp = %s__write(%s, p);\n", ind, pf->type_cname, x);
    if (pf->group) tag_write(o, ind, pf->end_tag, pf->tag_len);
}

static void gen_write_field(ctx *c, const plan_field *pf, const char *ind)
{
    out *o = c->o;
    const char *x = lval(pf, "m");
    const char *in2 = ir_strcat(ind, "    ");
    if (pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP) {
        if (pf->repeated || pf->kind == PLAN_MAP) {
            printf_(o, "%sfor (size_t i = 0; i < %s.count; i++) {\n", ind, x);
            write_message(o, in2, pf, ir_printf("&%s.data[i]", x));
            printf_(o, "%s}\n", ind);
            return;
        }
        printf_(o, "%sif (%s) {\n", ind, x);
        write_message(o, in2, pf, x);
        printf_(o, "%s}", ind);
        if (pf->oneof || pf->always) {
            puts_(o, " else {\n");
            tag_write(o, in2, pf->tag, pf->tag_len);
            if (pf->group) tag_write(o, in2, pf->end_tag, pf->tag_len);
            else printf_(o, "%s*p++ = 0;\n", in2);
            printf_(o, "%s}", ind);
        }
        puts_(o, "\n");
        return;
    }
    if (pf->kind == PLAN_WRAPPER) {
        printf_(o, "%sif (m->%s) {\n", ind, pf->has_member);
        tag_write(o, in2, pf->tag, pf->tag_len);
        printf_(o, "%sp = pbj_put_varint(p, %s);\n", in2, wrapper_inner_size(pf, x));
        printf_(o, "%sif (%s) {\n", in2, nonzero(pf->type, x));
        printf_(o, "%s    *p++ = 0x%02x;\n", in2, (1u << 3) | (unsigned)wire_type_of(pf->type));
        printf_(o, "%s    %s\n%s}\n%s}\n", in2, value_write(pf->type, x), in2, ind);
        return;
    }
    if (pf->repeated) {
        const char *e = ir_printf("%s.data[i]", x);
        if (pf->packed) {
            wire w = wire_of(pf->type);
            printf_(o, "%sif (%s.count) {\n", ind, x);
            if (w == W_VARINT) {
                printf_(o, "%ssize_t s = 0;\n", in2);
                printf_(o, "%sfor (size_t i = 0; i < %s.count; i++) s += %s;\n", in2, x, value_size(pf->type, e));
            } else {
                printf_(o, "%ssize_t s = %s.count%s;\n", in2, x, w == W_FIXED32 ? " * 4" : w == W_FIXED64 ? " * 8" : "");
            }
            tag_write(o, in2, pf->tag, pf->tag_len);
            printf_(o, "%sp = pbj_put_varint(p, s);\n", in2);
            printf_(o, "%sfor (size_t i = 0; i < %s.count; i++) %s\n%s}\n", in2, x, value_write(pf->type, e), ind);
            return;
        }
        printf_(o, "%sfor (size_t i = 0; i < %s.count; i++) {\n", ind, x);
        tag_write(o, in2, pf->tag, pf->tag_len);
        printf_(o, "%s%s\n%s}\n", in2, value_write(pf->type, e), ind);
        return;
    }
    open_if(o, ind, present(pf, x, "m"));
    tag_write(o, in2, pf->tag, pf->tag_len);
    printf_(o, "%s%s\n%s}\n", in2, value_write(pf->type, x), ind);
}

/* Code after a field is read: jump straight to the field expected next. */
static void predict(out *o, const char *ind, uint32_t tag, const uint8_t *bytes, int n)
{
    printf_(o, "%sif (end - p >= %d", ind, n);
    for (int i = 0; i < n; i++) printf_(o, " && p[%d] == 0x%02x", i, bytes[i]);
    printf_(o, ") {\n%s    p += %d;\n%s    goto f_%u;\n%s}\n", ind, n, ind, tag, ind);
}

/* Reads a length-delimited payload (or a group's body) into the message at target. */
static void read_message(out *o, const char *ind, const plan_field *pf, const char *target, bool fresh)
{
    const char *sub = pf->type_cname;
    if (fresh) printf_(o, "%s%s_init(%s);\n", ind, sub, target);
    if (pf->group) {
        printf_(o, "%s{\n%s    const uint8_t *body_end, *after;\n", ind, ind);
        printf_(o, "%s    if (!(after = pbj_group_body(p, end, 0x%x, d, &body_end, &st))) return st;\n", ind, pf->tag_value);
        printf_(o, "%s    if ((st = %s__decode(%s, p, body_end, d)) != PBJ_OK) return st;\n", ind, sub, target);
        printf_(o, "%s    p = after;\n%s}\n", ind, ind);
        return;
    }
    printf_(o, "%s{\n%s    size_t len;\n", ind, ind);
    printf_(o, "%s    if (!(p = pbj_get_len(p, end, d, &len, &st))) return st;\n", ind);
    printf_(o, "%s    if ((st = %s__decode(%s, p, p + len, d)) != PBJ_OK) return st;\n", ind, sub, target);
    printf_(o, "%s    p += len;\n%s}\n", ind, ind);
}

static void alloc_message(out *o, const char *ind, const char *sub, const char *target)
{
    printf_(o, "%sif (!(%s = (%s *)pbj_arena_alloc(d->arena, sizeof(%s)))) return PBJ_ERR_NOMEM;\n", ind, target, sub, sub);
    printf_(o, "%s%s_init(%s);\n", ind, sub, target);
}

static void grow(out *o, const char *ind, const char *x, const char *elem, const char *add)
{
    printf_(o, "%sif (!(%s.data = (%s *)pbj__array_grow(d->arena, %s.data, %s.count, %s, sizeof(%s)))) return PBJ_ERR_NOMEM;\n",
            ind, x, elem, x, x, add, elem);
}

/* The body of one case of the decode switch: the field read with the wire type of tag. */
static void gen_decode_case(ctx *c, const plan_field *pf, bool packed_form)
{
    out *o = c->o;
    const char *ind = "            ";
    const char *x = lval(pf, "m");
    if (pf->kind == PLAN_MAP || (pf->kind == PLAN_MESSAGE && pf->repeated)) {
        if (pf->closed_map_value) printf_(o, "%s{\n%sconst uint8_t *rec = p - %d;\n", ind, ind, pf->tag_len);
        grow(o, ind, x, pf->type_cname, "1");
        read_message(o, ind, pf, ir_printf("&%s.data[%s.count]", x, x), true);
        if (pf->closed_map_value) {                   /* as protobuf: an entry with an unknown closed enum value is an unknown field */
            const ir_field *v = NULL;
            for (size_t j = 0; j < pf->f->message_type->fields.n; j++)
                if (pf->f->message_type->fields.v[j]->number == 2) v = pf->f->message_type->fields.v[j];
            printf_(o, "%sif (!%s_name(%s.data[%s.count].%s)) {\n", ind, plan_enum_cname(v->enum_type), x, x, plan_sanitize(v->name));
            printf_(o, "%s    if (d->unknown == PBJ_UNKNOWN_REJECT) return PBJ_ERR_UNKNOWN_FIELD;\n", ind);
            printf_(o, "%s    if (d->unknown == PBJ_UNKNOWN_KEEP && (st = pbj__append(d->arena, &m->pbj_unknown, rec, (size_t)(p - rec))) != PBJ_OK) return st;\n", ind);
            printf_(o, "%s    continue;\n%s}\n", ind, ind);
        }
        printf_(o, "%s%s.count++;\n", ind, x);
        if (pf->closed_map_value) printf_(o, "%s}\n", ind);
        return;
    }
    if (pf->kind == PLAN_MESSAGE) {
        if (pf->oneof) {
            printf_(o, "%sif (m->%s_case != %s || !%s) {\n", ind, pf->oneof->member, case_const(c->pm, pf), x);
            alloc_message(o, ir_strcat(ind, "    "), pf->type_cname, x);
            printf_(o, "%s    m->%s_case = %s;\n%s}\n", ind, pf->oneof->member, case_const(c->pm, pf), ind);
        } else {
            printf_(o, "%sif (!%s) {\n", ind, x);
            alloc_message(o, ir_strcat(ind, "    "), pf->type_cname, x);
            printf_(o, "%s}\n", ind);
        }
        read_message(o, ind, pf, x, false);
        return;
    }
    if (pf->kind == PLAN_WRAPPER) {
        bool slice = wire_of(pf->type) == W_SLICE;
        printf_(o, "%s{\n%s    size_t len;\n", ind, ind);
        if (slice) printf_(o, "%s    uint64_t v = 0;\n%s    pbj_slice s = %s;\n", ind, ind, x);
        else printf_(o, "%s    uint64_t v = %s;\n%s    pbj_slice s = {NULL, 0};\n", ind, wire_value(pf->type, x), ind);
        printf_(o, "%s    if (!(p = pbj_get_len(p, end, d, &len, &st))) return st;\n", ind);
        printf_(o, "%s    if ((st = pbj_decode_wrapper(p, p + len, d, 0x%02x, &v, &s, %s)) != PBJ_OK) return st;\n", ind,
                (1u << 3) | (unsigned)wire_type_of(pf->type), pf->utf8 ? "true" : "false");
        printf_(o, "%s    %s = %s;\n", ind, x, slice ? "s" : from_wire(pf->type, "v"));
        printf_(o, "%s    m->%s = 1;\n%s    p += len;\n%s}\n", ind, pf->has_member, ind, ind);
        return;
    }
    if (pf->repeated) {
        const char *e = ir_printf("%s.data[%s.count++]", x, x);
        if (packed_form) {
            wire w = wire_of(pf->type);
            printf_(o, "%s{\n%s    size_t len;\n", ind, ind);
            printf_(o, "%s    if (!(p = pbj_get_len(p, end, d, &len, &st))) return st;\n", ind);
            printf_(o, "%s    const uint8_t *pe = p + len;\n", ind);
            if (w == W_FIXED32 || w == W_FIXED64) {
                int sz = w == W_FIXED32 ? 4 : 8;
                printf_(o, "%s    if (len %% %d) return PBJ_ERR_TRUNCATED;\n", ind, sz);
                printf_(o, "%s    size_t k = len / %d;\n", ind, sz);
            } else printf_(o, "%s    size_t k = pbj_count_varints(p, pe);\n", ind);
            printf_(o, "%s    if (k) {\n", ind);
            grow(o, ir_strcat(ind, "        "), x, pf->ctype, "k");
            printf_(o, "%s    }\n%s    while (p < pe) {\n", ind, ind);
            value_read(o, ir_strcat(ind, "        "), pf, e, "pe", NULL);
            printf_(o, "%s    }\n%s}\n", ind, ind);
            return;
        }
        grow(o, ind, x, pf->ctype, "1");
        value_read(o, ind, pf, e, "end", NULL);
        return;
    }
    if (pf->oneof) {
        value_read(o, ind, pf, x, "end", ir_printf("m->%s_case = %s;", pf->oneof->member, case_const(c->pm, pf)));
        return;
    }
    value_read(o, ind, pf, x, "end", pf->has_member ? ir_printf("m->%s = 1;", pf->has_member) : NULL);
}

/* Tags that some case jumps to (labels are emitted only for those). */
typedef IR_VEC(uint32_t) tag_set;

static bool has_tag(const tag_set *s, uint32_t t)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == t) return true;
    return false;
}

static void gen_decode_predictions(ctx *c, size_t i, tag_set *targets, bool emit)
{
    const plan_field *pf = &c->pm->fields.v[i];
    const char *ind = "            ";
    if (pf->repeated && !pf->packed && pf->kind != PLAN_WRAPPER) {
        if (emit) predict(c->o, ind, pf->tag_value, pf->tag, pf->tag_len);
        else ir_vec_push(targets, pf->tag_value);
    }
    if (i + 1 < c->pm->fields.n) {
        const plan_field *nx = &c->pm->fields.v[i + 1];
        if (emit) predict(c->o, ind, nx->tag_value, nx->tag, nx->tag_len);
        else ir_vec_push(targets, nx->tag_value);
    }
}

static void gen_decode(ctx *c)
{
    const plan_message *pm = c->pm;
    out *o = c->o;
    tag_set targets = {0};
    for (size_t i = 0; i < pm->fields.n; i++) gen_decode_predictions(c, i, &targets, false);
    tmpl(o, tmpl_message_decode_open, "c", pm->cname, NULL);
    for (size_t i = 0; i < pm->fields.n; i++) {
        const plan_field *pf = &pm->fields.v[i];
        for (int form = 0; form < (pf->packable ? 2 : 1); form++) {
            uint32_t tag = form ? pf->alt_tag_value : pf->tag_value;
            bool packed_form = pf->packable && (tag & 7) == 2;
            printf_(o, "        case 0x%x: /* %s */\n", tag, pf->name);
            if (has_tag(&targets, tag)) printf_(o, "        f_%u:\n", tag);
            gen_decode_case(c, pf, packed_form);
            gen_decode_predictions(c, i, &targets, true);
            printf_(o, "            continue;\n");
        }
    }
    /* a known field number with a wire type it cannot have */
    if (pm->fields.n || pm->ext_ranges.n) {
        puts_(o, "        default:\n");
        if (pm->fields.n) {
            puts_(o, "            switch (tag >> 3) {\n");
            for (size_t i = 0; i < pm->fields.n; i++) printf_(o, "            case %d:\n", pm->fields.v[i].number);
            puts_(o, "                return PBJ_ERR_WIRE_TYPE;\n            default:\n                break;\n            }\n");
        }
        if (pm->known_ext.n || pm->msgset) {          /* known extensions: kept in pbj_ext, in number order */
            puts_(o, "            switch (tag >> 3) {\n");
            for (int replace = 0; replace < 2; replace++) {   /* repeated and messages append; singular scalars replace */
                int cases = 0;
                if (pm->msgset && !replace) cases += printf_n(o, "            case 1:                  /* message-set items */\n");
                for (size_t i = 0; i < pm->known_ext.n; i++) {
                    const plan_field *x = pm->known_ext.v[i];
                    if ((i && x->number == pm->known_ext.v[i - 1]->number) ||
                        replace != (!x->repeated && x->kind != PLAN_MESSAGE))
                        continue;
                    cases += printf_n(o, "            case %d:\n", x->number);
                }
                if (cases)
                    printf_(o, "                if (!(p = pbj__ext_field(d, &m->pbj_ext, start, p, end, tag, %s, &st))) return st;\n"
                               "                continue;\n", replace ? "true" : "false");
            }
            puts_(o, "            default:\n                break;\n            }\n");
        }
        if (pm->map_entry)                            /* as protobuf: a map entry keeps no unknown fields */
            printf_(o, "            (void)start;\n            if (!(p = pbj_skip_field(p, end, tag, d, d->depth_left, &st))) return st;\n");
        else printf_(o, "            if (!(p = pbj_unknown_field(d, &m->pbj_unknown, start, p, end, tag, &st))) return st;\n");
        printf_(o, "            continue;\n        }\n    }\n");
    } else {
        tmpl(o, tmpl_message_decode_unknown, NULL);
    }
    for (size_t i = 0; i < pm->fields.n; i++) {
        const plan_field *pf = &pm->fields.v[i];
        if (pf->kind != PLAN_MAP) continue;
        printf_(o, "    if (m->%s.count > 1) {\n", pf->member);
        printf_(o, "        size_t n = pbj_sort_unique(m->%s.data, m->%s.count, sizeof *m->%s.data, %s__cmp_%s, d->arena);\n",
                pf->member, pf->member, pf->member, pm->cname, pf->member);
        printf_(o, "        if (n == (size_t)-1) return PBJ_ERR_NOMEM;\n        m->%s.count = n;\n    }\n", pf->member);
    }
    tmpl(o, tmpl_message_decode_close, NULL);
}

/* ---- print and equal -------------------------------------------------------------------- */

static void print_value(out *o, const char *ind, const plan_field *pf, ir_type t, const char *name, const char *x)
{
    switch (t) {
    case IR_TYPE_INT32: case IR_TYPE_SINT32: case IR_TYPE_SFIXED32:
        printf_(o, "%spbj_text_int32(t, \"%s\", %s);\n", ind, name, x); break;
    case IR_TYPE_INT64: case IR_TYPE_SINT64: case IR_TYPE_SFIXED64:
        printf_(o, "%spbj_text_int64(t, \"%s\", %s);\n", ind, name, x); break;
    case IR_TYPE_UINT32: case IR_TYPE_FIXED32:
        printf_(o, "%spbj_text_uint32(t, \"%s\", %s);\n", ind, name, x); break;
    case IR_TYPE_UINT64: case IR_TYPE_FIXED64:
        printf_(o, "%spbj_text_uint64(t, \"%s\", %s);\n", ind, name, x); break;
    case IR_TYPE_BOOL: printf_(o, "%spbj_text_bool(t, \"%s\", %s);\n", ind, name, x); break;
    case IR_TYPE_FLOAT: printf_(o, "%spbj_text_float(t, \"%s\", %s);\n", ind, name, x); break;
    case IR_TYPE_DOUBLE: printf_(o, "%spbj_text_double(t, \"%s\", %s);\n", ind, name, x); break;
    case IR_TYPE_STRING: printf_(o, "%spbj_text_string(t, \"%s\", pbj_slice_data(%s), %s.len);\n", ind, name, x, x); break;
    case IR_TYPE_BYTES: printf_(o, "%spbj_text_bytes(t, \"%s\", pbj_slice_data(%s), %s.len);\n", ind, name, x, x); break;
    case IR_TYPE_ENUM:
        if (pf->type_cname) printf_(o, "%spbj_text_enum(t, \"%s\", %s, %s_name(%s));\n", ind, name, x, pf->type_cname, x);
        else printf_(o, "%spbj_text_int32(t, \"%s\", %s);\n", ind, name, x);
        break;
    default: break;
    }
}

static void gen_print_field(ctx *c, const plan_field *pf, const char *ind)
{
    out *o = c->o;
    const char *x = lval(pf, "m");
    const char *in2 = ir_strcat(ind, "    ");
    if (pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP) {
        if (pf->repeated || pf->kind == PLAN_MAP) {
            printf_(o, "%sfor (size_t i = 0; i < %s.count; i++) {\n", ind, x);
            printf_(o, "%spbj_text_open(t, \"%s\");\n%s%s_print(&%s.data[i], t);\n%spbj_text_close(t);\n%s}\n",
                    in2, pf->name, in2, pf->type_cname, x, in2, ind);
            return;
        }
        if (pf->oneof || pf->always) {
            printf_(o, "%spbj_text_open(t, \"%s\");\n%sif (%s) %s_print(%s, t);\n%spbj_text_close(t);\n",
                    ind, pf->name, ind, x, pf->type_cname, x, ind);
            return;
        }
        printf_(o, "%sif (%s) {\n%spbj_text_open(t, \"%s\");\n%s%s_print(%s, t);\n%spbj_text_close(t);\n%s}\n",
                ind, x, in2, pf->name, in2, pf->type_cname, x, in2, ind);
        return;
    }
    if (pf->kind == PLAN_WRAPPER) {
        printf_(o, "%sif (m->%s) {\n%spbj_text_open(t, \"%s\");\n", ind, pf->has_member, in2, pf->name);
        printf_(o, "%sif (%s)\n", in2, nonzero(pf->type, x));
        print_value(o, ir_strcat(in2, "    "), pf, pf->type, "value", x);
        printf_(o, "%spbj_text_close(t);\n%s}\n", in2, ind);
        return;
    }
    if (pf->repeated) {
        printf_(o, "%sfor (size_t i = 0; i < %s.count; i++)\n", ind, x);
        print_value(o, in2, pf, pf->type, pf->name, ir_printf("%s.data[i]", x));
        return;
    }
    const char *cond = present(pf, x, "m");
    if (cond) {
        printf_(o, "%sif (%s)\n", ind, cond);
        print_value(o, in2, pf, pf->type, pf->name, x);
    } else print_value(o, ind, pf, pf->type, pf->name, x);
}

/* Equality of one value of type t: a C expression over xa and xb. */
static char *value_equal(const plan_field *pf, ir_type t, const char *xa, const char *xb)
{
    if (pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP) {
        if (pf->repeated || pf->kind == PLAN_MAP) return ir_printf("%s_equal(&%s, &%s)", pf->type_cname, xa, xb);
        return ir_printf("(%s ? %s && %s_equal(%s, %s) : !%s)", xa, xb, pf->type_cname, xa, xb, xb);
    }
    if (wire_of(t) == W_SLICE) return ir_printf("pbj_slice_eq(%s, %s)", xa, xb);
    if (t == IR_TYPE_FLOAT) return ir_printf("pbj_float_bits(%s) == pbj_float_bits(%s)", xa, xb);
    if (t == IR_TYPE_DOUBLE) return ir_printf("pbj_double_bits(%s) == pbj_double_bits(%s)", xa, xb);
    return ir_printf("%s == %s", xa, xb);
}

static void gen_equal_field(ctx *c, const plan_field *pf, const char *ind)
{
    out *o = c->o;
    const char *xa = lval(pf, "a"), *xb = lval(pf, "b");
    if (pf->repeated || pf->kind == PLAN_MAP) {
        printf_(o, "%sif (%s.count != %s.count) return false;\n", ind, xa, xb);
        printf_(o, "%sfor (size_t i = 0; i < %s.count; i++)\n", ind, xa);
        printf_(o, "%s    if (!(%s)) return false;\n", ind,
                value_equal(pf, pf->type, ir_printf("%s.data[i]", xa), ir_printf("%s.data[i]", xb)));
        return;
    }
    if (pf->has_member)
        printf_(o, "%sif (a->%s != b->%s || (a->%s && !(%s))) return false;\n", ind, pf->has_member, pf->has_member,
                pf->has_member, value_equal(pf, pf->type, xa, xb));
    else printf_(o, "%sif (!(%s)) return false;\n", ind, value_equal(pf, pf->type, xa, xb));
}

/* ---- messages: runs of fields, oneof runs as one switch -------------------------------------- */

typedef void (*field_fn)(ctx *c, const plan_field *pf, const char *ind);

/* Calls fn for each field in number order; adjacent members of one oneof
 * share a switch on the case (switch_on: "m" or "a"). ext_fn, when given, is
 * called for each run of extension ranges at its place among the fields. */
typedef void (*ext_fn)(ctx *c, uint32_t lo, uint32_t hi);

static size_t ext_before(ctx *c, ext_fn efn, size_t r, int64_t number)
{
    const plan_message *pm = c->pm;
    if (!efn || r >= pm->ext_ranges.n || pm->ext_ranges.v[r].start > number) return r;
    uint32_t lo = (uint32_t)pm->ext_ranges.v[r].start, hi = (uint32_t)pm->ext_ranges.v[r].end;
    for (r++; r < pm->ext_ranges.n && pm->ext_ranges.v[r].start < number; r++) hi = (uint32_t)pm->ext_ranges.v[r].end;
    efn(c, lo, hi);
    return r;
}

static void each_run_ext(ctx *c, field_fn fn, const char *s, ext_fn efn)
{
    const plan_message *pm = c->pm;
    size_t r = 0;
    for (size_t i = 0; i < pm->fields.n;) {
        const plan_field *pf = &pm->fields.v[i];
        r = ext_before(c, efn, r, pf->number);
        if (!pf->oneof) {
            fn(c, pf, "    ");
            i++;
            continue;
        }
        const plan_oneof *po = pf->oneof;
        printf_(c->o, "    switch (%s->%s_case) {\n", s, po->member);
        for (; i < pm->fields.n && pm->fields.v[i].oneof == po; i++) {
            printf_(c->o, "    case %s:\n", case_const(pm, &pm->fields.v[i]));
            fn(c, &pm->fields.v[i], "        ");
            printf_(c->o, "        break;\n");
        }
        printf_(c->o, "    default:\n        break;\n    }\n");
    }
    ext_before(c, efn, r, INT64_MAX);
}

static void each_run(ctx *c, field_fn fn, const char *s) { each_run_ext(c, fn, s, NULL); }

static void ext_write(ctx *c, uint32_t lo, uint32_t hi)
{
    printf_(c->o, "    p = pbj__ext_write(m->pbj_ext, %u, %u, p);\n", lo, hi);
}

static void ext_print(ctx *c, uint32_t lo, uint32_t hi)
{
    printf_(c->o, "    %s__print_ext(m, t, %u, %u);\n", c->pm->cname, lo, hi);
}

static void gen_struct(ctx *c, const char *full)
{
    const plan_message *pm = c->pm;
    out *o = c->o;
    for (size_t i = 0; i < pm->oneofs.n; i++) {
        const plan_oneof *po = pm->oneofs.v[i];
        tmpl(o, tmpl_message_oneof_case, "case_type", po->case_type, "none", po->none_const, NULL);
        for (size_t j = 0; j < po->fields.n; j++)
            tmpl(o, tmpl_message_oneof_case_value, "name", case_const(pm, po->fields.v[j]),
                 "number", ir_printf("%d", po->fields.v[j]->number), NULL);
        tmpl(o, tmpl_message_oneof_case_close, "case_type", po->case_type, NULL);
    }
    tmpl(o, tmpl_message_struct_open, "c", pm->cname, "full", full, "options", pm->options_text, NULL);
    for (size_t i = 0; i < pm->fields.n; i++) {
        const plan_field *pf = &pm->fields.v[i];
        if (pf->has_member) printf_(o, "    bool %s : 1;\n", pf->has_member);
    }
    for (size_t i = 0; i < pm->fields.n;) {
        const plan_field *pf = &pm->fields.v[i];
        if (pf->oneof) {                              /* the union sits where its first member is */
            const plan_oneof *po = pf->oneof;
            if (po->fields.v[0] == pf) {
                printf_(o, "    %s %s_case;\n    union {\n", po->case_type, po->member);
                for (size_t j = 0; j < po->fields.n; j++) {
                    const plan_field *m = po->fields.v[j];
                    printf_(o, "        %s %s%s;   /* %d */\n", m->ctype, m->kind == PLAN_MESSAGE ? "*" : "", m->member, m->number);
                }
                printf_(o, "    } %s;\n", po->member);
            }
            i++;
            continue;
        }
        if (pf->repeated || pf->kind == PLAN_MAP)
            printf_(o, "    struct { %s *data; size_t count; } %s;   /* %d */\n", pf->ctype, pf->member, pf->number);
        else
            printf_(o, "    %s %s%s;   /* %d */\n", pf->ctype, pf->kind == PLAN_MESSAGE ? "*" : "", pf->member, pf->number);
        i++;
    }
    if (pm->ext_ranges.n)
        puts_(o, "    pbj_slice pbj_ext;            /* extension fields: raw records by number (the extensions' accessors) */\n");
    tmpl(o, tmpl_message_struct_close, "c", pm->cname, NULL);
}

static void gen_map_cmp(ctx *c)
{
    const plan_message *pm = c->pm;
    for (size_t i = 0; i < pm->fields.n; i++) {
        const plan_field *pf = &pm->fields.v[i];
        if (pf->kind != PLAN_MAP) continue;
        const ir_message *entry = pf->f->message_type;
        const ir_field *key = entry->fields.n ? entry->fields.v[0] : NULL;
        for (size_t j = 0; j < entry->fields.n; j++)
            if (entry->fields.v[j]->number == 1) key = entry->fields.v[j];
        printf_(c->o, "static int %s__cmp_%s(const void *pa, const void *pb)\n{\n", pm->cname, pf->member);
        printf_(c->o, "    const %s *a = (const %s *)pa, *b = (const %s *)pb;\n", pf->type_cname, pf->type_cname, pf->type_cname);
        const char *k = plan_sanitize(key ? key->name : "key");
        if (key && (key->type == IR_TYPE_STRING || key->type == IR_TYPE_BYTES))
            printf_(c->o, "    return pbj_slice_cmp(a->%s, b->%s);\n}\n\n", k, k);
        else printf_(c->o, "    return (a->%s > b->%s) - (a->%s < b->%s);\n}\n\n", k, k, k, k);
    }
}

/* M_missing: the first required field not set, here or below. */
static void gen_missing(ctx *c)
{
    const plan_message *pm = c->pm;
    out *o = c->o;
    printf_(o, "const char *%s_missing(const %s *m)\n{\n    const char *r = NULL;\n", pm->cname, pm->cname);
    for (size_t i = 0; i < pm->fields.n; i++) {
        const plan_field *pf = &pm->fields.v[i];
        if (pf->required)
            printf_(o, "    if (!m->%s) return \"%s\";\n", pf->has_member ? pf->has_member : pf->member, pf->f->full_name);
    }
    for (size_t i = 0; i < pm->fields.n; i++) {
        const plan_field *pf = &pm->fields.v[i];
        if (!pf->sub_may_miss) continue;
        const char *x = lval(pf, "m");
        if (pf->repeated || pf->kind == PLAN_MAP)
            printf_(o, "    for (size_t i = 0; i < %s.count; i++)\n        if ((r = %s_missing(&%s.data[i]))) return r;\n",
                    x, pf->type_cname, x);
        else if (pf->oneof)
            printf_(o, "    if (m->%s_case == %s && %s && (r = %s_missing(%s))) return r;\n", pf->oneof->member,
                    case_const(pm, pf), x, pf->type_cname, x);
        else printf_(o, "    if (%s && (r = %s_missing(%s))) return r;\n", x, pf->type_cname, x);
    }
    puts_(o, "    return r;\n}\n\n");
}

/* M__print_ext: the records of extension ranges [lo, hi], known extensions by name. */
static void gen_print_ext(ctx *c)
{
    const plan_message *pm = c->pm;
    out *o = c->o;
    if (!pm->ext_ranges.n) return;
    printf_(o, "#ifdef PBJ_TEXT_H\nstatic void %s__print_ext(const %s *m, pbj_text *t, uint32_t lo, uint32_t hi)\n{\n", pm->cname, pm->cname);
    puts_(o, "    size_t pos = 0;\n    pbj__ext_rec r;\n    while (pbj__ext_next(m->pbj_ext, &pos, &r)) {\n");
    puts_(o, "        uint32_t n = r.number;\n        pbj_slice one = pbj_slice_make(r.start, (size_t)(r.end - r.start));\n");
    puts_(o, "        (void)one;\n        if (n < lo || n > hi) continue;\n        switch (n) {\n");
    for (size_t i = 0; i < pm->known_ext.n; i++) {
        const plan_field *pf = pm->known_ext.v[i];
        if ((pf->foreign && pf->kind == PLAN_MESSAGE) || (i && pf->number == pm->known_ext.v[i - 1]->number))
            continue;                                 /* its type's functions are not in scope here */
        printf_(o, "        case %d: {\n", pf->number);
        if (pf->kind == PLAN_MESSAGE) {
            printf_(o, "            %s x;\n            pbj_arena a;\n            pbj_decoder d;\n            pbj_slice s;\n            pbj_status st;\n", pf->type_cname);
            puts_(o, "            pbj_arena_init(&a, NULL, 0);\n            pbj_decoder_init(&d, &a, NULL);\n");
            printf_(o, "            %s_init(&x);\n", pf->type_cname);
            printf_(o, "            if (!pbj__ext_payloads(one, %d, 0, &s)) break;\n", pf->number);
            printf_(o, "            st = %s__decode(&x, s.data, s.data + s.len, &d);\n", pf->type_cname);
            printf_(o, "            if (st == PBJ_OK) {\n                pbj_text_open(t, \"%s\");\n                %s_print(&x, t);\n                pbj_text_close(t);\n            }\n",
                    pf->name, pf->type_cname);
            puts_(o, "            pbj_arena_free(&a);\n            if (st != PBJ_OK) break;\n            continue;\n        }\n");
        } else if (wire_of(pf->type) == W_SLICE) {
            printf_(o, "            pbj_slice s;\n            if (!pbj__ext_payloads(one, %d, 0, &s)) break;\n", pf->number);
            print_value(o, "            ", pf, pf->type, pf->name, "s");
            puts_(o, "            continue;\n        }\n");
        } else {
            printf_(o, "            uint64_t v;\n            size_t k = pbj__ext_values(one, %d, %d, (size_t)-1, &v);\n", pf->number, wire_type_of(pf->type));
            puts_(o, "            if (!k) break;\n            for (size_t i = 0; i < k; i++) {\n");
            printf_(o, "                pbj__ext_values(one, %d, %d, i, &v);\n", pf->number, wire_type_of(pf->type));
            print_value(o, "                ", pf, pf->type, pf->name, from_wire(pf->type, "v"));
            puts_(o, "            }\n            continue;\n        }\n");
        }
    }
    puts_(o, "        default:\n            break;\n        }\n        pbj_text_unknown(t, r.start, (size_t)(r.end - r.start));\n    }\n}\n#endif\n\n");
}

static void gen_message_source(ctx *c)
{
    const plan_message *pm = c->pm;
    out *o = c->o;
    tmpl(o, tmpl_file_section, "title", pm->m->full_name, NULL);
    tmpl(o, tmpl_message_init_open, "c", pm->cname, NULL);
    for (size_t i = 0; i < pm->fields.n; i++)
        if (pm->fields.v[i].default_c) printf_(o, "    m->%s = %s;\n", pm->fields.v[i].member, pm->fields.v[i].default_c);
    tmpl(o, tmpl_message_init_close, NULL);
    gen_map_cmp(c);
    tmpl(o, tmpl_message_size_open, "c", pm->cname, NULL);
    if (pm->ext_ranges.n) puts_(o, "    n += m->pbj_ext.len;\n");
    each_run(c, gen_size_field, "m");
    tmpl(o, tmpl_message_size_close, "c", pm->cname, NULL);
    if (pm->may_miss) {
        gen_missing(c);
        tmpl(o, tmpl_message_encode, "c", pm->cname, "suffix", "_partial", NULL);
        tmpl(o, tmpl_message_encode_checked, "c", pm->cname, NULL);
    } else tmpl(o, tmpl_message_encode, "c", pm->cname, "suffix", "", NULL);
    tmpl(o, tmpl_message_decode, "c", pm->cname, "check", pm->may_miss ?
         ir_printf("    if (st == PBJ_OK && !(opts && opts->partial) && %s_missing(m)) st = PBJ_ERR_REQUIRED;\n", pm->cname) : "",
         NULL);
    tmpl(o, tmpl_message_write_open, "c", pm->cname, NULL);
    each_run_ext(c, gen_write_field, "m", ext_write);
    tmpl(o, tmpl_message_write_close, NULL);
    gen_decode(c);
    gen_print_ext(c);
    tmpl(o, tmpl_message_print_open, "c", pm->cname, NULL);
    each_run_ext(c, gen_print_field, "m", ext_print);
    tmpl(o, tmpl_message_print_close, NULL);
    tmpl(o, tmpl_message_equal_open, "c", pm->cname, NULL);
    for (size_t i = 0; i < pm->oneofs.n; i++)
        printf_(o, "    if (a->%s_case != b->%s_case) return false;\n", pm->oneofs.v[i]->member, pm->oneofs.v[i]->member);
    if (pm->ext_ranges.n) puts_(o, "    if (!pbj_slice_eq(a->pbj_ext, b->pbj_ext)) return false;\n");
    each_run(c, gen_equal_field, "a");
    tmpl(o, tmpl_message_equal_close, NULL);
}

/* ---- presence accessors: M_has_x and M_clear_x for every field with explicit presence ---- */

static void gen_accessors(out *o, const plan_message *pm)
{
    for (size_t i = 0; i < pm->fields.n; i++) {
        const plan_field *pf = &pm->fields.v[i];
        const char *c = pm->cname, *x = pf->member;
        if (pf->repeated || pf->kind == PLAN_MAP || pm->map_entry) continue;
        if (pf->oneof) {
            const char *k = case_const(pm, pf), *u = pf->oneof->member;
            printf_(o, "static inline bool %s_has_%s(const %s *m) { return m->%s_case == %s; }\n", c, x, c, u, k);
            printf_(o, "static inline void %s_clear_%s(%s *m)\n{\n    if (m->%s_case != %s) return;\n", c, x, c, u, k);
            printf_(o, "    m->%s_case = %s;\n    memset(&m->%s, 0, sizeof m->%s);\n}\n", u, pf->oneof->none_const, u, u);
        } else if (pf->has_member) {
            printf_(o, "static inline bool %s_has_%s(const %s *m) { return m->%s; }\n", c, x, c, pf->has_member);
            printf_(o, "static inline void %s_clear_%s(%s *m)\n{\n    m->%s = 0;\n    memset(&m->%s, 0, sizeof m->%s);\n", c, x, c,
                    pf->has_member, x, x);
            if (pf->default_c) printf_(o, "    m->%s = %s;\n", x, pf->default_c);
            puts_(o, "}\n");
        } else if (pf->kind == PLAN_MESSAGE) {
            printf_(o, "static inline bool %s_has_%s(const %s *m) { return m->%s != NULL; }\n", c, x, c, x);
            printf_(o, "static inline void %s_clear_%s(%s *m) { m->%s = NULL; }\n", c, x, c, x);
        }
    }
    puts_(o, "\n");
}

/* ---- extensions: typed accessors over the extendee's pbj_ext records ------------------------ */

static void gen_ext_header(out *o, const plan_field *pf)
{
    const char *x = pf->cname, *e = pf->extendee_cname;
    printf_(o, "/* extension %s = %d of %s: the value is kept as raw records in m->pbj_ext; set, add and\n"
               " * clear build the new records in arena a (the old ones stay until it is freed) */\n",
            pf->f->full_name, pf->number, pf->f->extend->extendee->full_name);
    bool msg = pf->kind == PLAN_MESSAGE;
    const char *t = pf->ctype;
    if (pf->repeated) {
        printf_(o, "size_t %s_count(const %s *m);\n", x, e);
        if (msg) {
            printf_(o, "PBJ_MUST_USE pbj_status %s_at(const %s *m, size_t i, %s *out, pbj_arena *a);   /* decoded into *out */\n", x, e, t);
            printf_(o, "PBJ_MUST_USE pbj_status %s_add(%s *m, %s *v, pbj_arena *a);\n", x, e, t);
        } else {
            printf_(o, "%s %s_at(const %s *m, size_t i);\n", t, x, e);
            printf_(o, "PBJ_MUST_USE pbj_status %s_add(%s *m, %s v, pbj_arena *a);\n", x, e, t);
        }
    } else {
        printf_(o, "bool %s_has(const %s *m);\n", x, e);
        if (msg) {
            printf_(o, "PBJ_MUST_USE pbj_status %s_get(const %s *m, %s *out, pbj_arena *a);   /* decoded into *out (init when absent) */\n", x, e, t);
            printf_(o, "PBJ_MUST_USE pbj_status %s_set(%s *m, %s *v, pbj_arena *a);\n", x, e, t);
        } else {
            printf_(o, "%s %s_get(const %s *m);   /* its default when absent */\n", t, x, e);
            printf_(o, "PBJ_MUST_USE pbj_status %s_set(%s *m, %s v, pbj_arena *a);\n", x, e, t);
        }
    }
    printf_(o, "PBJ_MUST_USE pbj_status %s_clear(%s *m, pbj_arena *a);\n\n", x, e);
}

/* The record of one value (tag and payload) into an arena buffer rec: statements ending with st set. */
static void ext_record(out *o, const plan_field *pf, const char *v)
{
    const uint8_t *tag = pf->tag;
    if (pf->kind == PLAN_MESSAGE) {
        printf_(o, "    size_t s = %s_size(%s);\n", pf->type_cname, v);
        printf_(o, "    size_t n = %d + %s;\n", pf->tag_len, pf->group ? ir_printf("s + %d", pf->tag_len) : "pbj_len_size(s)");
    } else if (wire_of(pf->type) == W_SLICE) printf_(o, "    size_t n = %d + pbj_len_size(%s.len);\n", pf->tag_len, v);
    else printf_(o, "    size_t n = %d + %s;\n", pf->tag_len, value_size(pf->type, v));
    if (pf->msgset) {                                 /* an item: group 1 { type_id = 2; message = 3 } */
        printf_(o, "    n += 4 + pbj_varint_size(%d) - %d;\n", pf->number, pf->tag_len);
        puts_(o, "    uint8_t *rec = (uint8_t *)pbj_arena_alloc(a, n), *p = rec;\n    if (!rec) return PBJ_ERR_NOMEM;\n");
        printf_(o, "    *p++ = 0x0b;\n    *p++ = 0x10;\n    p = pbj_put_varint(p, %d);\n    *p++ = 0x1a;\n", pf->number);
        printf_(o, "    p = pbj_put_varint(p, s);\n    p = %s__write(%s, p);\n    *p++ = 0x0c;\n", pf->type_cname, v);
        return;
    }
    puts_(o, "    uint8_t *rec = (uint8_t *)pbj_arena_alloc(a, n), *p = rec;\n    if (!rec) return PBJ_ERR_NOMEM;\n");
    tag_write(o, "    ", tag, pf->tag_len);
    if (pf->kind == PLAN_MESSAGE) {
        if (!pf->group) puts_(o, "    p = pbj_put_varint(p, s);\n");
        printf_(o, "    p = %s__write(%s, p);\n", pf->type_cname, v);
        if (pf->group) tag_write(o, "    ", pf->end_tag, pf->tag_len);
    } else printf_(o, "    %s\n", value_write(pf->type, v));
}

/* An extension's records found in the unknown fields (decoded where the run did not know it) move to pbj_ext first. */
static void ext_adopt(out *o, int n)
{
    printf_(o, "    pbj_status st0 = pbj__ext_adopt(a, &m->pbj_ext, &m->pbj_unknown, %d);\n    if (st0 != PBJ_OK) return st0;\n", n);
}

static void gen_ext_source(out *o, const plan_field *pf)
{
    const char *x = pf->cname, *e = pf->extendee_cname, *t = pf->ctype;
    int n = pf->number, wt = wire_type_of(pf->type);
    bool msg = pf->kind == PLAN_MESSAGE, slice = !msg && wire_of(pf->type) == W_SLICE;
    const char *count = msg || slice ? ir_printf("pbj_slice s;\n    return pbj__ext_payloads(pbj__ext_in(m->pbj_ext, m->pbj_unknown, %d), %d, (size_t)-1, &s)", n, n)
                                     : ir_printf("uint64_t v;\n    return pbj__ext_values(pbj__ext_in(m->pbj_ext, m->pbj_unknown, %d), %d, %d, (size_t)-1, &v)", n, n, wt);
    printf_(o, "%s %s_%s(const %s *m)\n{\n    %s%s;\n}\n\n", pf->repeated ? "size_t" : "bool", x, pf->repeated ? "count" : "has", e,
            count, pf->repeated ? "" : " != 0");
    const char *idx = pf->repeated ? "i" : "(size_t)-1";
    if (msg) {
        printf_(o, "pbj_status %s_%s(const %s *m, %s%s *out, pbj_arena *a)\n{\n", x, pf->repeated ? "at" : "get", e,
                pf->repeated ? "size_t i, " : "", t);
        printf_(o, "    pbj_decoder d;\n    pbj_slice s;\n    size_t k = pbj__ext_payloads(pbj__ext_in(m->pbj_ext, m->pbj_unknown, %d), %d, 0, &s);\n", n, n);
        printf_(o, "    pbj_decoder_init(&d, a, NULL);\n    %s_init(out);\n", pf->type_cname);
        if (pf->repeated) printf_(o, "    if (i >= k || !pbj__ext_payloads(pbj__ext_in(m->pbj_ext, m->pbj_unknown, %d), %d, i, &s)) return PBJ_OK;\n    return %s__decode(out, s.data, s.data + s.len, &d);\n}\n\n", n, n, pf->type_cname);
        else {
            puts_(o, "    for (size_t i = 0; i < k; i++) {          /* every record merges into one message */\n");
            printf_(o, "        pbj_status st;\n        pbj__ext_payloads(pbj__ext_in(m->pbj_ext, m->pbj_unknown, %d), %d, i, &s);\n", n, n);
            printf_(o, "        if ((st = %s__decode(out, s.data, s.data + s.len, &d)) != PBJ_OK) return st;\n    }\n    return PBJ_OK;\n}\n\n", pf->type_cname);
        }
    } else if (slice) {
        printf_(o, "pbj_slice %s_%s(const %s *m%s)\n{\n    pbj_slice s = %s;\n", x, pf->repeated ? "at" : "get", e,
                pf->repeated ? ", size_t i" : "", pf->default_c ? pf->default_c : "pbj_slice_make(NULL, 0)");
        printf_(o, "    pbj__ext_payloads(pbj__ext_in(m->pbj_ext, m->pbj_unknown, %d), %d, %s, &s);\n    return s;\n}\n\n", n, n, idx);
    } else {
        printf_(o, "%s %s_%s(const %s *m%s)\n{\n    uint64_t v = 0;\n", t, x, pf->repeated ? "at" : "get", e, pf->repeated ? ", size_t i" : "");
        printf_(o, "    if (!pbj__ext_values(pbj__ext_in(m->pbj_ext, m->pbj_unknown, %d), %d, %d, %s, &v)) return %s;\n", n, n, wt, idx, pf->default_c ? pf->default_c : "0");
        printf_(o, "    return %s;\n}\n\n", from_wire(pf->type, "v"));
    }
    printf_(o, "pbj_status %s_%s(%s *m, %s%s v, pbj_arena *a)\n{\n", x, pf->repeated ? "add" : "set", e, t, msg ? " *" : "");
    ext_adopt(o, n);
    if (pf->packed) {                                 /* one packed record of every value, as protoc writes it */
        printf_(o, "    uint64_t w = 0;\n    size_t k = pbj__ext_values(m->pbj_ext, %d, %d, (size_t)-1, &w), s = 0;\n", n, wt);
        printf_(o, "    for (size_t i = 0; i <= k; i++) {\n        %s x = v;\n", t);
        printf_(o, "        if (i < k && pbj__ext_values(m->pbj_ext, %d, %d, i, &w)) x = %s;\n", n, wt, from_wire(pf->type, "w"));
        printf_(o, "        (void)x;\n        s += %s;\n    }\n", value_size(pf->type, "x"));
        printf_(o, "    uint8_t *rec = (uint8_t *)pbj_arena_alloc(a, %d + pbj_len_size(s)), *p = rec;\n", pf->tag_len);
        puts_(o, "    if (!rec) return PBJ_ERR_NOMEM;\n");
        tag_write(o, "    ", pf->tag, pf->tag_len);
        puts_(o, "    p = pbj_put_varint(p, s);\n");
        printf_(o, "    for (size_t i = 0; i <= k; i++) {\n        %s x = v;\n", t);
        printf_(o, "        if (i < k && pbj__ext_values(m->pbj_ext, %d, %d, i, &w)) x = %s;\n", n, wt, from_wire(pf->type, "w"));
        printf_(o, "        %s\n    }\n", value_write(pf->type, "x"));
        printf_(o, "    return pbj__ext_set(a, &m->pbj_ext, %d, rec, (size_t)(p - rec));\n}\n\n", n);
    } else {
        ext_record(o, pf, "v");
        if (pf->repeated) printf_(o, "    return pbj__ext_insert(a, &m->pbj_ext, rec, (size_t)(p - rec), %d, false);\n}\n\n", n);
        else printf_(o, "    return pbj__ext_set(a, &m->pbj_ext, %d, rec, (size_t)(p - rec));\n}\n\n", n);
    }
    printf_(o, "pbj_status %s_clear(%s *m, pbj_arena *a)\n{\n", x, e);
    ext_adopt(o, n);
    printf_(o, "    return pbj__ext_remove(a, &m->pbj_ext, %d);\n}\n\n", n);
}

/* ---- enums ------------------------------------------------------------------------------------ */

static char *int_literal(int32_t v)
{
    return v == INT32_MIN ? ir_strdup("(-2147483647 - 1)") : ir_printf("%d", v);
}

static void gen_enum_header(out *o, const plan_enum *pe)
{
    tmpl(o, tmpl_enum_open, "c", pe->cname, "full", pe->e->full_name, NULL);
    for (size_t i = 0; i < pe->e->values.n; i++)
        tmpl(o, tmpl_enum_value, "name", pe->value_cnames.v[i], "number", int_literal(pe->e->values.v[i]->number), NULL);
    tmpl(o, tmpl_enum_close, "c", pe->cname, NULL);
    tmpl(o, tmpl_enum_name_decl, "c", pe->cname, "full", pe->e->full_name,
         "first", pe->e->values.n ? pe->e->values.v[0]->name : "", NULL);
}

static void gen_enum_source(out *o, const plan_enum *pe)
{
    tmpl(o, tmpl_enum_name_open, "c", pe->cname, NULL);
    for (size_t i = 0; i < pe->e->values.n; i++) {
        bool seen = false;                          /* aliases: the first name of a number */
        for (size_t j = 0; j < i; j++) seen |= pe->e->values.v[j]->number == pe->e->values.v[i]->number;
        if (!seen)
            tmpl(o, tmpl_enum_name_case, "number", int_literal(pe->e->values.v[i]->number),
                 "name", pe->e->values.v[i]->name, NULL);
    }
    tmpl(o, tmpl_enum_name_close, NULL);
}

/* ---- files ------------------------------------------------------------------------------------ */

static char *strip_proto(const char *name)
{
    size_t n = strlen(name);
    if (n > 6 && strcmp(name + n - 6, ".proto") == 0) n -= 6;
    return ir_strndup(name, n);
}

char *emit_header_path(const ir_file *f, const char *out_dir)
{
    return ir_printf("%s/%s.pb.h", out_dir, strip_proto(f->name));
}

char *emit_source_path(const ir_file *f, const char *out_dir)
{
    return ir_printf("%s/%s.pb.c", out_dir, strip_proto(f->name));
}

static char *guard_of(const char *name)
{
    char *g = ir_printf("PBJ_GEN_%s_PB_H", strip_proto(name));
    for (char *p = g; *p; p++) {
        if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
        else if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) *p = '_';
    }
    return g;
}

static void gen_header(out *o, const plan_file *pf)
{
    const ir_file *f = pf->f;
    const char *rtv = ir_printf("%d", PBJ_RUNTIME_VERSION), *guard = guard_of(f->name);
    tmpl(o, tmpl_file_header_top, "proto", f->name, "guard", guard, "rtversion", rtv, NULL);
    for (size_t i = 0; i < f->imports.n; i++)
        tmpl(o, tmpl_file_header_import, "header", ir_strcat(strip_proto(f->imports.v[i].name), ".pb.h"), NULL);
    tmpl(o, tmpl_file_header_open, NULL);
    if (pf->enums.n) tmpl(o, tmpl_file_section, "title", "enums", NULL);
    for (size_t i = 0; i < pf->enums.n; i++) gen_enum_header(o, pf->enums.v[i]);
    if (pf->messages.n) tmpl(o, tmpl_file_section, "title", "message types", NULL);
    for (size_t i = 0; i < pf->messages.n; i++) tmpl(o, tmpl_message_typedef, "c", pf->messages.v[i]->cname, NULL);
    if (pf->messages.n) puts_(o, "\n");
    for (size_t i = 0; i < pf->messages.n; i++) {
        ctx c = {pf->messages.v[i], o};
        tmpl(o, tmpl_file_section, "title", pf->messages.v[i]->m->full_name, NULL);
        gen_struct(&c, pf->messages.v[i]->m->full_name);
        tmpl(o, tmpl_message_prototypes, "c", pf->messages.v[i]->cname, "full", pf->messages.v[i]->m->full_name, NULL);
        tmpl(o, pf->messages.v[i]->may_miss ? tmpl_message_required_decl : tmpl_message_required_none,
             "c", pf->messages.v[i]->cname, "full", pf->messages.v[i]->m->full_name, NULL);
        gen_accessors(o, pf->messages.v[i]);
    }
    if (pf->extensions.n) tmpl(o, tmpl_file_section, "title", "extensions", NULL);
    for (size_t i = 0; i < pf->extensions.n; i++) gen_ext_header(o, pf->extensions.v[i]);
    tmpl(o, tmpl_file_header_bottom, "guard", guard, NULL);
}

static void gen_source(out *o, const plan_file *pf)
{
    const ir_file *f = pf->f;
    const char *base = strrchr(strip_proto(f->name), '/');
    base = base ? base + 1 : strip_proto(f->name);
    tmpl(o, tmpl_file_source_top, "proto", f->name, "header", ir_strcat(base, ".pb.h"),
         "rtversion", ir_printf("%d", PBJ_RUNTIME_VERSION), NULL);
    if (pf->enums.n) tmpl(o, tmpl_file_section, "title", "enum names", NULL);
    for (size_t i = 0; i < pf->enums.n; i++) gen_enum_source(o, pf->enums.v[i]);
    for (size_t i = 0; i < pf->messages.n; i++) {
        ctx c = {pf->messages.v[i], o};
        gen_message_source(&c);
    }
    if (pf->extensions.n) tmpl(o, tmpl_file_section, "title", "extensions", NULL);
    for (size_t i = 0; i < pf->extensions.n; i++) gen_ext_source(o, pf->extensions.v[i]);
}

/* mkdir -p of the directory part of path. */
static int make_dirs(const char *path)
{
    char *p = ir_strdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) return -1;
        *s = '/';
    }
    return 0;
}

/* Write text to path unless the file already holds exactly these bytes. */
static int write_if_changed(const char *path, const out *o)
{
    FILE *in = fopen(path, "rb");
    if (in) {
        char *old = malloc(o->len + 1);
        size_t n = old ? fread(old, 1, o->len + 1, in) : 0;
        fclose(in);
        bool same = old && n == o->len && XXH3_64bits(old, n) == XXH3_64bits(o->s, o->len) && memcmp(old, o->s, n) == 0;
        free(old);
        if (same) return 0;
    }
    if (make_dirs(path) != 0) {
        diag_error(NULL, (ir_loc){0, 0}, "cannot create the directory of %s: %s", path, strerror(errno));
        return 1;
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(o->s, 1, o->len, f) != o->len || fclose(f) != 0) {
        diag_error(NULL, (ir_loc){0, 0}, "cannot write %s: %s", path, strerror(errno));
        return 1;
    }
    return 0;
}

int emit_program(const ir_program *prog, const char *out_dir)
{
    int errors = 0;
    if (plan_check_names(prog) != 0) return 1;      /* C names two declarations share: code that would not compile */
    for (size_t i = 0; i < prog->inputs.n; i++) {
        const ir_file *f = prog->inputs.v[i];
        plan_file *pf = plan_build_in(f, prog);
        out h = {0}, s = {0};
        gen_header(&h, pf);
        gen_source(&s, pf);
        errors += write_if_changed(emit_header_path(f, out_dir), &h);
        errors += write_if_changed(emit_source_path(f, out_dir), &s);
        free(h.s);
        free(s.s);
    }
    return errors;
}
