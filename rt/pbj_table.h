/* pbj_table.h: the field tables pbjc emits for every message, and the one runtime walking them for the cold operations. */
#ifndef PBJ_TABLE_H
#define PBJ_TABLE_H

#include "pbj_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every message M has `extern const pbj_table M__table;`: data, not code, readable in its .pb.c, one line a
 * field. The cold operations (M_equal, M_missing, ...) walk it; the hot ones (size, encode, decode) stay
 * generated straight-line code. What a table says, and how it finds each member of M's struct:
 *
 * - a field's member by its offset in the struct and its size (sizeof the member: one value, a pointer, an
 *   array's {data, count}; a wrapper's value through its unknown-fields slice, so that slice ends at
 *   offset + size);
 * - its presence by its mode: PBJ_MODE_IMPLICIT (proto3: present when not zero; a message: when not NULL),
 *   PBJ_MODE_OPTIONAL and PBJ_MODE_WRAPPER (a `bool has_f` member at offset `presence`), PBJ_MODE_ONEOF (its
 *   oneof's case, oneofs[presence], equals the field's number), PBJ_MODE_ALWAYS (a map entry's key or value),
 *   PBJ_MODE_REPEATED and PBJ_MODE_MAP (an array {T *data; size_t count;} of values, of messages, of the
 *   map's *Entry structs);
 * - its type by descriptor.proto's numbering (PBJ_TYPE_*), a message's (a group's, a map's entry's) by `sub`;
 * - its names in the file's string pool (`pool`, NUL-separated): the text format's (a group's: its type
 *   name) at `name`, JSON's at `json_name`; a required field's full name ("pkg.Msg.field", M_missing's
 *   answer) is the pool string just before its name; a group's (PBJ_TYPE_GROUP's) .proto name (JSON's with
 *   proto_names) is the pool string just after its JSON name, which then has a string of its own.
 *
 * Extensions (the pbj_ext records) and message sets are described only as the offset of pbj_ext for now.
 *
 * Every enum E has `extern const pbj_enum E__enum;`: its values by number and by name, their names in its file's
 * pool. E_name and E_from_name are lookups in it (pbj_enum_name, pbj_enum_value_named); an enum field's row
 * points to its type's (`en`). */

/* Types, as descriptor.proto numbers them. */
#define PBJ_TYPES(X) X(DOUBLE, 1) X(FLOAT, 2) X(INT64, 3) X(UINT64, 4) X(INT32, 5) X(FIXED64, 6) X(FIXED32, 7)   \
    X(BOOL, 8) X(STRING, 9) X(GROUP, 10) X(MESSAGE, 11) X(BYTES, 12) X(UINT32, 13) X(ENUM, 14) X(SFIXED32, 15)  \
    X(SFIXED64, 16) X(SINT32, 17) X(SINT64, 18)
#define PBJ__TYPE_ITEM(N, v) PBJ_TYPE_##N = v,
enum { PBJ_TYPES(PBJ__TYPE_ITEM) };
#undef PBJ__TYPE_ITEM

/* How a field is held and when it is present (above). */
enum { PBJ_MODE_IMPLICIT, PBJ_MODE_OPTIONAL, PBJ_MODE_ALWAYS, PBJ_MODE_ONEOF, PBJ_MODE_REPEATED, PBJ_MODE_MAP,
       PBJ_MODE_WRAPPER };

/* A field's flags. */
enum {
    PBJ_F_PACKED = 1,         /* repeated, written packed */
    PBJ_F_UTF8 = 2,           /* a string whose UTF-8 decode checks */
    PBJ_F_CLOSED_ENUM = 4,    /* an enum (or a map's enum value) whose unknown numbers go to the unknown fields */
    PBJ_F_REQUIRED = 8,       /* proto2 required */
    PBJ_F_SUB_MAY_MISS = 16,  /* a message, group or map whose type reaches a required field */
    PBJ_F_PROTO3_OPTIONAL = 32   /* proto3 `optional`: JSON's emit_defaults leaves it out when not set */
};

/* A message's flags. */
enum { PBJ_T_MAP_ENTRY = 1, PBJ_T_MSGSET = 2 };

/* X(kind, full name): the well-known types with a JSON form of their own (a table's `wkt`: PBJ_WKT_kind). */
#define PBJ_WKTS(X)                                                                                  \
    X(ANY, "google.protobuf.Any") X(TIMESTAMP, "google.protobuf.Timestamp")                          \
    X(DURATION, "google.protobuf.Duration") X(FIELD_MASK, "google.protobuf.FieldMask")               \
    X(STRUCT, "google.protobuf.Struct") X(VALUE, "google.protobuf.Value")                            \
    X(LIST_VALUE, "google.protobuf.ListValue") X(EMPTY, "google.protobuf.Empty")                     \
    X(DOUBLE_VALUE, "google.protobuf.DoubleValue") X(FLOAT_VALUE, "google.protobuf.FloatValue")      \
    X(INT64_VALUE, "google.protobuf.Int64Value") X(UINT64_VALUE, "google.protobuf.UInt64Value")      \
    X(INT32_VALUE, "google.protobuf.Int32Value") X(UINT32_VALUE, "google.protobuf.UInt32Value")      \
    X(BOOL_VALUE, "google.protobuf.BoolValue") X(STRING_VALUE, "google.protobuf.StringValue")        \
    X(BYTES_VALUE, "google.protobuf.BytesValue")

typedef enum pbj_wkt {
    PBJ_WKT_NONE,
#define PBJ__WKT_ENUM(kind, name) PBJ_WKT_##kind,
    PBJ_WKTS(PBJ__WKT_ENUM)
#undef PBJ__WKT_ENUM
} pbj_wkt;

#define PBJ_TABLE_NONE UINT32_MAX   /* no such member (pbj_unknown, pbj_ext) */

typedef struct pbj_table pbj_table;
struct pbj_json;   /* JSON output's state (pbj_json.h) */

/* One value of an enum: its number and its name (in the pool). */
typedef struct pbj_enum_value {
    int32_t number;
    uint32_t name;
} pbj_enum_value;

/* An enum's flags. */
enum { PBJ_E_CLOSED = 1, PBJ_E_NULL_VALUE = 2 };   /* unknown numbers are not its values (proto2); NullValue */

/* An enum: its values sorted by number (a number's aliases after its first-declared name, the one E_name
 * gives), and the same values in the byte order of their names. */
typedef struct pbj_enum {
    const char *pool;             /* its file's string pool */
    const pbj_enum_value *values; /* by number */
    const uint32_t *by_name;      /* indexes into values, by name */
    uint32_t name;                /* the full name, in the pool */
    uint32_t count;               /* values */
    uint32_t dense;               /* values[i].number == values[0].number + i for every i < dense */
    uint32_t flags;               /* PBJ_E_* */
} pbj_enum;

/* One field of a message: one line of its table. */
typedef struct pbj_field {
    uint32_t number;
    uint8_t type;             /* PBJ_TYPE_* */
    uint8_t mode;             /* PBJ_MODE_* */
    uint16_t flags;           /* PBJ_F_* */
    uint32_t offset, size;    /* the member */
    uint32_t presence;        /* OPTIONAL, WRAPPER: the has member's offset; ONEOF: its oneof's index */
    uint32_t name, json_name; /* in the pool */
    const pbj_table *sub;     /* MESSAGE, GROUP, MAP: the type's table (a map's: its entry's) */
    const pbj_enum *en;       /* ENUM: the type's values */
} pbj_field;

/* One oneof: its case member (the number of the field set, 0 for none) and its union. */
typedef struct pbj_oneof {
    uint32_t case_offset, case_size;
    uint32_t offset, size;
    uint32_t name;
} pbj_oneof;

struct pbj_table {
    const char *pool;         /* the file's string pool */
    const pbj_field *fields;  /* by number */
    const pbj_oneof *oneofs;  /* declaration order */
    void (*init)(void *m);    /* M_init, when it sets defaults; NULL: M_init zeroes the struct */
    uint32_t name;            /* the full name, in the pool */
    uint32_t size;            /* sizeof the struct */
    uint32_t count;           /* fields */
    uint32_t dense;           /* fields[i].number == i + 1 for every i < dense: the number-to-field index */
    uint32_t oneof_count;
    uint32_t unknown, ext;    /* the offsets of pbj_unknown and pbj_ext, or PBJ_TABLE_NONE */
    uint32_t flags;           /* PBJ_T_* */
    uint32_t wkt;             /* PBJ_WKT_*: the well-known type it is (JSON writes its own form), or PBJ_WKT_NONE */
    /* pbj.json: writes the extensions of m numbered lo..hi (rt/pbj_json.h), or NULL (none printed by name) */
    void (*json_ext)(const void *m, struct pbj_json *j, uint32_t lo, uint32_t hi);
};

/* The generated tables' spelling: a member's offset; its offset and size; a wrapper's (its value m through its
 * unknown fields' slice u). */
#define PBJ_OFFSET(T, m) (uint32_t)offsetof(T, m)
#define PBJ_MEMBER(T, m) (uint32_t)offsetof(T, m), (uint32_t)sizeof(((T *)0)->m)
#ifndef PBJ_JSON_H
#define PBJ_JSON_EXT(fn) NULL   /* a table's json_ext without pbj_json.h (which names fn) */
#endif
#define PBJ_WRAPPER_MEMBER(T, m, u) (uint32_t)offsetof(T, m), (uint32_t)(offsetof(T, u) + sizeof(pbj_slice) - offsetof(T, m))

/* ---- reading members ---------------------------------------------------------------------------- */

PBJ_INLINE const uint8_t *pbj__at(const void *m, uint32_t offset) { return (const uint8_t *)m + offset; }

PBJ_INLINE const void *pbj__ptr_at(const void *m, uint32_t offset)
{
    const void *p;
    memcpy(&p, pbj__at(m, offset), sizeof p);
    return p;
}

/* The number of the field a oneof's case holds (its enum read at the size it has). */
PBJ_INLINE uint32_t pbj__oneof_case(const pbj_table *t, const pbj_field *f, const void *m)
{
    const pbj_oneof *o = &t->oneofs[f->presence];
    const uint8_t *p = pbj__at(m, o->case_offset);
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    switch (o->case_size) {
    case 1: return (memcpy(&v8, p, 1), v8);
    case 2: return (memcpy(&v16, p, 2), v16);
    default: return (memcpy(&v32, p, 4), v32);
    }
}

/* An array member {T *data; size_t count;}. */
PBJ_INLINE size_t pbj__count_at(const void *m, uint32_t offset)
{
    size_t n;
    memcpy(&n, pbj__at(m, offset) + sizeof(void *), sizeof n);
    return n;
}

/* The field numbered n, or NULL. */
PBJ_INLINE const pbj_field *pbj_table_find(const pbj_table *t, uint32_t n)
{
    if (n - 1 < t->dense) return &t->fields[n - 1];
    size_t lo = t->dense, hi = t->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->fields[mid].number == n) return &t->fields[mid];
        if (t->fields[mid].number < n) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* The text format's name of field n of t, or "" when t has none (a oneof's reader names the member set). */
PBJ_INLINE const char *pbj_table_name_of(const pbj_table *t, uint32_t n)
{
    const pbj_field *f = pbj_table_find(t, n);
    return f ? t->pool + f->name : "";
}

/* ---- enums ------------------------------------------------------------------------------------------ */

/* The value of e numbered v (its first-declared name), or NULL. */
PBJ_INLINE const pbj_enum_value *pbj_enum_find(const pbj_enum *e, int32_t v)
{
    if (!e->count) return NULL;
    int64_t k = (int64_t)v - e->values[0].number;
    if (k >= 0 && k < (int64_t)e->dense) return &e->values[k];
    size_t lo = e->dense, hi = e->count;   /* past the dense run: the first value numbered v or more */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e->values[mid].number < v) lo = mid + 1;
        else hi = mid;
    }
    return lo < e->count && e->values[lo].number == v ? &e->values[lo] : NULL;
}

