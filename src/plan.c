/* plan.c: per message, the decisions emit writes out: C names, field order, oneof runs, presence, tag bytes. */
#include "plan.h"

#include "diag.h"
#include "symtab.h"
#include "../rt/pbj.h"    /* float bit casts for defaults, the varint writer for tags */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* C keywords, C11 reserved words and names the C library may define as macros. */
static const char *const reserved_names[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof", "_Atomic",
    "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
    "_Thread_local", "bool", "true", "false", "NULL", "errno", "assert", "alignas", "alignof",
    "noreturn", "static_assert", "thread_local", "complex", "imaginary", "linux", "unix",
    "stdin", "stdout", "stderr", "EOF", "offsetof",
};

const char *plan_sanitize(const char *name)
{
    for (size_t i = 0; i < sizeof reserved_names / sizeof *reserved_names; i++)
        if (strcmp(name, reserved_names[i]) == 0) return ir_strcat(name, "_");
    return name;
}

/* "a.b.Outer.Inner" -> "a_b_Outer_Inner" */
static const char *cname_of(const char *full_name)
{
    char *s = ir_strdup(full_name);
    for (char *p = s; *p; p++)
        if (*p == '.') *p = '_';
    return plan_sanitize(s);
}

const char *plan_message_cname(const ir_message *m) { return cname_of(m->full_name); }
const char *plan_enum_cname(const ir_enum *e) { return cname_of(e->full_name); }

static const struct { const char *name; ir_type type; } wrappers[] = {
    {"google.protobuf.DoubleValue", IR_TYPE_DOUBLE}, {"google.protobuf.FloatValue", IR_TYPE_FLOAT},
    {"google.protobuf.Int64Value", IR_TYPE_INT64},   {"google.protobuf.UInt64Value", IR_TYPE_UINT64},
    {"google.protobuf.Int32Value", IR_TYPE_INT32},   {"google.protobuf.UInt32Value", IR_TYPE_UINT32},
    {"google.protobuf.BoolValue", IR_TYPE_BOOL},     {"google.protobuf.StringValue", IR_TYPE_STRING},
    {"google.protobuf.BytesValue", IR_TYPE_BYTES},
};

ir_type plan_wrapper_type(const ir_message *m)
{
    for (size_t i = 0; m && m->full_name && i < sizeof wrappers / sizeof *wrappers; i++)
        if (strcmp(m->full_name, wrappers[i].name) == 0) return wrappers[i].type;
    return IR_TYPE_UNRESOLVED;
}

static const char *scalar_ctype(ir_type t)
{
    switch (t) {
    case IR_TYPE_DOUBLE: return "double";
    case IR_TYPE_FLOAT: return "float";
    case IR_TYPE_INT64: case IR_TYPE_SINT64: case IR_TYPE_SFIXED64: return "int64_t";
    case IR_TYPE_UINT64: case IR_TYPE_FIXED64: return "uint64_t";
    case IR_TYPE_INT32: case IR_TYPE_SINT32: case IR_TYPE_SFIXED32: case IR_TYPE_ENUM: return "int32_t";
    case IR_TYPE_UINT32: case IR_TYPE_FIXED32: return "uint32_t";
    case IR_TYPE_BOOL: return "bool";
    case IR_TYPE_STRING: case IR_TYPE_BYTES: return "pbj_slice";
    default: return "void";
    }
}

/* ---- proto2 defaults, as C expressions --------------------------------------------- */

