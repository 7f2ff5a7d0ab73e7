/* pbj_table_wire.h: size, encode and decode of a message by walking its field table (the size tier). */
#ifndef PBJ_TABLE_WIRE_H
#define PBJ_TABLE_WIRE_H

#include "pbj_core.h"
#include "pbj_rbuf.h"
#include "pbj_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A message of pbj.performance = "size" has no per-field code: its M_size, M__write and M__decode are one-line
 * wrappers over pbj_table_size, pbj_table_write and pbj_table_decode, passing M__table. They give what the
 * generated code of the other tiers gives, byte for byte and status for status: fields in number order,
 * unknown fields last; on decode a field whose wire type is not its own (a repeated scalar's: either, packed
 * or not) is an unknown field, a closed enum's unknown number goes to the unknown fields (a map entry's: the
 * whole entry), maps are sorted by key keeping the last of equal keys, a map entry's unknown fields are
 * dropped, and a singular message seen twice is merged. Extensions are kept as pbj_ext records (the table's
 * `exts` say which numbers, their kinds and closed enums) and written among the fields in number order; a
 * message set's items are its extensions and unknown fields, written as protobuf writes them. */

/* ---- values: a scalar member read as the wire value it encodes to, and stored back ------------------------ */

PBJ_INLINE uint8_t *pbj__tw_at(void *m, uint32_t offset) { return (uint8_t *)m + offset; }

/* The size of one value of a scalar type in the struct (an element of its array). */
PBJ_INLINE size_t pbj__tw_width(uint8_t type)
{
    switch (type) {
    case PBJ_TYPE_BOOL: return sizeof(bool);
    case PBJ_TYPE_DOUBLE: case PBJ_TYPE_FIXED64: case PBJ_TYPE_SFIXED64: case PBJ_TYPE_INT64: case PBJ_TYPE_UINT64:
    case PBJ_TYPE_SINT64: return 8;
    case PBJ_TYPE_STRING: case PBJ_TYPE_BYTES: return sizeof(pbj_slice);
    default: return 4;
    }
}

/* The scalar at p as its wire value: a varint's value or a fixed field's bits. */
PBJ_INLINE uint64_t pbj__tw_load(uint8_t type, const uint8_t *p)
{
    uint32_t u32;
    uint64_t u64;
    bool b;
    switch (type) {
    case PBJ_TYPE_BOOL: return (memcpy(&b, p, sizeof b), b);
    case PBJ_TYPE_INT32: case PBJ_TYPE_ENUM: return (memcpy(&u32, p, 4), (uint64_t)(int64_t)(int32_t)u32);
    case PBJ_TYPE_SINT32: return (memcpy(&u32, p, 4), pbj_zigzag32((int32_t)u32));
    case PBJ_TYPE_SINT64: return (memcpy(&u64, p, 8), pbj_zigzag64((int64_t)u64));
    case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: case PBJ_TYPE_SFIXED32: case PBJ_TYPE_FLOAT: return (memcpy(&u32, p, 4), u32);
    default: return (memcpy(&u64, p, 8), u64);
    }
}

/* Wire value v stored at p as the member's C type. */
PBJ_INLINE void pbj__tw_store(uint8_t type, uint8_t *p, uint64_t v)
{
    uint32_t u32 = (uint32_t)v;
    bool b = v != 0;
    switch (type) {
    case PBJ_TYPE_BOOL: memcpy(p, &b, sizeof b); return;
    case PBJ_TYPE_SINT32: u32 = (uint32_t)pbj_unzigzag32(u32); memcpy(p, &u32, 4); return;
    case PBJ_TYPE_SINT64: v = (uint64_t)pbj_unzigzag64(v); memcpy(p, &v, 8); return;
    case PBJ_TYPE_INT32: case PBJ_TYPE_ENUM: case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: case PBJ_TYPE_SFIXED32:
    case PBJ_TYPE_FLOAT: memcpy(p, &u32, 4); return;
    default: memcpy(p, &v, 8); return;
    }
}

/* The bytes a scalar's wire value takes. */
PBJ_INLINE size_t pbj__tw_scalar_size(uint8_t type, uint64_t v)
{
    switch (pbj__type_wire(type)) {
    case PBJ_WT_I64: return 8;
    case PBJ_WT_I32: return 4;
    default: return pbj_varint_size(v);
    }
}

PBJ_INLINE uint8_t *pbj__tw_rput_scalar(uint8_t *p, uint8_t type, uint64_t v)
{
    switch (pbj__type_wire(type)) {
    case PBJ_WT_I64: return pbj_rput_fixed64(p, v);
    case PBJ_WT_I32: return pbj_rput_fixed32(p, (uint32_t)v);
    default: return pbj_rput_varint(p, v);
    }
}

