/* plan.c: per file, every decision emit writes out: C names, field order and shapes, oneof runs, presence, tag bytes, code text. */
#include "plan.h"

#include "diag.h"
#include "options.h"
#include "symtab.h"
#include "textbuf.h"
#include "../rt/pbj_writer.h"   /* float bit casts for defaults, the varint writer for tags, PBJ__WLEARN */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- values by type: expressions with @ for the value (and # for the other one, or the field name) ---- */

/* How values are laid out on the wire: X(class, size of one, write one, write one in a writer (always
 * inline: rt/pbj_writer.h), size of all (fixed width), width, load of the fixed bits); the wire type itself
 * is ir_type_wire_type's. */
#define WIRE_CLASSES(X)                                                                                     \
    X(VARINT,  "pbj_varint_size(@)",  "p = pbj_put_varint(p, @);",  "p = pbj__wvarint(p, @);",            \
      NULL,          NULL, NULL)                                                                            \
    X(BOOL,    "1",                   "*p++ = @;",                  "*p++ = @;",                          \
      "@.count",     NULL, NULL)                                                                            \
    X(FIXED32, "4",                   "p = pbj_put_fixed32(p, @);", "p = pbj_put_fixed32(p, @);",         \
      "@.count * 4", "4",  "pbj_load_le32(p)")                                                              \
    X(FIXED64, "8",                   "p = pbj_put_fixed64(p, @);", "p = pbj_put_fixed64(p, @);",         \
      "@.count * 8", "8",  "pbj_load_le64(p)")                                                              \
    X(SLICE,   "pbj_len_size(@.len)", "p = pbj_put_bytes(p, @);",   "p = pbj__wbytes(p, @);",             \
      NULL,          NULL, NULL)

#define WIRE_ENUM(C, size, write, wwrite, all, width, load) WIRE_##C,
typedef enum wire_class { WIRE_CLASSES(WIRE_ENUM) } wire_class;
#undef WIRE_ENUM

static const struct wire_info {
    const char *size, *write, *wwrite, *all, *width, *load;
} wire_info[] = {
#define WIRE_ROW(C, size, write, wwrite, all, width, load) [WIRE_##C] = {size, write, wwrite, all, width, load},
    WIRE_CLASSES(WIRE_ROW)
#undef WIRE_ROW
};

/* X(type, C type, wire class, to wire, from wire, not zero) */
#define VALUE_TYPES(X)                                                                                   \
    X(DOUBLE,   "double",    FIXED64, "pbj_double_bits(@)",   "pbj_bits_double(@)",          "pbj_double_bits(@) != 0") \
    X(FLOAT,    "float",     FIXED32, "pbj_float_bits(@)",    "pbj_bits_float((uint32_t)@)", "pbj_float_bits(@) != 0") \
    X(INT64,    "int64_t",   VARINT,  "(uint64_t)@",          "(int64_t)@",         "@")                 \
    X(UINT64,   "uint64_t",  VARINT,  "@",                    "@",                  "@")                 \
    X(INT32,    "int32_t",   VARINT,  "(uint64_t)(int64_t)@", "(int32_t)@",         "@")                 \
    X(FIXED64,  "uint64_t",  FIXED64, "@",                    "@",                  "@")                 \
    X(FIXED32,  "uint32_t",  FIXED32, "@",                    "(uint32_t)@",        "@")                 \
    X(BOOL,     "bool",      BOOL,    "(uint8_t)@",           "(@ != 0)",           "@")                 \
    X(STRING,   "pbj_slice", SLICE,   "@",                    "@",                  "@.len != 0")        \
    X(BYTES,    "pbj_slice", SLICE,   "@",                    "@",                  "@.len != 0")        \
    X(UINT32,   "uint32_t",  VARINT,  "@",                    "(uint32_t)@",        "@")                 \
    X(ENUM,     "int32_t",   VARINT,  "(uint64_t)(int64_t)@", "(int32_t)@",         "@")                 \
    X(SFIXED32, "int32_t",   FIXED32, "(uint32_t)@",          "(int32_t)@",         "@")                 \
    X(SFIXED64, "int64_t",   FIXED64, "(uint64_t)@",          "(int64_t)@",         "@")                 \
    X(SINT32,   "int32_t",   VARINT,  "pbj_zigzag32(@)",      "pbj_unzigzag32((uint32_t)@)", "@")        \
    X(SINT64,   "int64_t",   VARINT,  "pbj_zigzag64(@)",      "pbj_unzigzag64(@)",  "@")

static const struct value_info {
    const char *ctype;
    wire_class wire;
    const char *to_wire, *from_wire, *nonzero;
} value_info[] = {
#define VALUE_ROW(T, ctype, wire, to, from, nz) [IR_TYPE_##T] = {ctype, WIRE_##wire, to, from, nz},
    VALUE_TYPES(VALUE_ROW)
#undef VALUE_ROW
};

static const struct value_info *value_of(ir_type t)
{
    static const struct value_info none = {"void", WIRE_VARINT, "@", "@", "@"};
    return (size_t)t < sizeof value_info / sizeof *value_info && value_info[t].ctype ? &value_info[t] : &none;
}

/* pattern with @ replaced by x and # by y. */
static const char *fill(ir_pool *pool, const char *pattern, const char *x, const char *y)
{
    size_t n = 1, lx = strlen(x), ly = y ? strlen(y) : 0;
    for (const char *p = pattern; *p; p++) n += *p == '@' ? lx : *p == '#' ? ly : 1;
    char *s = ir_pool_chars(pool, n), *o = s;
    for (const char *p = pattern; *p; p++) {
        size_t k = *p == '@' ? lx : *p == '#' ? ly : 0;
        if (k) o = (char *)memcpy(o, *p == '@' ? x : y, k) + k;
        else if (*p != '@' && *p != '#') *o++ = *p;
    }
    *o = 0;
    return s;
}

static const struct wire_info *wire_of(ir_type t) { return &wire_info[value_of(t)->wire]; }

static bool plan_is_slice(ir_type t) { return value_of(t)->wire == WIRE_SLICE; }
static const char *plan_from_wire(ir_pool *pool, ir_type t, const char *v) { return fill(pool, value_of(t)->from_wire, v, NULL); }
static const char *to_wire(ir_pool *pool, ir_type t, const char *x) { return fill(pool, value_of(t)->to_wire, x, NULL); }
static const char *plan_value_size(ir_pool *pool, ir_type t, const char *x) { return fill(pool, wire_of(t)->size, to_wire(pool, t, x), NULL); }
static const char *plan_value_write(ir_pool *pool, ir_type t, const char *x) { return fill(pool, wire_of(t)->write, to_wire(pool, t, x), NULL); }
static const char *value_wwrite(ir_pool *pool, ir_type t, const char *x) { return fill(pool, wire_of(t)->wwrite, to_wire(pool, t, x), NULL); }
static const char *nonzero(ir_pool *pool, ir_type t, const char *x) { return fill(pool, value_of(t)->nonzero, x, NULL); }

/* The tag's bytes as a C string literal's escapes. */
static const char *tag_bytes(ir_pool *pool, const uint8_t *tag, int n)
{
    static const char hex[] = "0123456789abcdef";
    char bytes[4 * 5], *o = bytes;
    for (int i = 0; i < n; i++) {
        *o++ = '\\';
        *o++ = 'x';
        *o++ = hex[tag[i] >> 4];
        *o++ = hex[tag[i] & 15];
    }
    return ir_pool_strndup(pool, bytes, (size_t)(o - bytes));
}

static const char *plan_tag_write(ir_pool *pool, const uint8_t *tag, int n)
{
    if (n == 1) return ir_pool_printf(pool, "*p++ = 0x%02x;", tag[0]);
    return ir_pool_printf(pool, "memcpy(p, \"%s\", %d);\np += %d;", tag_bytes(pool, tag, n), n, n);
}

static const char *plan_tag_rwrite(ir_pool *pool, const uint8_t *tag, int n)
{
    if (n == 1) return ir_pool_printf(pool, "*--p = 0x%02x;", tag[0]);
    return ir_pool_printf(pool, "p -= %d;\nmemcpy(p, \"%s\", %d);", n, tag_bytes(pool, tag, n), n);
}

/* The reverse encoder's pieces by wire class: a value written before p, the most bytes it takes, and the room
 * it asks for first beyond the message's margin (every other byte of a value fits in the margin, src/emit.c). */
static const struct { const char *write, *max; int bound; const char *room; } reverse_info[] = {
    [WIRE_VARINT] = {"p = pbj_rput_varint(p, @);", "10", 10, ""},
    [WIRE_BOOL] = {"*--p = @;", "1", 1, ""},
    [WIRE_FIXED32] = {"p = pbj_rput_fixed32(p, @);", "4", 4, ""},
    [WIRE_FIXED64] = {"p = pbj_rput_fixed64(p, @);", "8", 8, ""},
    [WIRE_SLICE] = {"p = pbj_rput_bytes(p, @);", "10 + @.len", 10, "if (!pbj_rfits(p, lim, @.len + margin)) return NULL;"},
};

static const char *value_rwrite(ir_pool *pool, ir_type t, const char *x) { return fill(pool, reverse_info[value_of(t)->wire].write, to_wire(pool, t, x), NULL); }
static const char *value_rmax(ir_pool *pool, ir_type t, int tag_len, const char *x)
{
    return ir_pool_printf(pool, "%d + %s", tag_len, fill(pool, reverse_info[value_of(t)->wire].max, x, NULL));
}

/* The most bytes pf writes outside the room it asks for itself: tags, lengths, a value of fixed most size. */
static int value_rbound(const plan_field *pf)
{
    bool value = !pf->repeated && (pf->kind == PLAN_SCALAR || pf->kind == PLAN_SLICE || pf->kind == PLAN_WRAPPER);
    return 2 * pf->tag_len + 10 + (value ? 1 + reverse_info[value_of(pf->type)->wire].bound : 0);
}

static const char *scalar_ctype(ir_type t) { return value_of(t)->ctype; }

/* ---- the .proto's comments as C comments -------------------------------------------------------- */

typedef IR_VEC(const char *) doc_text;