/* A string or bytes default as a C string literal of exactly its bytes. */
static const char *c_string_literal(const char *s, size_t n)
{
    char *out = ir_alloc(4 * n + 3), *o = out;
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

static const char *int_expr(ir_type t, const char *text)
{
    switch (t) {
    case IR_TYPE_INT64: case IR_TYPE_SINT64: case IR_TYPE_SFIXED64: {
        long long v = strtoll(text, NULL, 10);
        return v == INT64_MIN ? "INT64_MIN" : ir_printf("INT64_C(%lld)", v);
    }
    case IR_TYPE_UINT64: case IR_TYPE_FIXED64: return ir_printf("UINT64_C(%s)", text);
    case IR_TYPE_UINT32: case IR_TYPE_FIXED32: return ir_printf("%su", text);
    default: {
        long v = strtol(text, NULL, 10);
        return v == INT32_MIN ? "INT32_MIN" : ir_printf("%ld", v);
    }
    }
}

/* The C value of f's default when it is not all-zero bits, else NULL. */
static const char *default_expr(const ir_field *f)
{
    if (f->label == IR_LABEL_REPEATED || f->is_map) return NULL;
    if (f->type == IR_TYPE_ENUM && f->enum_type) {
        int32_t v = f->default_value ? enum_number(f->enum_type, f->default_value)
                  : f->enum_type->file && f->enum_type->file->syntax == IR_PROTO2 && f->enum_type->values.n
                  ? f->enum_type->values.v[0]->number : 0;
        return v == 0 ? NULL : v == INT32_MIN ? "INT32_MIN" : ir_printf("%d", v);
    }
    const char *d = f->default_value;
    if (!d) return NULL;
    switch (f->type) {
    case IR_TYPE_STRING: case IR_TYPE_BYTES:
        if (!f->default_raw || f->default_raw->str_len == 0) return NULL;
        return ir_printf("pbj_slice_make(%s, %zu)", c_string_literal(f->default_raw->str, f->default_raw->str_len),
                         f->default_raw->str_len);
    case IR_TYPE_BOOL: return strcmp(d, "true") == 0 ? "true" : NULL;
    case IR_TYPE_FLOAT: {
        uint32_t bits = pbj_float_bits(strtof(d, NULL));
        if (strstr(d, "nan")) bits = 0x7fc00000u | (d[0] == '-' ? 0x80000000u : 0);
        return bits ? ir_printf("pbj_bits_float(0x%08" PRIx32 "u)", bits) : NULL;
    }
    case IR_TYPE_DOUBLE: {
        uint64_t bits = pbj_double_bits(strtod(d, NULL));
        if (strstr(d, "nan")) bits = 0x7ff8000000000000ull | (d[0] == '-' ? 0x8000000000000000ull : 0);
        return bits ? ir_printf("pbj_bits_double(UINT64_C(0x%016" PRIx64 "))", bits) : NULL;
    }
    default:
        return strtod(d, NULL) == 0 ? NULL : int_expr(f->type, d);
    }
}

/* ---- required fields reached ---------------------------------------------------------- */

/* Known answers per message (open addressing on the pointer): true is sound as soon as
 * found; false only once a whole search from the top found nothing. */
enum { MISS_SLOTS = 1 << 17 };
static struct miss_slot { const ir_message *m; unsigned char known; unsigned stamp; } *miss_table;
static unsigned miss_stamp;

static struct miss_slot *miss_slot_of(const ir_message *m)
{
    if (!miss_table) miss_table = calloc(MISS_SLOTS, sizeof *miss_table);
    if (!miss_table) return NULL;
    for (size_t h = ((uintptr_t)m >> 4) * 2654435761u % MISS_SLOTS, k = 0; k < MISS_SLOTS; k++, h = (h + 1) % MISS_SLOTS) {
        if (miss_table[h].m == m) return &miss_table[h];
        if (!miss_table[h].m) {
            miss_table[h].m = m;
            return &miss_table[h];
        }
    }
    return NULL;
}

enum { MISS_UNKNOWN, MISS_NO, MISS_YES };

static bool miss_search(const ir_message *m)
{
    struct miss_slot *s = miss_slot_of(m);
    if (!s || s->known == MISS_YES) return true;
    if (s->known == MISS_NO || s->stamp == miss_stamp) return false;
    s->stamp = miss_stamp;
    for (size_t i = 0; i < m->fields.n; i++)
        if (m->fields.v[i]->label == IR_LABEL_REQUIRED) return s->known = MISS_YES, true;
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_field *f = m->fields.v[i];
        if ((f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP) && f->message_type && miss_search(f->message_type))
            return s->known = MISS_YES, true;
    }
    return false;
}