/* The slice member at offset (pbj_unknown, pbj_ext), empty when the table has none. */
PBJ_INLINE pbj_slice pbj__tw_slice(const void *m, uint32_t offset)
{
    pbj_slice s = pbj_slice_make(NULL, 0);
    if (offset != PBJ_TABLE_NONE) memcpy(&s, pbj__at(m, offset), sizeof s);
    return s;
}

/* ---- presence ------------------------------------------------------------------------------------------- */

PBJ_INLINE bool pbj__tw_has(const void *m, uint32_t offset)
{
    bool b;
    memcpy(&b, pbj__at(m, offset), sizeof b);
    return b;
}

PBJ_INLINE void pbj__tw_set_case(const pbj_table *t, const pbj_field *f, void *m, uint32_t n)
{
    const pbj_oneof *o = &t->oneofs[f->presence];
    uint8_t v8 = (uint8_t)n;
    uint16_t v16 = (uint16_t)n;
    switch (o->case_size) {
    case 1: memcpy(pbj__tw_at(m, o->case_offset), &v8, 1); break;
    case 2: memcpy(pbj__tw_at(m, o->case_offset), &v16, 2); break;
    default: memcpy(pbj__tw_at(m, o->case_offset), &n, 4); break;
    }
}

/* Whether singular field f of m is written: 0 no, 1 yes, 2 yes though it is a NULL message (written empty). */
PBJ_INLINE int pbj__tw_written(const pbj_table *t, const pbj_field *f, const void *m)
{
    bool msg = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP;
    const uint8_t *at = pbj__at(m, f->offset);
    switch (f->mode) {
    case PBJ_MODE_ONEOF:
        if (pbj__oneof_case(t, f, m) != f->number) return 0;
        return msg && !pbj__ptr_at(m, f->offset) ? 2 : 1;
    case PBJ_MODE_ALWAYS: return msg && !pbj__ptr_at(m, f->offset) ? 2 : 1;
    case PBJ_MODE_OPTIONAL: case PBJ_MODE_WRAPPER:
        if (msg) return pbj__ptr_at(m, f->offset) != NULL;
        return pbj__tw_has(m, f->presence);
    default:
        if (msg) return pbj__ptr_at(m, f->offset) != NULL;
        if (f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES) return ((const pbj_slice *)(const void *)at)->len != 0;
        return pbj__tw_load(f->type, at) != 0;
    }
}

/* A wrapper's unknown fields: the slice its table size ends with. */
PBJ_INLINE pbj_slice *pbj__tw_wrapper_unknown(const pbj_field *f, void *m)
{
    return (pbj_slice *)(void *)pbj__tw_at(m, f->offset + f->size - (uint32_t)sizeof(pbj_slice));
}

/* ---- size ------------------------------------------------------------------------------------------------ */

PBJ__LINKAGE size_t pbj_table_size_depth(const pbj_table *t, const void *m, uint32_t depth);   /* below: the walk recurses through it */

/* The bytes one value of f takes after its tag (a message's: its length prefix too; a group's: its end tag). */
PBJ_OUTLINE size_t pbj__tw_value_size(const pbj_field *f, const uint8_t *at, bool pointer, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) {
        const void *sub = pointer ? pbj__ptr_at(at, 0) : at;
        size_t s = sub ? pbj_table_size_depth(f->sub, sub, depth) : 0;
        if (s == PBJ_SIZE_ERROR) return s;
        return PBJ__TW_GROUP(f) ? s + pbj_varint_size(PBJ_TAG(f->number, PBJ_WT_EGROUP)) : pbj_len_size(s);
    }
    if (f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES) return pbj_len_size(((const pbj_slice *)(const void *)at)->len);
    return pbj__tw_scalar_size(f->type, pbj__tw_load(f->type, at));
}
#endif

/* A wrapper's message: its value as field 1 when not zero, then its unknown fields. */
PBJ_INLINE size_t pbj__tw_wrapper_size(const pbj_field *f, const void *m)
{
    const uint8_t *at = pbj__at(m, f->offset);
    size_t n = pbj__tw_wrapper_unknown(f, (void *)(uintptr_t)m)->len;
    bool text = f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES;
    if (text ? ((const pbj_slice *)(const void *)at)->len != 0 : pbj__tw_load(f->type, at) != 0)
        n += 1 + pbj__tw_value_size(f, at, false, 0);
    return n;
}

