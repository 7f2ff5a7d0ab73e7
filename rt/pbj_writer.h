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

/* The writers' fast paths: always inline, so that a field call costs a compare and a room check. */
#if defined(__GNUC__) || defined(__clang__)
#define PBJ_WINLINE static inline __attribute__((always_inline))
#else
#define PBJ_WINLINE static inline
#endif

/* Writers open at once on one buffer (a top-level writer and its nested children). */
#ifndef PBJ_WRITER_DEPTH
#define PBJ_WRITER_DEPTH 128
#endif
#define PBJ__WLEARN 256           /* slots of the per-type length sizes learnt (types share a slot by address) */
#define PBJ__WPACKED 0x80000000u  /* pbj_writer.pos while a packed record is open: | its field number */
#define PBJ__WDONE 0x7fffffffu    /* pbj_writer.pos after M_writer_from: only end may follow */

/* A message type's identity: the key of what the buffer learns about its lengths. */
typedef struct pbj_wtype {
    const char *name;
    uint64_t required;            /* the bits of pbj_writer.oneofs its required fields' calls set */
    uint32_t first;               /* the first of those bits (after its oneofs') */
    const char *const *required_names;   /* the full name of the field of bit first + i */
} pbj_wtype;

typedef struct pbj_wbuf pbj_wbuf;

/* One open writer. pos is 1 + the place of the last call: 2n after a singular field n, 2n - 1 after an
 * element of repeated field n, so a call for field n passes when pos - 1 < 2n (one compare); pos is 0
 * when the writer cannot take a field call at once (not started, ended, a child open, failed). A child
 * writer is a frame of its buffer: frame d's parent is frame d - 1 (frame 1's: the top-level writer). */
typedef struct pbj_writer {
    pbj_wbuf *buf;
    uint32_t pos;
    uint32_t saved;               /* pos while a child is open */
    uint64_t oneofs;              /* a bit per oneof one of whose alternatives was written, then per
                                   * required field written (pbj_wtype.required) */
    struct pbj_writer *up;        /* the parent (NULL: a top-level writer) */
    struct pbj_writer *next;      /* the frame a child opens in (NULL: the deepest) */
    size_t len_at;                /* where its reserved length is (groups: the end tag) */
    size_t rec_at;                /* where the record of this child starts (its tag) */
    size_t packed_at;             /* the reserved length of the open packed record */
    uint64_t key;                 /* maps: the last key written, in an order unsigned compare keeps */
    size_t key_at, key_len;       /* maps with string keys: where the last key's bytes are */
    const pbj_wtype *type;
    uint32_t depth;               /* its frame: 0 top level */
    uint8_t reserved;             /* bytes reserved for the length: 0 for a group and a top-level writer */
    bool open;
} pbj_writer;

/* The output of writers: a caller block (PBJ_ERR_BUFFER when full) or, without one, memory from
 * PBJ_MALLOC that grows (kept across resets: no allocation once warm). The first failure of any writer
 * on it is sticky: status and failed keep it, every later call returns it, until pbj_wbuf_reset.
 * A pbj_wbuf must not be copied once initialised (its frames point into it). */
struct pbj_wbuf {
    uint8_t *data;
    size_t len, cap;
    bool grows;                   /* data from PBJ_MALLOC */
    pbj_reserve reserve;
    pbj_status status;            /* the first failure, or PBJ_OK */
    const char *failed;           /* the field (full name) or function of the first failure */
    size_t moves;                 /* nested bodies moved to fit their length (never reset) */
    size_t item_at, item_len;     /* the record of the last direct child of a top-level writer to end */
    pbj_writer *top;              /* the open top-level writer, or NULL */
    pbj_writer child[PBJ_WRITER_DEPTH];   /* frames 1..: children (0 unused) */
    pbj_writer dead;              /* what a child call returns after a failure: every call on it fails */
    uint8_t learn[PBJ__WLEARN];   /* the length bytes to reserve per type slot (1 until learnt) */
};

/* block NULL: a buffer that grows through PBJ_MALLOC; else cap bytes at block, never more. */
PBJ_INLINE void pbj_wbuf_init(pbj_wbuf *b, void *block, size_t cap)
{
    memset(b, 0, sizeof *b);
    b->data = (uint8_t *)block;
    b->cap = block ? cap : 0;
    b->grows = block == NULL;
    b->dead.buf = b;
    memset(b->learn, 1, sizeof b->learn);
    for (uint32_t d = 1; d < PBJ_WRITER_DEPTH; d++) {
        b->child[d].buf = b;
        b->child[d].depth = d;
        b->child[d].up = d > 1 ? &b->child[d - 1] : NULL;
        b->child[d].next = d + 1 < PBJ_WRITER_DEPTH ? &b->child[d + 1] : NULL;
    }
}