static void miss_mark_no(const ir_message *m)
{
    struct miss_slot *s = miss_slot_of(m);
    if (!s || s->known == MISS_NO) return;
    s->known = MISS_NO;
    for (size_t i = 0; i < m->fields.n; i++)
        if (m->fields.v[i]->message_type) miss_mark_no(m->fields.v[i]->message_type);
}

/* Whether m or a message it reaches has a required field. */
static bool reaches_required(const ir_message *m)
{
    miss_stamp++;
    if (miss_search(m)) return true;
    miss_mark_no(m);                  /* nothing reached has one */
    return false;
}

/* [packed = true/false] as written, else the syntax's default. */
static bool is_packed(const ir_field *f, bool proto3)
{
    const char *v = ir_option_find(&f->options, "packed");
    if (v) return strcmp(v, "true") == 0;
    return proto3;
}

static int by_number(const void *a, const void *b)
{
    const plan_field *x = a, *y = b;
    return (x->number > y->number) - (x->number < y->number);
}

/* A member name distinct from every other member of the struct. */
static const char *unique_member(const plan_message *pm, const char *want)
{
    const char *name = plan_sanitize(want);
    for (bool clash = true; clash;) {
        clash = strcmp(name, "pbj_unknown") == 0 || strcmp(name, "pbj_ext") == 0 || strncmp(name, "pbj__", 5) == 0;
        for (size_t i = 0; i < pm->fields.n && !clash; i++) {
            const plan_field *o = &pm->fields.v[i];
            clash = (o->member && strcmp(o->member, name) == 0) ||
                    (o->has_member && strcmp(o->has_member, name) == 0);
        }
        for (size_t i = 0; i < pm->oneofs.n && !clash; i++) {
            const plan_oneof *o = pm->oneofs.v[i];
            clash = o->member && (strcmp(o->member, name) == 0 ||
                                  strcmp(ir_strcat(o->member, "_case"), name) == 0);
        }
        if (clash) name = ir_strcat(name, "_");
    }
    return name;
}

static void plan_field_kind(plan_field *pf, const ir_field *f, bool proto3, bool map_entry)
{
    pf->type = f->type;
    pf->repeated = f->label == IR_LABEL_REPEATED;
    if (f->is_map && f->message_type) {
        pf->kind = PLAN_MAP;
        pf->type_cname = plan_message_cname(f->message_type);
        pf->ctype = pf->type_cname;
        return;
    }
    if (f->type == IR_TYPE_GROUP) {
        pf->kind = PLAN_MESSAGE;
        pf->group = true;
        pf->type_cname = plan_message_cname(f->message_type);
        pf->ctype = pf->type_cname;
        return;
    }
    if (f->type == IR_TYPE_MESSAGE) {
        ir_type w = plan_wrapper_type(f->message_type);
        if (w != IR_TYPE_UNRESOLVED && !pf->repeated && !f->oneof && !map_entry) {
            pf->kind = PLAN_WRAPPER;
            pf->type = w;
            pf->ctype = scalar_ctype(w);
            pf->utf8 = w == IR_TYPE_STRING;
            return;
        }
        pf->kind = PLAN_MESSAGE;
        pf->type_cname = plan_message_cname(f->message_type);
        pf->ctype = pf->type_cname;
        return;
    }
    pf->kind = f->type == IR_TYPE_STRING || f->type == IR_TYPE_BYTES ? PLAN_SLICE : PLAN_SCALAR;
    pf->ctype = scalar_ctype(f->type);
    if (f->type == IR_TYPE_ENUM && f->enum_type) {
        pf->type_cname = plan_enum_cname(f->enum_type);
        pf->closed_enum = f->enum_type->file && f->enum_type->file->syntax == IR_PROTO2 && !map_entry;
    }
    pf->utf8 = proto3 && f->type == IR_TYPE_STRING;
    pf->packable = pf->repeated && ir_type_is_packable(f->type);
    pf->packed = pf->packable && is_packed(f, proto3);
}