/* The name of e's value v (E_name), or NULL when it has none. */
PBJ_INLINE const char *pbj_enum_name(const pbj_enum *e, int32_t v)
{
    const pbj_enum_value *x = pbj_enum_find(e, v);
    return x ? e->pool + x->name : NULL;
}

/* The NUL-terminated z against s[0..n) in byte order (z a prefix of s: before it). */
PBJ_INLINE int pbj__name_cmp(const char *z, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!z[i]) return -1;
        if (z[i] != s[i]) return (unsigned char)z[i] < (unsigned char)s[i] ? -1 : 1;
    }
    return z[n] ? 1 : 0;
}

/* The number of e's value named s[0..n) into *v (E_from_name); false when none has that name. */
PBJ_INLINE bool pbj_enum_value_named(const pbj_enum *e, const char *s, size_t n, int32_t *v)
{
    size_t lo = 0, hi = e->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const pbj_enum_value *x = &e->values[e->by_name[mid]];
        int c = pbj__name_cmp(e->pool + x->name, s, n);
        if (c == 0) return (*v = x->number, true);
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

/* ---- equality (M_equal) --------------------------------------------------------------------------- */

#if PBJ__BODIES   /* the walk is recursive through message values: what it calls, defined below */
PBJ_INLINE bool pbj__field_equal(const pbj_table *t, const pbj_field *f, const void *a, const void *b, uint32_t depth);
PBJ_INLINE bool pbj__slice_at_eq(const void *a, const void *b, uint32_t offset);
#endif

/* a and b of t's type equal: false nested deeper than depth (a cycle). */
PBJ_OUTLINE bool pbj__table_equal(const pbj_table *t, const void *a, const void *b, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    if (a == b) return true;
    if (depth-- == 0) return false;
    for (uint32_t k = 0; k < t->oneof_count; k++) {
        const pbj_oneof *o = &t->oneofs[k];
        if (memcmp(pbj__at(a, o->case_offset), pbj__at(b, o->case_offset), o->case_size) != 0) return false;
    }
    if (t->ext != PBJ_TABLE_NONE && !pbj__slice_at_eq(a, b, t->ext)) return false;
    for (uint32_t i = 0; i < t->count; i++)
        if (!pbj__field_equal(t, &t->fields[i], a, b, depth)) return false;
    return t->unknown == PBJ_TABLE_NONE || pbj__slice_at_eq(a, b, t->unknown);
}
#endif

#if PBJ__BODIES

/* One value of type f->type at a and at b (a message's: a pointer to it unless in_array). */
PBJ_INLINE bool pbj__value_equal(const pbj_field *f, const uint8_t *a, const uint8_t *b, bool in_array, uint32_t depth)
{
    switch (f->type) {
    case PBJ_TYPE_STRING: case PBJ_TYPE_BYTES: {
        pbj_slice x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        return pbj_slice_eq(x, y);
    }
    case PBJ_TYPE_MESSAGE: case PBJ_TYPE_GROUP: {
        if (in_array) return pbj__table_equal(f->sub, a, b, depth);
        const void *x = pbj__ptr_at(a, 0), *y = pbj__ptr_at(b, 0);
        return x ? y && pbj__table_equal(f->sub, x, y, depth) : !y;
    }
    case PBJ_TYPE_BOOL:
        return *(const bool *)a == *(const bool *)b;
    case PBJ_TYPE_DOUBLE: case PBJ_TYPE_INT64: case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: case PBJ_TYPE_SFIXED64:
    case PBJ_TYPE_SINT64:
        return memcmp(a, b, 8) == 0;   /* doubles by their bits, as the generated code compares them */
    default:
        return memcmp(a, b, 4) == 0;
    }
}

/* The bytes of one element of f's array. */
PBJ_INLINE size_t pbj__elem_size(const pbj_field *f)
{
    switch (f->type) {
    case PBJ_TYPE_STRING: case PBJ_TYPE_BYTES: return sizeof(pbj_slice);
    case PBJ_TYPE_MESSAGE: case PBJ_TYPE_GROUP: return f->sub->size;
    case PBJ_TYPE_BOOL: return sizeof(bool);
    case PBJ_TYPE_DOUBLE: case PBJ_TYPE_INT64: case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: case PBJ_TYPE_SFIXED64:
    case PBJ_TYPE_SINT64: return 8;
    default: return 4;
    }
}

PBJ_INLINE bool pbj__slice_at_eq(const void *a, const void *b, uint32_t offset)
{
    pbj_slice x, y;
    memcpy(&x, pbj__at(a, offset), sizeof x);
    memcpy(&y, pbj__at(b, offset), sizeof y);
    return pbj_slice_eq(x, y);
}

PBJ_INLINE bool pbj__field_equal(const pbj_table *t, const pbj_field *f, const void *a, const void *b, uint32_t depth)
{
    const uint8_t *x = pbj__at(a, f->offset), *y = pbj__at(b, f->offset);
    switch (f->mode) {
    case PBJ_MODE_OPTIONAL:
        if (*pbj__at(a, f->presence) != *pbj__at(b, f->presence)) return false;
        return !*pbj__at(a, f->presence) || pbj__value_equal(f, x, y, false, depth);
    case PBJ_MODE_WRAPPER:
        if (*pbj__at(a, f->presence) != *pbj__at(b, f->presence)) return false;
        return !*pbj__at(a, f->presence) || (pbj__value_equal(f, x, y, false, depth) &&
                                              pbj__slice_at_eq(a, b, f->offset + f->size - (uint32_t)sizeof(pbj_slice)));
    case PBJ_MODE_ONEOF:   /* the cases are equal (checked first): only the member set counts */
        return pbj__oneof_case(t, f, a) != f->number || pbj__value_equal(f, x, y, false, depth);
    case PBJ_MODE_REPEATED: case PBJ_MODE_MAP: {
        size_t n = pbj__count_at(a, f->offset), size = pbj__elem_size(f);
        if (n != pbj__count_at(b, f->offset)) return false;
        const uint8_t *da = (const uint8_t *)pbj__ptr_at(a, f->offset), *db = (const uint8_t *)pbj__ptr_at(b, f->offset);
        for (size_t i = 0; i < n; i++)
            if (!pbj__value_equal(f, da + i * size, db + i * size, true, depth)) return false;
        return true;
    }
    default:
        return pbj__value_equal(f, x, y, false, depth);
    }
}

#endif

/* a and b, two messages of t's type, equal (M_equal): nested deeper than PBJ_MAX_ENCODE_DEPTH, unequal. */
PBJ_INLINE bool pbj_table_equal(const pbj_table *t, const void *a, const void *b)
{
    return pbj__table_equal(t, a, b, PBJ_MAX_ENCODE_DEPTH);
}

#ifdef __cplusplus
}
#endif

#endif
