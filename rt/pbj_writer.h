/* pbj_writer.h: the output buffer and the order-checked writer state behind generated M_writer functions. */
#ifndef PBJ_WRITER_H
#define PBJ_WRITER_H

#include "pbj.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How many bytes a nested message's length gets before its body is written, in a growing buffer (a caller
 * block always reserves one). The output is canonical whatever the choice: when the length needs another
 * size the body moves (pbj_wbuf.moves counts it). */
typedef enum pbj_reserve {
    PBJ_RESERVE_ADAPTIVE = 0,     /* the size the type's last length needed (default) */
    PBJ_RESERVE_PER_TYPE = 1,     /* the size the type's largest length so far needed */
    PBJ_RESERVE_ONE_BYTE = 2      /* always one byte: bodies of 128 bytes or more move */
} pbj_reserve;

/* Writers open at once on one buffer (a top-level writer and its nested children). */
#ifndef PBJ_WRITER_DEPTH
#define PBJ_WRITER_DEPTH 128
#endif
#define PBJ__WLEARN 64            /* slots of the per-type length sizes learnt */
#define PBJ__WPACKED 0x80000000u  /* pbj_writer.pos while a packed record is open: | its field number */
#define PBJ__WDONE 0x7fffffffu    /* pbj_writer.pos after M_writer_from: only end may follow */

/* A message type's identity: the key of what the buffer learns about its lengths. */
typedef struct pbj_wtype {
    const char *name;
} pbj_wtype;

typedef struct pbj_wbuf pbj_wbuf;

/* One open writer. pos is 1 + the place of the last call: 2n after a singular field n, 2n - 1 after an
 * element of repeated field n, so a call for field n passes when pos - 1 < 2n (one compare); pos is 0
 * when the writer cannot take a field call at once (not started, ended, a child open, failed). */
typedef struct pbj_writer {
    pbj_wbuf *buf;
    uint32_t pos;
    uint32_t saved;               /* pos while a child is open */
    uint64_t oneofs;              /* a bit per oneof one of whose alternatives was written */
    uint64_t key;                 /* maps: the last key written, in an order unsigned compare keeps */
    size_t key_at, key_len;       /* maps with string keys: where the last key's bytes are */
    size_t rec_at;                /* where the record of this child starts (its tag) */
    size_t len_at;                /* where its reserved length is (packed records: packed_at) */
    size_t packed_at;             /* the reserved length of the open packed record */
    const pbj_wtype *type;
    uint32_t depth;               /* its frame: 0 top level */
    uint32_t end_tag;             /* groups: the end tag; else 0 */
    uint8_t reserved;             /* bytes reserved for the length */
    bool open;
} pbj_writer;

/* The output of writers: a caller block (PBJ_ERR_BUFFER when full) or, without one, memory from
 * PBJ_MALLOC that grows (kept across resets: no allocation once warm). The first failure of any writer
 * on it is sticky: status and failed keep it, every later call returns it, until pbj_wbuf_reset. */
struct pbj_wbuf {
    uint8_t *data;
    size_t len, cap;
    bool grows;                   /* data from PBJ_MALLOC */
    pbj_reserve reserve;
    pbj_status status;            /* the first failure, or PBJ_OK */
    const char *failed;           /* the field (full name) or function of the first failure */
    size_t moves;                 /* nested bodies moved to fit their length (never reset) */
    size_t item_at, item_len;     /* the record of the last direct child of a top-level writer to end */
    uint32_t depth;               /* writers open: top and child[1..depth) */
    pbj_writer *top;
    pbj_writer child[PBJ_WRITER_DEPTH];
    pbj_writer dead;              /* what a child call returns after a failure: every call on it fails */
    struct {
        const pbj_wtype *type;
        uint8_t last, max;
    } learn[PBJ__WLEARN];
};

/* block NULL: a buffer that grows through PBJ_MALLOC; else cap bytes at block, never more. */
PBJ_INLINE void pbj_wbuf_init(pbj_wbuf *b, void *block, size_t cap)
{
    memset(b, 0, sizeof *b);
    b->data = (uint8_t *)block;
    b->cap = block ? cap : 0;
    b->grows = block == NULL;
    b->dead.buf = b;
}