static void plan_tags(plan_field *pf)
{
    int wt = ir_type_wire_type(pf->type);
    if (pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP || pf->kind == PLAN_WRAPPER) wt = pf->group ? 3 : 2;
    int primary = pf->packed ? 2 : wt, other = pf->packed ? wt : 2;
    pf->tag_value = ((uint32_t)pf->number << 3) | (uint32_t)primary;
    pf->tag_len = (int)(pbj_put_varint(pf->tag, pf->tag_value) - pf->tag);
    pbj_put_varint(pf->end_tag, ((uint32_t)pf->number << 3) | 4u);
    if (pf->packable) {
        pf->alt_tag_value = ((uint32_t)pf->number << 3) | (uint32_t)other;
        pf->alt_tag_len = (int)(pbj_put_varint(pf->alt_tag, pf->alt_tag_value) - pf->alt_tag);
    }
}

static int ext_by_number(const void *a, const void *b)
{
    const plan_field *x = *(plan_field *const *)a, *y = *(plan_field *const *)b;
    return (x->number > y->number) - (x->number < y->number);
}

static bool is_msgset(const ir_message *m)
{
    const char *v = ir_option_find(&m->options, "message_set_wire_format");
    return v && strcmp(v, "true") == 0;
}

static int range_by_start(const void *a, const void *b)
{
    const ir_range *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

static plan_oneof *plan_oneof_for(plan_message *pm, const ir_oneof *o)
{
    for (size_t i = 0; i < pm->oneofs.n; i++)
        if (pm->oneofs.v[i]->o == o) return pm->oneofs.v[i];
    plan_oneof *po = ir_alloc(sizeof *po);
    po->o = o;
    ir_vec_push(&pm->oneofs, po);
    return po;
}

static plan_message *plan_message_build(const ir_message *m)
{
    plan_message *pm = ir_alloc(sizeof *pm);
    pm->m = m;
    pm->cname = plan_message_cname(m);
    pm->options = options_of(m);
    size_t n = options_describe(m, NULL, 0);
    char *text = ir_alloc(n + 1);
    options_describe(m, text, n + 1);
    pm->options_text = text;
    pm->map_entry = m->map_entry;
    pm->proto3 = m->file && m->file->syntax == IR_PROTO3;
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_field *f = m->fields.v[i];
        if (f->type == IR_TYPE_UNRESOLVED) continue;
        if ((f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP) && !f->message_type) continue;
        plan_field pf;
        memset(&pf, 0, sizeof pf);
        pf.f = f;
        pf.name = f->type == IR_TYPE_GROUP && f->message_type ? f->message_type->name : f->name;
        pf.number = f->number;
        plan_field_kind(&pf, f, pm->proto3, pm->map_entry);
        plan_tags(&pf);
        pf.always = pm->map_entry;
        if (f->oneof && !f->oneof->synthetic) pf.oneof = plan_oneof_for(pm, f->oneof);
        ir_vec_push(&pm->fields, pf);
    }
    qsort(pm->fields.v, pm->fields.n, sizeof *pm->fields.v, by_number);
    /* names after sorting, so clashes resolve the same way every run: fields
     * keep their (unique) names, oneofs and has-bits yield */
    for (size_t i = 0; i < pm->fields.n; i++) {
        plan_field *pf = &pm->fields.v[i];
        pf->member = plan_sanitize(pf->f->name);
        if (pf->oneof) ir_vec_push(&pf->oneof->fields, pf);
    }
    for (size_t i = 0; i < pm->oneofs.n; i++) {
        plan_oneof *po = pm->oneofs.v[i];
        const char *want = po->o->name;
        while (strcmp(unique_member(pm, want), want) != 0 || strcmp(unique_member(pm, ir_strcat(want, "_case")), ir_strcat(want, "_case")) != 0)
            want = ir_strcat(want, "_");
        po->member = want;
        po->case_type = ir_printf("%s_%s_case", pm->cname, po->member);
        po->none_const = ir_printf("%s_%s_NOT_SET", pm->cname, po->member);
    }
    for (size_t i = 0; i < pm->fields.n; i++) {
        plan_field *pf = &pm->fields.v[i];
        const ir_field *f = pf->f;
        bool explicit_presence = f->proto3_optional ||
            (!pm->proto3 && f->label != IR_LABEL_REPEATED && !pm->map_entry);
        if (pf->kind == PLAN_WRAPPER || (explicit_presence && !pf->oneof &&
                                         (pf->kind == PLAN_SCALAR || pf->kind == PLAN_SLICE)))
            pf->has_member = unique_member(pm, ir_strcat("has_", pf->member));
        pf->required = f->label == IR_LABEL_REQUIRED;
        pf->sub_may_miss = (pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP) && reaches_required(f->message_type);
        if (!pf->oneof && !pm->map_entry) pf->default_c = default_expr(f);
        if (pf->kind == PLAN_MAP) {
            const ir_message *entry = f->message_type;
            for (size_t j = 0; j < entry->fields.n; j++) {
                const ir_field *v = entry->fields.v[j];
                if (v->number == 2 && v->type == IR_TYPE_ENUM && v->enum_type && v->enum_type->file &&
                    v->enum_type->file->syntax == IR_PROTO2)
                    pf->closed_map_value = true;
            }
        }
    }
    pm->may_miss = reaches_required(m);
    pm->msgset = is_msgset(m);
    for (size_t i = 0; i < m->extension_ranges.n; i++) ir_vec_push(&pm->ext_ranges, m->extension_ranges.v[i]);
    qsort(pm->ext_ranges.v, pm->ext_ranges.n, sizeof *pm->ext_ranges.v, range_by_start);
    return pm;
}