/* Adds the lines of text, trimmed (and a doc comment's leading '*'), with no comment delimiters or trigraphs left. */
static void doc_lines(ir_pool *pool, doc_text *d, const char *text)
{
    for (const char *p = text; p && *p;) {
        size_t n = strcspn(p, "\n"), b = strspn(p, " \t");
        if (b < n && p[b] == '*') b += 1 + strspn(p + b + 1, " \t");      /* a doc comment's " * " */
        if (b > n) b = n;
        while (n > b && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r')) n--;
        char *line = ir_pool_strndup(pool, p + b, n - b);
        for (char *q = line; q[0] && q[1]; q++)
            if ((q[0] == '*' && q[1] == '/') || (q[0] == '/' && q[1] == '*') || (q[0] == '?' && q[1] == '?')) q[1] = ' ';
        ir_pool_vec_push(pool, d, line);
        p += strcspn(p, "\n");
        if (*p) p++;
    }
}

/* The leading and trailing comments of a declaration as one C comment ("/" "* a\n * b *" "/"), or "". */
static const char *doc_of(ir_pool *pool, const ir_comments *c)
{
    doc_text d = {0};
    doc_lines(pool, &d, c->leading);
    doc_lines(pool, &d, c->trailing);
    size_t first = 0, end = d.n;
    while (first < end && !*d.v[first]) first++;
    while (end > first && !*d.v[end - 1]) end--;
    if (first == end) return "";
    const char *s = ir_pool_strcat(pool, "/* ", d.v[first]);
    for (size_t i = first + 1; i < end; i++) s = ir_pool_printf(pool, "%s\n *%s%s", s, *d.v[i] ? " " : "", d.v[i]);
    return ir_pool_strcat(pool, s, " */");
}

/* ---- proto2 defaults, as C expressions --------------------------------------------- */

/* A string or bytes default as a C string literal of exactly its bytes. */
const char *plan_c_string_literal(ir_pool *pool, const char *s, size_t n)
{
    char *out = ir_pool_alloc(pool, 4 * n + 3), *o = out;
    *o++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') *o++ = (char)c;
        else o += sprintf(o, "\\%03o", c);          /* three digits: never runs into the next byte */
    }
    *o++ = '"';
    return out;
}

static int32_t enum_number(const ir_enum *e, const char *name)
{
    for (size_t i = 0; i < e->values.n; i++)
        if (strcmp(e->values.v[i]->name, name) == 0) return e->values.v[i]->number;
    return 0;
}

static const char *int_expr(ir_pool *pool, ir_type t, const char *text)
{
    switch (t) {
    case IR_TYPE_INT64: case IR_TYPE_SINT64: case IR_TYPE_SFIXED64: {
        long long v = strtoll(text, NULL, 10);
        return v == INT64_MIN ? "INT64_MIN" : ir_pool_printf(pool, "INT64_C(%lld)", v);
    }
    case IR_TYPE_UINT64: case IR_TYPE_FIXED64: return ir_pool_printf(pool, "UINT64_C(%s)", text);
    case IR_TYPE_UINT32: case IR_TYPE_FIXED32: return ir_pool_printf(pool, "%su", text);
    default: {
        long v = strtol(text, NULL, 10);
        return v == INT32_MIN ? "INT32_MIN" : ir_pool_printf(pool, "%ld", v);
    }
    }
}

/* The C value of f's default when it is not all-zero bits, else NULL. */
static const char *default_expr(ir_pool *pool, const ir_field *f)
{
    if (f->label == IR_LABEL_REPEATED || f->is_map) return NULL;
    if (f->type == IR_TYPE_ENUM && f->enum_type) {
        int32_t v = f->default_value ? enum_number(f->enum_type, f->default_value)
                  : features_closed_enum(f->enum_type) && f->enum_type->values.n
                  ? f->enum_type->values.v[0]->number : 0;
        return v == 0 ? NULL : v == INT32_MIN ? "INT32_MIN" : ir_pool_printf(pool, "%d", v);
    }
    const char *d = f->default_value;
    if (!d) return NULL;
    switch (f->type) {
    case IR_TYPE_STRING: case IR_TYPE_BYTES:
        if (!f->default_raw || f->default_raw->str_len == 0) return NULL;
        return ir_pool_printf(pool, "pbj_slice_make(%s, %zu)", plan_c_string_literal(pool, f->default_raw->str, f->default_raw->str_len),
                         f->default_raw->str_len);
    case IR_TYPE_BOOL: return strcmp(d, "true") == 0 ? "true" : NULL;
    case IR_TYPE_FLOAT: {
        uint32_t bits = pbj_float_bits(strtof(d, NULL));
        if (strstr(d, "nan")) bits = 0x7fc00000u | (d[0] == '-' ? 0x80000000u : 0);
        return bits ? ir_pool_printf(pool, "pbj_bits_float(0x%08" PRIx32 "u)", bits) : NULL;
    }
    case IR_TYPE_DOUBLE: {
        uint64_t bits = pbj_double_bits(strtod(d, NULL));
        if (strstr(d, "nan")) bits = 0x7ff8000000000000ull | (d[0] == '-' ? 0x8000000000000000ull : 0);
        return bits ? ir_pool_printf(pool, "pbj_bits_double(UINT64_C(0x%016" PRIx64 "))", bits) : NULL;
    }
    default:
        return strtod(d, NULL) == 0 ? NULL : int_expr(pool, f->type, d);
    }
}

/* ---- required fields reached ---------------------------------------------------------- */

/* Known answers per message, by full name, for one run: true is sound as soon as found; false only once
 * a whole search from the top found nothing. */
typedef struct required_cache {
    ir_pool *pool;               /* the plan's: the states */
    symtab known;                /* full name -> miss_state */
    unsigned stamp;              /* of the search under way */
} required_cache;

enum { MISS_UNKNOWN, MISS_NO, MISS_YES };

typedef struct miss_state {
    unsigned char known;
    unsigned stamp;              /* the last search that visited it */
} miss_state;

/* Message m's state in t (full name -> size zeroed bytes from the pool when new). */
static void *message_state(ir_pool *pool, symtab *t, const ir_message *m, size_t size)
{
    size_t n = strlen(m->full_name);
    void *s = symtab_get(t, m->full_name, n);
    if (!s) {
        s = ir_pool_alloc(pool, size);
        memset(s, 0, size);
        symtab_put(t, m->full_name, n, s);
    }
    return s;
}

static miss_state *miss_state_of(required_cache *rc, const ir_message *m)
{
    return message_state(rc->pool, &rc->known, m, sizeof(miss_state));
}

static bool miss_search(required_cache *rc, const ir_message *m)
{
    miss_state *s = miss_state_of(rc, m);
    if (s->known == MISS_YES) return true;
    if (s->known == MISS_NO || s->stamp == rc->stamp) return false;
    s->stamp = rc->stamp;
    for (size_t i = 0; i < m->fields.n; i++)
        if (features_required(m->fields.v[i])) return s->known = MISS_YES, true;
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_field *f = m->fields.v[i];
        if ((f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP) && f->message_type && miss_search(rc, f->message_type))
            return s->known = MISS_YES, true;
    }
    return false;
}

static void miss_mark_no(required_cache *rc, const ir_message *m)
{
    miss_state *s = miss_state_of(rc, m);
    if (s->known == MISS_NO) return;
    s->known = MISS_NO;
    for (size_t i = 0; i < m->fields.n; i++)
        if (m->fields.v[i]->message_type) miss_mark_no(rc, m->fields.v[i]->message_type);
}

/* Whether m or a message it reaches has a required field. */
static bool reaches_required(required_cache *rc, const ir_message *m)
{
    rc->stamp++;
    if (miss_search(rc, m)) return true;
    miss_mark_no(rc, m);              /* nothing reached has one */
    return false;
}

/* ---- type cycles: the messages whose size and encode count their depth -------------------------------- */

/* Per message, by full name, for one run (Tarjan's strongly connected components over message fields). */
typedef struct cycle_node {
    size_t index, low;            /* visit order (from 1), the lowest index reached */
    bool on_stack, recursive, deep;
    uint32_t height;              /* unless deep: the most levels of messages nested below it */
} cycle_node;

typedef struct cycle_search {
    ir_pool *pool;                /* the plan's: the nodes and the stack */
    symtab nodes;                 /* full name -> cycle_node */
    size_t next;
    IR_VEC(const ir_message *) stack;
} cycle_search;

static cycle_node *cycle_node_of(cycle_search *cs, const ir_message *m)
{
    return message_state(cs->pool, &cs->nodes, m, sizeof(cycle_node));
}

/* Visits m: on its return each message of m's component knows whether it is on a cycle (recursive) and whether
 * it reaches one (deep). */
static void cycle_visit(cycle_search *cs, const ir_message *m)
{
    cycle_node *c = cycle_node_of(cs, m);
    c->index = c->low = ++cs->next;
    c->on_stack = true;
    ir_pool_vec_push(cs->pool, &cs->stack, m);
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_message *sub = m->fields.v[i]->message_type;
        if (!sub) continue;
        cycle_node *t = cycle_node_of(cs, sub);
        if (!t->index) {
            cycle_visit(cs, sub);
            if (t->low < c->low) c->low = t->low;
        } else if (t->on_stack && t->index < c->low) c->low = t->index;
        c->recursive |= sub == m;
        c->deep |= t->deep && !t->on_stack;   /* a finished component below */
        if (!t->on_stack && !t->deep && t->height >= c->height) c->height = t->height + 1;
    }
    if (c->low != c->index) return;
    size_t from = cs->stack.n;             /* m is the root of a component: pop it */
    while (cs->stack.v[--from] != m) {}
    bool cycle = cs->stack.n - from > 1 || c->recursive, deep = false;
    for (size_t k = from; k < cs->stack.n; k++) deep |= cycle_node_of(cs, cs->stack.v[k])->deep;
    for (size_t k = from; k < cs->stack.n; k++) {
        cycle_node *t = cycle_node_of(cs, cs->stack.v[k]);
        t->on_stack = false;
        t->recursive = cycle;
        t->deep = cycle || deep;
    }
    cs->stack.n = from;
}

static cycle_node *cycles_of(cycle_search *cs, const ir_message *m)
{
    cycle_node *c = cycle_node_of(cs, m);
    if (!c->index) cycle_visit(cs, m);
    return c;
}

/* Whether m's views nest at most a known number of levels (its height), less than decode's limit: then its view
 * made by M_view_init or by the view of a flat parent can never lie too deep, and its scan checks no depth. */
static bool view_flat(cycle_search *cs, const ir_message *m)
{
    cycle_node *c = cycles_of(cs, m);
    return !c->deep && c->height < PBJ_DEFAULT_MAX_DEPTH;
}

/* The levels below a view of m that its own scan leaves unchecked: all of a flat type's, none of another's. */
static uint32_t view_reach(cycle_search *cs, const ir_message *m) { return view_flat(cs, m) ? cycles_of(cs, m)->height : 0; }

/* The depth check of m's view (0: none, a flat type): its scan walks its bytes (pbj__view_nested) when it lies so
 * deep that its flat fields' views, which check nothing, could reach past decode's limit. */
static uint32_t view_check(cycle_search *cs, const ir_message *m)
{
    if (view_flat(cs, m)) return 0;
    uint32_t most = 0;
    for (size_t i = 0; i < m->fields.n; i++) {
        uint32_t reach = m->fields.v[i]->message_type ? view_reach(cs, m->fields.v[i]->message_type) : 0;
        if (reach > most) most = reach;
    }
    return most + 1;
}

static int by_number(const void *a, const void *b)
{
    const plan_field *x = a, *y = b;
    return (x->number > y->number) - (x->number < y->number);
}

/* qsort that accepts an empty array (qsort's pointer must be valid even then). */
static void sort(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1) qsort(v, n, size, cmp);
}

