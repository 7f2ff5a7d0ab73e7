/* pbj_table.h: the field tables pbjc emits for every message, and the one runtime walking them for the cold operations. */
#ifndef PBJ_TABLE_H
#define PBJ_TABLE_H

#include "pbj_core.h"
#include "pbj_build.h"
#include "pbj_stream.h"   /* pbj_sink, pbj_source: the bodies of M_write_delimited and M_read_delimited */

#ifdef __cplusplus
extern "C" {
#endif

/* Every message M has `extern const pbj_table M__table;`: data, not code, readable in its .pb.c, one line a
 * field. The cold operations (M_equal, M_merge, M_copy, M_sort_maps, M_missing, M_compare) walk it; the hot
 * ones (size, encode, decode) stay generated straight-line code, but in the size tier (pbj_table_wire.h). What
 * a table says, and how it finds each member of M's struct:
 *
 * - a field's member by its offset in the struct and its size (sizeof the member: one value, a pointer, an
 *   array's {data, count}; a wrapper's value through its unknown-fields slice, so that slice ends at
 *   offset + size);
 * - its presence by its mode: PBJ_MODE_IMPLICIT (proto3: present when not zero; a message: when not NULL),
 *   PBJ_MODE_OPTIONAL, PBJ_MODE_WRAPPER and PBJ_MODE_BY_VALUE (a `bool has_f` member at offset `presence`; BY_VALUE: a
 *   message held in the struct, not through a pointer, pbj.by_value's layout), PBJ_MODE_ONEOF (its
 *   oneof's case, oneofs[presence], equals the field's number), PBJ_MODE_ALWAYS (a map entry's key or value),
 *   PBJ_MODE_REPEATED and PBJ_MODE_MAP (an array {T *data; size_t count;} of values, of messages, of the
 *   map's *Entry structs);
 * - its type by descriptor.proto's numbering (PBJ_TYPE_*), a message's (a group's, a map's entry's) by `sub`;
 * - its names in the file's string pool (`pool`, NUL-separated): the text format's (a group's: its type
 *   name) at `name`, JSON's at `json_name`; a required field's full name ("pkg.Msg.field", M_missing's
 *   answer) is the pool string just before its name; a group's (PBJ_TYPE_GROUP's) .proto name (JSON's with
 *   proto_names) is the pool string just after its JSON name, which then has a string of its own.
 *
 * Extensions are M's pbj_ext records (raw, by number: merge and copy append b's, those of the numbers in
 * ext_singular, singular numbers, strings and bytes, replacing m's) at offset `ext`; a message set is flagged
 * PBJ_T_MSGSET. pbj.comparable's keys (M_compare) are the list `compare`.
 *
 * The walks: pbj_table_equal (M_equal), pbj_table_merge (M_merge), pbj_table_copy (M_copy), pbj_table_sort_maps
 * (M_sort_maps), pbj_table_missing (M_missing) and pbj_table_compare (M_compare). Map entries are sorted by
 * their key, the first member of the entry's struct, in the order of pbj__key_cmp_<C type of the key>.
 *
 * Extensions: a message with extension ranges keeps its extensions' records in pbj_ext (at `ext`, raw wire records
 * in number order, pbj_core.h); its table lists the ranges (`ext_ranges`: {start, end} pairs, end inclusive,
 * ascending) and the extensions of it the run knew whose types are in scope (`exts`, by number): one pbj_field row
 * each, as a field's but with no member (offset, size and presence 0), mode PBJ_MODE_OPTIONAL or
 * PBJ_MODE_REPEATED, flags PBJ_F_PACKED (written packed), PBJ_F_CLOSED_ENUM, PBJ_F_UTF8 and PBJ_F_ITEM (a message
 * set's item: its records are items, group 1 { type_id = 2; message = 3 }, numbered by type_id), `sub` and `en`
 * as a field's; `name` is the text format's "[pkg.ext]" (an item declared in its own type: "[pkg.Item]", as protoc
 * names it), `json_name` JSON's "[pkg.ext]", both in the pool of the table that lists it. A message set
 * (PBJ_T_MSGSET) has no fields: its items are its extensions. Extensions of a message that only another run knows
 * stay unknown records and print as such. A message-typed extension declared in another file than M, whose type
 * M's .pb.c cannot name, has a row flagged PBJ_F_UNTYPED, `sub` NULL: the size tier's decode keeps its records in
 * pbj_ext (as generated decode does) and every other reader passes it by (pbj_table_ext), so that they print as
 * unknown records, as they did before it had a row.
 *
 * Views: when M has views (pbj.views), `view` says where its M_view keeps each field's slot, each oneof's case and
 * its extension ranges' records, and makes a view of M on the stack (visit): M_view_print walks the table over it
 * (pbj_table_view_print, rt/pbj_text.h).
 *
 * Generated code: `codec` leads to M's generated functions (decode's body, size, encode_partial) through `void *`
 * thunks, for what a cold operation must encode or decode: an Any's value, a message extension's record.
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
       PBJ_MODE_WRAPPER, PBJ_MODE_BY_VALUE };

/* A field's flags. */
enum {
    PBJ_F_PACKED = 1,         /* repeated, written packed */
    PBJ_F_UTF8 = 2,           /* a string whose UTF-8 decode checks */
    PBJ_F_CLOSED_ENUM = 4,    /* an enum (or a map's enum value) whose unknown numbers go to the unknown fields */
    PBJ_F_REQUIRED = 8,       /* proto2 required */
    PBJ_F_SUB_MAY_MISS = 16,  /* a message, group or map whose type reaches a required field */
    PBJ_F_ITEM = 32,          /* an extension that is a message set's item */
    PBJ_F_PROTO3_OPTIONAL = 64,  /* proto3 `optional`: JSON's emit_defaults leaves it out when not set */
    PBJ_F_UNTYPED = 128          /* an extension whose type the table cannot name (sub NULL): only wire decode reads it */
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

/* M's generated functions, for the cold operations that must encode or decode (thunks over void *); its maps
 * are sorted and its required fields checked by the table walks (pbj_table_sort_maps, pbj_table_missing). */
typedef struct pbj_codec {
    pbj_status (*decode)(void *m, const uint8_t *p, const uint8_t *end, pbj_decoder *d);   /* M__decode: m's fields */
    size_t (*size)(const void *m);                                                        /* M_size */
    pbj_status (*encode)(const void *m, uint8_t *buf, size_t cap, size_t *len);           /* M_encode_partial */
    /* pbj.fast_write: M__write_reverse_body, m back to front from end down to lim at least, depth levels below it
     * (a type that cannot nest ignores it); NULL: it does not fit, or nests too deep. NULL without fast_write. */
    uint8_t *(*rencode)(const void *m, uint8_t *end, uintptr_t lim, uint32_t depth);
} pbj_codec;

/* The codec of message M, in its .pb.c: PBJ_CODEC(M, M__decode, M_size, M_encode_partial) defines the thunks and
 * `static const pbj_codec M__codec`; PBJ_CODEC_REVERSE(M, ..., M__write_reverse_body, depth_) with fast_write
 * (depth_: DEPTH where the body takes a depth, else NO_DEPTH). */
#define PBJ_CODEC(M, decode_, size_, encode_) PBJ__CODEC(M, decode_, size_, encode_, NULL)
#define PBJ_CODEC_REVERSE(M, decode_, size_, encode_, rbody_, depth_)                                                 \
    static uint8_t *M##__c_rencode(const void *m, uint8_t *e, uintptr_t l, uint32_t d)                               \
    {                                                                                                                \
        (void)d;                                                                                                     \
        return rbody_((const M *)m, e, l PBJ__CODEC_##depth_);                                                       \
    }                                                                                                                \
    PBJ__CODEC(M, decode_, size_, encode_, M##__c_rencode)
#define PBJ__CODEC_DEPTH , d
#define PBJ__CODEC_NO_DEPTH
#define PBJ__CODEC(M, decode_, size_, encode_, rencode_)                                                              \
    static pbj_status M##__c_decode(void *m, const uint8_t *p, const uint8_t *e, pbj_decoder *d) { return decode_((M *)m, p, e, d); } \
    static size_t M##__c_size(const void *m) { return size_((const M *)m); }                                           \
    static pbj_status M##__c_encode(const void *m, uint8_t *b, size_t c, size_t *n) { return encode_((const M *)m, b, c, n); } \
    static const pbj_codec M##__codec = {M##__c_decode, M##__c_size, M##__c_encode, rencode_}

/* Where M's view (pbj.views, rt/pbj_view.h) keeps what its scan noted, and how one is made, for the walks over a
 * view (M_view_print): visit scans buf as a view of M at depth (in an input ending at limit) into an M_view of its
 * own and, when the scan succeeds, calls fn with it; it returns the scan's status. */
typedef struct pbj_view_layout {
    pbj_status (*visit)(const uint8_t *buf, size_t len, const uint8_t *limit, uint32_t depth,
                        void (*fn)(const void *view, void *ctx), void *ctx);
    uint32_t cases, slots;    /* the offsets of M_view's cases[] and slot[] (a field's slot: table order, oneofs last) */
    uint32_t ext;             /* of its extension ranges' slot, or PBJ_TABLE_NONE */
    const uint32_t *ext_raw;  /* the extensions decode keeps whose types are out of scope (printed as unknown
                               * fields): their tags (number << 3 | wire type) by number, 0-terminated; NULL: none */
} pbj_view_layout;

/* The view layout of message M, in its .pb.c: PBJ_VIEW_LAYOUT(M_view, M__view_scan, ext, ext_raw) defines the
 * visit thunk M_view__visit and `static const pbj_view_layout M_view__layout`. */
#define PBJ_VIEW_LAYOUT(V, scan_, ext_, raw_)                                                                        \
    static pbj_status V##__visit(const uint8_t *b, size_t n, const uint8_t *l, uint32_t d, void (*fn)(const void *, void *), \
                                 void *ctx)                                                                         \
    {                                                                                                               \
        V v;                                                                                                        \
        pbj_status st = scan_(&v, b, n, l, d);                                                                      \
        if (st == PBJ_OK) fn(&v, ctx);                                                                              \
        return st;                                                                                                  \
    }                                                                                                               \
    static const pbj_view_layout V##__layout = {V##__visit, PBJ_OFFSET(V, cases), PBJ_OFFSET(V, slot), ext_, raw_}

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
    uint32_t presence;        /* OPTIONAL, WRAPPER, BY_VALUE: the has member's offset; ONEOF: its oneof's index */
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
    const uint32_t *ext_singular;   /* the numbers of the extensions of M that are singular numbers, strings or
                                     * bytes (merge: b's record replaces m's), 0-terminated; NULL: none */
    const uint32_t *compare;  /* pbj.comparable's keys in order, 0-terminated: a field's number, or
                               * PBJ_COMPARE_ONEOF | a oneof's index; NULL: M has no M_compare */
    const pbj_codec *codec;   /* M's generated functions */
    const pbj_field *exts;    /* the extensions of M the run knew, by number (above) */
    uint32_t ext_count;
    uint32_t ext_range_count; /* pairs at ext_ranges */
    const uint32_t *ext_ranges;
    uint32_t wkt;             /* PBJ_WKT_*: the well-known type it is (JSON writes its own form), or PBJ_WKT_NONE */
    const pbj_view_layout *view;   /* M's view, when M has one (pbj.views); else NULL */
};

#define PBJ_COMPARE_ONEOF 0x80000000u   /* in pbj_table's compare: a oneof's index, not a field's number */

/* The generated tables' spelling: a member's offset; its offset and size; a wrapper's (its value m through its
 * unknown fields' slice u). */
#define PBJ_OFFSET(T, m) (uint32_t)offsetof(T, m)
#define PBJ_MEMBER(T, m) (uint32_t)offsetof(T, m), (uint32_t)sizeof(((T *)0)->m)
#define PBJ_WRAPPER_MEMBER(T, m, u) (uint32_t)offsetof(T, m), (uint32_t)(offsetof(T, u) + sizeof(pbj_slice) - offsetof(T, m))

/* The shapes this copy of the runtime walks in size, encode, decode (pbj_table_wire.h) and sort_maps: a size-tier
 * file's generated source, which knows every table its walks reach (through their fields), defines PBJ_TW_SHAPES
 * to those before it includes the runtime, so that a microcontroller's program links no handler of a shape it does
 * not use. One copy for a program or a run (PBJ_SINGLE_DEFINITION, PBJ__RUN_SHARED) walks every shape. */
#define PBJ_TW_EXT 1        /* extensions and message sets */
#define PBJ_TW_MAP 2
#define PBJ_TW_WRAPPER 4    /* google.protobuf wrappers held as their value */
#define PBJ_TW_CLOSED 8     /* closed enums */
#define PBJ_TW_GROUP 16
#if !defined(PBJ_TW_SHAPES) || defined(PBJ_SINGLE_DEFINITION) || PBJ__SHARED
#undef PBJ_TW_SHAPES
#define PBJ_TW_SHAPES 31
#endif
#define PBJ__TW(shape) ((PBJ_TW_SHAPES & PBJ_TW_##shape) != 0)
#define PBJ__TW_GROUP(f) (PBJ__TW(GROUP) && (f)->type == PBJ_TYPE_GROUP)
#define PBJ__TW_CLOSED(f) (PBJ__TW(CLOSED) && ((f)->flags & PBJ_F_CLOSED_ENUM))

/* ---- reading members ---------------------------------------------------------------------------- */

PBJ_INLINE const uint8_t *pbj__at(const void *m, uint32_t offset) { return (const uint8_t *)m + offset; }

PBJ_INLINE const void *pbj__ptr_at(const void *m, uint32_t offset)
{
    const void *p;
    memcpy(&p, pbj__at(m, offset), sizeof p);
    return p;
}

/* Whether field f is present by a has member (at presence). */
PBJ_INLINE bool pbj__has_bit(const pbj_field *f)
{
    return f->mode == PBJ_MODE_OPTIONAL || f->mode == PBJ_MODE_WRAPPER || f->mode == PBJ_MODE_BY_VALUE;
}

/* The message a singular message field f of m holds (a oneof member's whatever the case), or NULL: through its
 * pointer, or in the struct when its has member says so (PBJ_MODE_BY_VALUE). */
PBJ_INLINE const void *pbj__sub_of(const pbj_field *f, const void *m)
{
    if (f->mode == PBJ_MODE_BY_VALUE) return *pbj__at(m, f->presence) ? pbj__at(m, f->offset) : NULL;
    return pbj__ptr_at(m, f->offset);
}

/* The number of the field a oneof's case holds (its enum read at the size it has). */
PBJ_INLINE uint32_t pbj__case_of(const pbj_oneof *o, const void *m)
{
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

PBJ_INLINE uint32_t pbj__oneof_case(const pbj_table *t, const pbj_field *f, const void *m)
{
    return pbj__case_of(&t->oneofs[f->presence], m);
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

/* The extension of t numbered n whose type the table names (not PBJ_F_UNTYPED), or NULL. */
PBJ_INLINE const pbj_field *pbj_table_ext(const pbj_table *t, uint32_t n)
{
    for (uint32_t i = 0; i < t->ext_count; i++)
        if (t->exts[i].number == n) return t->exts[i].flags & PBJ_F_UNTYPED ? NULL : &t->exts[i];
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

/* The wire type a field of this type is written with. */
PBJ_INLINE uint32_t pbj__type_wire(uint8_t type)
{
    switch (type) {
    case PBJ_TYPE_DOUBLE: case PBJ_TYPE_FIXED64: case PBJ_TYPE_SFIXED64: return PBJ_WT_I64;
    case PBJ_TYPE_FLOAT: case PBJ_TYPE_FIXED32: case PBJ_TYPE_SFIXED32: return PBJ_WT_I32;
    case PBJ_TYPE_STRING: case PBJ_TYPE_BYTES: case PBJ_TYPE_MESSAGE: return PBJ_WT_LEN;
    case PBJ_TYPE_GROUP: return PBJ_WT_SGROUP;
    default: return PBJ_WT_VARINT;
    }
}

/* The wire type of one value of extension f, | PBJ__EXT_PACKABLE | PBJ__EXT_ITEM: the records decode keeps. */
PBJ_INLINE int pbj__ext_kind(const pbj_field *f)
{
    int wt = (int)pbj__type_wire(f->type);
    if (f->mode == PBJ_MODE_REPEATED && wt != PBJ_WT_LEN && wt != PBJ_WT_SGROUP) wt |= PBJ__EXT_PACKABLE;
    return f->flags & PBJ_F_ITEM ? wt | PBJ__EXT_ITEM : wt;
}

/* ---- equality (M_equal) --------------------------------------------------------------------------- */

#if PBJ__BODIES   /* the walk is recursive through message values: what it calls, defined below */
PBJ_INLINE bool pbj__field_equal(const pbj_table *t, const pbj_field *f, const void *a, const void *b, uint32_t depth);
PBJ_INLINE bool pbj__slice_at_eq(const void *a, const void *b, uint32_t offset);
PBJ_INLINE bool pbj__unknown_at_eq(const void *a, const void *b, uint32_t offset);
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
    return t->unknown == PBJ_TABLE_NONE || pbj__unknown_at_eq(a, b, t->unknown);
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

PBJ_INLINE bool pbj__slice_at_eq(const void *a, const void *b, uint32_t offset)
{
    pbj_slice x, y;
    memcpy(&x, pbj__at(a, offset), sizeof x);
    memcpy(&y, pbj__at(b, offset), sizeof y);
    return pbj_slice_eq(x, y);
}

/* Whether the unknown fields whose record pointers are at offset in a and b hold the same bytes (NULL: none). */
PBJ_INLINE bool pbj__unknown_at_eq(const void *a, const void *b, uint32_t offset)
{
    const pbj_slice *x, *y;
    memcpy(&x, pbj__at(a, offset), sizeof x);
    memcpy(&y, pbj__at(b, offset), sizeof y);
    return pbj_slice_eq(pbj_unknown_bytes(x), pbj_unknown_bytes(y));
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
    case PBJ_MODE_BY_VALUE:
        if (*pbj__at(a, f->presence) != *pbj__at(b, f->presence)) return false;
        return !*pbj__at(a, f->presence) || pbj__value_equal(f, x, y, true, depth);
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

/* ---- building: merge, copy, sort_maps (M_merge, M_copy, M_sort_maps) --------------------------------- */

/* The order of map keys, by the key's C type: an entry's key is the first member of its struct, so these
 * compare two entries (or an entry and a bare key) for pbj_sort_unique and pbj_find, in decode, put and
 * sort_maps alike. */
#define PBJ__KEY_CMP(name, T)                                                                                 \
    PBJ_INLINE int pbj__key_cmp_##name(const void *pa, const void *pb)                                       \
    {                                                                                                         \
        T a, b;                                                                                               \
        memcpy(&a, pa, sizeof a);                                                                             \
        memcpy(&b, pb, sizeof b);                                                                             \
        return (a > b) - (a < b);                                                                             \
    }
PBJ__KEY_CMP(int32, int32_t)
PBJ__KEY_CMP(uint32, uint32_t)
PBJ__KEY_CMP(int64, int64_t)
PBJ__KEY_CMP(uint64, uint64_t)
PBJ__KEY_CMP(bool, bool)
#undef PBJ__KEY_CMP

PBJ_INLINE int pbj__key_cmp_slice(const void *pa, const void *pb)
{
    pbj_slice a, b;
    memcpy(&a, pa, sizeof a);
    memcpy(&b, pb, sizeof b);
    return pbj_slice_cmp(a, b);
}

#if PBJ__BODIES   /* the walks are recursive through message values: what they call, defined below */
PBJ_INLINE pbj_status pbj__field_merge(const pbj_table *t, const pbj_field *f, void *m, const void *b, pbj_arena *arena,
                                       uint32_t depth);
PBJ_INLINE pbj_status pbj__field_sort_maps(const pbj_table *t, const pbj_field *f, void *m, pbj_arena *arena, uint32_t depth);
PBJ_INLINE const char *pbj__field_missing(const pbj_table *t, const pbj_field *f, const void *m, uint32_t depth);
PBJ_INLINE int pbj__field_compare(const pbj_table *t, const pbj_field *f, const void *a, const void *b);
PBJ_INLINE size_t pbj__ext_singular_count(const uint32_t *numbers);
#endif

/* b merged into m, both of t's type (M_merge): PBJ_ERR_DEPTH nested deeper than depth (a cycle). */
PBJ_OUTLINE pbj_status pbj__table_merge(const pbj_table *t, void *m, const void *b, pbj_arena *arena, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_status st;
    if (depth-- == 0) return PBJ_ERR_DEPTH;   /* nested too deep, or a cycle */
    for (uint32_t i = 0; i < t->count; i++)
        if ((st = pbj__field_merge(t, &t->fields[i], m, b, arena, depth)) != PBJ_OK) return st;
    if (t->ext != PBJ_TABLE_NONE) {   /* records added; singular scalars' replace m's */
        pbj_slice from;
        memcpy(&from, pbj__at(b, t->ext), sizeof from);
        st = pbj__ext_merge(arena, (pbj_slice *)(void *)((uint8_t *)m + t->ext), from, t->ext_singular,
                            pbj__ext_singular_count(t->ext_singular));
        if (st != PBJ_OK) return st;
    }
    if (t->unknown == PBJ_TABLE_NONE) return PBJ_OK;
    const pbj_slice *from, *to;                  /* a new record in arena, m's bytes then b's: m's may be shared */
    memcpy(&from, pbj__at(b, t->unknown), sizeof from);
    memcpy(&to, pbj__at(m, t->unknown), sizeof to);
    if (!from || !from->len) return PBJ_OK;
    pbj_slice u = pbj_unknown_bytes(to);
    if ((st = pbj__append_new(arena, &u, from->data, from->len)) != PBJ_OK) return st;
    return pbj__unknown_new(arena, (pbj_slice **)(void *)((uint8_t *)m + t->unknown), u);
}
#endif

/* m's maps sorted by key, the last of equal keys kept, here and in the messages m holds (M_sort_maps). */
PBJ_OUTLINE pbj_status pbj__table_sort_maps(const pbj_table *t, void *m, pbj_arena *arena, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_status st;
    if (depth-- == 0) return PBJ_ERR_DEPTH;   /* nested too deep, or a cycle */
    for (uint32_t i = 0; i < t->count; i++)
        if ((st = pbj__field_sort_maps(t, &t->fields[i], m, arena, depth)) != PBJ_OK) return st;
    return PBJ_OK;
}
#endif

/* The full name of the first required field not set in m or a message it holds (M_missing), else NULL. */
PBJ_OUTLINE const char *pbj__table_missing(const pbj_table *t, const void *m, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    const char *r;
    if (depth-- == 0) return PBJ_MISSING_TOO_DEEP;
    for (uint32_t i = 0; i < t->count; i++) {
        const pbj_field *f = &t->fields[i];
        if (!(f->flags & PBJ_F_REQUIRED)) continue;
        bool set = pbj__has_bit(f) ? *pbj__at(m, f->presence) != 0 : pbj__ptr_at(m, f->offset) != NULL;
        if (!set) {   /* its full name is the pool's string before its name */
            const char *p = t->pool + f->name - 1;
            while (p > t->pool && p[-1]) p--;
            return p;
        }
    }
    for (uint32_t i = 0; i < t->count; i++)
        if ((t->fields[i].flags & PBJ_F_SUB_MAY_MISS) && (r = pbj__field_missing(t, &t->fields[i], m, depth))) return r;
    return NULL;
}
#endif

/* <0, 0 or >0 as a orders before, with or after b, by the keys pbj.comparable lists (M_compare). */
PBJ_OUTLINE int pbj__table_compare(const pbj_table *t, const void *a, const void *b) PBJ__PROTO
#if PBJ__BODIES
{
    int c;
    for (const uint32_t *key = t->compare; key && *key; key++) {
        if (!(*key & PBJ_COMPARE_ONEOF)) {
            if ((c = pbj__field_compare(t, pbj_table_find(t, *key), a, b)) != 0) return c;
            continue;
        }
        const pbj_oneof *o = &t->oneofs[*key & ~PBJ_COMPARE_ONEOF];
        uint32_t ca = pbj__case_of(o, a), cb = pbj__case_of(o, b);   /* by its case (none first), then the value set */
        const pbj_field *f = ca ? pbj_table_find(t, ca) : NULL;
        if (ca != cb) return ca < cb ? -1 : 1;
        if (f && (c = pbj__field_compare(t, f, a, b)) != 0) return c;
    }
    return 0;
}
#endif

/* m initialised as M_init does (outside the bodies: M_decode's, M_copy's and the readers' too). */
PBJ_INLINE void pbj__table_init(const pbj_table *t, void *m)
{
    if (t->init) t->init(m);
    else memset(m, 0, t->size);
}

#if PBJ__BODIES

PBJ_INLINE size_t pbj__ext_singular_count(const uint32_t *numbers)
{
    size_t n = 0;
    while (numbers && numbers[n]) n++;
    return n;
}

PBJ_INLINE uint8_t *pbj__at_mut(void *m, uint32_t offset) { return (uint8_t *)m + offset; }

PBJ_INLINE void pbj__ptr_set(void *m, uint32_t offset, void *p) { memcpy(pbj__at_mut(m, offset), &p, sizeof p); }

PBJ_INLINE void pbj__count_set(void *m, uint32_t offset, size_t n) { memcpy(pbj__at_mut(m, offset) + sizeof(void *), &n, sizeof n); }

PBJ_INLINE void pbj__oneof_set(const pbj_table *t, const pbj_field *f, void *m)
{
    const pbj_oneof *o = &t->oneofs[f->presence];
    uint8_t v8 = (uint8_t)f->number;
    uint16_t v16 = (uint16_t)f->number;
    switch (o->case_size) {
    case 1: memcpy(pbj__at_mut(m, o->case_offset), &v8, 1); break;
    case 2: memcpy(pbj__at_mut(m, o->case_offset), &v16, 2); break;
    default: memcpy(pbj__at_mut(m, o->case_offset), &f->number, 4); break;
    }
}

PBJ_INLINE bool pbj__is_message(const pbj_field *f) { return f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP; }

PBJ_INLINE bool pbj__is_slice(const pbj_field *f) { return f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES; }

/* A new message of t's type in arena, initialised; NULL when out of memory. */
PBJ_INLINE void *pbj__table_new(const pbj_table *t, pbj_arena *arena)
{
    void *p = pbj_arena_alloc(arena, t->size);
    if (p) pbj__table_init(t, p);
    return p;
}

/* The value at p is not zero, as proto3 writes it: a string's length, a number's bits. */
PBJ_INLINE bool pbj__value_nonzero(const pbj_field *f, const uint8_t *p)
{
    if (pbj__is_slice(f)) {
        pbj_slice s;
        memcpy(&s, p, sizeof s);
        return s.len != 0;
    }
    for (size_t i = 0, n = pbj__elem_size(f); i < n; i++)
        if (p[i]) return true;
    return false;
}

/* A number, string or bytes value copied from src to dst (strings and bytes into arena). */
PBJ_INLINE pbj_status pbj__value_copy(const pbj_field *f, uint8_t *dst, const uint8_t *src, pbj_arena *arena)
{
    if (!pbj__is_slice(f)) {
        memcpy(dst, src, pbj__elem_size(f));
        return PBJ_OK;
    }
    pbj_slice s, out;
    memcpy(&s, src, sizeof s);
    pbj_status st = pbj_copy(arena, s.data, s.len, &out);
    if (st == PBJ_OK) memcpy(dst, &out, sizeof out);
    return st;
}

/* b's message at offset merged into m's, made (initialised) first when m has none. */
PBJ_INLINE pbj_status pbj__message_merge(const pbj_field *f, void *m, const void *b, pbj_arena *arena, uint32_t depth)
{
    void *x = (void *)(uintptr_t)pbj__ptr_at(m, f->offset);
    const void *y = pbj__ptr_at(b, f->offset);
    if (!y) return PBJ_OK;
    if (!x) {
        pbj__ptr_set(m, f->offset, x = pbj__table_new(f->sub, arena));
        if (!x) return PBJ_ERR_NOMEM;
    }
    return pbj__table_merge(f->sub, x, y, arena, depth);
}

/* A oneof's message: made anew unless m's case is f already (b's case is f). */
PBJ_INLINE pbj_status pbj__oneof_message_merge(const pbj_table *t, const pbj_field *f, void *m, const void *b,
                                               pbj_arena *arena, uint32_t depth)
{
    void *x = (void *)(uintptr_t)pbj__ptr_at(m, f->offset);
    const void *y = pbj__ptr_at(b, f->offset);
    if (pbj__oneof_case(t, f, m) != f->number || !x) {
        pbj__ptr_set(m, f->offset, x = pbj__table_new(f->sub, arena));
        if (!x) return PBJ_ERR_NOMEM;
        pbj__oneof_set(t, f, m);
    }
    return y ? pbj__table_merge(f->sub, x, y, arena, depth) : PBJ_OK;
}

/* b's elements appended to m's array (strings, bytes and messages copied into arena). */
PBJ_INLINE pbj_status pbj__array_merge(const pbj_field *f, void *m, const void *b, pbj_arena *arena, uint32_t depth)
{
    size_t n = pbj__count_at(b, f->offset), count = pbj__count_at(m, f->offset), size = pbj__elem_size(f);
    const uint8_t *from = (const uint8_t *)pbj__ptr_at(b, f->offset);
    bool deep = pbj__is_slice(f) || pbj__is_message(f);
    if (!n) return PBJ_OK;
    uint8_t *data = (uint8_t *)pbj_append_array(arena, pbj__ptr_at(m, f->offset), count, deep ? NULL : from, n, size);
    if (!data) return PBJ_ERR_NOMEM;
    pbj__ptr_set(m, f->offset, data);
    if (!deep) {
        pbj__count_set(m, f->offset, count + n);
        return PBJ_OK;
    }
    for (size_t i = 0; i < n; i++) {   /* each counted once initialised, so a failure leaves no garbage */
        uint8_t *e = data + count * size;
        pbj_status st;
        if (pbj__is_message(f)) pbj__table_init(f->sub, e);
        else memset(e, 0, size);
        pbj__count_set(m, f->offset, ++count);
        st = pbj__is_message(f) ? pbj__table_merge(f->sub, e, from + i * size, arena, depth) : pbj__value_copy(f, e, from + i * size, arena);
        if (st != PBJ_OK) return st;
    }
    return PBJ_OK;
}

PBJ_INLINE pbj_cmp_fn pbj__key_cmp_of(const pbj_field *key)
{
    switch (key->type) {
    case PBJ_TYPE_STRING: return pbj__key_cmp_slice;
    case PBJ_TYPE_BOOL: return pbj__key_cmp_bool;
    case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: return pbj__key_cmp_uint32;
    case PBJ_TYPE_INT64: case PBJ_TYPE_SINT64: case PBJ_TYPE_SFIXED64: return pbj__key_cmp_int64;
    case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: return pbj__key_cmp_uint64;
    default: return pbj__key_cmp_int32;
    }
}

/* The entry of map f in m whose key is the one at key (an entry's first member), added in key order (an
 * initialised entry, its key copied into arena) when absent; NULL when out of memory. */
PBJ_INLINE uint8_t *pbj__map_entry(const pbj_field *f, void *m, const void *key, pbj_arena *arena)
{
    const pbj_table *et = f->sub;
    size_t count = pbj__count_at(m, f->offset), at;
    uint8_t *data = (uint8_t *)(uintptr_t)pbj__ptr_at(m, f->offset);
    union { pbj_slice s; uint64_t u; } probe;
    if (pbj_find(data, count, et->size, key, pbj__key_cmp_of(&et->fields[0]), &at)) return data + at * et->size;
    if (pbj__value_copy(&et->fields[0], (uint8_t *)&probe, (const uint8_t *)key, arena) != PBJ_OK) return NULL;
    if (!(data = (uint8_t *)pbj__array_add(arena, data, count, et->size))) return NULL;
    pbj__ptr_set(m, f->offset, data);
    memmove(data + (at + 1) * et->size, data + at * et->size, (count - at) * et->size);
    pbj__count_set(m, f->offset, count + 1);
    pbj__table_init(et, data + at * et->size);
    memcpy(data + at * et->size + et->fields[0].offset, &probe, pbj__elem_size(&et->fields[0]));
    return data + at * et->size;
}

/* b's entries into m's map f, each replacing the entry of its key (a message value m's entry has stays where
 * it is, emptied: the pointer mutable gave stays the key's). */
PBJ_INLINE pbj_status pbj__map_merge(const pbj_field *f, void *m, const void *b, pbj_arena *arena, uint32_t depth)
{
    const pbj_table *et = f->sub;
    const pbj_field *value = &et->fields[1];
    const uint8_t *from = (const uint8_t *)pbj__ptr_at(b, f->offset);
    for (size_t i = 0, n = pbj__count_at(b, f->offset); i < n; i++) {
        const uint8_t *y = from + i * et->size;
        uint8_t *e = pbj__map_entry(f, m, y, arena);
        pbj_status st;
        if (!e) return PBJ_ERR_NOMEM;
        void *kept = pbj__is_message(value) ? (void *)(uintptr_t)pbj__ptr_at(e, value->offset) : NULL;
        pbj__table_init(et, e);
        if (kept && pbj__ptr_at(y, value->offset)) {
            pbj__table_init(value->sub, kept);
            pbj__ptr_set(e, value->offset, kept);
        }
        if ((st = pbj__table_merge(et, e, y, arena, depth)) != PBJ_OK) return st;
    }
    return PBJ_OK;
}

/* b's field f merged into m's: set values replace, arrays append, messages merge, a oneof's other case replaces. */
PBJ_INLINE pbj_status pbj__field_merge(const pbj_table *t, const pbj_field *f, void *m, const void *b, pbj_arena *arena,
                                       uint32_t depth)
{
    uint8_t *x = pbj__at_mut(m, f->offset);
    const uint8_t *y = pbj__at(b, f->offset);
    pbj_status st;
    switch (f->mode) {
    case PBJ_MODE_REPEATED: return pbj__array_merge(f, m, b, arena, depth);
    case PBJ_MODE_MAP: return pbj__map_merge(f, m, b, arena, depth);
    case PBJ_MODE_ONEOF:
        if (pbj__oneof_case(t, f, b) != f->number) return PBJ_OK;
        if (pbj__is_message(f)) return pbj__oneof_message_merge(t, f, m, b, arena, depth);
        if ((st = pbj__value_copy(f, x, y, arena)) == PBJ_OK) pbj__oneof_set(t, f, m);
        return st;
    case PBJ_MODE_BY_VALUE:   /* into m's, initialised first when m has none */
        if (!*pbj__at(b, f->presence)) return PBJ_OK;
        if (!*pbj__at(m, f->presence)) pbj__table_init(f->sub, x);
        *(bool *)(void *)pbj__at_mut(m, f->presence) = true;
        return pbj__table_merge(f->sub, x, y, arena, depth);
    case PBJ_MODE_OPTIONAL: case PBJ_MODE_WRAPPER:   /* an empty wrapper leaves the value, as decode merges it */
        if (!*pbj__at(b, f->presence)) return PBJ_OK;
        if ((f->mode == PBJ_MODE_OPTIONAL || pbj__value_nonzero(f, y)) && (st = pbj__value_copy(f, x, y, arena)) != PBJ_OK)
            return st;
        *(bool *)(void *)pbj__at_mut(m, f->presence) = true;
        return PBJ_OK;
    default:   /* IMPLICIT, ALWAYS */
        if (pbj__is_message(f)) return pbj__message_merge(f, m, b, arena, depth);
        return f->mode == PBJ_MODE_ALWAYS || pbj__value_nonzero(f, y) ? pbj__value_copy(f, x, y, arena) : PBJ_OK;
    }
}

/* The message (or map entry) field f of m holds at offset (REPEATED, MAP: its index i), or NULL. */
PBJ_INLINE void *pbj__held(const pbj_table *t, const pbj_field *f, const void *m, size_t i)
{
    if (f->mode == PBJ_MODE_REPEATED || f->mode == PBJ_MODE_MAP)
        return (uint8_t *)(uintptr_t)pbj__ptr_at(m, f->offset) + i * f->sub->size;
    if (f->mode == PBJ_MODE_ONEOF && pbj__oneof_case(t, f, m) != f->number) return NULL;
    return (void *)(uintptr_t)pbj__sub_of(f, m);
}

/* How many messages field f of m holds (a singular one: 1, when present or not). */
PBJ_INLINE size_t pbj__held_count(const pbj_field *f, const void *m)
{
    return f->mode == PBJ_MODE_REPEATED || f->mode == PBJ_MODE_MAP ? pbj__count_at(m, f->offset) : 1;
}

PBJ_INLINE pbj_status pbj__field_sort_maps(const pbj_table *t, const pbj_field *f, void *m, pbj_arena *arena, uint32_t depth)
{
    pbj_status st;
    if (!pbj__is_message(f) && f->mode != PBJ_MODE_MAP) return PBJ_OK;
    if (f->mode == PBJ_MODE_MAP && pbj__count_at(m, f->offset) > 1) {
        size_t n = pbj_sort_unique((void *)(uintptr_t)pbj__ptr_at(m, f->offset), pbj__count_at(m, f->offset), f->sub->size,
                                   pbj__key_cmp_of(&f->sub->fields[0]), arena);
        if (n == (size_t)-1) return PBJ_ERR_NOMEM;
        pbj__count_set(m, f->offset, n);
    }
    for (size_t i = 0; i < pbj__held_count(f, m); i++) {
        void *x = pbj__held(t, f, m, i);
        if (x && (st = pbj__table_sort_maps(f->sub, x, arena, depth)) != PBJ_OK) return st;
    }
    return PBJ_OK;
}

PBJ_INLINE const char *pbj__field_missing(const pbj_table *t, const pbj_field *f, const void *m, uint32_t depth)
{
    const char *r;
    for (size_t i = 0; i < pbj__held_count(f, m); i++) {
        const void *x = pbj__held(t, f, m, i);
        if (x && (r = pbj__table_missing(f->sub, x, depth))) return r;
    }
    return NULL;
}

/* Two values of f's type: numbers by value (floats as Java's Double.compare), strings and bytes byte-wise. */
PBJ_INLINE int pbj__value_compare(const pbj_field *f, const uint8_t *a, const uint8_t *b)
{
    float fa, fb;
    double da, db;
    switch (f->type) {
    case PBJ_TYPE_FLOAT: memcpy(&fa, a, 4); memcpy(&fb, b, 4); return pbj_cmp_double(fa, fb);
    case PBJ_TYPE_DOUBLE: memcpy(&da, a, 8); memcpy(&db, b, 8); return pbj_cmp_double(da, db);
    case PBJ_TYPE_STRING: case PBJ_TYPE_BYTES: return pbj__key_cmp_slice(a, b);
    case PBJ_TYPE_BOOL: return pbj__key_cmp_bool(a, b);
    case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: return pbj__key_cmp_uint32(a, b);
    case PBJ_TYPE_INT64: case PBJ_TYPE_SINT64: case PBJ_TYPE_SFIXED64: return pbj__key_cmp_int64(a, b);
    case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: return pbj__key_cmp_uint64(a, b);
    default: return pbj__key_cmp_int32(a, b);
    }
}

/* One key of M_compare: an absent value (no has-bit, a NULL message) orders first. */
PBJ_INLINE int pbj__field_compare(const pbj_table *t, const pbj_field *f, const void *a, const void *b)
{
    (void)t;
    if (pbj__is_message(f)) {
        const void *x = pbj__sub_of(f, a), *y = pbj__sub_of(f, b);
        if (!x || !y) return x == y ? 0 : x ? 1 : -1;
        return pbj__table_compare(f->sub, x, y);
    }
    if (f->mode == PBJ_MODE_OPTIONAL || f->mode == PBJ_MODE_WRAPPER) {
        bool ha = *pbj__at(a, f->presence) != 0, hb = *pbj__at(b, f->presence) != 0;
        if (ha != hb) return ha ? 1 : -1;
        if (!ha) return 0;
    }
    return pbj__value_compare(f, pbj__at(a, f->offset), pbj__at(b, f->offset));
}

#endif

/* b merged into m, both of t's type (M_merge): what decoding m's encoding followed by b's gives. */
PBJ_MUST_USE PBJ_INLINE pbj_status pbj_table_merge(const pbj_table *t, void *m, const void *b, pbj_arena *arena)
{
    return pbj__table_merge(t, m, b, arena, PBJ_MAX_ENCODE_DEPTH);
}

/* dst a deep copy of src (M_copy). */
PBJ_MUST_USE PBJ_INLINE pbj_status pbj_table_copy(const pbj_table *t, void *dst, const void *src, pbj_arena *arena)
{
    pbj__table_init(t, dst);
    return pbj__table_merge(t, dst, src, arena, PBJ_MAX_ENCODE_DEPTH);
}

/* m's maps sorted by key (M_sort_maps). */
PBJ_MUST_USE PBJ_INLINE pbj_status pbj_table_sort_maps(const pbj_table *t, void *m, pbj_arena *arena)
{
    return PBJ__TW(MAP) ? pbj__table_sort_maps(t, m, arena, PBJ_MAX_ENCODE_DEPTH) : PBJ_OK;   /* no table of this copy has maps */
}

/* The full name of the first required field not set (M_missing), NULL when none, PBJ_MISSING_TOO_DEEP nested
 * deeper than decode accepts. */
PBJ_INLINE const char *pbj_table_missing(const pbj_table *t, const void *m)
{
    return pbj__table_missing(t, m, PBJ_MAX_DEPTH_CAP + 1);   /* all that decode accepts */
}

/* <0, 0 or >0 as a orders before, with or after b (pbj.comparable's M_compare). */
PBJ_INLINE int pbj_table_compare(const pbj_table *t, const void *a, const void *b)
{
    return pbj__table_compare(t, a, b);
}

/* M_decode needs none of pbj__decode_top's rarer work: no options, 1 to PBJ_DEFAULT_MAX_LENGTH bytes, an arena with no
 * cap (so no cap to check or put back). */
PBJ_INLINE bool pbj__decode_plain(const pbj_arena *a, const pbj_decode_options *opts, size_t len)
{
    return !opts && len - 1 < PBJ_DEFAULT_MAX_LENGTH && (!a || !a->limit);
}

/* M_decode's body (PBJ_MESSAGE_FUNCTIONS): m, of t's type, cleared, then buf read into it by M__decode (t's codec);
 * req: whether M reaches a required field. Out of line: no .pb.c compiles a copy of M__decode's body into M_decode. */
PBJ_OUTLINE_WARM pbj_status pbj__decode_top(const pbj_table *t, void *m, const uint8_t *buf, size_t len, pbj_arena *arena,
                                            const pbj_decode_options *opts, bool req) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_decoder d;
    size_t cap = pbj__decode_begin(&d, arena, opts, buf, len);
    pbj__table_init(t, m);
    pbj_status st = len ? t->codec->decode(m, buf, pbj__decode_end(&d, buf, len), &d) : PBJ_OK;
    st = pbj__decode_uncap(arena, cap, st);
    if (req && st == PBJ_OK && !(opts && opts->partial)) st = pbj_missing_status(pbj_table_missing(t, m));
    return st;
}
#endif

/* The status of a message's size n: PBJ_ERR_DEPTH where the size pass failed, PBJ_ERR_SIZE over 2 GiB, else PBJ_OK. */
PBJ_INLINE pbj_status pbj__size_status(size_t n)
{
    return n == PBJ_SIZE_ERROR ? PBJ_ERR_DEPTH : n > INT32_MAX ? PBJ_ERR_SIZE : PBJ_OK;
}

/* M_encode_append (sink NULL: m's bytes after buf's len) and M_write_delimited (one record into sink) past their
 * required check, out of line: m's size (size, M_size's thunk), then its bytes back to front (write, M__write's). */
PBJ_OUTLINE_WARM pbj_status pbj__encode_with(const void *m, size_t (*size)(const void *), uint8_t *(*write)(const void *, uint8_t *),
                                             pbj_buf *buf, pbj_sink *sink) PBJ__PROTO
#if PBJ__BODIES
{
    size_t n = size(m);
    uint8_t *body = NULL;
    pbj_status st = pbj__size_status(n);
    if (sink) {
        if (st == PBJ_OK) st = pbj_sink_open(sink, n, &body);
        if (st == PBJ_OK) write(m, body + n);   /* back to front, ending at body + n */
        return pbj_sink_close(sink, st, n);
    }
    if (st == PBJ_OK) st = pbj_buf_reserve(buf, n);
    if (st != PBJ_OK) return st;
    buf->len += n;
    write(m, buf->data + buf->len);   /* back to front, ending there */
    return PBJ_OK;
}
#endif

/* M_read_delimited (every tier): the next record of in decoded into m (pbj__decode_top, M_decode's work). */
PBJ_OUTLINE_WARM pbj_status pbj__read_delimited(const pbj_table *t, void *m, pbj_source *in, pbj_arena *arena,
                                                const pbj_decode_options *opts, bool req) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_slice record;
    pbj_status st = pbj_source_next(in, &record);
    return st != PBJ_OK ? st : pbj__decode_top(t, m, record.data, record.len, arena, opts, req);
}
#endif

/* ---- the API of each generated message M ----------------------------------------------------------------
 *
 * A generated header declares each message M's API with one line after its struct,
 * `PBJ_MESSAGE(M, required, text_read, json)`, and its .pb.c defines the functions that are not inline with
 * `PBJ_MESSAGE_FUNCTIONS(M, required)`: every name and argument type below is M's own (a wrong type is a compile
 * error, in C and C++), only spelled once here instead of in every header (man pbjc(1), GENERATED CODE).
 *
 * M_init(m) makes every field absent: zero, or its proto2 default ([default = ...], a closed enum's first value),
 * so an absent field reads as its default; M_clear(m) is M_init. M_size(m) is the encoded size (PBJ_SIZE_ERROR
 * when m nests deeper than PBJ_MAX_ENCODE_DEPTH through types on a cycle, or reaches itself); M_encode(m, buf, cap,
 * &len) writes it into buf[0..cap) (the size it needs in len, PBJ_ERR_BUFFER when cap is short, PBJ_ERR_DEPTH
 * where M_size fails). Neither changes m (nothing is cached in it): several threads may size and encode one message
 * at once, as long as none changes it. M_decode(m, buf, len, arena, opts) clears m and reads buf into it, allocating
 * from arena (opts NULL: defaults). M_equal(a, b) compares two (messages nested deeper than PBJ_MAX_ENCODE_DEPTH, a
 * cycle among them, compare unequal); M_print(m, t) writes the text format protoc --decode prints (pbj_text.h; it
 * stops at t->max_depth levels with PBJ_ERR_DEPTH).
 *
 * required (REQUIRED or NO_REQUIRED: whether M reaches a proto2 required field): M_missing(m) gives the full name
 * ("pkg.Msg.field") of the first required field not set, here or in a message it holds, else NULL
 * (PBJ_MISSING_TOO_DEEP past PBJ_MAX_DEPTH_CAP levels: a cycle); encode (and decode, unless opts->partial) fail with
 * PBJ_ERR_REQUIRED when there is one (PBJ_ERR_DEPTH for that); M_encode_partial writes the message anyway. With
 * NO_REQUIRED nothing is ever missing and M_encode_partial is M_encode.
 *
 * M_copy(dst, src, arena) makes dst a deep copy of src (strings, bytes, arrays and messages in arena; src may be
 * freed after); M_merge(m, b, arena) merges b into m as protobuf does, giving what decoding m's encoding followed
 * by b's gives: set scalars overwrite, repeated fields append, messages merge, a oneof's other case replaces, map
 * entries replace by key, unknown fields append; M_sort_maps(m, arena) sorts the entries of m's maps (and of the
 * messages m holds) by key, keeping the last of equal keys: encode writes entries in array order, so sort a map
 * filled by hand or its decoded copy is not M_equal to it. copy, merge and sort_maps stop with PBJ_ERR_DEPTH at
 * messages nested deeper than PBJ_MAX_ENCODE_DEPTH (a hand-built cycle, a chain too deep): what they did so far
 * stays, in arena. M_encode_append(m, buf) appends m's encoding to a pbj_buf; M_write_delimited(m, sink) and
 * M_read_delimited(m, source, arena, opts) write and read one length-delimited record of a stream (pbj_stream.h).
 *
 * text_read (TEXT_READ or NO_TEXT_READ: pbj.text_read): M_from_text(m, text, len, arena, o) reads the text format
 * (M_print's, protoc --encode's) into m, cleared first, strings and arrays in arena: PBJ_ERR_SYNTAX (o->error says
 * where and why), PBJ_ERR_DEPTH, PBJ_ERR_UTF8, PBJ_ERR_REQUIRED, PBJ_ERR_NOMEM; o may be NULL; &M__table lets an
 * Any hold it (pbj_text_read_options.types). json (JSON or NO_JSON: pbj.json): M_to_json(m, out, o) appends m as
 * proto3 JSON to out (pbj_json.h; o NULL: the defaults); M_from_json(m, json, len, arena, o) reads JSON into m,
 * made empty first (pbj_json_read.h; strings, bytes and arrays in arena): PBJ_ERR_SYNTAX (and o->error) on bad
 * input. M_print, M_from_text, M_to_json and M_from_json exist where their runtime header (pbj_text.h,
 * pbj_text_read.h, pbj_json.h, pbj_json_read.h) was included before M's header (pbj.h includes the text ones).
 *
 * M__write(m, end) and M__decode(m, p, end, d) serve other generated code (after M_size: m's bytes ending at end,
 * back to front, returning their first byte; m's fields read from p..end): not part of the API. */
#define PBJ_MESSAGE(M, req_, text_read_, json_)                                                                      \
    void M##_init(M *m);                                                                                             \
    size_t M##_size(const M *m);                                                                                     \
    PBJ__NOINLINE PBJ_MUST_USE pbj_status M##_encode(const M *m, uint8_t *buf, size_t cap, size_t *len);            \
    PBJ_MUST_USE pbj_status M##_decode(M *m, const uint8_t *buf, size_t len, pbj_arena *arena, const pbj_decode_options *opts); \
    PBJ__API_USER(M)                                                                                                 \
    PBJ__API_##req_(M)                                                                                               \
    static inline PBJ_MUST_USE pbj_status M##_copy(M *dst, const M *src, pbj_arena *arena) { return pbj_table_copy(&M##__table, dst, src, arena); } \
    PBJ_MUST_USE pbj_status M##_encode_append(const M *m, pbj_buf *out);                                            \
    PBJ_MUST_USE pbj_status M##_write_delimited(const M *m, pbj_sink *out);                                         \
    PBJ_MUST_USE pbj_status M##_read_delimited(M *m, pbj_source *in, pbj_arena *arena, const pbj_decode_options *opts); \
    uint8_t *M##__write(const M *m, uint8_t *end);                                                                  \
    PBJ__NOINLINE PBJ_MUST_USE pbj_status M##__decode(M *m, const uint8_t *p, const uint8_t *end, pbj_decoder *d);  \
    PBJ__API_##text_read_(M)                                                                                         \
    PBJ__API_##json_(M)

/* The wrappers only user code calls: a generated source (PBJ__GENERATED_SOURCE, which every .pb.c defines) parses
 * none of them, in its own header or in those it imports (each importer's .pb.c would parse them again). */
#ifdef PBJ__GENERATED_SOURCE
#define PBJ__API_USER(M)
#else
#define PBJ__API_USER(M)                                                                                              \
    static inline bool M##_equal(const M *a, const M *b) { return pbj_table_equal(&M##__table, a, b); }          \
    PBJ__API_PRINT(M)                                                                                                \
    static inline void M##_clear(M *m) { M##_init(m); }                                                             \
    static inline PBJ_MUST_USE pbj_status M##_merge(M *m, const M *b, pbj_arena *arena) { return pbj_table_merge(&M##__table, m, b, arena); } \
    static inline PBJ_MUST_USE pbj_status M##_sort_maps(M *m, pbj_arena *arena) { return pbj_table_sort_maps(&M##__table, m, arena); }
#endif

#define PBJ__API_NO_REQUIRED(M)                                                                                       \
    static inline const char *M##_missing(const M *m) { (void)m; return NULL; }                                     \
    static inline pbj_status M##_encode_partial(const M *m, uint8_t *buf, size_t cap, size_t *len) { return M##_encode(m, buf, cap, len); }
#define PBJ__API_REQUIRED(M)                                                                                          \
    static inline const char *M##_missing(const M *m) { return pbj_table_missing(&M##__table, m); }                 \
    PBJ__NOINLINE PBJ_MUST_USE pbj_status M##_encode_partial(const M *m, uint8_t *buf, size_t cap, size_t *len);
#define PBJ__API_NO_TEXT_READ(M)
#define PBJ__API_NO_JSON(M)
#define PBJ__API_JSON(M) PBJ__API_TO_JSON(M) PBJ__API_FROM_JSON(M)

/* The wrappers of a runtime header not (yet) included are none: the header defines them again when it is. */
#ifndef PBJ_TEXT_H
#define PBJ__API_PRINT(M)
#endif
#ifndef PBJ_TEXT_READ_H
#define PBJ__API_TEXT_READ(M)
#endif
#ifndef PBJ_JSON_H
#define PBJ__API_TO_JSON(M)
#endif
#ifndef PBJ_JSON_READ_H
#define PBJ__API_FROM_JSON(M)
#endif

/* In M's .pb.c: M_encode (M_encode_partial and the checking M_encode with REQUIRED), M_decode, M_encode_append,
 * M_write_delimited and M_read_delimited, over M_size, M__write and M__decode. */
#define PBJ_MESSAGE_FUNCTIONS(M, req_) PBJ__FN_ENCODE_##req_(M, PBJ__FN_ENCODE_BODY, ) PBJ__FN_REST(M, req_)
/* The same where M has the reverse encoder (pbj.fast_write): M_encode takes one walk where the buffer has room. */
#define PBJ_MESSAGE_FUNCTIONS_REVERSE(M, req_) PBJ__FN_ENCODE_##req_(M, PBJ__FN_ENCODE_ONE_WALK, ) PBJ__FN_REST(M, req_)
/* The same where M's wire is its table's walk (pbj.performance = "size"): each function one call into the runtime
 * (pbj_table_wire.h), which does what the bodies above do. */
#define PBJ_MESSAGE_FUNCTIONS_TABLE(M, req_)                                                                          \
    PBJ__FN_TABLE_ENCODE_##req_(M)                                                                                   \
    PBJ__FN_DECODE(M, req_)                                                                                          \
    pbj_status M##_encode_append(const M *m, pbj_buf *out)                                                          \
    {                                                                                                                \
        return pbj__table_encode_append(&M##__table, m, out, PBJ__FN_REQ_##req_);                                    \
    }                                                                                                                \
    pbj_status M##_write_delimited(const M *m, pbj_sink *out)                                                       \
    {                                                                                                                \
        return pbj__table_write_delimited(&M##__table, m, out, PBJ__FN_REQ_##req_);                                  \
    }                                                                                                                \
    PBJ__FN_READ(M, req_)
#define PBJ__FN_REQ_REQUIRED true
#define PBJ__FN_REQ_NO_REQUIRED false
#define PBJ__FN_TABLE_ENCODE_NO_REQUIRED(M)                                                                           \
    pbj_status M##_encode(const M *m, uint8_t *buf, size_t cap, size_t *len)                                        \
    {                                                                                                                \
        return pbj__table_encode(&M##__table, m, buf, cap, len, false);                                              \
    }
#define PBJ__FN_TABLE_ENCODE_REQUIRED(M)                                                                              \
    pbj_status M##_encode_partial(const M *m, uint8_t *buf, size_t cap, size_t *len)                                \
    {                                                                                                                \
        return pbj__table_encode(&M##__table, m, buf, cap, len, false);                                              \
    }                                                                                                                \
    pbj_status M##_encode(const M *m, uint8_t *buf, size_t cap, size_t *len)                                        \
    {                                                                                                                \
        return pbj__table_encode(&M##__table, m, buf, cap, len, true);                                               \
    }
#define PBJ__FN_REST(M, req_) PBJ__FN_DECODE_DIRECT(M, req_) PBJ__FN_APPEND(M) PBJ__FN_READ(M, req_)
/* M_decode (not the size tier's): a plain decode (pbj__decode_plain) inline, M__decode called directly (noinline in
 * PBJ_MESSAGE: gcc compiles its body once); any other through pbj__decode_top, which does the same with the rest. */
#define PBJ__FN_DECODE_DIRECT(M, req_)                                                                               \
    pbj_status M##_decode(M *m, const uint8_t *buf, size_t len, pbj_arena *arena, const pbj_decode_options *opts)  \
    {                                                                                                                \
        if (PBJ_UNLIKELY(!pbj__decode_plain(arena, opts, len)))                                                      \
            return pbj__decode_top(&M##__table, m, buf, len, arena, opts, PBJ__FN_REQ_##req_);                       \
        pbj_decoder d;                                                                                               \
        (void)pbj__decode_begin(&d, arena, NULL, buf, len);                                                          \
        M##_init(m);                                                                                                 \
        pbj_status st = M##__decode(m, buf, buf + len, &d);                                                          \
        if (PBJ__FN_REQ_##req_ && st == PBJ_OK) st = pbj_missing_status(M##_missing(m));                             \
        return st;                                                                                                   \
    }
#define PBJ__FN_DECODE(M, req_)                                                                                      \
    pbj_status M##_decode(M *m, const uint8_t *buf, size_t len, pbj_arena *arena, const pbj_decode_options *opts)  \
    {                                                                                                                \
        return pbj__decode_top(&M##__table, m, buf, len, arena, opts, PBJ__FN_REQ_##req_);                           \
    }
/* M_encode_append and M_write_delimited: M's required check, then one call into the runtime with M_size's thunk
 * (PBJ_CODEC's M__c_size) and M__write's (M__c_write). */
#define PBJ__FN_APPEND(M)                                                                                            \
    static uint8_t *M##__c_write(const void *m, uint8_t *end) { return M##__write((const M *)m, end); }              \
    pbj_status M##_encode_append(const M *m, pbj_buf *out)                                                          \
    {                                                                                                                \
        if (M##_missing(m)) return pbj_missing_status(M##_missing(m));                                               \
        return pbj__encode_with(m, M##__c_size, M##__c_write, out, NULL);                                           \
    }                                                                                                                \
    pbj_status M##_write_delimited(const M *m, pbj_sink *out)                                                       \
    {                                                                                                                \
        if (M##_missing(m)) return pbj_missing_status(M##_missing(m));                                               \
        return pbj__encode_with(m, M##__c_size, M##__c_write, NULL, out);                                           \
    }
#define PBJ__FN_READ(M, req_)                                                                                        \
    pbj_status M##_read_delimited(M *m, pbj_source *in, pbj_arena *arena, const pbj_decode_options *opts)           \
    {                                                                                                                \
        return pbj__read_delimited(&M##__table, m, in, arena, opts, PBJ__FN_REQ_##req_);                             \
    }

/* M_encode (name_, qual_ its storage class): size, then the write pass back to front into exactly the bytes counted. */
#define PBJ__FN_ENCODE_BODY(M, name_, qual_)                                                                          \
    qual_ pbj_status name_(const M *m, uint8_t *buf, size_t cap, size_t *len)                                       \
    {                                                                                                                \
        size_t n = M##_size(m);                                                                                      \
        *len = n == PBJ_SIZE_ERROR ? 0 : n;                                                                          \
        if (n == PBJ_SIZE_ERROR) return PBJ_ERR_DEPTH;                                                               \
        if (n > INT32_MAX) return PBJ_ERR_SIZE;                                                                      \
        if (n > cap) return PBJ_ERR_BUFFER;                                                                          \
        if (n) {                                                                                                     \
            uint8_t *start = M##__write(m, buf + n);                                                                 \
            PBJ_ASSERT(start == buf);   /* the write pass wrote what the size pass counted */                        \
            (void)start;                                                                                             \
        }                                                                                                            \
        return PBJ_OK;                                                                                               \
    }
/* M_encode (name_) where M holds messages or repeated fields (pbj.fast_write): one back-to-front walk by M's reverse
 * encoder (its codec's M__c_rencode) where M is short, its fields forward from buf where it is long, each sub-message
 * moved while in cache (pbj__encode_one_walk); where they do not fit (or nest too deep), the size pass and its write
 * pass (M__encode_sized) give the status and the length, as they would have. */
#define PBJ__FN_ENCODE_ONE_WALK(M, name_, qual_)                                                                      \
    PBJ__FN_ENCODE_BODY(M, M##__encode_sized, static)                                                                \
    qual_ pbj_status name_(const M *m, uint8_t *buf, size_t cap, size_t *len)                                       \
    {                                                                                                                \
        size_t n = pbj__encode_one_walk(&M##__table, m, buf, cap, M##__c_rencode);                                   \
        if (n == PBJ_SIZE_ERROR) return M##__encode_sized(m, buf, cap, len);                                         \
        *len = n;                                                                                                    \
        return PBJ_OK;                                                                                               \
    }
#define PBJ__FN_ENCODE_NO_REQUIRED(M, body_, qual_) body_(M, M##_encode, qual_)
#define PBJ__FN_ENCODE_REQUIRED(M, body_, qual_)                                                                      \
    body_(M, M##_encode_partial, qual_)                                                                              \
    pbj_status M##_encode(const M *m, uint8_t *buf, size_t cap, size_t *len)                                        \
    {                                                                                                                \
        *len = 0;                                                                                                    \
        pbj_status st = pbj_missing_status(M##_missing(m));                                                          \
        return st != PBJ_OK ? st : M##_encode_partial(m, buf, cap, len);                                             \
    }

#ifdef __cplusplus
}
#endif

#endif
