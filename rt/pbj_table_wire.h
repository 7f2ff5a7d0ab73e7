/* pbj_table_wire.h: size, encode and decode of a message by walking its field table (the size tier). */
#ifndef PBJ_TABLE_WIRE_H
#define PBJ_TABLE_WIRE_H

#include "pbj_core.h"
#include "pbj_table.h"
#include "pbj_stream.h"
#include "pbj_rbuf.h"   /* pbj__move_down: M_encode's forward walk */

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
 * message set's items are its extensions and unknown fields, written as protobuf writes them.
 *
 * Small before fast (a microcontroller's program links this): size and encode are one walk (pbj__tw_put_message),
 * counting the bytes or writing them back to front; decode reads every value of a field, singular, repeated or in
 * a packed run, through one reader (pbj__tw_read_value), and its varints through the one reader tags and lengths
 * use (pbj_get_varint). */

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

/* The slice member at offset (pbj_ext), empty when the table has none. */
PBJ_INLINE pbj_slice pbj__tw_slice(const void *m, uint32_t offset)
{
    pbj_slice s = pbj_slice_make(NULL, 0);
    if (offset != PBJ_TABLE_NONE) memcpy(&s, pbj__at(m, offset), sizeof s);
    return s;
}

/* The bytes of the unknown fields whose record pointer (pbj_unknown) is at offset, empty when none. */
PBJ_INLINE pbj_slice pbj__tw_unknown(const void *m, uint32_t offset)
{
    const pbj_slice *u = NULL;
    if (offset != PBJ_TABLE_NONE) memcpy(&u, pbj__at(m, offset), sizeof u);
    return pbj_unknown_bytes(u);
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

/* A wrapper's unknown fields: the slice its table size ends with. */
PBJ_INLINE pbj_slice *pbj__tw_wrapper_unknown(const pbj_field *f, void *m)
{
    return (pbj_slice *)(void *)pbj__tw_at(m, f->offset + f->size - (uint32_t)sizeof(pbj_slice));
}

/* ---- size and encode: one walk, back to front, counting the bytes or writing them -------------------------------- */

/* Where the walk puts bytes: n of them so far, ending at end (each new one in front of the others); end NULL: the
 * size pass, which counts them only. */
typedef struct pbj__tw_out {
    uint8_t *end;
    size_t n;
} pbj__tw_out;

/* len bytes at src. */
PBJ_INLINE void pbj__tw_raw(pbj__tw_out *o, const void *src, size_t len)
{
    o->n += len;
    if (o->end && len) memcpy(o->end - o->n, src, len);
}

PBJ_OUTLINE void pbj__tw_varint(pbj__tw_out *o, uint64_t v) PBJ__PROTO
#if PBJ__BODIES
{
    o->n += pbj_varint_size(v);
    if (o->end) pbj_put_varint(o->end - o->n, v);
}
#endif

/* The length prefix of what was put since mark. */
PBJ_INLINE void pbj__tw_len(pbj__tw_out *o, size_t mark) { pbj__tw_varint(o, o->n - mark); }

PBJ_INLINE void pbj__tw_tag(pbj__tw_out *o, const pbj_field *f, uint32_t wire) { pbj__tw_varint(o, PBJ_TAG(f->number, wire)); }

/* A scalar of this type whose wire value is v. */
PBJ_INLINE void pbj__tw_scalar(pbj__tw_out *o, uint8_t type, uint64_t v)
{
    uint8_t b[8];
    switch (pbj__type_wire(type)) {
    case PBJ_WT_I64: pbj_put_fixed64(b, v); pbj__tw_raw(o, b, 8); return;
    case PBJ_WT_I32: pbj_put_fixed32(b, (uint32_t)v); pbj__tw_raw(o, b, 4); return;
    default: pbj__tw_varint(o, v); return;
    }
}

/* The extensions' records numbered lo to hi (they sit between two fields). */
PBJ_INLINE void pbj__tw_exts(pbj__tw_out *o, pbj_slice ext, uint32_t lo, uint32_t hi)
{
    size_t from, to;
    if (!ext.len) return;
    pbj__ext_span(ext, lo, hi, &from, &to);
    if (to > from) pbj__tw_raw(o, ext.data + from, to - from);
}

/* A message set's items: its extensions, then its unknown fields, as protobuf writes them. */
PBJ_INLINE void pbj__tw_msgset(pbj__tw_out *o, pbj_slice ext, pbj_slice unknown)
{
    o->n += pbj__msgset_items(ext, unknown, NULL);
    if (o->end) pbj__msgset_items(ext, unknown, o->end - o->n);
}

/* The value at p (a string's or bytes' length, a number's wire value) is not zero. */
PBJ_INLINE bool pbj__tw_nonzero(const pbj_field *f, const uint8_t *p)
{
    if (f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES) return ((const pbj_slice *)(const void *)p)->len != 0;
    return pbj__tw_load(f->type, p) != 0;
}

/* Whether singular field f of m is written (a oneof's message or a map entry's value: even when NULL, as an empty one). */
PBJ_INLINE bool pbj__tw_written(const pbj_table *t, const pbj_field *f, const void *m)
{
    bool msg = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP;
    switch (f->mode) {
    case PBJ_MODE_ONEOF: return pbj__oneof_case(t, f, m) == f->number;
    case PBJ_MODE_ALWAYS: return true;
    case PBJ_MODE_BY_VALUE: return pbj__tw_has(m, f->presence);
    case PBJ_MODE_OPTIONAL: case PBJ_MODE_WRAPPER: if (!msg) return pbj__tw_has(m, f->presence); /* fall through */
    default: return msg ? pbj__ptr_at(m, f->offset) != NULL : pbj__tw_nonzero(f, pbj__at(m, f->offset));
    }
}

PBJ__LINKAGE bool pbj__tw_put_message(const pbj_table *t, const void *m, pbj__tw_out *o, uint32_t depth);   /* below: the walk recurses through it */

/* One value of f, after its tag: a message's (a group's) with its length prefix (its end tag), from the pointer at at
 * when pointer (NULL: empty). False when it nests deeper than depth. */
PBJ_OUTLINE bool pbj__tw_put_value(const pbj_field *f, const uint8_t *at, bool pointer, pbj__tw_out *o, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) {
        const void *sub = pointer ? pbj__ptr_at(at, 0) : at;
        size_t mark = o->n;
        if (PBJ__TW_GROUP(f)) pbj__tw_tag(o, f, PBJ_WT_EGROUP);
        if (sub && !pbj__tw_put_message(f->sub, sub, o, depth)) return false;
        if (!PBJ__TW_GROUP(f)) pbj__tw_len(o, mark);
    } else if (f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES) {
        const pbj_slice *s = (const pbj_slice *)(const void *)at;
        pbj__tw_raw(o, s->data, s->len);
        pbj__tw_varint(o, s->len);
    } else {
        pbj__tw_scalar(o, f->type, pbj__tw_load(f->type, at));
    }
    return true;
}
#endif

/* A google.protobuf wrapper: its value as field 1 when not zero, then its unknown fields, in a message of f. */
PBJ_INLINE void pbj__tw_put_wrapper(const pbj_field *f, const void *m, pbj__tw_out *o)
{
    const uint8_t *at = pbj__at(m, f->offset);
    pbj_slice u = *pbj__tw_wrapper_unknown(f, (void *)(uintptr_t)m);
    size_t mark = o->n;
    pbj__tw_raw(o, u.data, u.len);
    if (pbj__tw_nonzero(f, at)) {
        (void)pbj__tw_put_value(f, at, false, o, 0);   /* a number, string or bytes: no depth */
        pbj__tw_varint(o, PBJ_TAG(1, pbj__type_wire(f->type)));
    }
    pbj__tw_len(o, mark);
}

/* Field f of m with its tags. False when it nests deeper than depth. */
PBJ_OUTLINE bool pbj__tw_put_field(const pbj_table *t, const pbj_field *f, const void *m, pbj__tw_out *o, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    const uint8_t *at = pbj__at(m, f->offset);
    uint32_t wire = pbj__type_wire(f->type);
    bool msg = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP;
    if (f->mode == PBJ_MODE_REPEATED || f->mode == PBJ_MODE_MAP) {
        size_t count = pbj__count_at(m, f->offset), width = msg ? f->sub->size : pbj__tw_width(f->type), mark = o->n;
        const uint8_t *data = (const uint8_t *)pbj__ptr_at(m, f->offset);
        bool packed = (f->flags & PBJ_F_PACKED) != 0;
        if (!count) return true;
        for (size_t i = count; i-- > 0;) {
            if (!pbj__tw_put_value(f, data + i * width, false, o, depth)) return false;
            if (!packed) pbj__tw_tag(o, f, wire);
        }
        if (packed) pbj__tw_len(o, mark), pbj__tw_tag(o, f, PBJ_WT_LEN);
        return true;
    }
    if (!pbj__tw_written(t, f, m)) return true;
    if (PBJ__TW(WRAPPER) && f->mode == PBJ_MODE_WRAPPER) pbj__tw_put_wrapper(f, m, o), wire = PBJ_WT_LEN;
    else if (!pbj__tw_put_value(f, at, msg && f->mode != PBJ_MODE_BY_VALUE, o, depth)) return false;
    pbj__tw_tag(o, f, wire);
    return true;
}
#endif

/* m's fields in number order, its extensions among them, its unknown fields last. False when it nests deeper than
 * depth. */
PBJ_OUTLINE bool pbj__tw_put_message(const pbj_table *t, const void *m, pbj__tw_out *o, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_slice ext = pbj__tw_slice(m, t->ext), unknown = pbj__tw_unknown(m, t->unknown);
    uint32_t above = UINT32_MAX;   /* the extensions numbered up to above come after the field put next */
    if (PBJ_UNLIKELY(depth-- == 0)) return false;
    if (PBJ__TW(EXT) && (t->flags & PBJ_T_MSGSET)) {
        pbj__tw_msgset(o, ext, unknown);
        return true;
    }
    pbj__tw_raw(o, unknown.data, unknown.len);
    for (uint32_t i = t->count; i-- > 0;) {
        const pbj_field *f = &t->fields[i];
        if (PBJ__TW(EXT)) pbj__tw_exts(o, ext, f->number + 1, above);
        if (!pbj__tw_put_field(t, f, m, o, depth)) return false;
        above = f->number - 1;
    }
    if (PBJ__TW(EXT)) pbj__tw_exts(o, ext, 0, above);
    return true;
}
#endif

/* M_size's body: the encoded size of m, PBJ_SIZE_ERROR when it nests deeper than depth. */
PBJ_OUTLINE size_t pbj_table_size_depth(const pbj_table *t, const void *m, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    pbj__tw_out o = {NULL, 0};
    return pbj__tw_put_message(t, m, &o, depth) ? o.n : PBJ_SIZE_ERROR;
}
#endif

PBJ_INLINE size_t pbj_table_size(const pbj_table *t, const void *m) { return pbj_table_size_depth(t, m, PBJ_MAX_ENCODE_DEPTH); }

/* M__write's body: m's bytes ending at p (after its size pass counted them: the same walk, so it cannot nest too
 * deep here); returns their first byte. */
PBJ_OUTLINE uint8_t *pbj_table_write(const pbj_table *t, const void *m, uint8_t *p) PBJ__PROTO
#if PBJ__BODIES
{
    pbj__tw_out o = {p, 0};
    (void)pbj__tw_put_message(t, m, &o, UINT32_MAX);
    return p - o.n;
}
#endif

/* ---- M_encode's forward walk (pbj.fast_write: PBJ__FN_ENCODE_ONE_WALK) ------------------------------------------
 * A message's fields go out forward from buf, in the order and bytes its reverse encoder writes them; each of its
 * sub-messages is written back to front by its type's reverse encoder (its codec's rencode) at the end of the room
 * left, then moved down behind its tag and length: the end of the room is the same few cache lines for every one,
 * so the move reads bytes still in cache and writes the output once. Each returns the byte after what it wrote,
 * NULL when that does not fit before end (or nests deeper than depth). */

/* n bytes at data. */
PBJ_INLINE uint8_t *pbj__fw_raw(uint8_t *p, uint8_t *end, const void *data, size_t n)
{
    if (!p || n > (size_t)(end - p)) return NULL;
    if (n) memcpy(p, data, n);
    return p + n;
}

/* The extensions' records numbered lo to hi (between two fields). */
PBJ_INLINE uint8_t *pbj__fw_exts(pbj_slice ext, uint32_t lo, uint32_t hi, uint8_t *p, uint8_t *end)
{
    size_t from, to;
    if (!ext.len) return p;
    pbj__ext_span(ext, lo, hi, &from, &to);
    return to > from ? pbj__fw_raw(p, end, ext.data + from, to - from) : p;
}

/* Field f of m as the table walk writes it (sized, then written in place). Where this copy of the runtime walks only
 * some shapes (PBJ_TW_SHAPES), a field that may hold one it does not (a message's) is left to M_encode's size pass. */
PBJ_OUTLINE uint8_t *pbj__fw_field(const pbj_table *t, const pbj_field *f, const void *m, uint8_t *p, uint8_t *end,
                                   uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    pbj__tw_out o = {NULL, 0};
    if (PBJ_TW_SHAPES != 31 && (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP || f->mode == PBJ_MODE_WRAPPER))
        return NULL;
    if (!pbj__tw_put_field(t, f, m, &o, depth) || o.n > (size_t)(end - p)) return NULL;
    o.end = p + o.n;
    o.n = 0;
    (void)pbj__tw_put_field(t, f, m, &o, depth);
    return o.end;
}
#endif

/* Sub-message sub of type t as field number n where its reverse encoder did not fit (near end) or is not there:
 * sized by the table walk, then written in place by its M_encode_partial. */
PBJ_OUTLINE uint8_t *pbj__fw_message_sized(const pbj_table *t, uint32_t n, const void *sub, uint8_t *p, uint8_t *end,
                                           uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    size_t s = PBJ_TW_SHAPES == 31 ? pbj_table_size_depth(t, sub, depth) : PBJ_SIZE_ERROR, k;
    uint32_t tag = PBJ_TAG(n, PBJ_WT_LEN);
    if (s == PBJ_SIZE_ERROR || s > INT32_MAX || pbj_varint_size(tag) + pbj_varint_size(s) + s > (size_t)(end - p)) return NULL;
    p = pbj_put_varint(pbj_put_varint(p, tag), s);
    return s && (t->codec->encode(sub, p, s, &k) != PBJ_OK || k != s) ? NULL : p + s;
}
#endif

/* The count sub-messages at data (width bytes apart; a singular one's pointer, NULL: an empty one) of type t as field
 * number n: each its tag, its length, its bytes. */
PBJ_INLINE uint8_t *pbj__fw_messages(const pbj_table *t, uint32_t n, const uint8_t *data, size_t count, size_t width,
                                     uint8_t *p, uint8_t *end, uint32_t depth)
{
    uint8_t *(*rencode)(const void *, uint8_t *, uintptr_t, uint32_t) = t->codec->rencode;
    uint32_t tag = PBJ_TAG(n, PBJ_WT_LEN);
    size_t head = pbj_varint_size(tag) + 5;   /* the tag and the longest length (at most 2 GiB) */
    for (size_t i = 0; i < count && p; i++, data += width) {
        uint8_t *q;
        if (!width && !data) {                /* a oneof's member set to none: its tag, length 0 */
            if ((size_t)(end - p) < head - 4) return NULL;
            p = pbj_put_varint(p, tag);
            *p++ = 0;
        } else if (!rencode || (size_t)(end - p) < head || !(q = rencode(data, end, (uintptr_t)(p + head), depth))) {
            p = pbj__fw_message_sized(t, n, data, p, end, depth);
        } else {
            size_t len = (size_t)(end - q);
            if (len > INT32_MAX) return NULL;
            p = pbj_put_varint(pbj_put_varint(p, tag), len);
            pbj__move_down(p, q, len);        /* in cache */
            p += len;
        }
    }
    return p;
}

/* A message field's values (its sub-messages), or any other field as the table walk writes it. */
PBJ_INLINE uint8_t *pbj__fw_put_field(const pbj_table *t, const pbj_field *f, const void *m, uint8_t *p, uint8_t *end,
                                      uint32_t depth)
{
    if (f->type != PBJ_TYPE_MESSAGE || f->mode == PBJ_MODE_MAP || f->mode == PBJ_MODE_WRAPPER)
        return pbj__fw_field(t, f, m, p, end, depth);
    if (f->mode == PBJ_MODE_REPEATED)
        return pbj__fw_messages(f->sub, f->number, (const uint8_t *)pbj__ptr_at(m, f->offset), pbj__count_at(m, f->offset),
                                f->sub->size, p, end, depth);
    if (!pbj__tw_written(t, f, m)) return p;
    return pbj__fw_messages(f->sub, f->number, (const uint8_t *)pbj__sub_of(f, m), 1, 0, p, end, depth);
}

/* M_encode's body where M has the reverse encoder: m's bytes from buf (fields in number order, its extensions among
 * them, its unknown fields last), their length; PBJ_SIZE_ERROR where they do not fit in cap bytes, pass 2 GiB or nest
 * too deep (M_encode then sizes m, which tells them apart). */
PBJ_OUTLINE_WARM size_t pbj__encode_forward(const pbj_table *t, const void *m, uint8_t *buf, size_t cap) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t *p = buf, *end = buf + cap;
    uint32_t next = 0, depth = PBJ_MAX_ENCODE_DEPTH - 1;   /* next: the first extension number not yet written */
    pbj_slice ext = pbj__tw_slice(m, t->ext);
    if (!cap || (t->flags & PBJ_T_MSGSET)) return PBJ_SIZE_ERROR;
    for (uint32_t i = 0; i < t->count && p; i++) {
        const pbj_field *f = &t->fields[i];
        p = pbj__fw_exts(ext, next, f->number - 1, p, end);
        next = f->number + 1;
        if (p) p = pbj__fw_put_field(t, f, m, p, end, depth);
    }
    if (p) p = pbj__fw_exts(ext, next, UINT32_MAX, p, end);
    pbj_slice unknown = pbj__tw_unknown(m, t->unknown);   /* m's unknown fields: its last bytes */
    p = pbj__fw_raw(p, end, unknown.data, unknown.len);
    return p && (size_t)(p - buf) <= INT32_MAX ? (size_t)(p - buf) : PBJ_SIZE_ERROR;
}
#endif