/* The struct members a message's names have taken so far (its fields', oneofs' and has-bits'): a table, so that
 * naming each of n members costs no scan of the others. */
typedef struct members {
    symtab taken;
    ir_pool *pool;
} members;

static void member_take(members *ms, const char *name) { symtab_put(&ms->taken, name, strlen(name), (void *)(uintptr_t)1); }

/* A member name distinct from every other member of the struct (and from pbj's own): want, or want with "_" added. */
static const char *unique_member(ir_pool *pool, members *ms, const char *want)
{
    const char *name = names_sanitize(pool, want);
    while (strcmp(name, "pbj_unknown") == 0 || strcmp(name, "pbj_ext") == 0 || strncmp(name, "pbj__", 5) == 0 ||
           symtab_get(&ms->taken, name, strlen(name)))
        name = ir_pool_printf(ms->pool, "%s_", name);
    return name;
}

static void plan_field_kind(ir_pool *pool, plan_field *pf, const ir_field *f, bool map_entry)
{
    pf->type = f->type;
    pf->repeated = f->label == IR_LABEL_REPEATED;
    if (f->is_map && f->message_type) {
        pf->kind = PLAN_MAP;
        pf->type_cname = names_message_cname(pool, f->message_type);
        pf->ctype = pf->type_cname;
        return;
    }
    if (features_delimited(f)) {
        pf->kind = PLAN_MESSAGE;
        pf->group = true;
        pf->type_cname = names_message_cname(pool, f->message_type);
        pf->ctype = pf->type_cname;
        return;
    }
    if (f->type == IR_TYPE_MESSAGE) {
        ir_type w = ir_wrapper_type(f->message_type);
        if (w != IR_TYPE_UNRESOLVED && !pf->repeated && !f->oneof && !map_entry) {
            pf->kind = PLAN_WRAPPER;
            pf->type = w;
            pf->ctype = scalar_ctype(w);
            pf->utf8 = w == IR_TYPE_STRING;
            return;
        }
        pf->kind = PLAN_MESSAGE;
        pf->type_cname = names_message_cname(pool, f->message_type);
        pf->ctype = pf->type_cname;
        return;
    }
    pf->kind = f->type == IR_TYPE_STRING || f->type == IR_TYPE_BYTES ? PLAN_SLICE : PLAN_SCALAR;
    pf->ctype = scalar_ctype(f->type);
    if (f->type == IR_TYPE_ENUM && f->enum_type) {
        pf->type_cname = names_enum_cname(pool, f->enum_type);
        pf->closed_enum = features_closed_enum(f->enum_type) && !map_entry;
    }
    pf->utf8 = features_utf8_checked(f);
    pf->packable = pf->repeated && ir_type_is_packable(f->type);
    pf->packed = f->packed;                      /* resolve's one packed rule */
}

static void plan_tags(plan_field *pf)
{
    int wt = ir_type_wire_type(pf->type);
    if (pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP || pf->kind == PLAN_WRAPPER) wt = pf->group ? PBJ_WT_SGROUP : PBJ_WT_LEN;
    int primary = pf->packed ? PBJ_WT_LEN : wt, other = pf->packed ? wt : PBJ_WT_LEN;
    pf->tag_value = PBJ_TAG(pf->number, primary);
    pf->tag_len = (int)(pbj_put_varint(pf->tag, pf->tag_value) - pf->tag);
    pbj_put_varint(pf->end_tag, PBJ_TAG(pf->number, PBJ_WT_EGROUP));
    if (pf->packable) {
        pf->alt_tag_value = PBJ_TAG(pf->number, other);
        pf->alt_tag_len = (int)(pbj_put_varint(pf->alt_tag, pf->alt_tag_value) - pf->alt_tag);
    }
}

/* ---- shapes and the code text of a message's field --------------------------------------------- */

static plan_shape shape_of(const plan_field *pf)
{
    if (pf->kind == PLAN_MAP)
        return pf->closed_map_value ? PLAN_SHAPE_MAP_CLOSED : pf->message_map_value ? PLAN_SHAPE_MAP_MESSAGE : PLAN_SHAPE_MAP;
    if (pf->kind == PLAN_WRAPPER) return PLAN_SHAPE_WRAPPER;
    if (pf->kind == PLAN_MESSAGE)
        return pf->repeated ? PLAN_SHAPE_MESSAGES : pf->by_value ? PLAN_SHAPE_MESSAGE_VALUE : pf->oneof ? PLAN_SHAPE_MESSAGE_ONEOF
             : pf->always ? PLAN_SHAPE_MESSAGE_ALWAYS : PLAN_SHAPE_MESSAGE;
    if (pf->repeated) return pf->packed ? PLAN_SHAPE_PACKED : pf->packable ? PLAN_SHAPE_REPEATED : PLAN_SHAPE_SLICES;
    return pf->oneof ? PLAN_SHAPE_ONEOF : pf->always ? PLAN_SHAPE_ALWAYS : pf->has_member ? PLAN_SHAPE_OPTIONAL : PLAN_SHAPE_SCALAR;
}

static plan_read read_of(const plan_field *pf)
{
    const struct wire_info *w = wire_of(pf->type);
    if (w->load) return PLAN_READ_FIXED;
    if (plan_is_slice(pf->type)) return pf->utf8 ? PLAN_READ_UTF8 : PLAN_READ_SLICE;
    return pf->closed_enum && pf->type_cname ? PLAN_READ_CLOSED_ENUM : PLAN_READ_VARINT;
}

static const char *tag_match(ir_pool *pool, const uint8_t *tag, int n)
{
    const char *s = "";
    for (int i = 0; i < n; i++) s = ir_pool_printf(pool, "%s, 0x%02x", s, tag[i]);
    return s;
}

/* The map entry's field number n (key 1, value 2), or NULL. */
static const ir_field *entry_field(const ir_message *entry, int32_t n)
{
    for (size_t j = 0; j < entry->fields.n; j++)
        if (entry->fields.v[j]->number == n) return entry->fields.v[j];
    return NULL;
}


/* The functions of a message field's type (for other fields, one set of "" they all share). */
#define NONE(member, suffix) .member = "",
static const names_message no_functions = {NAMES_MESSAGE_FUNCTIONS(NONE)};
#undef NONE

static void sub_functions(ir_pool *pool, plan_field *pf)
{
    pf->code.subfn = &no_functions;
    if (pf->kind != PLAN_MESSAGE && pf->kind != PLAN_MAP) return;
    names_message *fn = ir_pool_alloc(pool, sizeof *fn);
    names_message_functions(pool, NULL, fn, pf->type_cname, pf->f->message_type);
    pf->code.subfn = fn;
}

/* The runtime's order of map keys of type t (rt/pbj_table.h: an entry's key is its first member). */
static const char *key_cmp_of(ir_type t)
{
    switch (t) {
    case IR_TYPE_STRING: return "pbj__key_cmp_slice";
    case IR_TYPE_BOOL: return "pbj__key_cmp_bool";
    case IR_TYPE_UINT32: case IR_TYPE_FIXED32: return "pbj__key_cmp_uint32";
    case IR_TYPE_INT64: case IR_TYPE_SINT64: case IR_TYPE_SFIXED64: return "pbj__key_cmp_int64";
    case IR_TYPE_UINT64: case IR_TYPE_FIXED64: return "pbj__key_cmp_uint64";
    default: return "pbj__key_cmp_int32";
    }
}

/* The tags' variables of pf (field.tmpl, value.tmpl, ext.tmpl); the labels predictions jump to come later
 * (plan_predictions). */
static void plan_wire_code(ir_pool *pool, plan_field *pf)
{
    plan_wire *w = &pf->code.wire;
    w->tag = ir_pool_printf(pool, "0x%x", pf->tag_value);
    w->alt_tag = ir_pool_printf(pool, "0x%x", pf->alt_tag_value);
    w->tag_len = ir_pool_printf(pool, "%d", pf->tag_len);
    w->tag_write = plan_tag_write(pool, pf->tag, pf->tag_len);
    w->end_tag_write = pf->group ? plan_tag_write(pool, pf->end_tag, pf->tag_len) : "";
    w->label = w->alt_label = w->predict = "";
    w->tag_match = tag_match(pool, pf->tag, pf->tag_len);
    w->tag_decimal = ir_pool_printf(pool, "%u", pf->tag_value);
}

/* The reverse encoder's variables of pf in pm (field_rwrite.tmpl) and the bytes it writes outside its room. */
static void plan_reverse_code(ir_pool *pool, const plan_message *pm, plan_field *pf)
{
    plan_reverse *r = &pf->code.reverse;
    ir_type t = pf->type;
    const char *x = pf->code.x, *e = ir_pool_printf(pool, "%s.data[i]", x);
    r->write = value_rwrite(pool, t, x);
    r->write_e = value_rwrite(pool, t, e);
    r->room = fill(pool, reverse_info[value_of(t)->wire].room, x, NULL);
    r->max_e = value_rmax(pool, t, pf->tag_len, e);
    pf->rbound = value_rbound(pf);
    r->tag = plan_tag_rwrite(pool, pf->tag, pf->tag_len);
    r->end_tag = pf->group ? plan_tag_rwrite(pool, pf->end_tag, pf->tag_len) : "";
    r->msg = r->empty = "";
    r->depth = !pf->sub_recursive ? "" : pm->recursive ? ", depth" : ", PBJ_MAX_ENCODE_DEPTH";
}