PBJ_OUTLINE size_t pbj__tw_field_size(const pbj_table *t, const pbj_field *f, const void *m, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    size_t tag = pbj_varint_size(PBJ_TAG(f->number, 0)), n = 0, s;
    const uint8_t *at = pbj__at(m, f->offset);
    if (f->mode == PBJ_MODE_REPEATED || f->mode == PBJ_MODE_MAP) {
        size_t count = pbj__count_at(m, f->offset);
        const uint8_t *data = (const uint8_t *)pbj__ptr_at(m, f->offset);
        bool msg = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP;
        size_t width = msg ? f->sub->size : pbj__tw_width(f->type);
        if (!count) return 0;
        for (size_t i = 0; i < count; i++) {
            if ((s = pbj__tw_value_size(f, data + i * width, false, depth)) == PBJ_SIZE_ERROR) return s;
            n += s;
        }
        return f->flags & PBJ_F_PACKED ? tag + pbj_len_size(n) : n + count * tag;
    }
    switch (pbj__tw_written(t, f, m)) {
    case 0: return 0;
    case 2: return tag + (PBJ__TW_GROUP(f) ? tag : 1);
    default: break;
    }
    if (PBJ__TW(WRAPPER) && f->mode == PBJ_MODE_WRAPPER) return tag + pbj_len_size(pbj__tw_wrapper_size(f, m));
    s = pbj__tw_value_size(f, at, f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP, depth);
    return s == PBJ_SIZE_ERROR ? s : tag + s;
}
#endif

/* M_size's body: the encoded size of m, PBJ_SIZE_ERROR when it nests deeper than depth. */
PBJ_OUTLINE size_t pbj_table_size_depth(const pbj_table *t, const void *m, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    if (PBJ_UNLIKELY(depth-- == 0)) return PBJ_SIZE_ERROR;
    pbj_slice ext = pbj__tw_slice(m, t->ext), unknown = pbj__tw_slice(m, t->unknown);
    if (PBJ__TW(EXT) && (t->flags & PBJ_T_MSGSET)) return pbj__msgset_items(ext, unknown, NULL);   /* items only, its unknown fields too */
    size_t n = unknown.len + (PBJ__TW(EXT) ? ext.len : 0);
    for (uint32_t i = 0; i < t->count; i++) {
        size_t s = pbj__tw_field_size(t, &t->fields[i], m, depth);
        if (s == PBJ_SIZE_ERROR) return s;
        n += s;
    }
    return n;
}
#endif

PBJ_INLINE size_t pbj_table_size(const pbj_table *t, const void *m) { return pbj_table_size_depth(t, m, PBJ_MAX_ENCODE_DEPTH); }

/* ---- encode: back to front, into the bytes the size counted ------------------------------------------- */

PBJ__LINKAGE uint8_t *pbj_table_write(const pbj_table *t, const void *m, uint8_t *p);   /* below: the walk recurses through it */

/* One value of f (after its tag) ending at p; returns its first byte. */
PBJ_OUTLINE uint8_t *pbj__tw_rput_value(const pbj_field *f, const uint8_t *at, bool pointer, uint8_t *p) PBJ__PROTO
#if PBJ__BODIES
{
    if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) {
        const void *sub = pointer ? pbj__ptr_at(at, 0) : at;
        uint8_t *mark = p;
        if (PBJ__TW_GROUP(f)) p = pbj_rput_varint(p, PBJ_TAG(f->number, PBJ_WT_EGROUP));
        if (sub) p = pbj_table_write(f->sub, sub, p);
        return PBJ__TW_GROUP(f) ? p : pbj_rput_varint(p, (size_t)(mark - p));
    }
    if (f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES) return pbj_rput_bytes(p, *(const pbj_slice *)(const void *)at);
    return pbj__tw_rput_scalar(p, f->type, pbj__tw_load(f->type, at));
}
#endif

PBJ_INLINE uint8_t *pbj__tw_rput_tag(uint8_t *p, const pbj_field *f, uint32_t wire)
{
    return pbj_rput_varint(p, PBJ_TAG(f->number, wire));
}

PBJ_OUTLINE uint8_t *pbj__tw_rput_field(const pbj_table *t, const pbj_field *f, const void *m, uint8_t *p) PBJ__PROTO
#if PBJ__BODIES
{
    const uint8_t *at = pbj__at(m, f->offset);
    uint32_t wire = pbj__type_wire(f->type);
    if (f->mode == PBJ_MODE_REPEATED || f->mode == PBJ_MODE_MAP) {
        size_t count = pbj__count_at(m, f->offset);
        const uint8_t *data = (const uint8_t *)pbj__ptr_at(m, f->offset);
        bool msg = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP;
        size_t width = msg ? f->sub->size : pbj__tw_width(f->type);
        uint8_t *mark = p;
        if (!count) return p;
        for (size_t i = count; i-- > 0;) {
            p = pbj__tw_rput_value(f, data + i * width, false, p);
            if (!(f->flags & PBJ_F_PACKED)) p = pbj__tw_rput_tag(p, f, wire);
        }
        if (f->flags & PBJ_F_PACKED) p = pbj__tw_rput_tag(pbj_rput_varint(p, (size_t)(mark - p)), f, PBJ_WT_LEN);
        return p;
    }
    switch (pbj__tw_written(t, f, m)) {
    case 0: return p;
    case 2:
        if (PBJ__TW_GROUP(f)) p = pbj__tw_rput_tag(p, f, PBJ_WT_EGROUP);
        else *--p = 0;
        return pbj__tw_rput_tag(p, f, wire);
    default: break;
    }
    if (PBJ__TW(WRAPPER) && f->mode == PBJ_MODE_WRAPPER) {
        uint8_t *mark = p;
        pbj_slice u = *pbj__tw_wrapper_unknown(f, (void *)(uintptr_t)m);
        bool text = f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES;
        p = pbj_rput_raw(p, u.data, u.len);
        if (text ? ((const pbj_slice *)(const void *)at)->len != 0 : pbj__tw_load(f->type, at) != 0)
            p = pbj_rput_varint(pbj__tw_rput_value(f, at, false, p), PBJ_TAG(1, wire));
        return pbj__tw_rput_tag(pbj_rput_varint(p, (size_t)(mark - p)), f, PBJ_WT_LEN);
    }
    p = pbj__tw_rput_value(f, at, f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP, p);
    return pbj__tw_rput_tag(p, f, wire);
}
#endif