/* M_encode's room for its one back-to-front walk: a message this long or shorter is written at the end of the first
 * PBJ__FORWARD_WINDOW bytes of buf + cap down, then moved to buf while in cache; a longer one goes forward
 * (pbj__encode_forward), which moves each sub-message while in cache, after losing the walk of its last 8 KiB. (A test
 * defines it 0: every message forward.) */
#ifndef PBJ__FORWARD_WINDOW
#define PBJ__FORWARD_WINDOW 8192
#endif

/* M_encode's body where M has the reverse encoder (rencode, its codec's): m's bytes at buf, their length;
 * PBJ_SIZE_ERROR where they do not fit in cap bytes, pass 2 GiB or nest too deep (M_encode then sizes m). */
PBJ_INLINE size_t pbj__encode_one_walk(const pbj_table *t, const void *m, uint8_t *buf, size_t cap,
                                       uint8_t *(*rencode)(const void *, uint8_t *, uintptr_t, uint32_t))
{
    size_t w = PBJ__FORWARD_WINDOW, n;
    if (w > cap) w = cap;
    uint8_t *p = cap ? rencode(m, buf + cap, (uintptr_t)(buf + cap - w), PBJ_MAX_ENCODE_DEPTH) : NULL;
    if (!p) return cap > w ? pbj__encode_forward(t, m, buf, cap) : PBJ_SIZE_ERROR;
    if ((n = (size_t)(buf + cap - p)) > INT32_MAX) return PBJ_SIZE_ERROR;
    if (p != buf) pbj__move_down(buf, p, n);
    return n;
}