/* An extension field: accessors named after its full name, on its extendee's pbj_ext records. */
static plan_field *plan_extension(const ir_field *f)
{
    if (f->type == IR_TYPE_UNRESOLVED || !f->extend || !f->extend->extendee) return NULL;
    if ((f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP) && !f->message_type) return NULL;
    plan_field *pf = ir_alloc(sizeof *pf);
    pf->f = f;
    pf->name = ir_printf("[%s]", f->full_name);
    pf->number = f->number;
    pf->cname = cname_of(f->full_name);
    pf->member = pf->cname;
    pf->extendee_cname = plan_message_cname(f->extend->extendee);
    pf->msgset = is_msgset(f->extend->extendee) && f->type == IR_TYPE_MESSAGE && f->label != IR_LABEL_REPEATED;
    if (pf->msgset && f->extend->scope == f->message_type)    /* text format names it by its type, as protoc */
        pf->name = ir_printf("[%s]", f->message_type->full_name);
    pf->foreign = f->file != f->extend->extendee->file;
    plan_field_kind(pf, f, f->file && f->file->syntax == IR_PROTO3, false);
    if (pf->kind == PLAN_WRAPPER) {                       /* extensions keep wrappers as messages */
        pf->kind = PLAN_MESSAGE;
        pf->type = f->type;
        pf->type_cname = plan_message_cname(f->message_type);
        pf->ctype = pf->type_cname;
        pf->utf8 = false;
    }
    plan_tags(pf);
    pf->default_c = default_expr(f);
    return pf;
}

typedef struct ext_walk {
    plan_file *pf;
    bool own;              /* the planned file's own extensions: accessors generated */
} ext_walk;

static void add_extension(ext_walk *w, const ir_field *f)
{
    plan_field *x = plan_extension(f);
    if (!x) return;
    if (w->own) ir_vec_push(&w->pf->extensions, x);
    for (size_t i = 0; i < w->pf->messages.n; i++)
        if (w->pf->messages.v[i]->m == f->extend->extendee) ir_vec_push(&w->pf->messages.v[i]->known_ext, x);
}