/* M__write's body: m's bytes ending at p (after its size pass counted them); returns their first byte. */
PBJ_OUTLINE uint8_t *pbj_table_write(const pbj_table *t, const void *m, uint8_t *p) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_slice ext = pbj__tw_slice(m, t->ext), unknown = pbj__tw_slice(m, t->unknown);
    uint32_t above = UINT32_MAX;   /* the extensions numbered up to above come after the field written next */
    if (PBJ__TW(EXT) && (t->flags & PBJ_T_MSGSET)) return pbj__msgset_rput(ext, unknown, p);
    if (unknown.len) p = pbj_rput_raw(p, unknown.data, unknown.len);
    for (uint32_t i = t->count; i-- > 0;) {
        const pbj_field *f = &t->fields[i];
        if (PBJ__TW(EXT)) p = pbj__ext_rput(ext, f->number + 1, above, p);
        p = pbj__tw_rput_field(t, f, m, p);
        above = f->number - 1;
    }
    return PBJ__TW(EXT) ? pbj__ext_rput(ext, 0, above, p) : p;
}
#endif

/* ---- decode ------------------------------------------------------------------------------------------------ */

/* *st = why; NULL (a reader's failure). */
PBJ_INLINE const uint8_t *pbj__tw_fail(pbj_status *st, pbj_status why)
{
    *st = why;
    return NULL;
}

PBJ__LINKAGE pbj_status pbj_table_decode(const pbj_table *t, void *m, const uint8_t *p, const uint8_t *end, pbj_decoder *d);   /* below: the walk recurses through it */

/* A message of table t, zeroed (and its defaults set) in the arena. */
PBJ_INLINE void pbj__tw_init(const pbj_table *t, void *m)
{
    if (t->init) t->init(m);
    else memset(m, 0, t->size);
}

/* One scalar of wire type wire at p (below end), as its wire value. */
PBJ_INLINE const uint8_t *pbj__tw_read_scalar(const uint8_t *p, const uint8_t *end, uint32_t wire, pbj_decoder *d, uint64_t *v,
                                             pbj_status *st)
{
    uint32_t u32 = 0;
    switch (wire) {
    case PBJ_WT_I64:
        if (!(p = pbj_get_fixed64(p, end, v))) *st = PBJ_ERR_TRUNCATED;
        return p;
    case PBJ_WT_I32:
        if (!(p = pbj_get_fixed32(p, end, &u32))) *st = PBJ_ERR_TRUNCATED;
        *v = u32;
        return p;
    default: return pbj_get_varint_in(p, end, d, v, st);
    }
}

/* A string or bytes value into *out (UTF-8 checked when f says so). */
PBJ_INLINE const uint8_t *pbj__tw_read_slice(const pbj_field *f, const uint8_t *p, const uint8_t *end, pbj_decoder *d, pbj_slice *out,
                                            pbj_status *st)
{
    size_t len;
    if (!(p = pbj__get_len_in(p, end, d, &len, st))) return NULL;
    if ((f->flags & PBJ_F_UTF8) && !pbj_utf8_valid(p, len)) return pbj__tw_fail(st, PBJ_ERR_UTF8);
    if ((*st = pbj_take_slice(d, p, len, out)) != PBJ_OK) return NULL;
    return p + len;
}

/* A message's (a group's) payload merged into sub. */
PBJ_INLINE const uint8_t *pbj__tw_read_msg(const pbj_field *f, void *sub, const uint8_t *p, const uint8_t *end, pbj_decoder *d,
                                          pbj_status *st)
{
    const uint8_t *body_end, *after;
    size_t len;
    if (PBJ__TW_GROUP(f)) {
        if (!(after = pbj_group_body(p, end, PBJ_TAG(f->number, PBJ_WT_SGROUP), d, &body_end, st))) return NULL;
    } else {
        if (!(p = pbj__get_len_in(p, end, d, &len, st))) return NULL;
        after = body_end = p + len;
    }
    if ((*st = pbj_table_decode(f->sub, sub, p, body_end, d)) != PBJ_OK) return NULL;
    return after;
}

