/* pbj_view.h: read-only views (pbj.views): a message's fields read straight from its encoded bytes, no allocation. */
#ifndef PBJ_VIEW_H
#define PBJ_VIEW_H

#include "pbj.h"

/* A view is made by one forward pass over a message's bytes (M_view_init) that checks every record of
 * that message and notes where each known field lies: singular fields keep their last value (numbers
 * already read, strings, bytes and messages as an offset and a length, wrappers unboxed), repeated fields
 * their first record and record count. Accessors then read the notes; repeated fields are walked by an
 * iterator. What init checks, for the message's own level: tags, varints, lengths (each at most
 * PBJ_DEFAULT_MAX_LENGTH and inside the bytes), fixed widths, packed runs, UTF-8 of proto3 strings,
 * wrapper payloads, groups (matched, at most PBJ_DEFAULT_MAX_DEPTH deep) and unknown fields; a known
 * number with a wire type it cannot have is PBJ_ERR_WIRE_TYPE, as decode says. A nested message is
 * checked when its own view is made from the parent's (the accessor or the iterator reports the status),
 * so a view costs one pass over its own level and nesting costs nothing until it is read. Accessors and
 * iterators check every read again against the bytes' end, so even a view used without looking at
 * init's status reads nothing outside the buffer. The caller keeps the bytes alive and unchanged. */

/* How the scan reads a known field (a table row's kind). */
#define PBJ_VIEW_KINDS(X)                                                    \
    X(VALUE)          /* varint or fixed: the value itself */                 \
    X(SLICE)          /* string, bytes, message: offset and length */         \
    X(UTF8)           /* a proto3 string: the same, checked */                \
    X(GROUP)          /* a group: its body */                                 \
    X(WRAPPER)        /* google.protobuf.XxxValue: the wrapped value */        \
    X(WRAPPER_UTF8)   /* StringValue: the wrapped string, checked */

typedef enum pbj_view_kind {
#define PBJ__VIEW_KIND(K) PBJ_VIEW_##K,
    PBJ_VIEW_KINDS(PBJ__VIEW_KIND)
#undef PBJ__VIEW_KIND
} pbj_view_kind;

/* One known field of a message (the generated M__view_fields, by number). */
typedef struct pbj_view_field {
    uint32_t number;
    uint32_t tag;                 /* the tag of one value (groups: the start tag) */
    uint32_t packed_tag;          /* repeated packable: the tag of a packed run; else 0 */
    uint32_t inner_tag;           /* wrappers: the tag of the wrapped value */
    uint8_t kind;                 /* pbj_view_kind */
    bool repeated;
    int16_t oneof;                /* index of its oneof in the view's cases, or -1 */
    const char *(*known)(int32_t);  /* closed enums: NULL for a value with no name (skipped, as decode does) */
} pbj_view_field;

typedef struct pbj_view_table {
    const pbj_view_field *fields;
    uint32_t count;               /* fields */
    uint32_t oneofs;              /* real oneofs: the cases the view keeps */
} pbj_view_table;

/* Where a field lies: singular: its value (v: the number, or the offset of its bytes; len: their length);
 * repeated: v is the offset of its first record and n how many records there are. n == 0: absent. */
typedef struct pbj_view_slot {
    uint64_t v;
    uint32_t len;
    uint32_t n;
} pbj_view_slot;

/* The bytes a view reads. */
typedef struct pbj_view {
    const uint8_t *buf;
    size_t len;
} pbj_view;

/* A repeated field's values, in the order written (packed and unpacked runs alike). */
typedef struct pbj_view_iter {
    const uint8_t *p, *end;       /* records still to look at */
    const uint8_t *run, *run_end; /* the packed run being read */
    const pbj_view_field *f;
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

PBJ_INLINE void pbj__view_decoder(pbj_decoder *d)
{
    pbj_decoder_init(d, NULL, NULL);
    d->alias = true;                               /* nothing is ever copied or allocated */
}

/* The row of tag in t, or NULL; *wrong set when the number is known with another wire type. */
PBJ_OUTLINE const pbj_view_field *pbj__view_find(const pbj_view_table *t, uint32_t tag, bool *wrong)
{
    size_t lo = 0, hi = t->count;
    uint32_t number = tag >> 3;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->fields[mid].number < number) lo = mid + 1;
        else hi = mid;
    }
    if (lo == t->count || t->fields[lo].number != number) return NULL;
    const pbj_view_field *f = &t->fields[lo];
    if (tag == f->tag || (f->packed_tag && tag == f->packed_tag)) return f;
    *wrong = true;
    return NULL;
}

