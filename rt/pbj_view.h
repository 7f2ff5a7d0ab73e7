/* pbj_view.h: read-only views (pbj.views): a message's fields read straight from its encoded bytes, no allocation. */
#ifndef PBJ_VIEW_H
#define PBJ_VIEW_H

#include "pbj_core.h"
#include "pbj_table.h"   /* pbj__view_nested finds a record's field in its message's table */

#ifdef __cplusplus
extern "C" {
#endif

/* A view is made by one forward pass over a message's bytes (M_view_init, generated per message: a switch
 * on the tag with the next field's tag predicted) that checks every record of that message and notes where
 * each known field lies: singular fields keep their last value (numbers already read, strings, bytes and
 * messages as an offset and a length, wrappers unboxed), repeated fields their first record and record
 * count. Accessors then read the notes; repeated fields are walked by an iterator. What init checks, for
 * the message's own level: tags, varints, lengths (each at most PBJ_DEFAULT_MAX_LENGTH and inside the
 * bytes), fixed widths, packed runs, UTF-8 of proto3 strings, wrapper payloads, groups (matched, at most
 * as deep as decode allows at the view's depth), unknown fields and, near PBJ_DEFAULT_MAX_DEPTH levels down
 * (decode's default max_depth), that no message or group nests deeper (pbj__view_nested); a known number with a wire type it cannot have is
 * skipped as an unknown field, as decode (and protoc) keep it as one. A nested message is checked when its own view is made from the
 * parent's (the accessor or the iterator reports the status), so a view costs one pass over its own level
 * and nesting costs nothing until it is read. Accessors and iterators check every read again against the
 * bytes' end, so even a view used without looking at init's status reads nothing outside the buffer. The
 * caller keeps the bytes alive and unchanged. */

/* Where a field lies: singular: its value (v: the number, or the offset of its bytes; len: their length);
 * repeated: v is the offset of its first record and n how many records there are. n == 0: absent. */
typedef struct pbj_view_slot {
    uint64_t v;
    uint32_t len;
    uint32_t n;
} pbj_view_slot;

/* The bytes a view reads; limit is the end of the whole input they lie in (the fast paths read up to it). */
typedef struct pbj_view {
    const uint8_t *buf;
    size_t len;
    const uint8_t *limit;
    uint32_t depth;               /* messages above this one (0: M_view_init's): see pbj__view_nested */
} pbj_view;

/* A repeated field's values, in the order written (packed and unpacked runs alike). */
typedef struct pbj_view_iter {
    const uint8_t *p, *end;       /* records still to look at */
    const uint8_t *run, *run_end; /* the packed run being read */
    const uint8_t *limit;         /* the end of the whole input (a nested view's) */
    uint32_t depth;               /* the view's (a nested view is one deeper) */
    uint32_t tag, packed_tag;     /* the field's tag for one value, for a packed run (0: none) */
    uint32_t left;                /* records of the field not reached yet */
    pbj_status status;            /* a nested message that failed its view's init (its next returned false) */
} pbj_view_iter;

PBJ_INLINE pbj_slice pbj_view_slice(const pbj_view *v, const pbj_view_slot *s)
{
    pbj_slice r = {s->len ? v->buf + s->v : NULL, s->len};
    return r;
}

/* The bytes of an absent field. */
PBJ_INLINE pbj_slice pbj_view_empty(void)
{
    pbj_slice r = {NULL, 0};
    return r;
}

/* The decoder a view at depth reads with: the levels binary decode still allows inside such a message (groups
 * nested in its unknown fields, a group or wrapper field), so a view accepts what decode accepts at that depth. */
PBJ_INLINE void pbj__view_decoder(pbj_decoder *d, uint32_t depth)
{
    pbj_decoder_init(d, NULL, NULL);
    d->depth_left = depth < PBJ_DEFAULT_MAX_DEPTH ? PBJ_DEFAULT_MAX_DEPTH - depth : 0;
    d->alias = true;                               /* nothing is ever copied or allocated */
}

/* A view's value before its scan: all zeros (C's universal initializer; C++'s, which warns at C's). */
#ifdef __cplusplus
#define PBJ__VIEW_ZERO {}
#else
#define PBJ__VIEW_ZERO {0}
#endif

/* ---- the scan's reads (generated M_view_init) ----------------------------------------------------- */

#define PBJ__VIEW_HOT static inline PBJ__FORCE_INLINE   /* read in every case of a scan */

/* One slot zeroed: a 16-byte store where the compiler has them (a large view's zeroing is otherwise `rep stos`). */
#if defined(__GNUC__) && defined(__SSE2__)
typedef uint64_t pbj__view_pair __attribute__((vector_size(16), may_alias, aligned(8)));
#define PBJ__VIEW_CLEAR(s, i) (*(pbj__view_pair *)(void *)&(s)[i] = pbj__view_pair_zero)
#define PBJ__VIEW_PAIR_ZERO const pbj__view_pair pbj__view_pair_zero = {0, 0};
#else
#define PBJ__VIEW_CLEAR(s, i) ((s)[i].v = 0, (s)[i].len = 0, (s)[i].n = 0)
#define PBJ__VIEW_PAIR_ZERO
#endif

/* The first n slots zeroed (a scan's slots outside oneofs), in straight-line stores for up to 16. */
PBJ__VIEW_HOT void pbj__view_clear(pbj_view_slot *s, size_t n)
{
    PBJ__VIEW_PAIR_ZERO
    if (n > 16) {
        memset(s, 0, n * sizeof *s);
        return;
    }
    switch (n) {
    case 16: PBJ__VIEW_CLEAR(s, 15); /* fall through */
    case 15: PBJ__VIEW_CLEAR(s, 14); /* fall through */
    case 14: PBJ__VIEW_CLEAR(s, 13); /* fall through */
    case 13: PBJ__VIEW_CLEAR(s, 12); /* fall through */
    case 12: PBJ__VIEW_CLEAR(s, 11); /* fall through */
    case 11: PBJ__VIEW_CLEAR(s, 10); /* fall through */
    case 10: PBJ__VIEW_CLEAR(s, 9); /* fall through */
    case 9: PBJ__VIEW_CLEAR(s, 8); /* fall through */
    case 8: PBJ__VIEW_CLEAR(s, 7); /* fall through */
    case 7: PBJ__VIEW_CLEAR(s, 6); /* fall through */
    case 6: PBJ__VIEW_CLEAR(s, 5); /* fall through */
    case 5: PBJ__VIEW_CLEAR(s, 4); /* fall through */
    case 4: PBJ__VIEW_CLEAR(s, 3); /* fall through */
    case 3: PBJ__VIEW_CLEAR(s, 2); /* fall through */
    case 2: PBJ__VIEW_CLEAR(s, 1); /* fall through */
    case 1: PBJ__VIEW_CLEAR(s, 0); /* fall through */
    default: break;
    }
}

/* A varint at p of bytes ending at end, in an input ending at limit: when 10 bytes are left before limit,
 * read with no bound check per byte (then checked against end). */
PBJ__VIEW_HOT const uint8_t *pbj__view_varint(const uint8_t *p, const uint8_t *end, const uint8_t *limit, uint64_t *out,
                                           pbj_status *st)
{
    if (PBJ_LIKELY(limit - p >= 10)) {
        const uint8_t *q;
        uint64_t v = p[0], b;
        if (v < 0x80) {
            q = p + 1;
            goto done;
        }
        v -= 0x80;
#define PBJ__VIEW_BYTE(i)                    \
        b = p[i];                            \
        v += b << (7 * i);                   \
        if (b < 0x80) {                      \
            q = p + i + 1;                   \
            goto done;                       \
        }                                    \
        v -= (uint64_t)0x80 << (7 * i);
        PBJ__VIEW_BYTE(1) PBJ__VIEW_BYTE(2) PBJ__VIEW_BYTE(3) PBJ__VIEW_BYTE(4)
        PBJ__VIEW_BYTE(5) PBJ__VIEW_BYTE(6) PBJ__VIEW_BYTE(7) PBJ__VIEW_BYTE(8)
#undef PBJ__VIEW_BYTE
        if ((b = p[9]) >= 0x80) goto slow;             /* an 11th byte: malformed */
        v += b << 63;                                  /* the 10th byte: bits past 64 drop, as protobuf's C++ */
        q = p + 10;
    done:
        if (PBJ_LIKELY(q <= end)) {
            *out = v;
            return q;
        }
    }
slow:
    return pbj_get_varint_st(p, end, out, st);
}

/* A length prefix at p: the payload must fit before end. */
PBJ__VIEW_HOT const uint8_t *pbj__view_len(const uint8_t *p, const uint8_t *end, const uint8_t *limit, size_t *len,
                                        pbj_status *st)
{
    uint64_t n;
    if (PBJ_LIKELY(p < end)) {
        size_t one = (size_t)(int8_t)*p;   /* one byte; a byte of 0x80 or more (a longer length) wraps past any room */
        if (PBJ_LIKELY(one < (size_t)(end - p))) {
            *len = one;
            return p + 1;
        }
    }
    const uint8_t *start = p;
    if (!(p = pbj__view_varint(p, end, limit, &n, st))) return NULL;
    if (PBJ_UNLIKELY(p - start > PBJ_MAX_LEN_BYTES)) {             /* as decode: a length takes 5 bytes at most */
        *st = PBJ_ERR_VARINT;
        return NULL;
    }
    if (PBJ_UNLIKELY(n > (uint64_t)(end - p) || n > PBJ_DEFAULT_MAX_LENGTH)) {
        *st = n > PBJ_DEFAULT_MAX_LENGTH ? PBJ_ERR_TOO_LONG : PBJ_ERR_TRUNCATED;
        return NULL;
    }
    *len = (size_t)n;
    return p;
}

/* A packed run's payload [p, end) of values tagged tag: whole values only (the status decode gives). */
PBJ_OUTLINE pbj_status pbj__view_check_run(const uint8_t *p, const uint8_t *end, uint32_t tag) PBJ__PROTO
#if PBJ__BODIES
{
    return pbj__packed_check(p, end, (int)(tag & 7));
}
#endif

/* A group's body from p (its start tag read): [p, *body_end); returns the byte after its end tag. */
PBJ_OUTLINE const uint8_t *pbj__view_group(const uint8_t *p, const uint8_t *end, uint32_t tag, uint32_t depth,
                                           const uint8_t **body_end, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_decoder d;
    pbj__view_decoder(&d, depth);
    return pbj_group_body(p, end, tag, &d, body_end, st);
}
#endif

/* An unknown field's payload (its tag ended at p), skipped. */
PBJ_OUTLINE const uint8_t *pbj__view_skip(const uint8_t *p, const uint8_t *end, uint32_t tag, uint32_t depth,
                                          pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_decoder d;
    pbj__view_decoder(&d, depth);
    return pbj_skip_field(p, end, tag, &d, d.depth_left, st);
}
#endif

/* The depth check of views: decode refuses a message nested more than PBJ_DEFAULT_MAX_DEPTH levels down. The view
 * of a type that nests a known number of levels less than that (pbjc's "flat" types: no cycle of types below) checks
 * nothing: its creator did. A view of any other type checks, when it lies near the limit, the nesting below it down
 * to the limit; then flat fields' views made from it cannot lie too deep, and fields of other types check again when
 * their views are made. The check: PBJ_ERR_DEPTH when the records of a message of type t at depth hold a message
 * or group past the limit; PBJ_OK when they do not, or when the bytes fail otherwise before it (the scan of the
 * view reading them then says how). Out of line: only that deep. */
PBJ_OUTLINE pbj_status pbj__view_nested(const pbj_table *t, const uint8_t *p, const uint8_t *end, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_decoder d;
    pbj_status st;
    uint32_t tag;
    pbj__view_decoder(&d, depth);
    while (p < end && (p = pbj_get_tag(p, end, &tag, &st)) != NULL && tag >= 8 && (tag & 7) <= 5) {
        const pbj_field *f = pbj_table_find(t, tag >> 3);
        bool nests = f && pbj__is_message(f) && (tag & 7) == pbj__type_wire(f->type);
        const uint8_t *body = p, *body_end;
        size_t len = 0;
        if ((tag & 7) == PBJ_WT_LEN && !(body = pbj__view_len(p, end, end, &len, &st))) break;   /* as decode: the length first */
        if (nests && depth >= PBJ_DEFAULT_MAX_DEPTH) return PBJ_ERR_DEPTH;
        if ((tag & 7) == PBJ_WT_LEN) {
            p = body_end = body + len;
        } else if ((tag & 7) == PBJ_WT_SGROUP) {
            if (!(p = pbj_group_body(p, end, tag, &d, &body_end, &st))) break;
        } else if (!(p = pbj_skip_field(p, end, tag, &d, d.depth_left, &st))) {
            break;
        }
        if (nests && (st = pbj__view_nested(f->sub, body, body_end, depth + 1)) != PBJ_OK) return st;
    }
    return PBJ_OK;
}
#endif

/* A wrapper's payload [p, p + len) (google.protobuf.XxxValue) merged into slot s of view buf: the wrapped
 * value of tag inner_tag (bytes and strings: offset and length, UTF-8 checked when utf8). */
PBJ_OUTLINE pbj_status pbj__view_wrapper(const uint8_t *buf, pbj_view_slot *s, const uint8_t *p, size_t len,
                                         uint32_t inner_tag, bool utf8, uint32_t depth) PBJ__PROTO
#if PBJ__BODIES
{
    bool bytes = (inner_tag & 7) == PBJ_WT_LEN;
    pbj_slice str = {bytes && s->len ? buf + s->v : NULL, bytes ? s->len : 0};
    uint64_t inner = bytes ? 0 : s->v;
    pbj_decoder d;
    pbj_status st;
    pbj__view_decoder(&d, depth);
    if ((st = pbj_decode_wrapper(p, p + len, &d, inner_tag, &inner, &str, utf8)) != PBJ_OK) return st;
    s->v = bytes ? (str.len ? (uint64_t)(str.data - buf) : 0) : inner;
    s->len = bytes ? (uint32_t)str.len : 0;
    s->n = 1;
    return PBJ_OK;
}
#endif

/* ---- repeated fields ----------------------------------------------------------------------------- */

PBJ_INLINE pbj_view_iter pbj_view_items(const pbj_view *v, const pbj_view_slot *s, uint32_t tag, uint32_t packed_tag)
{
    pbj_view_iter it;
    it.p = s->n ? v->buf + s->v : v->buf + v->len;
    it.end = v->buf + v->len;
    it.run = it.run_end = NULL;
    it.limit = v->limit;
    it.depth = v->depth;
    it.tag = tag;
    it.packed_tag = packed_tag;
    it.left = s->n;
    it.status = PBJ_OK;
    return it;
}

/* Nothing more to read (the end, or bytes init would have refused). */
PBJ_INLINE bool pbj__view_stop(pbj_view_iter *it)
{
    it->left = 0;
    it->p = it->end;
    it->run = it->run_end = NULL;
    return false;
}

/* The next record of the field: its tag in *tag, it->p after it; false at the end. Always inline: an iterator
 * whose address no call takes stays in registers. */
PBJ__VIEW_HOT bool pbj__view_record(pbj_view_iter *it, uint32_t *tag)
{
    pbj_status st = PBJ_OK;
    while (it->left && it->p < it->end) {
        if (PBJ_LIKELY(*it->p < 0x80 && *it->p >= 8 && (*it->p & 7) < 6)) *tag = *it->p++;
        else if (!(it->p = pbj_get_tag(it->p, it->end, tag, &st))) break;
        if (PBJ_LIKELY(*tag == it->tag) || *tag == it->packed_tag) {
            it->left--;
            return true;
        }
        if (!(it->p = pbj__view_skip(it->p, it->end, *tag, it->depth, &st))) break;
    }
    return pbj__view_stop(it);
}

/* One number of wire type tag & 7 from [*p, end) into *out; false when it is cut short. */
PBJ_INLINE bool pbj__view_number(const uint8_t **p, const uint8_t *end, uint32_t tag, uint64_t *out)
{
    uint32_t u32;
    switch (tag & 7) {
    case PBJ_WT_I32:
        if (!(*p = pbj_get_fixed32(*p, end, &u32))) return false;
        *out = u32;
        return true;
    case PBJ_WT_I64: return (*p = pbj_get_fixed64(*p, end, out)) != NULL;
    default:
        if (PBJ_LIKELY(*p < end && **p < 0x80)) {
            *out = *(*p)++;
            return true;
        }
        return (*p = pbj_get_varint(*p, end, out)) != NULL;
    }
}

/* The next number of a repeated numeric field (as on the wire: varint, or the fixed bits). */
PBJ_INLINE bool pbj_view_next_value(pbj_view_iter *it, uint64_t *out)
{
    pbj_status st = PBJ_OK;
    uint32_t tag;
    size_t len;
    while (it->run >= it->run_end) {
        if (!pbj__view_record(it, &tag)) return false;
        if (tag == it->tag) return pbj__view_number(&it->p, it->end, tag, out) || pbj__view_stop(it);
        if (!(it->p = pbj__view_len(it->p, it->end, it->limit, &len, &st))) return pbj__view_stop(it);
        it->run = it->p;
        it->run_end = it->p += len;
    }
    return pbj__view_number(&it->run, it->run_end, it->tag, out) || pbj__view_stop(it);
}

/* The next payload of a repeated field of tag one_byte_tag (0: a longer tag): [*at, *at + *len), *at never NULL. */
PBJ__VIEW_HOT bool pbj__view_next_payload(pbj_view_iter *it, uint32_t one_byte_tag, const uint8_t **at, size_t *len)
{
    pbj_status st = PBJ_OK;
    uint32_t tag;
    if (PBJ_LIKELY(it->end - it->p > 1 && *it->p == one_byte_tag)) {     /* the records in a row: a tag, a byte after it */
        size_t one = (size_t)(int8_t)it->p[1];                           /* a one-byte length that fits (as pbj__view_len) */
        if (PBJ_LIKELY(one < (size_t)(it->end - it->p - 1))) {
            it->left--;
            *at = it->p + 2;
            *len = one;
            it->p += 2 + one;
            return true;
        }
        it->p++, it->left--;
    } else if (!it->left || !pbj__view_record(it, &tag)) return false;  /* (no call at the end) */
    if (!(it->p = pbj__view_len(it->p, it->end, it->limit, len, &st))) return pbj__view_stop(it);
    *at = it->p;
    it->p += *len;
    return true;
}

/* The next string, bytes or message of a repeated field. */
PBJ_INLINE bool pbj_view_next_slice(pbj_view_iter *it, pbj_slice *out)
{
    const uint8_t *at;
    if (!pbj__view_next_payload(it, 0, &at, &out->len)) return false;
    out->data = out->len ? at : NULL;
    return true;
}

/* The next body of a repeated group: [*at, *at + *len). */
PBJ_INLINE bool pbj__view_next_group(pbj_view_iter *it, uint32_t one_byte_tag, const uint8_t **at, size_t *len)
{
    pbj_status st = PBJ_OK;
    uint32_t tag;
    const uint8_t *body_end;
    (void)one_byte_tag;
    if (!pbj__view_record(it, &tag)) return false;
    *at = it->p;
    if (!(it->p = pbj__view_group(it->p, it->end, tag, it->depth, &body_end, &st))) return pbj__view_stop(it);
    *len = (size_t)(body_end - *at);
    return true;
}

/* ---- extensions (gen-templates/viewext.tmpl) ----------------------------------------------------- */

/* The status of the view at depth of an extension's record at [at, at + len) (NULL: absent) of type t, st its scan's:
 * its extendee's view checked its fields' nesting, not its extensions' (pbj__view_nested), so this checks the levels
 * below it that its own scan does not (reach). */
PBJ_INLINE pbj_status pbj__view_ext_depth(pbj_status st, const pbj_table *t, const uint8_t *at, size_t len, uint32_t depth,
                                          uint32_t reach)
{
    if (st != PBJ_OK || !at || depth + reach <= PBJ_DEFAULT_MAX_DEPTH) return st;
    return depth > PBJ_DEFAULT_MAX_DEPTH ? PBJ_ERR_DEPTH : pbj__view_nested(t, at, at + len, depth);
}

/* The records of extension ranges a view's scan noted in slot s (from the first to the end of the last), read
 * as the records of one field of tag and packed_tag (0: none). */
PBJ_INLINE pbj_view_iter pbj__view_ext_items(const pbj_view *v, const pbj_view_slot *s, uint32_t tag, uint32_t packed_tag)
{
    pbj_view_iter it = pbj_view_items(v, s, tag, packed_tag);
    it.end = it.p + (s->n ? s->len : 0);
    return it;
}

/* The records of extension ranges a view's scan noted in slot s, as one slice (M_view_print reads them as M_print
 * reads the struct's extension records: rt/pbj_text.h). */
PBJ_INLINE pbj_slice pbj__view_ext_slice(const pbj_view *v, const pbj_view_slot *s)
{
    pbj_slice r = {s->n ? v->buf + s->v : NULL, s->n ? s->len : 0};
    return r;
}

/* The next message of a message set's item of type_id (group 1 { type_id = 2; message = 3 }, or a field of its
 * number; an item without both is dropped, as protobuf drops it): [*at, *at + *len). */
PBJ_INLINE bool pbj__view_next_item(pbj_view_iter *it, uint32_t type_id, const uint8_t **at, size_t *len)
{
    pbj_status st = PBJ_OK;
    pbj__ext_rec r;
    pbj_slice msg;
    uint32_t id;
    while (pbj__view_record(it, &r.tag)) {
        const uint8_t *body_end;
        r.number = r.tag >> 3;
        r.start = r.payload = it->p;
        if (r.tag == it->tag) it->p = pbj__view_group(it->p, it->end, r.tag, it->depth, &body_end, &st);
        else if ((it->p = pbj__view_len(it->p, it->end, it->limit, len, &st)) != NULL) it->p += *len;
        if (!it->p) return pbj__view_stop(it);
        r.end = it->p;
        if (pbj__msgset_parts(&r, &id, &msg) && id == type_id) {
            *at = msg.data;
            *len = msg.len;
            return true;
        }
    }
    return false;
}

#ifdef __cplusplus
}
#endif

#endif