/* Forget the output and any failure; memory, the strategy and what was learnt stay. Child writers open
 * on b become dead; a top-level writer begun before must not be used again until started again (reset
 * never touches it: it may be gone). */
PBJ_INLINE void pbj_wbuf_reset(pbj_wbuf *b)
{
    b->len = 0;
    b->status = PBJ_OK;
    b->failed = NULL;
    for (uint32_t d = 1; d < b->depth; d++) b->child[d].open = false, b->child[d].pos = 0;
    b->depth = 0;
    b->top = NULL;
    b->item_at = b->item_len = 0;
}

PBJ_INLINE void pbj_wbuf_free(pbj_wbuf *b)
{
    if (b->grows) PBJ_FREE(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

PBJ_INLINE void pbj_wbuf_set_reserve(pbj_wbuf *b, pbj_reserve r) { b->reserve = r; }
PBJ_INLINE const uint8_t *pbj_wbuf_data(const pbj_wbuf *b) { return b->data; }
PBJ_INLINE size_t pbj_wbuf_len(const pbj_wbuf *b) { return b->len; }

/* ---- private: used by generated code ------------------------------------------------------------ */

PBJ_INLINE pbj_writer *pbj__wframe(pbj_wbuf *b, uint32_t d) { return d ? &b->child[d] : b->top; }

/* Record the first failure (what: a field's full name or a function); the open writer stops taking calls. */
PBJ_OUTLINE pbj_status pbj__wfail(pbj_writer *w, pbj_status st, const char *what)
{
    pbj_wbuf *b = w->buf;
    if (!b) return PBJ_ERR_ORDER;                 /* a writer never started: nowhere to record it */
    if (b->status != PBJ_OK) return b->status;
    b->status = st;
    b->failed = what;
    w->pos = 0;
    if (b->depth) pbj__wframe(b, b->depth - 1)->pos = 0;
    return st;
}

/* Room for n more bytes: where they go, or NULL after recording the failure. */
PBJ_OUTLINE uint8_t *pbj__wgrow(pbj_writer *w, size_t n)
{
    pbj_wbuf *b = w->buf;
    if (n > (size_t)INT32_MAX - b->len) return pbj__wfail(w, PBJ_ERR_SIZE, "pbj_wbuf"), (uint8_t *)NULL;
    if (!b->grows) return pbj__wfail(w, PBJ_ERR_BUFFER, "pbj_wbuf"), (uint8_t *)NULL;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) cap *= 2;
    uint8_t *d = (uint8_t *)PBJ_MALLOC(cap);
    if (!d) return pbj__wfail(w, PBJ_ERR_NOMEM, "pbj_wbuf"), (uint8_t *)NULL;
    if (b->len) memcpy(d, b->data, b->len);
    PBJ_FREE(b->data);
    b->data = d;
    b->cap = cap;
    return d + b->len;
}

PBJ_INLINE uint8_t *pbj__wroom(pbj_writer *w, size_t n)
{
    pbj_wbuf *b = w->buf;
    if (PBJ_LIKELY(b->cap - b->len >= n)) return b->data + b->len;
    return pbj__wgrow(w, n);
}

/* The bytes up to p are written. */
PBJ_INLINE pbj_status pbj__wdone(pbj_writer *w, uint8_t *p)
{
    w->buf->len = (size_t)(p - w->buf->data);
    return PBJ_OK;
}

/* The learnt length sizes of type t. */
PBJ_INLINE size_t pbj__wslot(const pbj_wtype *t) { return (size_t)(((uintptr_t)t >> 3) % PBJ__WLEARN); }

PBJ_INLINE uint8_t pbj__wreserve(pbj_wbuf *b, const pbj_wtype *t)
{
    size_t s = pbj__wslot(t);
    if (b->reserve == PBJ_RESERVE_ONE_BYTE || !b->grows || b->learn[s].type != t) return 1;  /* a caller block: */
    /* one byte, so the output never needs more room than its final size (bodies only move forward) */
    return b->reserve == PBJ_RESERVE_PER_TYPE ? b->learn[s].max : b->learn[s].last;
}

PBJ_INLINE void pbj__wlearn(pbj_wbuf *b, const pbj_wtype *t, uint8_t k)
{
    size_t s = pbj__wslot(t);
    if (b->learn[s].type != t) b->learn[s].type = t, b->learn[s].max = 0;
    b->learn[s].last = k;
    if (k > b->learn[s].max) b->learn[s].max = k;
}

/* The body after the reserved bytes at at needs k length bytes, not reserved: move it. */
PBJ_OUTLINE bool pbj__wmove(pbj_writer *w, size_t at, uint8_t reserved, size_t k)
{
    pbj_wbuf *b = w->buf;
    size_t body = at + reserved, len = b->len - body;
    if (k > reserved && !pbj__wroom(w, k - reserved)) return false;
    memmove(b->data + at + k, b->data + body, len);
    b->len = b->len + k - reserved;
    b->moves++;
    return true;
}

/* Write the length of the body after the reserved bytes at at (moved when it needs another size). */
PBJ_INLINE bool pbj__wpatch(pbj_writer *w, size_t at, uint8_t reserved, uint8_t *k_out)
{
    size_t len = w->buf->len - at - reserved, k = pbj_varint_size(len);
    if (PBJ_UNLIKELY(k != reserved) && !pbj__wmove(w, at, reserved, k)) return false;
    pbj_put_varint_n(w->buf->data + at, len, k);
    *k_out = (uint8_t)k;
    return true;
}

/* Close the packed record open on w. */
PBJ_INLINE bool pbj__wpacked_close(pbj_writer *w)
{
    uint8_t k;
    if (!pbj__wpatch(w, w->packed_at, 1, &k)) return false;
    w->pos = 2 * (w->pos & ~PBJ__WPACKED) + 1;
    return true;
}

/* End the innermost open writer of b: its length patched (or a group's end tag written). */
PBJ_INLINE bool pbj__wclose(pbj_wbuf *b)
{
    uint32_t d = b->depth - 1;
    pbj_writer *c = pbj__wframe(b, d);
    if ((c->pos & PBJ__WPACKED) && !pbj__wpacked_close(c)) return false;
    if (d && c->end_tag) {
        uint8_t *p = pbj__wroom(c, pbj_varint_size(c->end_tag));
        if (!p) return false;
        pbj__wdone(c, pbj_put_varint(p, c->end_tag));
    } else if (d) {
        uint8_t k;
        if (!pbj__wpatch(c, c->len_at, c->reserved, &k)) return false;
        pbj__wlearn(b, c->type, k);
    }
    c->open = false;
    c->pos = 0;
    b->depth = d;
    if (d == 1) b->item_at = c->rec_at, b->item_len = b->len - c->rec_at;
    if (d) pbj__wframe(b, d - 1)->pos = pbj__wframe(b, d - 1)->saved;
    else b->top = NULL;
    return true;
}

/* The slow path of a field call on w (key 2n for field n, bit its oneof's): a failure recorded, children
 * open on w ended, an open packed record closed, then the order and the oneof checked. */
PBJ_INLINE pbj_status pbj__wgate(pbj_writer *w, uint32_t key, uint64_t bit, const char *field)
{
    pbj_wbuf *b = w->buf;
    if (!b) return PBJ_ERR_ORDER;
    if (b->status != PBJ_OK) return b->status;
    if (!w->open || w->depth >= b->depth || pbj__wframe(b, w->depth) != w) return pbj__wfail(w, PBJ_ERR_ORDER, field);
    while (b->depth > w->depth + 1)
        if (!pbj__wclose(b)) return b->status;
    if ((w->pos & PBJ__WPACKED) && !pbj__wpacked_close(w)) return b->status;
    if (w->pos - 1 >= key || (w->oneofs & bit)) return pbj__wfail(w, PBJ_ERR_ORDER, field);
    return PBJ_OK;
}

/* A field call's check: field n (key 2n) may be written now. */
PBJ_INLINE pbj_status pbj__wcheck(pbj_writer *w, uint32_t key, uint64_t bit, const char *field)
{
    if (PBJ_LIKELY(w->pos - 1 < key && !(w->oneofs & bit))) return PBJ_OK;
    return pbj__wgate(w, key, bit, field);
}

/* Open a child writer after its tag (a group's end tag end_tag, else a length is reserved). */
PBJ_INLINE pbj_writer *pbj__wchild(pbj_writer *w, const pbj_wtype *t, uint32_t tag, uint32_t end_tag, const char *field)
{
    pbj_wbuf *b = w->buf;
    if (PBJ_UNLIKELY(b->depth >= PBJ_WRITER_DEPTH)) return pbj__wfail(w, PBJ_ERR_DEPTH, field), &b->dead;
    uint8_t r = end_tag ? 0 : pbj__wreserve(b, t);
    uint8_t *p = pbj__wroom(w, pbj_varint_size(tag) + r);
    if (!p) return &b->dead;
    pbj_writer *c = &b->child[b->depth];
    c->buf = b;
    c->rec_at = b->len;
    p = pbj_put_varint(p, tag);
    c->len_at = (size_t)(p - b->data);
    pbj__wdone(w, p + r);
    c->pos = 1;
    c->oneofs = 0;
    c->type = t;
    c->depth = b->depth++;
    c->end_tag = end_tag;
    c->reserved = r;
    c->open = true;
    w->saved = w->pos;
    w->pos = 0;
    return c;
}

/* The child a call returns when its check failed: a dead writer every call on fails. */
PBJ_INLINE pbj_writer *pbj__wdead(pbj_writer *w)
{
    static pbj_writer never;                      /* for a writer never started (no buffer) */
    return w->buf ? &w->buf->dead : &never;
}

/* Open a packed record of field n (tag bytes tag_len at tag) on w; its length gets one byte. */
PBJ_INLINE uint8_t *pbj__wpacked_open(pbj_writer *w, uint32_t tag, uint32_t n)
{
    uint8_t *p = pbj__wroom(w, pbj_varint_size(tag) + 1);
    if (!p) return NULL;
    p = pbj_put_varint(p, tag);
    w->packed_at = (size_t)(p - w->buf->data);
    w->pos = PBJ__WPACKED | n;
    return p + 1;
}

/* A message or group's already-encoded body (end_tag 0: length-delimited). */
PBJ_INLINE uint8_t *pbj__wframed(uint8_t *p, uint32_t end_tag, const void *data, size_t len)
{
    if (!end_tag) p = pbj_put_varint(p, len);
    if (len) memcpy(p, data, len);
    p += len;
    return end_tag ? pbj_put_varint(p, end_tag) : p;
}

/* Maps: the key of a new entry of the map (key 2n) must follow the last one; string keys compare their
 * bytes (data, len), other keys ord. */
PBJ_INLINE bool pbj__wkey_after(const pbj_writer *w, uint32_t key, uint64_t ord, const uint8_t *data, size_t len)
{
    if (w->pos != key) return true;               /* the map's first entry */
    if (!data) return ord > w->key;
    pbj_slice last = pbj_slice_make(w->buf->data + w->key_at, w->key_len);
    return pbj_slice_cmp(last, pbj_slice_make(data, len)) < 0;
}

/* Start writer w of type t on b: PBJ_ERR_ORDER if another top-level writer is open on b. */
PBJ_INLINE pbj_status pbj__wstart(pbj_writer *w, pbj_wbuf *b, const pbj_wtype *t)
{
    memset(w, 0, sizeof *w);
    w->buf = b;
    if (b->status != PBJ_OK) return b->status;
    if (b->depth) return pbj__wfail(w, PBJ_ERR_ORDER, t->name);
    w->pos = 1;
    w->type = t;
    w->open = true;
    b->top = w;
    b->depth = 1;
    return PBJ_OK;
}

/* End w (and every writer open inside it): a child's length is patched. */
PBJ_INLINE pbj_status pbj__wend(pbj_writer *w)
{
    pbj_wbuf *b = w->buf;
    if (!b) return PBJ_ERR_ORDER;
    if (b->status != PBJ_OK) return b->status;
    if (!w->open || w->depth >= b->depth || pbj__wframe(b, w->depth) != w) return pbj__wfail(w, PBJ_ERR_ORDER, w->type ? w->type->name : "end");
    while (b->depth > w->depth)
        if (!pbj__wclose(b)) return b->status;
    return PBJ_OK;
}

#ifdef __cplusplus
}
#endif

#endif