/* A packed run's payload [p, end): whole values only. */
PBJ_INLINE pbj_status pbj__view_check_run(const uint8_t *p, const uint8_t *end, uint32_t tag)
{
    size_t width = (tag & 7) == PBJ_WT_I32 ? 4 : (tag & 7) == PBJ_WT_I64 ? 8 : 0;
    if (width) return (size_t)(end - p) % width ? PBJ_ERR_TRUNCATED : PBJ_OK;
    for (uint64_t v; p < end;)
        if (!(p = pbj_get_varint(p, end, &v))) return PBJ_ERR_VARINT;
    return PBJ_OK;
}

/* One value of wire type tag & 7 at p (its tag read): numbers in *num, bytes as [*at, *at + *len).
 * Returns the byte after it, or NULL with *st set. */
PBJ_INLINE const uint8_t *pbj__view_value(const uint8_t *p, const uint8_t *end, uint32_t tag, const pbj_decoder *d,
                                          uint64_t *num, const uint8_t **at, size_t *len, pbj_status *st)
{
    uint32_t u32 = 0;
    const uint8_t *q;
    switch (tag & 7) {
    case PBJ_WT_VARINT:
        if (PBJ_LIKELY(p < end && *p < 0x80)) {
            *num = *p;
            return p + 1;
        }
        return pbj_get_varint_st(p, end, num, st);
    case PBJ_WT_I32:
        if (!(q = pbj_get_fixed32(p, end, &u32))) *st = PBJ_ERR_TRUNCATED;
        *num = u32;
        return q;
    case PBJ_WT_I64:
        if (!(q = pbj_get_fixed64(p, end, num))) *st = PBJ_ERR_TRUNCATED;
        return q;
    case PBJ_WT_LEN:
        if (!(p = pbj_get_len(p, end, d, len, st))) return NULL;
        *at = p;
        return p + *len;
    default:                                       /* a group: its body, up to its end tag */
        *at = p;
        if (!(q = pbj_group_body(p, end, tag, d, &p, st))) return NULL;
        *len = (size_t)(p - *at);
        return q;
    }
}

/* Read the record of known field f whose tag ended at p into its slot s (and the oneof cases). */
PBJ_INLINE const uint8_t *pbj__view_field(const pbj_view *v, const pbj_view_field *f, pbj_view_slot *s, uint32_t *cases,
                                          const uint8_t *start, const uint8_t *p, const uint8_t *end, uint32_t tag,
                                          const pbj_decoder *d, pbj_status *st)
{
    uint64_t num = 0;
    const uint8_t *at = NULL;
    size_t len = 0;
    if (!(p = pbj__view_value(p, end, tag, d, &num, &at, &len, st))) return NULL;
    if (f->kind == PBJ_VIEW_UTF8 && !pbj_utf8_valid(at, len)) {
        *st = PBJ_ERR_UTF8;
        return NULL;
    }
    if (f->repeated) {
        if (tag == f->packed_tag && (*st = pbj__view_check_run(at, at + len, f->tag)) != PBJ_OK) return NULL;
        if (s->n++ == 0) s->v = (uint64_t)(start - v->buf);
        return p;
    }
    if (f->known && !f->known((int32_t)num)) return p;   /* a closed enum's unknown value: not this field's */
    if (f->kind >= PBJ_VIEW_WRAPPER) {
        bool bytes = (f->inner_tag & 7) == PBJ_WT_LEN;
        pbj_slice str = bytes ? pbj_view_slice(v, s) : pbj_view_empty();
        uint64_t inner = bytes ? 0 : s->v;
        pbj_decoder wd = *d;
        if ((*st = pbj_decode_wrapper(at, at + len, &wd, f->inner_tag, &inner, &str, f->kind == PBJ_VIEW_WRAPPER_UTF8)) != PBJ_OK)
            return NULL;
        at = bytes ? str.data : NULL;
        len = bytes ? str.len : 0;
        num = inner;
    }
    s->v = at ? (uint64_t)(at - v->buf) : num;
    s->len = (uint32_t)len;
    s->n = 1;
    if (f->oneof >= 0) cases[f->oneof] = f->number;
    return p;
}