/* Room for one more element of the array at at; its new slot, or NULL (out of memory). The array grows as the
 * text and JSON readers grow theirs (4, then doubling), not by counting the run first as generated decode does:
 * smaller code, and the same values; only the arena bytes a decode takes differ. */
PBJ_INLINE uint8_t *pbj__tw_grow_one(uint8_t *at, size_t width, pbj_decoder *d)
{
    void *data;
    size_t count;
    memcpy(&data, at, sizeof data);
    memcpy(&count, at + sizeof data, sizeof count);
    if (!(data = pbj__array_add(d->arena, data, count, width))) return NULL;
    memcpy(at, &data, sizeof data);
    return (uint8_t *)data + count * width;
}

PBJ_INLINE void pbj__tw_count_add(uint8_t *at, size_t k)
{
    size_t count;
    memcpy(&count, at + sizeof(void *), sizeof count);
    count += k;
    memcpy(at + sizeof(void *), &count, sizeof count);
}

/* Whether v names a value of a closed enum f (its unknown numbers go to the unknown fields). */
PBJ_INLINE bool pbj__tw_enum_known(const pbj_enum *e, uint64_t v) { return pbj_enum_find(e, (int32_t)v) != NULL; }

/* A packed run of scalars of f appended to its array. */
PBJ_OUTLINE const uint8_t *pbj__tw_read_packed(const pbj_field *f, void *m, pbj_slice *unknown, bool closed, const uint8_t *p,
                                               const uint8_t *end, pbj_decoder *d, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t *at = pbj__tw_at(m, f->offset);
    uint32_t wire = pbj__type_wire(f->type);
    size_t len, k, width = pbj__tw_width(f->type);
    if (!(p = pbj__get_len_in(p, end, d, &len, st))) return NULL;
    const uint8_t *pe = p + len;
    if (wire == PBJ_WT_VARINT) k = pbj_count_varints(p, pe);
    else if (len % (k = wire == PBJ_WT_I64 ? 8 : 4)) return pbj__tw_fail(st, PBJ_ERR_TRUNCATED);
    else k = len / k;
    if (k) {
        void *data;
        memcpy(&data, at, sizeof data);
        if (!(data = pbj__array_more(d->arena, data, pbj__count_at(m, f->offset), k, width))) return pbj__tw_fail(st, PBJ_ERR_NOMEM);
        memcpy(at, &data, sizeof data);
    }
    while (p < pe) {
        uint64_t v;
        if (!(p = pbj__tw_read_scalar(p, pe, wire, d, &v, st))) return NULL;
        if (PBJ__TW(CLOSED) && closed && !pbj__tw_enum_known(f->en, v)) {
            if (!pbj_unknown_varint(d, unknown, (int32_t)f->number, v, st)) return NULL;
            continue;
        }
        uint8_t *data;
        memcpy(&data, at, sizeof data);
        pbj__tw_store(f->type, data + pbj__count_at(m, f->offset) * width, v);
        pbj__tw_count_add(at, 1);
    }
    return p;
}
#endif

/* A map entry appended to f's array; a closed enum value that names no value keeps the entry as unknown. */
PBJ_OUTLINE const uint8_t *pbj__tw_read_entry(const pbj_field *f, void *m, pbj_slice *unknown, const uint8_t *start, const uint8_t *p,
                                              const uint8_t *end, pbj_decoder *d, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t *at = pbj__tw_at(m, f->offset), *e;
    if (!(e = pbj__tw_grow_one(at, f->sub->size, d))) return pbj__tw_fail(st, PBJ_ERR_NOMEM);
    pbj__tw_init(f->sub, e);
    if (!(p = pbj__tw_read_msg(f, e, p, end, d, st))) return NULL;
    if (PBJ__TW_CLOSED(f)) {
        const pbj_field *value = &f->sub->fields[1];
        if (!pbj__tw_enum_known(value->en, pbj__tw_load(PBJ_TYPE_ENUM, e + value->offset))) {
            if (d->unknown == PBJ_UNKNOWN_REJECT) return pbj__tw_fail(st, PBJ_ERR_UNKNOWN_FIELD);
            if ((*st = pbj__keep_unknown(d, unknown, start, (size_t)(p - start))) != PBJ_OK) return NULL;
            return p;
        }
    }
    pbj__tw_count_add(at, 1);
    return p;
}
#endif

