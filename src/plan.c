/* plan.c: per message, the decisions emit writes out: C names, field order, oneof runs, presence, tag bytes. */
#include "plan.h"

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

static int put_tag(uint8_t *out, uint32_t v)
{
    int n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
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
        clash = strcmp(name, "pbj_unknown") == 0 || strncmp(name, "pbj__", 5) == 0;
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
    pf->tag_len = put_tag(pf->tag, pf->tag_value);
    put_tag(pf->end_tag, ((uint32_t)pf->number << 3) | 4u);
    if (pf->packable) {
        pf->alt_tag_value = ((uint32_t)pf->number << 3) | (uint32_t)other;
        pf->alt_tag_len = put_tag(pf->alt_tag, pf->alt_tag_value);
    }
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
    }
    return pm;
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

plan_file *plan_build(const ir_file *f)
{
    plan_file *pf = ir_alloc(sizeof *pf);
    pf->f = f;
    for (size_t i = 0; i < f->enums.n; i++) collect_enum(pf, f->enums.v[i]);
    ir_each_message((ir_file *)(uintptr_t)f, collect_message, pf);
    return pf;
}