/* Everything field.tmpl and value.tmpl print for pf in message pm. */
static void plan_field_code(ir_pool *pool, plan_message *pm, plan_field *pf, names_list *names)
{
    plan_code *c = &pf->code;
    const ir_field *f = pf->f;
    ir_type t = pf->type;
    const char *base = pf->oneof ? ir_pool_printf(pool, "%s.%s", pf->oneof->member, pf->member) : pf->member;
    const char *x = ir_pool_printf(pool, "m->%s", base), *e = ir_pool_printf(pool, "%s.data[i]", x);
    /* c is zero: its field was made zeroed */
    c->name = pf->name;
    c->full_name = f->full_name;
    c->member = pf->member;
    c->has_member = pf->has_member ? pf->has_member : "";
    c->ctype = pf->ctype;
    c->sub = pf->type_cname ? pf->type_cname : "";
    sub_functions(pool, pf);
    c->sub_name_fn = pf->type_cname && f->enum_type ? names_enum_name_fn(pool, NULL, pf->type_cname, f->enum_type) : "";
    c->number = ir_pool_printf(pool, "%d", pf->number);
    c->doc = doc_of(pool, &f->comments);
    c->number_note = pf->type == IR_TYPE_ENUM && f->enum_type ? ir_pool_printf(pool, "%d: %s", pf->number, f->enum_type->full_name) : c->number;
    c->array_type = pf->repeated || pf->kind == PLAN_MAP ? names_array_type(pool, names, pm->cname, pf->member, f) : "";
    c->tag_define = names_tag_define(pool, names, pm->cname, pf->member, f);
    c->x = x;
    c->c = pm->cname;
    c->oneof = pf->oneof ? pf->oneof->member : "";
    c->case_member = pf->oneof ? pf->oneof->case_member : "";
    c->none_const = pf->oneof ? pf->oneof->none_const : "";
    c->case_const = pf->oneof ? names_case_const(pool, names, pm->cname, pf->oneof->member, pf->member, f) : "";
    c->cmp_fn = pf->kind == PLAN_MAP ? key_cmp_of(entry_field(f->message_type, 1)->type) : "";
    c->set_default = pf->default_c ? ir_pool_printf(pool, "m->%s = %s;", pf->member, pf->default_c) : "";
    bool accessors = !pf->repeated && pf->kind != PLAN_MAP && !pm->map_entry &&
                     (pf->oneof || pf->has_member || pf->kind == PLAN_MESSAGE);
    c->has_fn = accessors ? names_has_fn(pool, names, pm->cname, pf->member, f) : "";
    c->clear_fn = accessors ? names_clear_fn(pool, names, pm->cname, pf->member, f) : "";
    plan_wire_code(pool, pf);
    c->nonzero = nonzero(pool, t, x);
    c->present = pf->has_member ? ir_pool_printf(pool, "m->%s", pf->has_member) : pf->kind == PLAN_MESSAGE ? x : c->nonzero;
    c->size = plan_value_size(pool, t, x);
    c->size_e = plan_value_size(pool, t, e);
    c->write = plan_value_write(pool, t, x);
    c->write_e = plan_value_write(pool, t, e);
    c->count_size = wire_of(t)->all ? fill(pool, wire_of(t)->all, x, NULL) : "";
    c->width = wire_of(t)->width ? wire_of(t)->width : "";
    c->dst = pf->repeated ? ir_pool_printf(pool, "%s.data[%s.count++]", x, x) : x;
    c->mark = pf->oneof ? ir_pool_printf(pool, "m->%s = %s;", pf->oneof->case_member, c->case_const)
            : pf->has_member ? ir_pool_printf(pool, "m->%s = 1;", pf->has_member) : "";
    c->from_load = wire_of(t)->load ? plan_from_wire(pool, t, wire_of(t)->load) : "";
    c->from_v = plan_from_wire(pool, t, "v");
    c->varint_in = options_tier_of(pm->m) == OPTIONS_TIER_MAX ? "pbj__get_varint_hot" : "pbj_get_varint_in";
    /* what only messages (their framing, where they are written and read) or wrappers read: "" for the rest */
    bool message = pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP, wrapper = pf->kind == PLAN_WRAPPER, many = pf->repeated || pf->kind == PLAN_MAP;
    c->framed = !message ? "" : pf->group ? ir_pool_printf(pool, "%d + s", 2 * pf->tag_len) : ir_pool_printf(pool, "%d + pbj_len_size(s)", pf->tag_len);
    c->empty_size = !message ? "" : ir_pool_printf(pool, "%d", pf->group ? 2 * pf->tag_len : pf->tag_len + 1);
    c->wtarget = message && many ? ir_pool_printf(pool, "&%s", e) : pf->by_value ? ir_pool_printf(pool, "&%s", x) : x;
    c->rtarget = message && many ? ir_pool_printf(pool, "&%s.data[%s.count]", x, x) : c->wtarget;
    c->wrapper_size = wrapper ? ir_pool_printf(pool, "(%s ? %d + %s : 0)", c->nonzero, 1, c->size) : "";
    c->inner_tag = wrapper ? ir_pool_printf(pool, "0x%02x", (unsigned)PBJ_TAG(1, ir_type_wire_type(t))) : "";
    bool slice = plan_is_slice(t);
    c->v_init = !wrapper ? "" : slice ? "0" : to_wire(pool, t, x);
    c->s_init = !wrapper ? "" : slice ? x : "{NULL, 0}";
    c->wrapper_value = !wrapper ? "" : slice ? "s" : c->from_v;
    c->utf8 = pf->utf8 ? "true" : "false";
    const ir_message *sub = pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP ? f->message_type : NULL;
    c->decode_fn = !sub ? "" : sub->file == pm->m->file && options_decode_inline(sub) ? c->subfn->decode_leaf : c->subfn->decode_body;
    c->wrapper_unknown = pf->kind == PLAN_WRAPPER ? names_wrapper_unknown(pool, pf->member) : "";
    c->unknown = pm->unknown ? "&m->pbj_unknown" : "NULL";
    c->clear_wrapper_unknown = "";
    if (pf->kind == PLAN_WRAPPER) c->clear_wrapper_unknown = ir_pool_printf(pool, "m->%s = pbj_slice_make(NULL, 0);", c->wrapper_unknown);
    const ir_field *value = pf->kind == PLAN_MAP ? entry_field(f->message_type, 2) : NULL;
    c->value_enum = value && value->enum_type ? names_enum_name_fn(pool, NULL, names_enum_cname(pool, value->enum_type), value->enum_type) : "";
    c->value_member = value ? names_sanitize(pool, value->name) : "";
    pf->sub_reverse = pf->f->message_type && options_on(pf->f->message_type, OPTION_FAST_WRITE);
    c->size_sub = !message ? "" : !pf->sub_recursive ? ir_pool_printf(pool, "%s(%s)", c->subfn->size, c->wtarget)
                : ir_pool_printf(pool, "%s(%s, %s)", c->subfn->size_depth, c->wtarget, pm->recursive ? "depth" : "PBJ_MAX_ENCODE_DEPTH");
    plan_reverse_code(pool, pm, pf);
}

/* ---- views: where the scan leaves each field and how accessors read it (gen-templates/view.tmpl) ---- */

/* Whether a view's scan is inlined wherever it is made: a few singular fields (ids, timestamps, keys, a oneof of
 * messages). A scan reads its own level only (a message field is a length), so its size is its fields'. */
#define VIEW_LEAF_FIELDS 4
static bool view_leaf(const ir_message *m)
{
    if (m->fields.n > VIEW_LEAF_FIELDS) return false;
    for (size_t i = 0; i < m->fields.n; i++)
        if (m->fields.v[i]->label == IR_LABEL_REPEATED || m->fields.v[i]->is_map) return false;
    return true;
}

static const char *view_qual(const ir_message *m) { return view_leaf(m) ? "PBJ__VIEW_HOT" : "static inline"; }

static void plan_view_code(ir_pool *pool, plan_message *pm, plan_field *pf, size_t i, size_t slot, names_list *names)
{
    plan_code *c = &pf->code;
    plan_view *w = c->view = ir_pool_alloc(pool, sizeof *c->view);
    const ir_field *f = pf->f;
    ir_type t = pf->type;
    bool message = pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP, slice = plan_is_slice(t) && !message;
    bool many = pf->repeated || pf->kind == PLAN_MAP;
    w->get = names_view_accessor(pool, names, pm->cname, NAMES_VIEW_GET, pf->member, f->full_name, f->file, f->loc);
    w->has = !many && (pf->oneof || pf->has_member || pf->kind == PLAN_MESSAGE)
                ? names_view_accessor(pool, names, pm->cname, NAMES_VIEW_HAS, pf->member, f->full_name, f->file, f->loc) : "";
    w->next = many ? names_view_accessor(pool, names, pm->cname, NAMES_VIEW_NEXT, pf->member, f->full_name, f->file, f->loc) : "";
    if (message) names_view_functions(pool, NULL, &w->sub, pf->type_cname, f->message_type);
    w->qual = message && f->message_type ? view_qual(f->message_type) : "static inline";
    w->type = pm->view.type;
    w->slot = ir_pool_printf(pool, "v->slot[%zu]", slot);
    bool at_v = pf->kind == PLAN_MESSAGE && !many;   /* a message's payload never starts at buf: its offset tells */
    w->present = pf->oneof ? ir_pool_printf(pool, "v->cases[%d] == %d", pf->oneof->view_index, pf->number)
                                : ir_pool_printf(pool, "%s.%s != 0", w->slot, at_v ? "v" : "n");
    w->value = slice || message ? ir_pool_printf(pool, "pbj_view_slice(&v->pbj, &%s)", w->slot)
                                     : plan_from_wire(pool, t, ir_pool_printf(pool, "%s.v", w->slot));
    w->default_ = pf->default_c ? pf->default_c : slice || message ? "pbj_view_empty()" : "0";
    w->from = plan_from_wire(pool, t, "w");
    w->current = pf->oneof || pf->default_c ? ir_pool_printf(pool, "%s ? %s : %s", w->present, w->value, w->default_)
                                                          : w->value;   /* a zeroed slot reads as 0 */
    int wt = pf->group ? PBJ_WT_SGROUP : message || pf->kind == PLAN_WRAPPER ? PBJ_WT_LEN : ir_type_wire_type(t);
    w->tag = ir_pool_printf(pool, "0x%x", (unsigned)PBJ_TAG(pf->number, wt));
    w->packed_tag = pf->packable ? ir_pool_printf(pool, "0x%x", (unsigned)PBJ_TAG(pf->number, PBJ_WT_LEN)) : "0";
    bool self = many && !pf->packed;
    w->self = self ? "1" : "";
    /* The first field is predicted before the loop unless a oneof's or an implicit scalar's (often absent, at zero),
     * in scans not always inlined (a leaf's, inlined, loses to the compiler's layout). */
    bool first = i == 0 && !view_leaf(pm->m) && !pf->oneof && (message || slice || many || pf->has_member || pf->kind == PLAN_WRAPPER);
    w->label = self || i > 0 || first ? ir_pool_printf(pool, "v_%s:", c->wire.tag_decimal) : "";
    w->keep = pf->closed_enum && pf->type_cname ? ir_pool_printf(pool, "%s((int32_t)w)", c->sub_name_fn) : "1";
    bool noted = !pf->oneof && !at_v && (*w->has || pf->default_c);   /* its presence read from the slot's n */
    w->mark = pf->oneof ? ir_pool_printf(pool, "v->cases[%d] = %d;", pf->oneof->view_index, pf->number)
                 : noted ? ir_pool_printf(pool, "%s.n = 1;", w->slot) : "";
    w->load = wire_of(t)->load ? wire_of(t)->load : "";
    w->next_fn = pf->group ? "pbj__view_next_group" : "pbj__view_next_payload";
    w->tag_byte = pf->tag_len == 1 ? w->tag : "0";
    w->sub_at = pf->oneof ? ir_pool_printf(pool, "(%s ? %s.v : 0)", w->present, w->slot) : ir_pool_printf(pool, "%s.v", w->slot);
    w->sub_len = pf->oneof ? ir_pool_printf(pool, "%s ? %s.len : 0", w->present, w->slot) : ir_pool_printf(pool, "%s.len", w->slot);
}

/* The condition that a record's tag lies in pm's extension ranges (or is a message set's item): the records the
 * scan notes for extension accessors. */