/* Scan buf[0..len) for table t: the slots and oneof cases of a view (M_view_init). */
PBJ_INLINE pbj_status pbj_view_scan(pbj_view *v, const pbj_view_table *t, pbj_view_slot *slots, uint32_t *cases,
                                    const uint8_t *buf, size_t len)
{
    pbj_decoder d;
    pbj_status st = PBJ_OK;
    const uint8_t *p = buf, *end = buf + len;
    size_t next = 0;                               /* the row expected next: fields come in number order */
    if (!buf) buf = (const uint8_t *)"";           /* an absent message: no bytes (and no arithmetic on NULL) */
    memset(slots, 0, t->count * sizeof *slots);
    memset(cases, 0, t->oneofs * sizeof *cases);
    v->buf = buf;
    v->len = len;
    pbj__view_decoder(&d);
    while (p < end) {
        const uint8_t *start = p;
        uint32_t tag;
        if (!(p = pbj_get_tag(p, end, &tag, &st))) return st;
        const pbj_view_field *f = NULL;
        for (size_t j = next; j < t->count && j < next + 4; j++)   /* the field expected, or one a few absent fields on */
            if (tag == t->fields[j].tag || tag == t->fields[j].packed_tag) {
                f = &t->fields[j];
                break;
            }
        if (!f) {
            bool wrong = false;
            if (!(f = pbj__view_find(t, tag, &wrong))) {
                if (wrong) return PBJ_ERR_WIRE_TYPE;
                if (!(p = pbj_skip_field(p, end, tag, &d, d.depth_left, &st))) return st;
                continue;
            }
        }
        size_t i = (size_t)(f - t->fields);
        if (!(p = pbj__view_field(v, f, &slots[i], cases, start, p, end, tag, &d, &st))) return st;
        next = f->repeated ? i : i + 1;
    }
    return PBJ_OK;
}

/* ---- repeated fields ----------------------------------------------------------------------------- */

PBJ_INLINE pbj_view_iter pbj_view_items(const pbj_view *v, const pbj_view_field *f, const pbj_view_slot *s)
{
    pbj_view_iter it;
    it.p = s->n ? v->buf + s->v : v->buf + v->len;
    it.end = v->buf + v->len;
    it.run = it.run_end = NULL;
    it.f = f;
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

/* The next record of the field: its tag in *tag, p after it; false at the end. */
PBJ_INLINE bool pbj__view_record(pbj_view_iter *it, uint32_t *tag)
{
    pbj_decoder d;
    pbj_status st = PBJ_OK;
    pbj__view_decoder(&d);
    while (it->left && it->p < it->end) {
        if (!(it->p = pbj_get_tag(it->p, it->end, tag, &st))) break;
        if (*tag == it->f->tag || *tag == it->f->packed_tag) {
            it->left--;
            return true;
        }
        if (!(it->p = pbj_skip_field(it->p, it->end, *tag, &d, d.depth_left, &st))) break;
    }
    return pbj__view_stop(it);
}

/* The next number of a repeated numeric field (as on the wire: varint, or the fixed bits). */
PBJ_INLINE bool pbj_view_next_value(pbj_view_iter *it, uint64_t *out)
{
    pbj_decoder d;
    pbj_status st = PBJ_OK;
    const uint8_t *at = NULL;
    size_t len = 0;
    pbj__view_decoder(&d);
    for (;;) {
        uint32_t tag;
        if (it->run < it->run_end) {
            if (!(it->run = pbj__view_value(it->run, it->run_end, it->f->tag, &d, out, &at, &len, &st))) return pbj__view_stop(it);
        } else {
            if (!pbj__view_record(it, &tag)) return false;
            if (!(it->p = pbj__view_value(it->p, it->end, tag, &d, out, &at, &len, &st))) return pbj__view_stop(it);
            if (tag == it->f->packed_tag) {
                it->run = at;
                it->run_end = at + len;
                continue;
            }
        }
        if (!it->f->known || it->f->known((int32_t)*out)) return true;
    }
}

/* The next string, bytes, message or group body of a repeated field. */
PBJ_INLINE bool pbj_view_next_slice(pbj_view_iter *it, pbj_slice *out)
{
    pbj_decoder d;
    pbj_status st = PBJ_OK;
    uint32_t tag;
    uint64_t num;
    const uint8_t *at = NULL;
    size_t len = 0;
    pbj__view_decoder(&d);
    if (!pbj__view_record(it, &tag)) return false;
    if (!(it->p = pbj__view_value(it->p, it->end, tag, &d, &num, &at, &len, &st))) return pbj__view_stop(it);
    out->data = len ? at : NULL;
    out->len = len;
    return true;
}

#endif