/* A google.protobuf wrapper's payload into f's value, merged over what it holds. */
PBJ_OUTLINE const uint8_t *pbj__tw_read_wrapper(const pbj_field *f, void *m, const uint8_t *p, const uint8_t *end, pbj_decoder *d,
                                                pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t *at = pbj__tw_at(m, f->offset);
    bool text = f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES;
    uint64_t v = text ? 0 : pbj__tw_load(f->type, at);
    pbj_slice s = text ? *(pbj_slice *)(void *)at : pbj_slice_make(NULL, 0);
    size_t len;
    bool yes = true;
    if (!(p = pbj__get_len_in(p, end, d, &len, st))) return NULL;
    if ((*st = pbj_decode_wrapper_keep(p, p + len, d, PBJ_TAG(1, pbj__type_wire(f->type)), &v, &s, (f->flags & PBJ_F_UTF8) != 0,
                                       pbj__tw_wrapper_unknown(f, m))) != PBJ_OK)
        return NULL;
    if (text) memcpy(at, &s, sizeof s);
    else pbj__tw_store(f->type, at, v);
    memcpy(pbj__tw_at(m, f->presence), &yes, sizeof yes);
    return p + len;
}
#endif

/* A singular message field's struct, allocated when absent (a oneof's: when another member is set). */
PBJ_INLINE void *pbj__tw_sub(const pbj_table *t, const pbj_field *f, void *m, pbj_decoder *d)
{
    void *sub = (void *)(uintptr_t)pbj__ptr_at(m, f->offset);
    bool other = f->mode == PBJ_MODE_ONEOF && pbj__oneof_case(t, f, m) != f->number;
    if (sub && !other) return sub;
    if (!(sub = pbj_arena_alloc(d->arena, f->sub->size))) return NULL;
    pbj__tw_init(f->sub, sub);
    memcpy(pbj__tw_at(m, f->offset), &sub, sizeof sub);
    if (f->mode == PBJ_MODE_ONEOF) pbj__tw_set_case(t, f, m, f->number);
    return sub;
}

/* One value of singular field f (its tag read): stored, merged (a message), or kept as unknown (a closed enum's). */
PBJ_OUTLINE const uint8_t *pbj__tw_read_one(const pbj_table *t, const pbj_field *f, void *m, pbj_slice *unknown, const uint8_t *p,
                                            const uint8_t *end, pbj_decoder *d, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t *at = pbj__tw_at(m, f->offset);
    bool yes = true;
    if (PBJ__TW(WRAPPER) && f->mode == PBJ_MODE_WRAPPER) return pbj__tw_read_wrapper(f, m, p, end, d, st);
    if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) {
        void *sub = pbj__tw_sub(t, f, m, d);
        if (!sub) return pbj__tw_fail(st, PBJ_ERR_NOMEM);
        return pbj__tw_read_msg(f, sub, p, end, d, st);
    }
    if (f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES) {
        pbj_slice s;
        if (!(p = pbj__tw_read_slice(f, p, end, d, &s, st))) return NULL;
        memcpy(at, &s, sizeof s);
    } else {
        uint64_t v;
        if (!(p = pbj__tw_read_scalar(p, end, pbj__type_wire(f->type), d, &v, st))) return NULL;
        if (PBJ__TW_CLOSED(f) && !(t->flags & PBJ_T_MAP_ENTRY) && !pbj__tw_enum_known(f->en, v))
            return pbj_unknown_varint(d, unknown, (int32_t)f->number, v, st) ? p : NULL;
        pbj__tw_store(f->type, at, v);
    }
    if (f->mode == PBJ_MODE_OPTIONAL) memcpy(pbj__tw_at(m, f->presence), &yes, sizeof yes);
    if (f->mode == PBJ_MODE_ONEOF) pbj__tw_set_case(t, f, m, f->number);
    return p;
}
#endif

/* One element of repeated field f (not packed) appended to its array. */
PBJ_OUTLINE const uint8_t *pbj__tw_read_element(const pbj_field *f, void *m, pbj_slice *unknown, const uint8_t *p, const uint8_t *end,
                                                pbj_decoder *d, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t *at = pbj__tw_at(m, f->offset), *e;
    bool msg = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP;
    uint64_t v = 0;
    if (!msg && f->type != PBJ_TYPE_STRING && f->type != PBJ_TYPE_BYTES) {   /* closed enums: checked before room is made */
        if (!(p = pbj__tw_read_scalar(p, end, pbj__type_wire(f->type), d, &v, st))) return NULL;
        if (PBJ__TW_CLOSED(f) && !pbj__tw_enum_known(f->en, v))
            return pbj_unknown_varint(d, unknown, (int32_t)f->number, v, st) ? p : NULL;
    }
    if (!(e = pbj__tw_grow_one(at, msg ? f->sub->size : pbj__tw_width(f->type), d))) return pbj__tw_fail(st, PBJ_ERR_NOMEM);
    if (msg) {
        pbj__tw_init(f->sub, e);
        if (!(p = pbj__tw_read_msg(f, e, p, end, d, st))) return NULL;
    } else if (f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES) {
        pbj_slice s;
        if (!(p = pbj__tw_read_slice(f, p, end, d, &s, st))) return NULL;
        memcpy(e, &s, sizeof s);
    } else {
        pbj__tw_store(f->type, e, v);
    }
    pbj__tw_count_add(at, 1);
    return p;
}
#endif