static const char *view_ext_in(ir_pool *pool, const plan_message *pm)
{
    const char *in = pm->msgset ? "tag == 0xb" : "";
    for (size_t r = 0; r < pm->ext_ranges.n; r++) {
        uint32_t lo = (uint32_t)pm->ext_ranges.v[r].start, hi = (uint32_t)pm->ext_ranges.v[r].end;
        in = ir_pool_printf(pool, "%s%s(tag >> 3) - %uu <= %uu", in, *in ? " || " : "", lo, hi - lo);
    }
    return in;
}

static void plan_views(ir_pool *pool, plan_message *pm, names_list *names)
{
    pm->views = options_on(pm->m, OPTION_VIEWS);
    pm->json = options_on(pm->m, OPTION_JSON);
    pm->text_read = options_on(pm->m, OPTION_TEXT_READ);
    if (!pm->views) return;
    names_view_functions(pool, names, &pm->view, pm->cname, pm->m);
    pm->view_ext_in = pm->ext_ranges.n ? view_ext_in(pool, pm) : "";
    pm->view_leaf = view_leaf(pm->m);
    pm->view_qual = view_qual(pm->m);
    for (size_t k = 0; k < pm->oneofs.n; k++) {
        plan_oneof *po = pm->oneofs.v[k];
        po->view_index = (int)k;
        po->view_case_fn = names_view_accessor(pool, names, pm->cname, NAMES_VIEW_CASE, po->member, po->o->name, pm->m->file, pm->m->loc);
    }
    size_t plain = 0;   /* fields outside oneofs have a slot each (zeroed by the scan), then one slot per oneof */
    for (size_t i = 0; i < pm->fields.n; i++) plain += !pm->fields.v[i].oneof;
    for (size_t i = 0, k = 0; i < pm->fields.n; i++) {
        plan_field *pf = &pm->fields.v[i];
        plan_view_code(pool, pm, pf, i, pf->oneof ? plain + (size_t)pf->oneof->view_index : k++, names);
    }
}

/* A map entry's key or value as a writer's parameter type. */
static const char *entry_param(ir_pool *pool, const ir_field *ef)
{
    if (ef->type == IR_TYPE_MESSAGE && ef->message_type) return ir_pool_strcat(pool, names_message_cname(pool, ef->message_type), " *");
    return scalar_ctype(ef->type);
}

/* A map's entries: put_x(w, key, value) fills the entry struct and checks the key follows the last. */
static void plan_writer_map(ir_pool *pool, plan_writer *w, const ir_message *entry)
{
    const ir_field *k = entry_field(entry, 1), *v = entry_field(entry, 2);
    if (!k || !v) return;
    bool slice = plan_is_slice(k->type);
    w->k_member = names_sanitize(pool, k->name);
    w->k_type = entry_param(pool, k);
    w->v_member = names_sanitize(pool, v->name);
    w->v_type = entry_param(pool, v);
    w->k_ord = slice ? "0" : strncmp(w->k_type, "int", 3) == 0 ? "((uint64_t)(int64_t)key ^ UINT64_C(0x8000000000000000))"
                                                                 : "(uint64_t)key";
    w->k_data = slice ? "(key.data ? key.data : (const uint8_t *)\"\")" : "NULL";
    w->k_len = slice ? "key.len" : "0";
}

/* The most bytes message m's encoding can take, or WRITER_UNBOUNDED or more (repeated, strings, bytes,
 * extensions, nesting deeper than 8): a child writer of a type below 128 always reserves one length byte. */
#define WRITER_UNBOUNDED 1000
static int writer_most(const ir_message *m, int depth)
{
    if (depth > 8 || m->extension_ranges.n) return WRITER_UNBOUNDED;
    int most = 0;
    for (size_t i = 0; i < m->fields.n && most < WRITER_UNBOUNDED; i++) {
        const ir_field *f = m->fields.v[i];
        int wt = ir_type_wire_type(f->type);
        int value = wt == PBJ_WT_VARINT ? 10 : wt == PBJ_WT_I64 ? 8 : wt == PBJ_WT_I32 ? 4 : WRITER_UNBOUNDED;
        if (f->message_type) value = writer_most(f->message_type, depth + 1);
        most += f->label == IR_LABEL_REPEATED || f->is_map ? WRITER_UNBOUNDED : 10 + value;   /* tags, length */
    }
    return most;
}

/* The slot of m's learnt length size in pbj_wbuf.learn (pbj_wtype.slot): a hash of its full name. */
static unsigned writer_slot(const ir_message *m)
{
    uint32_t h = 2166136261u;                     /* FNV-1a */
    for (const char *c = m->full_name; *c; c++) h = (h ^ (uint8_t)*c) * 16777619u;
    return h % PBJ__WLEARN;
}

/* The last member of oneof o of m when no other field of m is numbered between its members, else 0: then
 * a member's call moves the order check past them all, and needs no bit of pbj_writer.oneofs. */
static int32_t writer_oneof_last(const ir_message *m, const ir_oneof *o)
{
    int32_t lo = INT32_MAX, hi = 0;
    for (size_t i = 0; i < o->fields.n; i++) {
        if (o->fields.v[i]->number < lo) lo = o->fields.v[i]->number;
        if (o->fields.v[i]->number > hi) hi = o->fields.v[i]->number;
    }
    for (size_t i = 0; i < m->fields.n; i++)
        if (m->fields.v[i]->oneof != o && m->fields.v[i]->number > lo && m->fields.v[i]->number < hi) return 0;
    return hi;
}

/* Whether m's writer marks bits of pbj_writer.oneofs (a oneof whose members other fields come between, a
 * required field): its child writers clear them when they open. */
static bool writer_tracks(const ir_message *m)
{
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_oneof *o = m->fields.v[i]->oneof;
        if ((o && !o->synthetic && !writer_oneof_last(m, o)) || features_required(m->fields.v[i])) return true;
    }
    return false;
}

/* The writer functions of field pf of pm (wfield.tmpl), named in names. */
static void plan_writer_code(ir_pool *pool, plan_message *pm, plan_field *pf, names_list *names)
{
    plan_code *c = &pf->code;
    plan_writer *w = c->writer = ir_pool_alloc(pool, sizeof *c->writer);
    const ir_field *f = pf->f;
    bool msg = pf->kind == PLAN_MESSAGE, map = pf->kind == PLAN_MAP, slice = plan_is_slice(pf->type) && !msg && !map;
#define WRITER_FN(piece) names_writer_field(pool, names, pm->cname, NAMES_WRITER_##piece, pf->member, f)
    w->type = pm->wn.type;
    w->set = w->add = w->from = w->raw = w->put = "";
    if (map) w->put = WRITER_FN(PUT);
    else if (pf->repeated) w->add = WRITER_FN(ADD);
    else w->set = WRITER_FN(SET);
    if (msg) {
        w->from = pf->repeated ? WRITER_FN(ADD_FROM) : WRITER_FN(FROM);
        w->raw = pf->repeated ? WRITER_FN(ADD_RAW) : WRITER_FN(RAW);
    } else if (pf->repeated && !slice && !map) w->set = WRITER_FN(SET);     /* packable: the whole array */
#undef WRITER_FN
    w->open = pf->repeated ? w->add : w->set;
    names_writer sub = {0};
    if (msg) names_writer_functions(pool, NULL, &sub, pf->type_cname, f->message_type);
    w->sub_type = msg ? sub.type : "";
    w->sub_wtype = msg ? sub.wtype : "";
    bool fixed = msg && writer_most(f->message_type, 0) < 0x80;
    w->fixed = fixed ? "true" : "false";
    w->tracks = msg && writer_tracks(f->message_type) ? "true" : "false";
    w->reserve = fixed ? "1" : msg ? ir_pool_printf(pool, "w->w.buf->learn[%u]", writer_slot(f->message_type)) : "";
    uint32_t key = 2u * (uint32_t)pf->number;
    int32_t last = pf->oneof ? writer_oneof_last(pm->m, pf->oneof->o) : 0;   /* at after it: the oneof's last */
    w->key = ir_pool_printf(pool, "%uu", key);
    w->pos = ir_pool_printf(pool, "%uu", last ? 2u * (uint32_t)last : key - (pf->repeated || map ? 1u : 0u));
    size_t oneof = 0;
    while (pf->oneof && pm->oneofs.v[oneof] != pf->oneof) oneof++;
    bool checked = pf->oneof && oneof < 64 && !last;   /* the 65th oneof on are not checked */
    w->bit = checked ? ir_pool_printf(pool, "(UINT64_C(1) << %zu)", oneof) : "0";
    w->mark = checked ? ir_pool_printf(pool, "w->w.oneofs |= %s;", w->bit) : "";
    w->params = slice ? "const void *data, size_t len" : ir_pool_printf(pool, "%s v", pf->ctype);
    w->value = slice ? "pbj_slice_make(data, len)" : "v";
    w->max = value_rmax(pool, pf->type, pf->tag_len, c->x);
    w->check = slice && pf->utf8 ? "if (!pbj_utf8_valid((const uint8_t *)data, len)) return PBJ_ERR_UTF8;" : "";
    w->write = value_wwrite(pool, pf->type, c->x);
    w->write_e = value_wwrite(pool, pf->type, ir_pool_printf(pool, "%s.data[i]", c->x));
    w->end_tag = pf->group ? ir_pool_printf(pool, "0x%xu", (unsigned)PBJ_TAG(pf->number, PBJ_WT_EGROUP)) : "0";
    w->k_member = w->k_type = w->v_member = w->v_type = w->k_ord = w->k_data = w->k_len = "";
    if (map) plan_writer_map(pool, w, f->message_type);
}

/* A statement returning failure when the pbj_slice named slice is not UTF-8 (a field that VERIFYs, as decode checks). */
static const char *utf8_refusal(ir_pool *pool, const char *slice, const char *failure)
{
    return ir_pool_printf(pool, "if (!pbj_utf8_valid(%s.data, %s.len)) return %s;\n", slice, slice, failure);
}