/* Forget the output and any failure; memory, the strategy and what was learnt stay. Child writers open
 * on b become dead; a top-level writer begun before must not be used again until started again (reset
 * never touches it: it may be gone). */
PBJ_INLINE void pbj_wbuf_reset(pbj_wbuf *b)
{
    b->len = 0;
    b->status = PBJ_OK;
    b->failed = NULL;
    for (pbj_writer *c = &b->child[1]; c && c->open; c = c->next) c->open = false, c->pos = 0;
    b->top = NULL;
    b->item_at = b->item_len = 0;
}

PBJ_INLINE void pbj_wbuf_free(pbj_wbuf *b)
{
    if (b->grows) PBJ_FREE(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* The strategy of the reservations to come: what was learnt is forgotten. */
PBJ_INLINE void pbj_wbuf_set_reserve(pbj_wbuf *b, pbj_reserve r)
{
    b->reserve = r;
    memset(b->learn, 1, sizeof b->learn);
}
PBJ_INLINE const uint8_t *pbj_wbuf_data(const pbj_wbuf *b) { return b->data; }
PBJ_INLINE size_t pbj_wbuf_len(const pbj_wbuf *b) { return b->len; }

/* ---- private: used by generated code ------------------------------------------------------------ */

/* The innermost writer open on b (NULL: none). */
PBJ_INLINE pbj_writer *pbj__winner(pbj_wbuf *b)
{
    pbj_writer *w = b->top;
    while (w && w->next && w->next->open) w = w->next;
    return w;
}

/* Record the first failure (what: a field's full name or a function); the open writer stops taking calls. */
PBJ_OUTLINE pbj_status pbj__wfail(pbj_writer *w, pbj_status st, const char *what)
{
    pbj_wbuf *b = w->buf;
    if (!b) return PBJ_ERR_ORDER;                 /* a writer never started: nowhere to record it */
    if (b->status != PBJ_OK) return b->status;
    b->status = st;
    b->failed = what;
    w->pos = 0;
    pbj_writer *inner = pbj__winner(b);
    if (inner) inner->pos = 0;
    return st;
}

/* Room for n more bytes: where they go, or NULL after recording the failure. */
PBJ_OUTLINE uint8_t *pbj__wgrow(pbj_writer *w, size_t n)
{
    pbj_wbuf *b = w->buf;
    if (b->cap - b->len >= n) return b->data + b->len;
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

PBJ_WINLINE uint8_t *pbj__wroom(pbj_writer *w, size_t n)
{
    pbj_wbuf *b = w->buf;
    if (PBJ_LIKELY(b->cap - b->len >= n)) return b->data + b->len;
    return pbj__wgrow(w, n);
}

/* Room for at most most bytes (a bound the compiler knows), else for exactly n. */
PBJ_WINLINE uint8_t *pbj__wroom2(pbj_writer *w, size_t most, size_t n)
{
    pbj_wbuf *b = w->buf;
    if (PBJ_LIKELY(b->cap - b->len >= most)) return b->data + b->len;
    return pbj__wgrow(w, n);
}

/* The bytes up to p are written. */
PBJ_WINLINE pbj_status pbj__wdone(pbj_writer *w, uint8_t *p)
{
    w->buf->len = (size_t)(p - w->buf->data);
    return PBJ_OK;
}

/* The learnt length size slot of type t. */
PBJ_WINLINE uint8_t *pbj__wslot(pbj_wbuf *b, const pbj_wtype *t)
{
    return &b->learn[((uintptr_t)t / sizeof *t) % PBJ__WLEARN];
}

/* The body after the reserved bytes at at needs k length bytes, not reserved: move it, and learn k for
 * type t when not NULL (ADAPTIVE: the last size, PER_TYPE: the largest; a caller block and ONE_BYTE always
 * take 1, so the output never needs more room than its final size: bodies only move forward). */
PBJ_OUTLINE bool pbj__wmove(pbj_writer *w, size_t at, uint8_t reserved, size_t k, const pbj_wtype *t)
{
    pbj_wbuf *b = w->buf;
    size_t body = at + reserved, len = b->len - body;
    if (k > reserved && !pbj__wroom(w, k - reserved)) return false;
    memmove(b->data + at + k, b->data + body, len);
    b->len = b->len + k - reserved;
    b->moves++;
    if (t && b->grows && b->reserve != PBJ_RESERVE_ONE_BYTE) {
        uint8_t *slot = pbj__wslot(b, t);
        if (b->reserve == PBJ_RESERVE_ADAPTIVE || k > *slot) *slot = (uint8_t)k;
    }
    return true;
}

/* Write the length of the body after the reserved bytes at at (moved when it needs another size, learnt
 * for type t). */
PBJ_INLINE bool pbj__wpatch(pbj_writer *w, size_t at, uint8_t reserved, const pbj_wtype *t)
{
    size_t len = w->buf->len - at - reserved, k = pbj_varint_size(len);
    if (PBJ_UNLIKELY(k != reserved) && !pbj__wmove(w, at, reserved, k, t)) return false;
    pbj_put_varint_n(w->buf->data + at, len, k);
    return true;
}

/* Close the packed record open on w. */
PBJ_INLINE bool pbj__wpacked_close(pbj_writer *w)
{
    if (!pbj__wpatch(w, w->packed_at, 1, NULL)) return false;
    w->pos = 2 * (w->pos & ~PBJ__WPACKED) + 1;
    return true;
}

/* PBJ_ERR_REQUIRED naming the first required field of type t that w has not written. */
PBJ_OUTLINE pbj_status pbj__wmissing(pbj_writer *w, const pbj_wtype *t)
{
    uint32_t bit = t->first;
    while (w->oneofs & t->required & (UINT64_C(1) << bit)) bit++;
    return pbj__wfail(w, PBJ_ERR_REQUIRED, t->required_names[bit - t->first]);
}

/* A child's record is complete: it is closed and its parent takes calls again. */
PBJ_WINLINE void pbj__wclosed(pbj_writer *c)
{
    pbj_wbuf *b = c->buf;
    pbj_writer *up = c->up;
    c->open = false;
    c->pos = 0;
    up->pos = up->saved;
    if (PBJ_UNLIKELY(c->depth == 1)) b->item_at = c->rec_at, b->item_len = b->len - c->rec_at;
}

/* End writer c, open, innermost and not failed: an open packed record closed, a length patched or a
 * group's end tag written. */
PBJ_OUTLINE bool pbj__wclose(pbj_writer *c)
{
    pbj_wbuf *b = c->buf;
    if (c->type && (c->oneofs & c->type->required) != c->type->required) return pbj__wmissing(c, c->type), false;
    if ((c->pos & PBJ__WPACKED) && !pbj__wpacked_close(c)) return false;
    if (!c->up) {                                 /* the top-level writer */
        c->open = false;
        c->pos = 0;
        b->top = NULL;
        return true;
    }
    if (c->reserved == 0) {                       /* a group: its end tag */
        uint8_t *p = pbj__wroom(c, pbj_varint_size(c->len_at));
        if (!p) return false;
        pbj__wdone(c, pbj_put_varint(p, c->len_at));
    } else if (!pbj__wpatch(c, c->len_at, c->reserved, c->type)) {
        return false;
    }
    pbj__wclosed(c);
    return true;
}

/* End the writers open inside w, innermost first. */
PBJ_INLINE bool pbj__wclose_below(pbj_writer *w)
{
    while (w->next && w->next->open) {
        pbj_writer *c = w->next;
        while (c->next && c->next->open) c = c->next;
        if (!pbj__wclose(c)) return false;
    }
    return true;
}

/* w, a writer that may be stale: PBJ_OK when it is open and its buffer has not failed. */
PBJ_INLINE pbj_status pbj__wlive(pbj_writer *w, const char *what)
{
    pbj_wbuf *b = w->buf;
    if (!b) return PBJ_ERR_ORDER;
    if (b->status != PBJ_OK) return b->status;
    if (!w->open) return pbj__wfail(w, PBJ_ERR_ORDER, what);
    return PBJ_OK;
}

/* The slow path of a field call on w (key 2n for field n, bit its oneof's): a failure recorded, children
 * open on w ended, an open packed record closed, then the order and the oneof checked. */
PBJ_OUTLINE pbj_status pbj__wgate(pbj_writer *w, uint32_t key, uint64_t bit, const char *field)
{
    pbj_status st = pbj__wlive(w, field);
    if (st != PBJ_OK) return st;
    if (!pbj__wclose_below(w)) return w->buf->status;
    if ((w->pos & PBJ__WPACKED) && !pbj__wpacked_close(w)) return w->buf->status;
    if (w->pos - 1 >= key || (w->oneofs & bit)) return pbj__wfail(w, PBJ_ERR_ORDER, field);
    return PBJ_OK;
}

/* A field call's check: field n (key 2n) may be written now. */
PBJ_WINLINE pbj_status pbj__wcheck(pbj_writer *w, uint32_t key, uint64_t bit, const char *field)
{
    if (PBJ_LIKELY(w->pos - 1 < key && !(w->oneofs & bit))) return PBJ_OK;
    return pbj__wgate(w, key, bit, field);
}

/* Open child c of w of type t at p (after its tag), r length bytes reserved (0: a group, end_tag kept);
 * w takes calls again from wpos once c ends. */
PBJ_WINLINE pbj_writer *pbj__wopened(pbj_writer *w, pbj_writer *c, uint8_t *p, const pbj_wtype *t, uint8_t r, uint32_t end_tag,
                                     uint32_t wpos)
{
    pbj_wbuf *b = w->buf;
    size_t at = (size_t)(p - b->data);
    c->rec_at = b->len;
    c->len_at = end_tag ? end_tag : at;
    b->len = at + r;
    c->reserved = r;
    c->pos = 1;
    c->oneofs = 0;
    c->type = t;
    c->open = true;
    w->saved = wpos;
    w->pos = 0;
    return c;
}

/* Open a child writer after its tag (a group's end tag end_tag, else a length is reserved). */
PBJ_OUTLINE pbj_writer *pbj__wchild(pbj_writer *w, const pbj_wtype *t, uint32_t tag, uint32_t end_tag, const char *field)
{
    pbj_wbuf *b = w->buf;
    pbj_writer *c = w->next;
    if (PBJ_UNLIKELY(!c)) return pbj__wfail(w, PBJ_ERR_DEPTH, field), &b->dead;
    uint8_t r = end_tag ? 0 : *pbj__wslot(b, t);
    uint8_t *p = pbj__wroom(w, pbj_varint_size(tag) + r);
    if (!p) return &b->dead;
    return pbj__wopened(w, c, pbj_put_varint(p, tag), t, r, end_tag, w->pos);
}

/* The child a call returns when its check failed: a dead writer every call on fails. */
PBJ_INLINE pbj_writer *pbj__wdead(pbj_writer *w)
{
    static pbj_writer never;                      /* for a writer never started (no buffer) */
    return w->buf ? &w->buf->dead : &never;
}

/* The slow path of opening a child (field key, pos after it wpos, oneof bit): checked as a field call. */
PBJ_OUTLINE pbj_writer *pbj__wopen_slow(pbj_writer *w, uint32_t key, uint32_t wpos, uint64_t bit, const char *field,
                                        const pbj_wtype *t, uint32_t tag, uint32_t end_tag)
{
    if (pbj__wgate(w, key, bit, field) != PBJ_OK) return pbj__wdead(w);
    w->pos = wpos;                                /* the caller marks its oneof */
    return pbj__wchild(w, t, tag, end_tag, field);
}

/* The fast path of opening a child for field key: where its tag goes (room for tag_len bytes and the
 * longest reservation), or NULL when the call is out of order, too deep or needs room. */
PBJ_WINLINE uint8_t *pbj__wopen_at(pbj_writer *w, uint32_t key, uint64_t bit, size_t tag_len)
{
    pbj_wbuf *b = w->buf;
    if (PBJ_UNLIKELY(w->pos - 1 >= key || (w->oneofs & bit) || !w->next)) return NULL;
    if (PBJ_UNLIKELY(b->cap - b->len < tag_len + 5)) return NULL;
    return b->data + b->len;
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
    if (b->top) return pbj__wfail(w, PBJ_ERR_ORDER, t->name);
    w->pos = 1;
    w->type = t;
    w->open = true;
    w->next = &b->child[1];
    b->child[1].up = w;
    b->top = w;
    return PBJ_OK;
}

/* The slow path of end: w checked, the writers open inside it ended, then w. */
PBJ_OUTLINE pbj_status pbj__wend_slow(pbj_writer *w)
{
    pbj_status st = pbj__wlive(w, w->type ? w->type->name : "end");
    if (st != PBJ_OK) return st;
    if (!pbj__wclose_below(w) || !pbj__wclose(w)) return w->buf->status;
    return PBJ_OK;
}

/* End w (and every writer open inside it): a child's length is patched, its required fields (bits
 * required) checked. The fast path: a child taking calls (none open inside it, no packed record open)
 * with its required fields whose body fits the one byte reserved. */
PBJ_WINLINE pbj_status pbj__wend(pbj_writer *w, uint64_t required)
{
    if (PBJ_LIKELY(w->pos - 1 < PBJ__WDONE && w->reserved == 1 && (w->oneofs & required) == required)) {
        pbj_wbuf *b = w->buf;
        size_t len = b->len - w->len_at - 1;
        if (PBJ_LIKELY(len < 0x80)) {
            b->data[w->len_at] = (uint8_t)len;
            pbj__wclosed(w);
            return PBJ_OK;
        }
    }
    return pbj__wend_slow(w);
}

#ifdef __cplusplus
}
#endif

#endif