/* ---- maps: sorted by key, the last of equal keys kept ------------------------------------------------------ */

/* Two map entries by their keys (field 1 of the entry's table). */
PBJ_INLINE int pbj__tw_key_cmp(const pbj_field *key, const uint8_t *a, const uint8_t *b)
{
    a += key->offset;
    b += key->offset;
    switch (key->type) {
    case PBJ_TYPE_STRING: case PBJ_TYPE_BYTES: return pbj_slice_cmp(*(const pbj_slice *)(const void *)a, *(const pbj_slice *)(const void *)b);
    case PBJ_TYPE_INT32: case PBJ_TYPE_SINT32: case PBJ_TYPE_SFIXED32: {
        int32_t x, y;
        memcpy(&x, a, 4), memcpy(&y, b, 4);
        return (x > y) - (x < y);
    }
    case PBJ_TYPE_INT64: case PBJ_TYPE_SINT64: case PBJ_TYPE_SFIXED64: {
        int64_t x, y;
        memcpy(&x, a, 8), memcpy(&y, b, 8);
        return (x > y) - (x < y);
    }
    default: {
        uint64_t x = pbj__tw_load(key->type, a), y = pbj__tw_load(key->type, b);   /* unsigned, bool */
        return (x > y) - (x < y);
    }
    }
}

/* The entries of map field f sorted by key (stable), then the last of each run of equal keys kept. */
PBJ_OUTLINE pbj_status pbj__tw_sort_map(const pbj_field *f, void *m, pbj_arena *a) PBJ__PROTO
#if PBJ__BODIES
{
    const pbj_field *key = &f->sub->fields[0];
    size_t n = pbj__count_at(m, f->offset), elem = f->sub->size, i, w;
    uint8_t *v = (uint8_t *)(uintptr_t)pbj__ptr_at(m, f->offset);
    for (i = 1; i < n && pbj__tw_key_cmp(key, v + (i - 1) * elem, v + i * elem) < 0; i++) {}
    if (i >= n) return PBJ_OK;                       /* already strictly ascending */
    uint8_t *tmp = (uint8_t *)pbj_arena_alloc(a, n * elem);
    if (!tmp) return PBJ_ERR_NOMEM;
    for (size_t width = 1; width < n; width *= 2) {  /* bottom-up merges */
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t l = lo, r = mid, o = lo;
            while (l < mid || r < hi) {
                bool right = l == mid || (r < hi && pbj__tw_key_cmp(key, v + r * elem, v + l * elem) < 0);
                memcpy(tmp + o++ * elem, v + (right ? r++ : l++) * elem, elem);
            }
        }
        memcpy(v, tmp, n * elem);
    }
    pbj__arena_give_up(a, tmp, n * elem);
    for (i = 0, w = 0; i < n; i++) {
        if (i + 1 < n && pbj__tw_key_cmp(key, v + i * elem, v + (i + 1) * elem) == 0) continue;
        if (w != i) memcpy(v + w * elem, v + i * elem, elem);
        w++;
    }
    memcpy((uint8_t *)m + f->offset + sizeof(void *), &w, sizeof w);
    return PBJ_OK;
}
#endif

/* After the fields: maps sorted; a map entry's absent message value made an empty message, as protoc. */
PBJ_OUTLINE pbj_status pbj__tw_finish(const pbj_table *t, void *m, pbj_decoder *d) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_status st;
    for (uint32_t i = 0; i < t->count; i++) {
        const pbj_field *f = &t->fields[i];
        if (!PBJ__TW(MAP)) break;
        if (f->mode == PBJ_MODE_MAP && pbj__count_at(m, f->offset) > 1 && (st = pbj__tw_sort_map(f, m, d->arena)) != PBJ_OK) return st;
        if (f->mode == PBJ_MODE_ALWAYS && f->type == PBJ_TYPE_MESSAGE && !pbj__tw_sub(t, f, m, d)) return PBJ_ERR_NOMEM;
    }
    return PBJ_OK;
}
#endif

/* Whether a record tagged tag is field f's: its own wire type (a wrapper's: a message's), or (a repeated scalar)
 * packed. */
PBJ_INLINE bool pbj__tw_matches(const pbj_field *f, uint32_t tag)
{
    uint32_t wire = tag & 7, own = f->mode == PBJ_MODE_WRAPPER ? (uint32_t)PBJ_WT_LEN : pbj__type_wire(f->type);
    if (wire == own) return true;
    return f->mode == PBJ_MODE_REPEATED && wire == PBJ_WT_LEN && own != PBJ_WT_LEN && own != PBJ_WT_SGROUP;
}