/* The building helpers of field pf of pm (field_helpers.tmpl), named in names. Merge copies b's value into m. */
static void plan_helper_code(ir_pool *pool, plan_message *pm, plan_field *pf, names_list *names)
{
    plan_code *c = &pf->code;
    const ir_field *f = pf->f;
    bool msg = pf->kind == PLAN_MESSAGE, map = pf->kind == PLAN_MAP, slice = plan_is_slice(pf->type) && !msg && !map;
    bool own = !pm->map_entry;                       /* an entry's fields get no helpers of their own */
#define HELPER_FN(piece, when) ((when) && own ? names_helper_field(pool, names, pm->cname, NAMES_HELPER_##piece, pf->member, f) : "")
    c->helpers.add = HELPER_FN(ADD, pf->repeated);
    c->helpers.set = HELPER_FN(SET, !pf->repeated && !msg && !map);
    c->helpers.mutable_ = HELPER_FN(MUTABLE, (!pf->repeated && msg) || pf->message_map_value);
    c->helpers.put = HELPER_FN(PUT, map && !pf->message_map_value);
    c->helpers.get = HELPER_FN(GET, map);
    bool str = pf->type == IR_TYPE_STRING && !msg && !map;
    c->helpers.set_str = HELPER_FN(SET_STR, str && *c->helpers.set);
    c->helpers.add_str = HELPER_FN(ADD_STR, str && pf->repeated);
    c->helpers.add_many = HELPER_FN(ADD_MANY, pf->shape == PLAN_SHAPE_PACKED || pf->shape == PLAN_SHAPE_REPEATED);
#undef HELPER_FN
    c->helpers.params = slice ? "const void *data, size_t len, pbj_arena *arena" : ir_pool_printf(pool, "%s v", pf->ctype);
    c->helpers.value = !slice ? "" : pf->utf8
        ? "pbj_slice v;\nif (!pbj_utf8_valid((const uint8_t *)data, len)) return PBJ_ERR_UTF8;\n"
          "if (pbj_copy(arena, data, len, &v) != PBJ_OK) return PBJ_ERR_NOMEM;"
        : "pbj_slice v;\nif (pbj_copy(arena, data, len, &v) != PBJ_OK) return PBJ_ERR_NOMEM;";
    c->helpers.ret = slice ? "PBJ_MUST_USE pbj_status" : "void";
    c->helpers.done = slice ? "return PBJ_OK;" : "";
    const ir_field *key = map ? entry_field(f->message_type, 1) : NULL, *value = map ? entry_field(f->message_type, 2) : NULL;
    c->helpers.key = key ? names_sanitize(pool, key->name) : "";
    c->helpers.key_type = key ? scalar_ctype(key->type) : "";
    c->helpers.key_copy = key && plan_is_slice(key->type)
                 ? ir_pool_printf(pool, "if (pbj_copy(arena, key.data, key.len, &probe.%s) != PBJ_OK) return NULL;", c->helpers.key) : "";
    c->helpers.entry = map ? names_helper_entry(pool, pm->cname, pf->member) : "";
    c->helpers.val = value ? names_sanitize(pool, value->name) : "";
    c->helpers.val_type = !value ? "" : pf->message_map_value ? names_message_cname(pool, value->message_type) : scalar_ctype(value->type);
    c->helpers.val_set = !value ? "" : plan_is_slice(value->type) ? ir_pool_printf(pool, "return pbj_copy(arena, value.data, value.len, &e->%s);", c->helpers.val)
                                                          : ir_pool_printf(pool, "e->%s = value;\nreturn PBJ_OK;", c->helpers.val);
    bool key_utf8 = key && features_utf8_checked(key), value_utf8 = value && features_utf8_checked(value);
    c->helpers.put_check = ir_pool_printf(pool, "%s%s", key_utf8 ? utf8_refusal(pool, "key", "PBJ_ERR_UTF8") : "",
                                          value_utf8 ? utf8_refusal(pool, "value", "PBJ_ERR_UTF8") : "");
    c->helpers.mutable_check = key_utf8 ? utf8_refusal(pool, "key", "NULL") : "";
    names_message vfn = {0};
    if (pf->message_map_value) names_message_functions(pool, NULL, &vfn, c->helpers.val_type, value->message_type);
    c->helpers.val_init = pf->message_map_value ? vfn.init : "";
}

/* The end of pm's pbj_wtype initializer: its message and group fields and their types (pbj_wtype.children). */
static const char *writer_children(ir_pool *pool, const plan_message *pm)
{
    size_t n = 0;
    textbuf text = {0};
    for (size_t i = 0; i < pm->fields.n; i++) {
        const plan_field *pf = &pm->fields.v[i];
        if (pf->kind != PLAN_MESSAGE) continue;
        textbuf_printf(&text, "%s{%d, &%s}", n++ ? ", " : "", (int)pf->number, pf->code.writer->sub_wtype);
    }
    const char *rows = textbuf_finish(&text, pool);
    return n ? ir_pool_printf(pool, ", %zu, (const pbj_wchild[]){%s}", n, rows) : ", 0, NULL";
}

/* Writers: the required fields of pm take the bits of pbj_writer.oneofs after its oneofs' (up to 64): a
 * field's call marks its bit, end checks them all (pbj_wtype.required, the names from bit first on). */
static void plan_writer_required(ir_pool *pool, plan_message *pm)
{
    size_t bit = pm->oneofs.n;
    uint64_t mask = 0;
    textbuf text = {0};
    for (size_t i = 0; i < pm->fields.n; i++) {
        plan_field *pf = &pm->fields.v[i];
        if (!pf->required || bit >= 64) continue;
        pf->code.writer->mark = ir_pool_printf(pool, "w->w.oneofs |= UINT64_C(1) << %zu;", bit);
        mask |= UINT64_C(1) << bit++;
        textbuf_printf(&text, "\"%s\", ", pf->code.full_name);
    }
    const char *names = textbuf_finish(&text, pool);
    pm->wrequired_mask = ir_pool_printf(pool, "UINT64_C(0x%llx)", (unsigned long long)mask);
    pm->wrequired = mask ? ir_pool_printf(pool, ", %u, UINT64_C(0x%llx), %zu, (const char *const[]){%s}%s", writer_slot(pm->m),
                                     (unsigned long long)mask, pm->oneofs.n, names, writer_children(pool, pm))
                         : ir_pool_printf(pool, ", %u, 0, 0, NULL%s", writer_slot(pm->m), writer_children(pool, pm));
}

/* Decode predictions: after a case, the tag expected next (the same field again, or the next field). */
static void plan_predictions(ir_pool *pool, plan_message *pm)
{
    for (size_t i = 0; i < pm->fields.n; i++) {
        plan_field *pf = &pm->fields.v[i];
        pf->predict_self = pf->repeated && !pf->packed && pf->kind != PLAN_WRAPPER;
        if (pf->predict_self || i > 0) pf->code.wire.label = ir_pool_printf(pool, "f_%s:", pf->code.wire.tag_decimal);
    }
}

static int ext_by_number(const void *a, const void *b)
{
    const plan_field *x = *(plan_field *const *)a, *y = *(plan_field *const *)b;
    return (x->number > y->number) - (x->number < y->number);
}

static int range_by_start(const void *a, const void *b)
{
    const ir_range *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

static plan_oneof *plan_oneof_for(ir_pool *pool, plan_message *pm, const ir_oneof *o)
{
    for (size_t i = 0; i < pm->oneofs.n; i++)
        if (pm->oneofs.v[i]->o == o) return pm->oneofs.v[i];
    plan_oneof *po = ir_pool_alloc(pool, sizeof *po);
    po->o = o;
    ir_pool_vec_push(pool, &pm->oneofs, po);
    return po;
}

/* pbj.comparable's keys as the message's planned fields and oneofs. */
static void plan_compare_keys(ir_pool *pool, plan_message *pm)
{
    const options_compare_key *keys;
    size_t n = options_comparable(pm->m, &keys);
    for (size_t k = 0; k < n; k++) {
        plan_compare_key key = {0};
        for (size_t i = 0; i < pm->fields.n && keys[k].field && !key.field; i++)
            if (pm->fields.v[i].f == keys[k].field) key.field = &pm->fields.v[i];
        for (size_t i = 0; i < pm->oneofs.n && keys[k].oneof && !key.oneof; i++)
            if (pm->oneofs.v[i]->o == keys[k].oneof) key.oneof = pm->oneofs.v[i];
        if (key.field || key.oneof) ir_pool_vec_push(pool, &pm->compare_keys, key);
    }
}

static plan_message *plan_message_build(ir_pool *pool, const ir_message *m, names_list *names, required_cache *rc,
                                        cycle_search *cs)
{
    plan_message *pm = ir_pool_alloc(pool, sizeof *pm);
    pm->m = m;
    pm->cname = names_message_type(pool, names, names_message_cname(pool, m), m);
    names_message_functions(pool, names, &pm->fn, pm->cname, m);
    pm->doc = doc_of(pool, &m->comments);
    pm->fast_write = options_on(m, OPTION_FAST_WRITE);
    size_t n = options_describe_changed(m, NULL, 0);
    char *text = ir_pool_alloc(pool, n + 1);
    options_describe_changed(m, text, n + 1);
    pm->options_text = n ? ir_pool_printf(pool, "\n * pbj options: %s", text) : "";
    pm->map_entry = m->map_entry;
    pm->decode_leaf = options_decode_inline(m);
    pm->table_wire = options_table_wire(m);
    pm->fields.cap = m->fields.n;                   /* one allocation of the fields (a plan_field is 2 KB) */
    pm->fields.v = ir_pool_take(pool, (pm->fields.cap + 1) * sizeof *pm->fields.v);   /* each is zeroed as made */
    pm->recursive = cycles_of(cs, m)->recursive;
    pm->deep = cycles_of(cs, m)->deep;
    pm->view_check = view_check(cs, m);
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_field *f = m->fields.v[i];
        if (f->type == IR_TYPE_UNRESOLVED) continue;
        if ((f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP) && !f->message_type) continue;
        plan_field *pf = &pm->fields.v[pm->fields.n++];   /* made in place: room for every field was taken */
        memset(pf, 0, sizeof *pf);
        pf->f = f;
        pf->name = features_group_like(f) ? f->message_type->name : f->name;
        pf->number = f->number;
        plan_field_kind(pool, pf, f, pm->map_entry);
        plan_tags(pf);
        pf->always = pm->map_entry;
        if (f->oneof && !f->oneof->synthetic) pf->oneof = plan_oneof_for(pool, pm, f->oneof);
    }
    sort(pm->fields.v, pm->fields.n, sizeof *pm->fields.v, by_number);
    /* names after sorting, so clashes resolve the same way every run: fields
     * keep their (unique) names, oneofs and has-bits yield */
    for (size_t i = 0; i < pm->fields.n; i++) {
        plan_field *pf = &pm->fields.v[i];
        pf->member = names_sanitize(pool, pf->f->name);
        if (pf->oneof) ir_pool_vec_push(pool, &pf->oneof->fields, pf);
    }
    pm->msgset = m->message_set_wire_format;
    /* pbj.drop_unknown: no slice; a message with extension ranges keeps one (misfit extension records go
     * there), and so does one with no fields (a C struct needs a member) */
    pm->by_value = options_by_value(m);
    pm->unknown = !options_on(m, OPTION_DROP_UNKNOWN) || pm->msgset || m->extension_ranges.n || !pm->fields.n;
    for (size_t i = 0; i < m->extension_ranges.n; i++) ir_pool_vec_push(pool, &pm->ext_ranges, m->extension_ranges.v[i]);
    sort(pm->ext_ranges.v, pm->ext_ranges.n, sizeof *pm->ext_ranges.v, range_by_start);
    members ms = {.pool = pool};
    symtab_init_for(&ms.taken, 2 * pm->fields.n + 2 * pm->oneofs.n);   /* fields, has-bits, oneofs and cases */
    for (size_t i = 0; i < pm->fields.n; i++) member_take(&ms, pm->fields.v[i].member);
    for (size_t i = 0; i < pm->oneofs.n; i++) {
        plan_oneof *po = pm->oneofs.v[i];
        const char *want = po->o->name;
        while (strcmp(unique_member(pool, &ms, want), want) != 0 ||
               strcmp(unique_member(pool, &ms, names_case_member(pool, want)), names_case_member(pool, want)) != 0)
            want = ir_pool_printf(pool, "%s_", want);
        po->member = want;
        po->case_member = names_case_member(pool, want);
        member_take(&ms, po->member);
        member_take(&ms, po->case_member);
        po->case_type = names_oneof_case_type(pool, names, pm->cname, po->member, m, po->o);
        po->none_const = names_oneof_none(pool, names, pm->cname, po->member, m, po->o);
    }
    for (size_t i = 0; i < pm->fields.n; i++) {
        plan_field *pf = &pm->fields.v[i];
        const ir_field *f = pf->f;
        bool explicit_presence = features_explicit_presence(f) && f->label != IR_LABEL_REPEATED && !pm->map_entry;
        /* pbj.by_value: a singular message (not a group, a oneof's or a map's) held in the struct, with a has-bit */
        pf->by_value = pf->kind == PLAN_MESSAGE && !pf->group && !pf->repeated && !pf->oneof && !pm->map_entry &&
                       options_by_value(f->message_type);
        if (pf->kind == PLAN_WRAPPER || pf->by_value || (explicit_presence && !pf->oneof &&
                                         (pf->kind == PLAN_SCALAR || pf->kind == PLAN_SLICE)))
            member_take(&ms, pf->has_member = unique_member(pool, &ms, names_has_member(pool, pf->member)));
        pf->required = features_required(f);
        pf->sub_may_miss = (pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP) && reaches_required(rc, f->message_type);
        if (pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP) {
            pf->sub_recursive = cycles_of(cs, f->message_type)->recursive;
            pf->sub_deep = cycles_of(cs, f->message_type)->deep;
        }
        if (!pf->oneof && !pm->map_entry) pf->default_c = default_expr(pool, f);
        if (pf->kind == PLAN_MAP) {
            const ir_field *v = entry_field(f->message_type, 2);
            pf->closed_map_value = v && v->type == IR_TYPE_ENUM && v->enum_type && features_closed_enum(v->enum_type);
            pf->message_map_value = v && v->type == IR_TYPE_MESSAGE && v->message_type;
        }
        pf->shape = shape_of(pf);
        pf->read = read_of(pf);
        pf->width = wire_of(pf->type)->all ? PLAN_WIDTH_FIXED : PLAN_WIDTH_VARYING;
        pf->framing = pf->group ? PLAN_FRAMING_GROUP : PLAN_FRAMING_LEN;
        plan_field_code(pool, pm, pf, names);
        plan_helper_code(pool, pm, pf, names);
    }
    symtab_free(&ms.taken);
    plan_predictions(pool, pm);
    plan_views(pool, pm, names);
    pm->may_miss = reaches_required(rc, m);
    plan_compare_keys(pool, pm);
    if (pm->compare_keys.n) pm->compare_fn = names_compare_fn(pool, names, pm->cname, m);
    pm->writers = options_on(m, OPTION_WRITERS) && !m->map_entry;
    if (pm->writers) {
        names_writer_functions(pool, names, &pm->wn, pm->cname, m);
        for (size_t i = 0; i < pm->fields.n; i++) plan_writer_code(pool, pm, &pm->fields.v[i], names);
        plan_writer_required(pool, pm);
    }
    return pm;
}