static void collect_extensions(ir_message *m, void *ctx)
{
    for (size_t i = 0; i < m->extensions.n; i++) add_extension(ctx, m->extensions.v[i]);
}

static void walk_extensions(plan_file *pf, const ir_file *f)
{
    ext_walk w = {pf, f == pf->f};
    for (size_t i = 0; i < f->extensions.n; i++) add_extension(&w, f->extensions.v[i]);
    ir_each_message((ir_file *)(uintptr_t)f, collect_extensions, &w);
}

static void collect_enum(plan_file *pf, const ir_enum *e)
{
    plan_enum *pe = ir_alloc(sizeof *pe);
    pe->e = e;
    pe->cname = plan_enum_cname(e);
    for (size_t i = 0; i < e->values.n; i++)
        ir_vec_push(&pe->value_cnames, plan_sanitize(ir_printf("%s_%s", pe->cname, e->values.v[i]->name)));
    ir_vec_push(&pf->enums, pe);
}

static void collect_message(ir_message *m, void *ctx)
{
    plan_file *pf = ctx;
    ir_vec_push(&pf->messages, plan_message_build(m));
    for (size_t i = 0; i < m->enums.n; i++) collect_enum(pf, m->enums.v[i]);
}

plan_file *plan_build(const ir_file *f) { return plan_build_in(f, NULL); }

plan_file *plan_build_in(const ir_file *f, const ir_program *prog)
{
    plan_file *pf = ir_alloc(sizeof *pf);
    pf->f = f;
    for (size_t i = 0; i < f->enums.n; i++) collect_enum(pf, f->enums.v[i]);
    ir_each_message((ir_file *)(uintptr_t)f, collect_message, pf);
    walk_extensions(pf, f);
    for (size_t i = 0; prog && i < prog->files.n; i++)
        if (prog->files.v[i] != f) walk_extensions(pf, prog->files.v[i]);
    for (size_t i = 0; i < pf->messages.n; i++)          /* by number: the decoder's case list */
        qsort(pf->messages.v[i]->known_ext.v, pf->messages.v[i]->known_ext.n, sizeof(plan_field *), ext_by_number);
    return pf;
}

/* ---- C names at file scope: one table for the run, two declarations giving one name is an error ---- */

typedef struct cname_owner {
    const char *what;            /* "message", "a function of message", ... */
    const char *full_name;       /* of the declaration the name comes from */
    const ir_file *file;
    ir_loc loc;
} cname_owner;

typedef struct cname_table {
    symtab names;                /* C name -> cname_owner */
    int clashes;
    const cname_owner *last[2];  /* the two declarations last reported: their other names are not repeated */
} cname_table;

static bool loc_before(ir_loc a, ir_loc b) { return a.line < b.line || (a.line == b.line && a.col < b.col); }

/* Record that the declaration full_name (of kind what, at f:loc) emits cname; a name already taken is reported
 * at the later of the two declarations. */
static void claim(cname_table *t, const char *cname, const char *what, const char *full_name, const ir_file *f, ir_loc loc)
{
    cname_owner *o = ir_alloc(sizeof *o);
    *o = (cname_owner){what, full_name, f, loc};
    cname_owner *first = symtab_put(&t->names, cname, strlen(cname), o);
    if (!first || (first->file == f && strcmp(first->full_name, full_name) == 0)) return;
    if (first->file == f && loc_before(loc, first->loc)) {     /* report where the later one is declared */
        cname_owner *later = first;
        first = o;
        o = later;
    }
    if (t->last[0] && strcmp(t->last[0]->full_name, first->full_name) == 0 && strcmp(t->last[1]->full_name, o->full_name) == 0)
        return;
    t->last[0] = first;
    t->last[1] = o;
    diag_error(o->file, o->loc, "C name \"%s\" of %s \"%s\" is also the C name of %s \"%s\" (declared at %s:%u:%u)",
               cname, o->what, o->full_name, first->what, first->full_name,
               first->file ? first->file->path : "?", first->loc.line, first->loc.col);
    t->clashes++;
}

