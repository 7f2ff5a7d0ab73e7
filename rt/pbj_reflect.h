/* pbj_reflect.h: a message's fields found, read and set through its table, without its generated code. */
#ifndef PBJ_REFLECT_H
#define PBJ_REFLECT_H

#include "pbj_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reflection for users: what a generic logger, a FieldMask applier or a bridge to another format needs.
 * Every message M has `const pbj_table M__table`; its fields are t->fields[0 .. t->count), by number:
 *
 *     for (uint32_t i = 0; i < t->count; i++) {
 *         const pbj_field *f = &t->fields[i];
 *         if (!pbj_field_has(t, f, m)) continue;
 *         printf("%s\n", pbj_field_name(t, f));
 *     }
 *
 * A field is found by number (pbj_table_find), by its .proto or JSON name (pbj_table_find_name). A value
 * travels as a pbj_value, the member its field's type names (pbj_value_of tells which): b (BOOL), i32 (INT32,
 * SINT32, SFIXED32, ENUM), u32 (UINT32, FIXED32), i64 (INT64, SINT64, SFIXED64), u64 (UINT64, FIXED64), f32
 * (FLOAT), f64 (DOUBLE), str (STRING, BYTES), msg (MESSAGE, GROUP, a map's entry). Extensions are not reached
 * this way yet (they are the pbj_ext records' own accessors). */

typedef union pbj_value {
    bool b;
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    float f32;
    double f64;
    pbj_slice str;
    const void *msg;
} pbj_value;

/* Which member of pbj_value a field's values use. */
typedef enum pbj_value_kind {
    PBJ_VALUE_BOOL, PBJ_VALUE_I32, PBJ_VALUE_U32, PBJ_VALUE_I64, PBJ_VALUE_U64, PBJ_VALUE_F32, PBJ_VALUE_F64,
    PBJ_VALUE_STR, PBJ_VALUE_MSG
} pbj_value_kind;

PBJ_INLINE pbj_value_kind pbj_value_of(const pbj_field *f)
{
    switch (f->type) {
    case PBJ_TYPE_BOOL: return PBJ_VALUE_BOOL;
    case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: return PBJ_VALUE_U32;
    case PBJ_TYPE_INT64: case PBJ_TYPE_SINT64: case PBJ_TYPE_SFIXED64: return PBJ_VALUE_I64;
    case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: return PBJ_VALUE_U64;
    case PBJ_TYPE_FLOAT: return PBJ_VALUE_F32;
    case PBJ_TYPE_DOUBLE: return PBJ_VALUE_F64;
    case PBJ_TYPE_STRING: case PBJ_TYPE_BYTES: return PBJ_VALUE_STR;
    case PBJ_TYPE_MESSAGE: case PBJ_TYPE_GROUP: return PBJ_VALUE_MSG;
    default: return PBJ_VALUE_I32;
    }
}

/* ---- names ------------------------------------------------------------------------------------------ */

PBJ_INLINE const char *pbj_table_full_name(const pbj_table *t) { return t->pool + t->name; }
PBJ_INLINE const char *pbj_field_name(const pbj_table *t, const pbj_field *f) { return t->pool + f->name; }
PBJ_INLINE const char *pbj_field_json_name(const pbj_table *t, const pbj_field *f) { return t->pool + f->json_name; }

/* The field named s[0..n), by its .proto name (a group's: its type's) or its JSON name, or NULL. */
PBJ_INLINE const pbj_field *pbj_table_find_name(const pbj_table *t, const char *s, size_t n)
{
    for (uint32_t i = 0; i < t->count; i++) {
        const pbj_field *f = &t->fields[i];
        if (pbj__name_cmp(t->pool + f->name, s, n) == 0 || pbj__name_cmp(t->pool + f->json_name, s, n) == 0) return f;
    }
    return NULL;
}

/* Whether f holds many values (repeated, a map: pbj_field_count and pbj_field_get_at read them). */
PBJ_INLINE bool pbj_field_is_repeated(const pbj_field *f)
{
    return f->mode == PBJ_MODE_REPEATED || f->mode == PBJ_MODE_MAP;
}

/* ---- reading ------------------------------------------------------------------------------------------ */

/* One value of f's type at p (a message's: the pointer at p, or p itself in an array). */
PBJ_INLINE pbj_value pbj__value_at(const pbj_field *f, const uint8_t *p, bool in_array)
{
    pbj_value v;
    memset(&v, 0, sizeof v);
    switch (pbj_value_of(f)) {
    case PBJ_VALUE_BOOL: memcpy(&v.b, p, sizeof v.b); break;
    case PBJ_VALUE_I64: case PBJ_VALUE_U64: case PBJ_VALUE_F64: memcpy(&v.u64, p, 8); break;
    case PBJ_VALUE_STR: memcpy(&v.str, p, sizeof v.str); break;
    case PBJ_VALUE_MSG: v.msg = in_array ? (const void *)p : pbj__ptr_at(p, 0); break;
    default: memcpy(&v.u32, p, 4); break;
    }
    return v;
}

/* Whether singular field f is set in m (proto3 implicit presence: not zero, not empty; a message: not NULL).
 * A repeated field or map: not empty. */
PBJ_INLINE bool pbj_field_has(const pbj_table *t, const pbj_field *f, const void *m)
{
    const uint8_t *p = pbj__at(m, f->offset);
    switch (f->mode) {
    case PBJ_MODE_OPTIONAL: case PBJ_MODE_WRAPPER: case PBJ_MODE_BY_VALUE: return *pbj__at(m, f->presence) != 0;
    case PBJ_MODE_ONEOF: return pbj__oneof_case(t, f, m) == f->number;
    case PBJ_MODE_REPEATED: case PBJ_MODE_MAP: return pbj__count_at(m, f->offset) != 0;
    default: break;
    }
    switch (pbj_value_of(f)) {
    case PBJ_VALUE_STR: return pbj__value_at(f, p, false).str.len != 0;
    case PBJ_VALUE_MSG: return pbj__ptr_at(p, 0) != NULL;
    default: {
        static const uint8_t zero[8] = {0};
        return memcmp(p, zero, pbj__elem_size(f)) != 0;   /* -0.0 is set, as the encoder writes it */
    }
    }
}

/* The number of values of repeated field (or map) f in m; a singular field's: 1 when set, else 0. */
PBJ_INLINE size_t pbj_field_count(const pbj_table *t, const pbj_field *f, const void *m)
{
    if (pbj_field_is_repeated(f)) return pbj__count_at(m, f->offset);
    return pbj_field_has(t, f, m) ? 1 : 0;
}

/* Singular field f's value in m: when not set, its default (proto2's, or zero; a message: NULL; a oneof
 * member not set: zero). A message held by value (pbj.by_value): a pointer to it in m. */
PBJ_INLINE pbj_value pbj_field_get(const pbj_table *t, const pbj_field *f, const void *m)
{
    bool held = f->mode == PBJ_MODE_BY_VALUE;
    if ((f->mode == PBJ_MODE_ONEOF && pbj__oneof_case(t, f, m) != f->number) || (held && !*pbj__at(m, f->presence))) {
        pbj_value none;
        memset(&none, 0, sizeof none);
        return none;
    }
    return pbj__value_at(f, pbj__at(m, f->offset), held);
}

/* Value i (< pbj_field_count) of repeated field f in m; a map's: its entry message (key field 1, value 2). */
PBJ_INLINE pbj_value pbj_field_get_at(const pbj_field *f, const void *m, size_t i)
{
    const uint8_t *data = (const uint8_t *)pbj__ptr_at(m, f->offset);
    return pbj__value_at(f, data + i * pbj__elem_size(f), true);
}

/* ---- setting ------------------------------------------------------------------------------------------ */

#if PBJ__BODIES

/* f marked set in m: its has member, or its oneof's case (at the size the case has). */
PBJ_INLINE void pbj__mark_set(const pbj_table *t, const pbj_field *f, void *m, bool set)
{
    if (pbj__has_bit(f)) {
        bool b = set;
        memcpy((uint8_t *)m + f->presence, &b, sizeof b);
    } else if (f->mode == PBJ_MODE_ONEOF) {
        const pbj_oneof *o = &t->oneofs[f->presence];
        uint32_t n = set ? f->number : 0;
        uint8_t n8 = (uint8_t)n;
        uint16_t n16 = (uint16_t)n;
        uint8_t *p = (uint8_t *)m + o->case_offset;
        if (o->case_size == 1) memcpy(p, &n8, 1);
        else if (o->case_size == 2) memcpy(p, &n16, 2);
        else memcpy(p, &n, 4);
    }
}
#endif

/* Sets singular field f of m to v and marks it set (a oneof's member: the one its oneof holds). A string or
 * bytes value is kept as given (its bytes must outlive m, as when the member is assigned; a string that must
 * be UTF-8 is checked: PBJ_ERR_UTF8); a message is its pointer (NULL: not set; one held by value, pbj.by_value, is
 * copied from it, its strings and sub-records shared). PBJ_ERR_KIND for a repeated field or map. */
PBJ_OUTLINE pbj_status pbj_field_set(const pbj_table *t, const pbj_field *f, void *m, pbj_value v) PBJ__PROTO
#if PBJ__BODIES
{
    if (pbj_field_is_repeated(f)) return PBJ_ERR_KIND;
    uint8_t *p = (uint8_t *)m + f->offset;
    switch (pbj_value_of(f)) {
    case PBJ_VALUE_BOOL: memcpy(p, &v.b, sizeof v.b); break;
    case PBJ_VALUE_I64: case PBJ_VALUE_U64: case PBJ_VALUE_F64: memcpy(p, &v.u64, 8); break;
    case PBJ_VALUE_STR:
        if ((f->flags & PBJ_F_UTF8) && !pbj_utf8_valid(v.str.data, v.str.len)) return PBJ_ERR_UTF8;
        memcpy(p, &v.str, sizeof v.str);
        break;
    case PBJ_VALUE_MSG:
        if (f->mode != PBJ_MODE_BY_VALUE) memcpy(p, &v.msg, sizeof v.msg);
        else if (v.msg) memcpy(p, v.msg, f->size);
        break;
    default: memcpy(p, &v.u32, 4); break;
    }
    pbj__mark_set(t, f, m, pbj_value_of(f) != PBJ_VALUE_MSG || v.msg);
    return PBJ_OK;
}
#endif

/* Singular message field f of m, made in arena (as its M_init makes it) when not set, and marked set; NULL
 * for a field of another type or a repeated one, or when arena is out of memory. */
PBJ_OUTLINE void *pbj_field_mutable(const pbj_table *t, const pbj_field *f, void *m, pbj_arena *arena) PBJ__PROTO
#if PBJ__BODIES
{
    if (pbj_field_is_repeated(f) || pbj_value_of(f) != PBJ_VALUE_MSG) return NULL;
    uint8_t *p = (uint8_t *)m + f->offset;
    void *sub = NULL;
    if (f->mode == PBJ_MODE_BY_VALUE) {   /* held in m */
        if (!pbj_field_has(t, f, m)) pbj__table_init(f->sub, p);
        pbj__mark_set(t, f, m, true);
        return p;
    }
    if (pbj_field_has(t, f, m)) memcpy(&sub, p, sizeof sub);
    if (sub) return sub;
    if (!(sub = pbj_arena_alloc(arena, f->sub->size))) return NULL;
    memset(sub, 0, f->sub->size);
    if (f->sub->init) f->sub->init(sub);
    memcpy(p, &sub, sizeof sub);
    pbj__mark_set(t, f, m, true);
    return sub;
}
#endif

/* Field f of m cleared: not set, its value its default (M_clear_f's); a repeated field or map emptied. A
 * proto2 default is read from a message made by M_init in memory from PBJ_MALLOC: PBJ_ERR_NOMEM without it. */
PBJ_OUTLINE pbj_status pbj_field_clear(const pbj_table *t, const pbj_field *f, void *m) PBJ__PROTO
#if PBJ__BODIES
{
    if (f->mode == PBJ_MODE_ONEOF && pbj__oneof_case(t, f, m) != f->number) return PBJ_OK;
    uint8_t *p = (uint8_t *)m + f->offset;
    pbj__mark_set(t, f, m, false);
    memset(p, 0, f->size);
    if (!t->init || f->mode != PBJ_MODE_OPTIONAL) return PBJ_OK;
    void *fresh = PBJ_MALLOC(t->size);
    if (!fresh) return PBJ_ERR_NOMEM;
    memset(fresh, 0, t->size);
    t->init(fresh);
    memcpy(p, (const uint8_t *)fresh + f->offset, f->size);
    PBJ_FREE(fresh);
    return PBJ_OK;
}

#endif

#ifdef __cplusplus
}
#endif

#endif