/* A record that is none of t's fields: kept, dropped or rejected (a map entry's: dropped unless rejected). */
PBJ_INLINE const uint8_t *pbj__tw_other(const pbj_table *t, pbj_slice *unknown, const uint8_t *start, const uint8_t *p,
                                       const uint8_t *end, pbj_decoder *d, uint32_t tag, pbj_status *st)
{
    if (!(t->flags & PBJ_T_MAP_ENTRY)) return pbj_unknown_field(d, unknown, start, p, end, tag, st);
    if (d->unknown == PBJ_UNKNOWN_REJECT) return pbj__tw_fail(st, PBJ_ERR_UNKNOWN_FIELD);
    return pbj_skip_field(p, end, tag, d, d->depth_left, st);
}

/* Whether e, a closed enum's table, has value v. */
PBJ_INLINE bool pbj__tw_enum_has(const void *e, int32_t v) { return pbj_enum_find((const pbj_enum *)e, v) != NULL; }

/* A record of a message with extensions that none of its fields took: an extension the table lists (kept in
 * pbj_ext, a singular scalar's last replacing the others), a message set's item, or an unknown field. */
PBJ_OUTLINE const uint8_t *pbj__tw_ext(const pbj_table *t, void *m, pbj_slice *unknown, const uint8_t *start, const uint8_t *p,
                                      const uint8_t *end, pbj_decoder *d, uint32_t tag, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_slice *ext = (pbj_slice *)(void *)pbj__tw_at(m, t->ext);
    const pbj_field *x = NULL;
    bool set = (t->flags & PBJ_T_MSGSET) != 0, msg, closed;
    for (uint32_t i = 0; i < t->ext_count && !x; i++)
        if (t->exts[i].number == tag >> 3) x = &t->exts[i];
    if (!x && !set) return pbj_unknown_field(d, unknown, start, p, end, tag, st);
    if (!x) return pbj__ext_field_in(d, ext, unknown, start, p, end, tag, tag >> 3 == 1 ? PBJ__EXT_ITEM : PBJ__EXT_ITEM | PBJ__EXT_FOREIGN,
                                     NULL, NULL, false, st);
    msg = x->type == PBJ_TYPE_MESSAGE || x->type == PBJ_TYPE_GROUP;
    closed = (x->flags & PBJ_F_CLOSED_ENUM) != 0;
    return pbj__ext_field_in(d, ext, unknown, start, p, end, tag, set ? PBJ__EXT_ITEM : pbj__ext_kind(x), closed ? pbj__tw_enum_has : NULL,
                             x->en, !msg && x->mode != PBJ_MODE_REPEATED, st);
}
#endif

/* M__decode's body: m's fields from p..end merged into m. */
PBJ_OUTLINE pbj_status pbj_table_decode(const pbj_table *t, void *m, const uint8_t *p, const uint8_t *end, pbj_decoder *d) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_status st = PBJ_OK;
    pbj_slice *unknown = t->unknown == PBJ_TABLE_NONE ? NULL : (pbj_slice *)(void *)pbj__tw_at(m, t->unknown);
    if (d->depth_left == 0) return PBJ_ERR_DEPTH;
    d->depth_left--;
    while (p < end) {
        const uint8_t *start = p;
        uint32_t tag;
        if (!(p = pbj_get_tag(p, end, &tag, &st))) return st;
        if (PBJ_UNLIKELY(tag < 8 || (tag & 7) > 5)) return pbj__tag_status(start, end);
        const pbj_field *f = pbj_table_find(t, tag >> 3);
        if (PBJ__TW(EXT) && !f && t->ext != PBJ_TABLE_NONE) p = pbj__tw_ext(t, m, unknown, start, p, end, d, tag, &st);
        else if (!f || !pbj__tw_matches(f, tag)) p = pbj__tw_other(t, unknown, start, p, end, d, tag, &st);
        else if (PBJ__TW(MAP) && f->mode == PBJ_MODE_MAP) p = pbj__tw_read_entry(f, m, unknown, start, p, end, d, &st);
        else if (f->mode != PBJ_MODE_REPEATED) p = pbj__tw_read_one(t, f, m, unknown, p, end, d, &st);
        else if ((tag & 7) == PBJ_WT_LEN && pbj__type_wire(f->type) != PBJ_WT_LEN)
            p = pbj__tw_read_packed(f, m, unknown, PBJ__TW_CLOSED(f), p, end, d, &st);
        else p = pbj__tw_read_element(f, m, unknown, p, end, d, &st);
        if (!p) return st;
    }
    if ((st = pbj__tw_finish(t, m, d)) != PBJ_OK) return st;
    d->depth_left++;
    return PBJ_OK;
}
#endif

#ifdef __cplusplus
}
#endif

#endif