static plan_ext_shape ext_shape_of(const plan_field *pf)
{
    if (pf->msgset) return PLAN_EXT_ITEM;
    if (pf->kind == PLAN_MESSAGE)
        return pf->group ? (pf->repeated ? PLAN_EXT_GROUPS : PLAN_EXT_GROUP) : pf->repeated ? PLAN_EXT_MESSAGES : PLAN_EXT_MESSAGE;
    if (plan_is_slice(pf->type)) return pf->repeated ? PLAN_EXT_SLICES : PLAN_EXT_SLICE;
    return pf->packed ? PLAN_EXT_PACKED : pf->repeated ? PLAN_EXT_VALUES : PLAN_EXT_VALUE;
}

/* Everything ext.tmpl prints for extension pf (its value in set and add is v). */
static void plan_ext_code(ir_pool *pool, plan_field *pf)
{
    plan_code *c = &pf->code;
    const ir_field *f = pf->f;
    ir_type t = pf->type;
    bool msg = pf->kind == PLAN_MESSAGE;
    c->name = pf->name;
    c->full_name = f->full_name;
    c->number = ir_pool_printf(pool, "%d", pf->number);
    c->ctype = pf->ctype;
    c->ext->extendee = pf->extendee_cname;
    c->ext->extendee_full = f->extend->extendee->full_name;
    c->ext->wt = ir_pool_printf(pool, "%d", pf->group ? PBJ_WT_SGROUP : ir_type_wire_type(t));   /* the records decode keeps */
    if (pf->packable) c->ext->wt = ir_pool_printf(pool, "%s | PBJ__EXT_PACKABLE", c->ext->wt);
    c->sub_name_fn = pf->type == IR_TYPE_ENUM && f->enum_type ? names_enum_name_fn(pool, NULL, names_enum_cname(pool, f->enum_type), f->enum_type) : "NULL";
    c->ext->valid = pf->closed_enum ? c->sub_name_fn : "NULL";   /* an open enum keeps every value */
    c->ext->default_value = pf->default_c ? pf->default_c : plan_is_slice(t) ? "pbj_slice_make(NULL, 0)" : "0";
    c->ext->value_type = msg ? ir_pool_printf(pool, "const %s *", pf->ctype) : pf->ctype;
    plan_wire_code(pool, pf);
    c->ext->size_v = plan_value_size(pool, t, "v");
    c->ext->write_v = plan_value_write(pool, t, "v");
    c->ext->size_x = plan_value_size(pool, t, "x");
    c->ext->write_x = plan_value_write(pool, t, "x");
    c->from_v = plan_from_wire(pool, t, "v");
    c->ext->from_w = plan_from_wire(pool, t, "w");
    c->ext->count_type = pf->repeated ? "size_t" : "bool";
    c->ext->count_fn = pf->repeated ? c->ext->fn.count : c->ext->fn.has;
    c->ext->count_test = pf->repeated ? "" : " != 0";
    c->ext->get_fn = pf->repeated ? c->ext->fn.at : c->ext->fn.get;
    c->ext->get_params = pf->repeated ? ", size_t i" : "";
    c->ext->idx = pf->repeated ? "i" : "(size_t)-1";
    c->ext->record = "";
    c->ext->check = pf->utf8 && plan_is_slice(t) ? utf8_refusal(pool, "v", "PBJ_ERR_UTF8") : "";
}

/* An extension's accessors on its extendee's view (viewext.tmpl), when the extendee has views (and a message's
 * type too): they read the records the view's scan noted in the extension ranges. */
static void plan_ext_view_code(ir_pool *pool, plan_field *pf, names_list *names, cycle_search *cs)
{
    plan_code *c = &pf->code;
    const ir_field *f = pf->f;
    bool message = pf->kind == PLAN_MESSAGE;
    if (!options_on(f->extend->extendee, OPTION_VIEWS) || (message && !options_on(f->message_type, OPTION_VIEWS))) return;
    plan_view *w = c->view = ir_pool_alloc(pool, sizeof *c->view);
    names_view extendee;
    names_view_functions(pool, NULL, &extendee, pf->extendee_cname, f->extend->extendee);
    if (message) names_view_functions(pool, NULL, &w->sub, pf->type_cname, f->message_type);
    w->reach = message ? ir_pool_printf(pool, "%u", view_reach(cs, f->message_type)) : "0";
    w->type = extendee.type;
    w->get = names_extension_view(pool, names, pf->cname, NAMES_EXT_VIEW_GET, f);
    w->has = pf->repeated ? "" : names_extension_view(pool, names, pf->cname, NAMES_EXT_VIEW_HAS, f);
    w->next = pf->repeated ? names_extension_view(pool, names, pf->cname, NAMES_EXT_VIEW_NEXT, f) : "";
    int wt = pf->group ? PBJ_WT_SGROUP : message ? PBJ_WT_LEN : ir_type_wire_type(pf->type);
    w->tag = ir_pool_printf(pool, "0x%x", pf->msgset ? (unsigned)PBJ_TAG(1, PBJ_WT_SGROUP) : (unsigned)PBJ_TAG(pf->number, wt));
    w->packed_tag = pf->packable || pf->msgset ? ir_pool_printf(pool, "0x%x", (unsigned)PBJ_TAG(pf->number, PBJ_WT_LEN)) : "0";
    w->keep = pf->closed_enum ? ir_pool_printf(pool, "%s((int32_t)w)", c->ext->valid) : "1";
    w->from = plan_from_wire(pool, pf->type, "w");
    w->next_fn = pf->msgset ? "pbj__view_next_item" : pf->group ? "pbj__view_next_group" : "pbj__view_next_payload";
    w->tag_byte = pf->msgset ? c->number : "0";   /* next's second argument: an item's type_id; no one-byte tag */
}

/* An extension field: accessors named after its full name, on its extendee's pbj_ext records. */
static plan_field *plan_extension(ir_pool *pool, const ir_field *f, names_list *names, cycle_search *cs)
{
    if (f->type == IR_TYPE_UNRESOLVED || !f->extend || !f->extend->extendee) return NULL;
    if ((f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP) && !f->message_type) return NULL;
    plan_field *pf = ir_pool_alloc(pool, sizeof *pf);
    pf->f = f;
    pf->name = ir_pool_printf(pool, "[%s]", f->full_name);
    pf->number = f->number;
    pf->cname = names_of_full_name(pool, f->full_name);
    pf->code.ext = ir_pool_alloc(pool, sizeof *pf->code.ext);
    names_extension_functions(pool, names, &pf->code.ext->fn, pf->cname, f);
    pf->member = pf->cname;
    pf->extendee_cname = names_message_cname(pool, f->extend->extendee);
    pf->msgset = f->extend->extendee->message_set_wire_format && f->type == IR_TYPE_MESSAGE && f->label != IR_LABEL_REPEATED;
    if (pf->msgset && f->extend->scope == f->message_type)    /* text format names it by its type, as protoc */
        pf->name = ir_pool_printf(pool, "[%s]", f->message_type->full_name);
    pf->foreign = f->file != f->extend->extendee->file;
    plan_field_kind(pool, pf, f, false);
    if (pf->kind == PLAN_WRAPPER) {                       /* extensions keep wrappers as messages */
        pf->kind = PLAN_MESSAGE;
        pf->type = f->type;
        pf->type_cname = names_message_cname(pool, f->message_type);
        pf->ctype = pf->type_cname;
        pf->utf8 = false;
    }
    plan_tags(pf);
    sub_functions(pool, pf);
    pf->default_c = default_expr(pool, f);
    pf->ext_shape = ext_shape_of(pf);
    plan_ext_code(pool, pf);
    plan_ext_view_code(pool, pf, names, cs);
    return pf;
}