static void claim_message(cname_table *t, const plan_message *pm)
{
    static const char *const functions[] = {
        "init", "size", "encode", "decode", "equal", "print", "_write", "_decode", "missing", "encode_partial",
    };
    const ir_message *m = pm->m;
    const char *fn = "a function of message", *c = pm->cname;
    claim(t, c, "message", m->full_name, m->file, m->loc);
    for (size_t i = 0; i < sizeof functions / sizeof *functions; i++)
        claim(t, ir_printf("%s_%s", c, functions[i]), fn, m->full_name, m->file, m->loc);
    if (pm->ext_ranges.n) claim(t, ir_strcat(c, "__print_ext"), fn, m->full_name, m->file, m->loc);
    for (size_t i = 0; i < pm->oneofs.n; i++) {
        const plan_oneof *po = pm->oneofs.v[i];
        const char *full = ir_printf("%s.%s", m->full_name, po->o->name);
        claim(t, po->case_type, "the case type of oneof", full, m->file, po->o->loc);
        claim(t, po->none_const, "a case constant of oneof", full, m->file, po->o->loc);
    }
    for (size_t i = 0; i < pm->fields.n; i++) {
        const plan_field *pf = &pm->fields.v[i];
        const char *acc = "an accessor of field", *x = pf->member;
        if (pf->kind == PLAN_MAP) claim(t, ir_printf("%s__cmp_%s", c, x), acc, pf->f->full_name, m->file, pf->f->loc);
        if (pf->oneof)
            claim(t, ir_printf("%s_%s_%s", c, pf->oneof->member, x), "the case constant of field", pf->f->full_name,
                  m->file, pf->f->loc);
        if (pf->repeated || pf->kind == PLAN_MAP || pm->map_entry) continue;
        if (pf->oneof || pf->has_member || pf->kind == PLAN_MESSAGE) {       /* as gen_accessors in emit.c */
            claim(t, ir_printf("%s_has_%s", c, x), acc, pf->f->full_name, m->file, pf->f->loc);
            claim(t, ir_printf("%s_clear_%s", c, x), acc, pf->f->full_name, m->file, pf->f->loc);
        }
    }
}

static void claim_file(cname_table *t, const plan_file *pf)
{
    for (size_t i = 0; i < pf->enums.n; i++) {
        const plan_enum *pe = pf->enums.v[i];
        const ir_enum *e = pe->e;
        claim(t, pe->cname, "enum", e->full_name, e->file, e->loc);
        claim(t, ir_strcat(pe->cname, "_name"), "a function of enum", e->full_name, e->file, e->loc);
        for (size_t j = 0; j < e->values.n; j++)
            claim(t, pe->value_cnames.v[j], "enum value", e->values.v[j]->full_name, e->file, e->values.v[j]->loc);
    }
    for (size_t i = 0; i < pf->messages.n; i++) claim_message(t, pf->messages.v[i]);
    static const char *const ext_functions[] = { "count", "at", "add", "has", "get", "set", "clear" };
    for (size_t i = 0; i < pf->extensions.n; i++) {
        const plan_field *x = pf->extensions.v[i];
        for (size_t j = 0; j < sizeof ext_functions / sizeof *ext_functions; j++)
            claim(t, ir_printf("%s_%s", x->cname, ext_functions[j]), "an accessor of extension", x->f->full_name,
                  x->f->file, x->f->loc);
    }
}

int plan_check_names(const ir_program *prog)
{
    cname_table t = {0};
    symtab_init(&t.names);
    for (size_t i = 0; i < prog->files.n; i++) claim_file(&t, plan_build(prog->files.v[i]));
    symtab_free(&t.names);
    return t.clashes;
}