/* ---- decode ------------------------------------------------------------------------------------------------ */

/* *st = why; NULL (a reader's failure). */
PBJ_INLINE const uint8_t *pbj__tw_fail(pbj_status *st, pbj_status why)
{
    *st = why;
    return NULL;
}

PBJ__LINKAGE pbj_status pbj_table_decode(const pbj_table *t, void *m, const uint8_t *p, const uint8_t *end, pbj_decoder *d);   /* below: the walk recurses through it */

/* One scalar of wire type wire at p (below end), as its wire value. */
PBJ_INLINE const uint8_t *pbj__tw_read_scalar(const uint8_t *p, const uint8_t *end, uint32_t wire, uint64_t *v, pbj_status *st)
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
    default: return pbj_get_varint_st(p, end, v, st);   /* not pbj_get_varint_in: one varint reader in a small program */
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

/* A map entry appended to f's array; a closed enum value that names no value keeps the entry as unknown. */
PBJ_OUTLINE const uint8_t *pbj__tw_read_entry(const pbj_field *f, void *m, pbj_slice **unknown, const uint8_t *start, const uint8_t *p,
                                              const uint8_t *end, pbj_decoder *d, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t *at = pbj__tw_at(m, f->offset), *e;
    if (!(e = pbj__tw_grow_one(at, f->sub->size, d))) return pbj__tw_fail(st, PBJ_ERR_NOMEM);
    pbj__table_init(f->sub, e);
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

/* A singular message field's struct, allocated when absent (a oneof's: when another member is set); one held by value
 * initialised and marked present when absent. */
PBJ_INLINE void *pbj__tw_sub(const pbj_table *t, const pbj_field *f, void *m, pbj_decoder *d)
{
    if (f->mode == PBJ_MODE_BY_VALUE) {
        bool yes = true;
        if (!pbj__tw_has(m, f->presence)) pbj__table_init(f->sub, pbj__tw_at(m, f->offset));
        memcpy(pbj__tw_at(m, f->presence), &yes, sizeof yes);
        return pbj__tw_at(m, f->offset);
    }
    void *sub = (void *)(uintptr_t)pbj__ptr_at(m, f->offset);
    bool other = f->mode == PBJ_MODE_ONEOF && pbj__oneof_case(t, f, m) != f->number;
    if (sub && !other) return sub;
    if (!(sub = pbj_arena_alloc(d->arena, f->sub->size))) return NULL;
    pbj__table_init(f->sub, sub);
    memcpy(pbj__tw_at(m, f->offset), &sub, sizeof sub);
    if (f->mode == PBJ_MODE_ONEOF) pbj__tw_set_case(t, f, m, f->number);
    return sub;
}

/* One value of field f (its tag read; in a packed run, p..end the run) into m: a singular field's stored (a message
 * merged), a repeated field's appended; a closed enum's number that names no value kept as an unknown field. */
PBJ_OUTLINE const uint8_t *pbj__tw_read_value(const pbj_table *t, const pbj_field *f, void *m, pbj_slice **unknown, const uint8_t *p,
                                              const uint8_t *end, pbj_decoder *d, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t *at = pbj__tw_at(m, f->offset), *dst = at;
    bool msg = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP, text = f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES;
    bool repeated = f->mode == PBJ_MODE_REPEATED, yes = true;
    uint64_t v = 0;
    pbj_slice s;
    if (PBJ__TW(WRAPPER) && f->mode == PBJ_MODE_WRAPPER) return pbj__tw_read_wrapper(f, m, p, end, d, st);
    if (text) {
        if (!(p = pbj__tw_read_slice(f, p, end, d, &s, st))) return NULL;
    } else if (!msg) {   /* closed enums: checked before room is made */
        if (!(p = pbj__tw_read_scalar(p, end, pbj__type_wire(f->type), &v, st))) return NULL;
        if (PBJ__TW_CLOSED(f) && !(t->flags & PBJ_T_MAP_ENTRY) && !pbj__tw_enum_known(f->en, v))
            return pbj_unknown_varint(d, unknown, (int32_t)f->number, v, st) ? p : NULL;
    }
    if (repeated && !(dst = pbj__tw_grow_one(at, msg ? f->sub->size : pbj__tw_width(f->type), d))) return pbj__tw_fail(st, PBJ_ERR_NOMEM);
    if (msg) {
        void *sub = repeated ? dst : pbj__tw_sub(t, f, m, d);
        if (!sub) return pbj__tw_fail(st, PBJ_ERR_NOMEM);
        if (repeated) pbj__table_init(f->sub, sub);
        if (!(p = pbj__tw_read_msg(f, sub, p, end, d, st))) return NULL;
    } else if (text) {
        memcpy(dst, &s, sizeof s);
    } else {
        pbj__tw_store(f->type, dst, v);
    }
    if (repeated) pbj__tw_count_add(at, 1);
    else if (f->mode == PBJ_MODE_OPTIONAL && !msg) memcpy(pbj__tw_at(m, f->presence), &yes, sizeof yes);
    else if (f->mode == PBJ_MODE_ONEOF && !msg) pbj__tw_set_case(t, f, m, f->number);
    return p;
}
#endif

/* A packed run of scalars of repeated field f, each appended to its array. */
PBJ_INLINE const uint8_t *pbj__tw_read_packed(const pbj_table *t, const pbj_field *f, void *m, pbj_slice **unknown, const uint8_t *p,
                                             const uint8_t *end, pbj_decoder *d, pbj_status *st)
{
    uint32_t wire = pbj__type_wire(f->type);
    size_t len;
    if (!(p = pbj__get_len_in(p, end, d, &len, st))) return NULL;
    const uint8_t *pe = p + len;
    if (wire != PBJ_WT_VARINT && len % (wire == PBJ_WT_I64 ? 8 : 4)) return pbj__tw_fail(st, PBJ_ERR_TRUNCATED);
    while (p && p < pe) p = pbj__tw_read_value(t, f, m, unknown, p, pe, d, st);
    return p;
}

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
PBJ_INLINE const uint8_t *pbj__tw_other(const pbj_table *t, pbj_slice **unknown, const uint8_t *start, const uint8_t *p,
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
PBJ_OUTLINE const uint8_t *pbj__tw_ext(const pbj_table *t, void *m, pbj_slice **unknown, const uint8_t *start, const uint8_t *p,
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
    pbj_slice **unknown = t->unknown == PBJ_TABLE_NONE ? NULL : (pbj_slice **)(void *)pbj__tw_at(m, t->unknown);
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
        else if (f->mode == PBJ_MODE_REPEATED && (tag & 7) == PBJ_WT_LEN && pbj__type_wire(f->type) != PBJ_WT_LEN)
            p = pbj__tw_read_packed(t, f, m, unknown, p, end, d, &st);
        else p = pbj__tw_read_value(t, f, m, unknown, p, end, d, &st);
        if (!p) return st;
    }
    if ((st = pbj__tw_finish(t, m, d)) != PBJ_OK) return st;
    d->depth_left++;
    return PBJ_OK;
}
#endif


/* ---- a message's API over its table (PBJ_MESSAGE_FUNCTIONS_TABLE, pbj_table.h) ------------------------------
 * What PBJ_MESSAGE_FUNCTIONS's bodies do, once in the runtime instead of in every message's .pb.c (req: whether M
 * reaches a required field, checked by pbj_table_missing). */

/* The start of M_encode, M_encode_append and M_write_delimited: a missing required field's status, else m's size
 * *n and its status (pbj__size_status). */
PBJ_INLINE pbj_status pbj__table_size_checked(const pbj_table *t, const void *m, bool req, size_t *n)
{
    pbj_status st = req ? pbj_missing_status(pbj_table_missing(t, m)) : PBJ_OK;
    if (st != PBJ_OK) return st;
    *n = pbj_table_size(t, m);
    return pbj__size_status(*n);
}

/* M_encode (req) or M_encode_partial: the size walk, then the write walk into exactly the bytes counted; *len the
 * size (0 when a required field is missing or the size walk fails). */
PBJ_OUTLINE pbj_status pbj__table_encode(const pbj_table *t, const void *m, uint8_t *buf, size_t cap, size_t *len,
                                         bool req) PBJ__PROTO
#if PBJ__BODIES
{
    size_t n = 0;
    pbj_status st = pbj__table_size_checked(t, m, req, &n);
    *len = st == PBJ_OK || st == PBJ_ERR_SIZE ? n : 0;
    if (st == PBJ_OK && n > cap) return PBJ_ERR_BUFFER;
    if (st == PBJ_OK && n) {
        uint8_t *start = pbj_table_write(t, m, buf + n);
        PBJ_ASSERT(start == buf);   /* the write pass wrote what the size pass counted */
        (void)start;
    }
    return st;
}
#endif

/* M_encode_append: m's encoding appended to out. */
PBJ_OUTLINE pbj_status pbj__table_encode_append(const pbj_table *t, const void *m, pbj_buf *out, bool req) PBJ__PROTO
#if PBJ__BODIES
{
    size_t n = 0;
    pbj_status st = pbj__table_size_checked(t, m, req, &n);
    if (st == PBJ_OK) st = pbj_buf_reserve(out, n);
    if (st != PBJ_OK) return st;
    out->len += n;
    pbj_table_write(t, m, out->data + out->len);   /* back to front, ending there */
    return PBJ_OK;
}
#endif

/* M_write_delimited: one length-delimited record of m into out. */
PBJ_OUTLINE pbj_status pbj__table_write_delimited(const pbj_table *t, const void *m, pbj_sink *out, bool req) PBJ__PROTO
#if PBJ__BODIES
{
    size_t n = 0;
    uint8_t *body = NULL;
    pbj_status st = pbj__table_size_checked(t, m, req, &n);
    if (st == PBJ_OK) st = pbj_sink_open(out, n, &body);
    if (st == PBJ_OK) pbj_table_write(t, m, body + n);   /* back to front, ending at body + n */
    return pbj_sink_close(out, st, n);
}
#endif

#ifdef __cplusplus
}
#endif

#endif