/* A message set's item declared in another file this run generates: the extendee's source includes that
 * file's header (emit_source's foreign_item_includes), so it prints the item by name, as protoc does. */
static bool foreign_item_in_scope(const plan_field *x)
{
    return x->foreign && x->msgset && x->f->file && x->f->file->is_input;
}

/* The known extensions by number (the decoder's case lists), one per number. */
static void sort_known_ext(ir_pool *pool, plan_message *pm)
{
    sort(pm->known_ext.v, pm->known_ext.n, sizeof(plan_field *), ext_by_number);
    for (size_t i = 0; i < pm->known_ext.n; i++) {
        plan_field *x = pm->known_ext.v[i];
        if (i && x->number == pm->known_ext.v[i - 1]->number) continue;
        if (!x->repeated && x->kind != PLAN_MESSAGE) ir_pool_vec_push(pool, &pm->ext_replace, x);
        else ir_pool_vec_push(pool, &pm->ext_append, x);
        ir_pool_vec_push(pool, &pm->ext_listed, x);
        if (!(x->foreign && x->kind == PLAN_MESSAGE) || foreign_item_in_scope(x))
            ir_pool_vec_push(pool, &pm->ext_printed, x);          /* else its type is not in scope */
    }
}

typedef struct ext_walk {
    plan_file *pf;
    bool own;              /* the planned file's own extensions: accessors generated */
    cycle_search *cs;
} ext_walk;

static void add_extension(ext_walk *w, const ir_field *f)
{
    ir_pool *pool = w->pf->pool;
    plan_field *x = plan_extension(pool, f, w->own ? &w->pf->extension_names : NULL, w->cs);
    if (!x) return;
    if (w->own) ir_pool_vec_push(pool, &w->pf->extensions, x);
    for (size_t i = 0; i < w->pf->messages.n; i++)
        if (w->pf->messages.v[i]->m == f->extend->extendee) ir_pool_vec_push(pool, &w->pf->messages.v[i]->known_ext, x);
}

static void collect_extensions(ir_message *m, void *ctx)
{
    for (size_t i = 0; i < m->extensions.n; i++) add_extension(ctx, m->extensions.v[i]);
}

static void walk_extensions(plan_file *pf, const ir_file *f, cycle_search *cs)
{
    ext_walk w = {pf, f == pf->f, cs};
    for (size_t i = 0; i < f->extensions.n; i++) add_extension(&w, f->extensions.v[i]);
    ir_each_message((ir_file *)(uintptr_t)f, collect_extensions, &w);
}

static void collect_enum(plan_file *pf, const ir_enum *e)
{
    ir_pool *pool = pf->pool;
    plan_enum *pe = ir_pool_alloc(pool, sizeof *pe);
    names_list *l = &pf->enum_names;
    pe->e = e;
    pe->cname = names_enum_type(pool, l, names_enum_cname(pool, e), e);
    pe->name_fn = names_enum_name_fn(pool, l, pe->cname, e);
    pe->from_name_fn = names_enum_from_name_fn(pool, l, pe->cname, e);
    pe->doc = doc_of(pool, &e->comments);
    pe->table.table = names_enum_table(pool, l, pe->cname, "__enum", e);
    pe->table.values = names_enum_table(pool, l, pe->cname, "__values", e);
    pe->table.by_name = names_enum_table(pool, l, pe->cname, "__by_name", e);
    for (size_t i = 0; i < e->values.n; i++) {
        ir_pool_vec_push(pool, &pe->value_cnames, names_enum_value(pool, l, pe->cname, e->values.v[i], e));
        ir_pool_vec_push(pool, &pe->value_docs, doc_of(pool, &e->values.v[i]->comments));
    }
    ir_pool_vec_push(pool, &pf->enums, pe);
}

static const char *c_bool(bool b) { return b ? "true" : "false"; }

/* A service's table: one row per method (name, full name, request and response types, streaming). */
static plan_service *plan_service_build(plan_file *pf, const ir_service *s)
{
    ir_pool *pool = pf->pool;
    plan_service *ps = ir_pool_alloc(pool, sizeof *ps);
    ps->s = s;
    ps->table = names_service_table(pool, &pf->message_names, s);
    ps->methods = names_service_methods(pool, &pf->message_names, s);
    textbuf rows = {0};
    for (size_t i = 0; i < s->methods.n; i++) {
        const ir_method *m = s->methods.v[i];
        textbuf_printf(&rows, "{\"%s\", \"%s.%s\", \"/%s/%s\", \"%s\", \"%s\", %s, %s},\n", m->name, s->full_name,
                       m->name, s->full_name, m->name, m->input ? m->input->full_name : m->input_name,
                       m->output ? m->output->full_name : m->output_name, c_bool(m->client_streaming),
                       c_bool(m->server_streaming));
    }
    ps->rows = textbuf_finish(&rows, pool);
    return ps;
}

/* Which reverse encoders (and M__write) are inlined into their parent's: a message of the file written by one field
 * only, of a fast_write message after it (so no inlining runs in a circle). */
static void plan_reverse_inlining(plan_file *pf)
{
    symtab index;                 /* a message's full name -> its place in pf->messages, plus one */
    symtab_init(&index);
    ir_pool *pool = pf->pool;
    size_t n = pf->messages.n, *uses = ir_pool_alloc(pool, (n + 1) * sizeof *uses), *last = ir_pool_alloc(pool, (n + 1) * sizeof *last);
    for (size_t j = 0; j < n; j++) {
        const char *full = pf->messages.v[j]->m->full_name;
        symtab_put(&index, full, strlen(full), (void *)(uintptr_t)(j + 1));
    }
    for (size_t j = 0; j < n; j++) {
        const plan_message *parent = pf->messages.v[j];
        for (size_t k = 0; parent->fast_write && k < parent->fields.n; k++) {
            const plan_field *f = &parent->fields.v[k];
            if (!f->sub_reverse || f->f->message_type->file != pf->f) continue;
            const char *full = f->f->message_type->full_name;
            size_t at = (uintptr_t)symtab_get(&index, full, strlen(full));
            if (at) uses[at - 1]++, last[at - 1] = j;
        }
    }
    for (size_t j = 0; j < n; j++)   /* a table-walked M__write is no code to inline */
        pf->messages.v[j]->reverse_inlined = uses[j] == 1 && j < last[j] && !pf->messages.v[j]->table_wire;
    for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k < pf->messages.v[j]->fields.n; k++) {
            plan_field *f = &pf->messages.v[j]->fields.v[k];
            if (!f->sub_reverse || f->f->message_type->file != pf->f) continue;
            const char *full = f->f->message_type->full_name;
            size_t at = (uintptr_t)symtab_get(&index, full, strlen(full));
            f->sub_inlined = at && pf->messages.v[at - 1]->reverse_inlined;
        }
    symtab_free(&index);
}

/* The files whose headers pf's header and source include (plan_file.header_imports, source_imports). */
static void plan_includes(plan_file *pf)
{
    ir_pool *pool = pf->pool;
    const ir_file *f = pf->f;
    for (size_t i = 0; i < f->imports.n; i++)
        if (f->imports.v[i].kind != IR_IMPORT_OPTION) ir_pool_vec_push(pool, &pf->header_imports, f->imports.v[i].name);
    IR_VEC(const ir_file *) done = {0};
    for (size_t i = 0; i < pf->messages.n; i++)
        for (size_t k = 0; k < pf->messages.v[i]->ext_printed.n; k++) {
            const plan_field *x = pf->messages.v[i]->ext_printed.v[k];
            size_t j = 0;
            while (j < done.n && done.v[j] != x->f->file) j++;
            if (!x->foreign || j < done.n) continue;
            ir_pool_vec_push(pool, &done, x->f->file);
            ir_pool_vec_push(pool, &pf->source_imports, x->f->file->name);
        }
}

typedef struct file_build {
    plan_file *pf;
    required_cache *rc;
    cycle_search *cs;
} file_build;

static void collect_message(ir_message *m, void *ctx)
{
    file_build *b = ctx;
    plan_file *pf = b->pf;
    ir_pool *pool = pf->pool;
    ir_pool_vec_push(pool, &pf->messages, plan_message_build(pf->pool, m, &pf->message_names, b->rc, b->cs));
    for (size_t i = 0; i < m->enums.n; i++) collect_enum(pf, m->enums.v[i]);
}

static plan_file *plan_build_in(ir_pool *pool, const ir_file *f, const ir_program *prog, required_cache *rc,
                                cycle_search *cs)
{
    plan_file *pf = ir_pool_alloc(pool, sizeof *pf);
    pf->f = f;
    pf->pool = pool;
    for (size_t i = 0; i < f->enums.n; i++) collect_enum(pf, f->enums.v[i]);
    file_build b = {pf, rc, cs};
    ir_each_message((ir_file *)(uintptr_t)f, collect_message, &b);
    walk_extensions(pf, f, cs);
    for (size_t i = 0; i < prog->files.n; i++)
        if (prog->files.v[i] != f) walk_extensions(pf, prog->files.v[i], cs);
    for (size_t i = 0; i < pf->messages.n; i++) sort_known_ext(pool, pf->messages.v[i]);
    plan_reverse_inlining(pf);
    plan_includes(pf);
    for (size_t i = 0; i < f->services.n; i++) ir_pool_vec_push(pool, &pf->services, plan_service_build(pf, f->services.v[i]));
    plan_table_file(pool, pf);
    return pf;
}

plan_program *plan_build(const ir_program *prog, ir_pool *pool)
{
    plan_program *pp = ir_pool_alloc(pool, sizeof *pp);
    pp->prog = prog;
    pp->pool = pool;
    required_cache rc = {.pool = pool};
    cycle_search cs = {.pool = pool};
    symtab_init(&rc.known);
    symtab_init(&cs.nodes);
    for (size_t i = 0; i < prog->files.n; i++) ir_pool_vec_push(pool, &pp->files, plan_build_in(pool, prog->files.v[i], prog, &rc, &cs));
    symtab_free(&rc.known);
    symtab_free(&cs.nodes);
    plan_run_home(pp);
    return pp;
}

plan_file *plan_of(const plan_program *pp, const ir_file *f)
{
    for (size_t i = 0; i < pp->files.n; i++)
        if (pp->files.v[i]->f == f) return pp->files.v[i];
    return NULL;
}

int plan_check(const plan_program *pp)
{
    IR_VEC(const names_list *) lists = {0};
    for (size_t i = 0; i < pp->files.n; i++) {
        ir_pool_vec_push(pp->pool, &lists, &pp->files.v[i]->enum_names);
        ir_pool_vec_push(pp->pool, &lists, &pp->files.v[i]->message_names);
        ir_pool_vec_push(pp->pool, &lists, &pp->files.v[i]->extension_names);
    }
    return names_check(lists.v, lists.n) + options_check_closure_inputs(pp->prog);
}
