/* pbj_writer.h: the output buffer and the order-checked writer state behind generated M_writer functions. */
#ifndef PBJ_WRITER_H
#define PBJ_WRITER_H

#include "pbj_core.h"

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

/* The writers' fast paths: always inline (when optimizing), so that a field call costs a compare and a room check. */
#define PBJ_WINLINE static inline PBJ__FORCE_INLINE

/* Writers open at once on one buffer (a top-level writer and its nested children). */
#ifndef PBJ_WRITER_DEPTH
#define PBJ_WRITER_DEPTH 128
#endif
/* x holds (a fact the compiler may use). */
#if defined(__GNUC__) || defined(__clang__)
#define PBJ__WASSUME(x) do { if (!(x)) __builtin_unreachable(); } while (0)
#else
#define PBJ__WASSUME(x) ((void)0)
#endif
#define PBJ__WLEARN 256           /* slots of the per-type length sizes learnt (pbj_wtype.slot) */

/* A writer's order place (at): 2n after a singular field n, 2n - 1 after an element of repeated field n, so
 * a call for field n (key 2n) may come when at < 2n. It is kept as gate = ~at, so that the check is one
 * compare of memory with a constant (gate > ~key) and a zeroed writer (gate 0) takes no call. */
#define PBJ__WGATE(at) (~(uint32_t)(at))
#define PBJ__WDONE 0x3fffffffu    /* at after M_writer_from: only end may follow (above every field's key) */
#define PBJ__WBLOCK 0x40000000u   /* in at while a child is open: every call goes the slow way, which ends it */
#define PBJ__WPACKED 0x80000000u  /* at while a packed record is open: | its field number */

/* A message type's identity: the key of what the buffer learns about its lengths. */
typedef struct pbj_wtype {
    const char *name;
    uint8_t slot;                 /* its learnt length size: pbj_wbuf.learn[slot] (types may share one) */
    uint64_t required;            /* the bits of pbj_writer.oneofs its required fields' calls set */
    uint32_t first;               /* the first of those bits (after its oneofs') */
    const char *const *required_names;   /* the full name of the field of bit first + i */
    uint32_t nchildren;           /* its message and group fields: the types of the children they open */
    const struct pbj_wchild *children;
} pbj_wtype;

/* A message or group field of a type: the type of the child writer it opens. */
typedef struct pbj_wchild {
    uint32_t number;
    const pbj_wtype *type;
} pbj_wchild;

typedef struct pbj_wbuf pbj_wbuf;

/* One writer: a top-level writer (the caller's) or a child, a frame of its buffer: frame d's parent is
 * frame d - 1 (frame 1's: the top-level writer). Only the innermost open writer takes calls at once: its p
 * is where the output goes on (a parent's p is behind while a child is open, and catches up when it ends).
 * gate is 0 when the writer is closed (never started, ended, reset, failed). */
typedef struct pbj_writer {
    uint8_t *p;                   /* where its next byte goes */
    uintptr_t lim;                /* p below it: PBJ__WSLACK bytes fit (0: never, a buffer that small) */
    uint8_t *end;                 /* the end of the buffer's memory */
    uint32_t gate;                /* ~at (PBJ__WGATE): the order check, 0 when closed */
    uint8_t rsv[2];               /* [0]: bytes reserved for the length (0: a group, a top-level writer);
                                   * [1]: 1 in frame 1, whose end notes the item range (one compare tells
                                   * the common end: pbj__wplain) */
    uint64_t oneofs;              /* a bit per oneof one of whose alternatives was written, then per
                                   * required field written (pbj_wtype.required) */
    uint8_t *body;                /* where its body begins, after its tag and its reserved length bytes
                                   * (NULL: a top-level writer) */
    pbj_wbuf *buf;
    struct pbj_writer *up;        /* the parent (NULL: a top-level writer) */
    struct pbj_writer *next;      /* the frame a child opens in (NULL: the deepest) */
    const pbj_wtype *type;        /* a top-level writer's (a child's is its field's: pbj__wtype_of) */
    uint32_t end_tag;             /* groups: the end tag */
    size_t packed_at;             /* the offset of the open packed record's reserved length */
    uint64_t key;                 /* maps: the last key written, in an order unsigned compare keeps */
    size_t key_at, key_len;       /* maps with string keys: the offset and length of the last key's bytes */
} pbj_writer;

/* The output of writers: a caller block (PBJ_ERR_BUFFER when full) or, without one, memory from
 * PBJ_MALLOC that grows (kept across resets: no allocation once warm). The first failure of any writer
 * on it is sticky: status and failed keep it, every later call returns it, until pbj_wbuf_reset.
 * len is the output's length once the top-level writer ended or failed (pbj_wbuf_len at any time).
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

/* ---- private: used by generated code ------------------------------------------------------------ */

#define PBJ__WSLACK 16            /* the room one compare checks (pbj_writer.lim): a tag and a varint fit */

/* w's end and lim, from b's memory. */
PBJ_INLINE void pbj__wbounds(pbj_writer *w, const pbj_wbuf *b)
{
    w->end = b->data ? b->data + b->cap : (uint8_t *)NULL;
    w->lim = b->cap >= PBJ__WSLACK ? (uintptr_t)w->end - (PBJ__WSLACK - 1) : 0;
}

/* Every frame's end and lim follow b's memory (so that opening a child need not copy them); the deepest
 * frame's lim is 0, so that opening a child in it takes the slow path (PBJ_ERR_DEPTH). */
PBJ_INLINE void pbj__wbounds_all(pbj_wbuf *b)
{
    for (uint32_t d = 1; d < PBJ_WRITER_DEPTH; d++) pbj__wbounds(&b->child[d], b);
    b->child[PBJ_WRITER_DEPTH - 1].lim = 0;
    if (b->top) pbj__wbounds(b->top, b);
}

/* ---- public ----------------------------------------------------------------------------------- */

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
        b->child[d].rsv[1] = d == 1;
        b->child[d].up = d > 1 ? &b->child[d - 1] : NULL;
        b->child[d].next = d + 1 < PBJ_WRITER_DEPTH ? &b->child[d + 1] : NULL;
    }
    pbj__wbounds_all(b);
}

/* ---- private: used by generated code ------------------------------------------------------------ */

/* The innermost writer open on b (NULL: none). */
PBJ_INLINE pbj_writer *pbj__winner(pbj_wbuf *b)
{
    pbj_writer *w = b->top;
    while (w && w->next && w->next->gate) w = w->next;
    return w;
}

/* Close the child writers open on b (nothing is written) and forget the top-level writer (not touched:
 * it may be gone). */
PBJ_INLINE void pbj__wclose_all(pbj_wbuf *b)
{
    for (pbj_writer *c = &b->child[1]; c && c->gate; c = c->next) c->gate = 0;
    b->top = NULL;
}

/* ---- public ----------------------------------------------------------------------------------- */

/* Forget the output and any failure; memory, the strategy and what was learnt stay. Writers open on b
 * are closed (a top-level writer begun before must be started again before any other call). */
PBJ_INLINE void pbj_wbuf_reset(pbj_wbuf *b)
{
    pbj__wclose_all(b);
    b->len = 0;
    b->status = PBJ_OK;
    b->failed = NULL;
    b->item_at = b->item_len = 0;
}

PBJ_INLINE void pbj_wbuf_free(pbj_wbuf *b)
{
    pbj__wclose_all(b);
    if (b->grows) PBJ_FREE(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    pbj__wbounds_all(b);
}

/* The strategy of the reservations to come: what was learnt is forgotten. */
PBJ_INLINE void pbj_wbuf_set_reserve(pbj_wbuf *b, pbj_reserve r)
{
    b->reserve = r;
    memset(b->learn, 1, sizeof b->learn);
}
PBJ_INLINE const uint8_t *pbj_wbuf_data(const pbj_wbuf *b) { return b->data; }

/* The bytes written so far (while writers are open too). */
PBJ_INLINE size_t pbj_wbuf_len(const pbj_wbuf *b)
{
    const pbj_writer *w = b->top;
    while (w && w->next && w->next->gate) w = w->next;
    return w ? (size_t)(w->p - b->data) : b->len;
}

/* ---- private: used by generated code ------------------------------------------------------------ */

/* Record the first failure (what: a field's full name or a function): every writer on the buffer closes. */
PBJ_OUTLINE pbj_status pbj__wfail(pbj_writer *w, pbj_status st, const char *what) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_wbuf *b = w->buf;
    if (!b) return PBJ_ERR_ORDER;                 /* a writer never started: nowhere to record it */
    if (b->status != PBJ_OK) return b->status;
    b->status = st;
    b->failed = what;
    b->len = pbj_wbuf_len(b);
    if (b->top) b->top->gate = 0;                 /* alive: a call on the buffer is under way */
    pbj__wclose_all(b);
    w->gate = 0;
    return st;
}
#endif

/* The buffer moved from old to b->data: the open writers' pointers follow. */
PBJ_INLINE void pbj__wrebase(pbj_wbuf *b, uint8_t *old)
{
    for (pbj_writer *w = b->top; w && w->gate; w = w->next) {
        w->p = b->data + (w->p - old);
        if (w->body) w->body = b->data + (w->body - old);       /* not NULL: old was not either */
    }
    pbj__wbounds_all(b);
}

/* Room for n more bytes after w's: where they go, or NULL after recording the failure. */
PBJ_OUTLINE uint8_t *pbj__wgrow(pbj_writer *w, size_t n) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_wbuf *b = w->buf;
    if ((size_t)(w->end - w->p) >= n) return w->p;
    size_t len = (size_t)(w->p - b->data);
    if (n > (size_t)INT32_MAX - len) return pbj__wfail(w, PBJ_ERR_SIZE, "pbj_wbuf"), (uint8_t *)NULL;
    if (!b->grows) return pbj__wfail(w, PBJ_ERR_BUFFER, "pbj_wbuf"), (uint8_t *)NULL;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < len + n) cap *= 2;
    uint8_t *d = (uint8_t *)PBJ_MALLOC(cap), *old = b->data;
    if (!d) return pbj__wfail(w, PBJ_ERR_NOMEM, "pbj_wbuf"), (uint8_t *)NULL;
    if (len) memcpy(d, old, len);
    b->data = d;
    b->cap = cap;
    pbj__wrebase(b, old);
    PBJ_FREE(old);
    return w->p;
}
#endif

/* pbj_put_varint and pbj_put_bytes always inline: a writer's values (calls the compiler otherwise makes). */
PBJ_WINLINE uint8_t *pbj__wvarint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}
PBJ_WINLINE uint8_t *pbj__wbytes(uint8_t *p, pbj_slice s)
{
    p = pbj__wvarint(p, s.len);
    if (s.len) memcpy(p, s.data, s.len);
    return p + s.len;
}

/* Whether n bytes fit at w's p: one compare when n is a constant up to PBJ__WSLACK. */
PBJ_WINLINE bool pbj__wfits(const pbj_writer *w, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    if (__builtin_constant_p(n) && n <= PBJ__WSLACK) return (uintptr_t)w->p < w->lim;
#endif
    return (size_t)(w->end - w->p) >= n;
}

/* Room for n bytes at w's p: where they go, or NULL (failed; or n is 0 and the buffer has no memory). */
PBJ_WINLINE uint8_t *pbj__wroom(pbj_writer *w, size_t n)
{
    if (PBJ_LIKELY(pbj__wfits(w, n))) return w->p;
    return pbj__wgrow(w, n);
}

/* Room for at most most bytes (a bound the compiler knows, at least 1), else for exactly n. */
PBJ_WINLINE uint8_t *pbj__wroom2(pbj_writer *w, size_t most, size_t n)
{
    if (PBJ_LIKELY(pbj__wfits(w, most))) {
        uint8_t *p = w->p;
        PBJ__WASSUME(p != NULL);                  /* most bytes fit: there is memory */
        return p;
    }
    return pbj__wgrow(w, n);
}

/* The bytes up to p are written and gate is w's order check now: stored after the bytes, which may alias
 * them, so that the compiler can carry both to w's next call. */
PBJ_WINLINE pbj_status pbj__wdone(pbj_writer *w, uint8_t *p, uint32_t gate)
{
    w->p = p;
    w->gate = gate;
    return PBJ_OK;
}

/* The learnt length size slot of type t. */
PBJ_WINLINE uint8_t *pbj__wslot(pbj_wbuf *b, const pbj_wtype *t)
{
    return &b->learn[t->slot];
}

/* A body moved for a length of k bytes: counted, and k learnt for type t when not NULL (ADAPTIVE: the last
 * size, PER_TYPE: the largest; a caller block and ONE_BYTE always take 1). */
PBJ_WINLINE void pbj__wmoved(pbj_wbuf *b, const pbj_wtype *t, size_t k)
{
    b->moves++;
    if (t && b->grows && b->reserve != PBJ_RESERVE_ONE_BYTE) {
        uint8_t *slot = pbj__wslot(b, t);
        if (b->reserve == PBJ_RESERVE_ADAPTIVE || k > *slot) *slot = (uint8_t)k;
    }
}

/* The body after the r bytes reserved at q (w's) needs k length bytes: move it, and learn k for type t when
 * not NULL (ADAPTIVE: the last size, PER_TYPE: the largest; a caller block and ONE_BYTE always take 1, so
 * the output never needs more room than its final size: bodies only move forward). q after it, or NULL. */
PBJ_OUTLINE uint8_t *pbj__wmove(pbj_writer *w, uint8_t *q, uint8_t r, size_t k, const pbj_wtype *t) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_wbuf *b = w->buf;
    size_t at = (size_t)(q - b->data), len = (size_t)(w->p - q) - r;
    if (k > r && !pbj__wroom(w, k - r)) return NULL;
    q = b->data + at;
    memmove(q + k, q + r, len);
    w->p = q + k + len;
    pbj__wmoved(b, t, k);
    return q;
}
#endif

/* Write the length of w's body after the r bytes reserved at q (moved when it needs another size, learnt
 * for type t). */
PBJ_INLINE bool pbj__wpatch(pbj_writer *w, uint8_t *q, uint8_t r, const pbj_wtype *t)
{
    size_t len = (size_t)(w->p - q) - r, k = pbj_varint_size(len);
    if (PBJ_UNLIKELY(k != r) && !(q = pbj__wmove(w, q, r, k, t))) return false;
    pbj_put_varint_n(q, len, k);
    return true;
}

/* Close the packed record open on w: at after field n. */
PBJ_INLINE bool pbj__wpacked_close(pbj_writer *w)
{
    uint32_t n = ~w->gate & ~PBJ__WPACKED;
    if (!pbj__wpatch(w, w->buf->data + w->packed_at, 1, NULL)) return false;
    w->gate = PBJ__WGATE(2 * n);
    return true;
}

/* PBJ_ERR_REQUIRED naming the first required field of type t that w has not written. */
PBJ_OUTLINE pbj_status pbj__wmissing(pbj_writer *w, const pbj_wtype *t) PBJ__PROTO
#if PBJ__BODIES
{
    uint32_t bit = t->first;
    while (w->oneofs & t->required & (UINT64_C(1) << bit)) bit++;
    return pbj__wfail(w, PBJ_ERR_REQUIRED, t->required_names[bit - t->first]);
}
#endif

/* Child c, not in frame 1, is complete at p (c's): it is closed and its parent up (c->up, which the
 * common end knows as c - 1) takes calls again from there. */
PBJ_WINLINE void pbj__wreturn(pbj_writer *c, pbj_writer *up, uint8_t *p)
{
    up->p = p;
    up->gate |= PBJ__WBLOCK;                      /* ~at: clears the bit of at */
    c->gate = 0;
}

/* Child c in frame 1 ends at p: its record is the item range (its parent's p is still where it begins). */
PBJ_WINLINE void pbj__witem(pbj_writer *c, uint8_t *p)
{
    pbj_wbuf *b = c->buf;
    b->item_at = (size_t)(c->up->p - b->data);
    b->item_len = (size_t)(p - c->up->p);
}

/* A child's record is complete at p (c's): it is closed and its parent takes calls again from there. */
PBJ_WINLINE void pbj__wclosed(pbj_writer *c, uint8_t *p)
{
    if (PBJ_UNLIKELY(c->rsv[1])) pbj__witem(c, p);
    pbj__wreturn(c, c->up, p);
}

/* The type of child c, open: its field's in its parent's type (a top-level writer's type is kept), the
 * field read from its tag, where its parent's p stays while it is open. */
PBJ_OUTLINE const pbj_wtype *pbj__wtype_of(const pbj_writer *c) PBJ__PROTO
#if PBJ__BODIES
{
    const pbj_writer *up = c->up;
    const pbj_wtype *t = up->up ? pbj__wtype_of(up) : up->type;
    const uint8_t *q = up->p;
    uint32_t tag = 0;
    for (unsigned s = 0; s < 35; s += 7) {        /* a tag we wrote: at most 5 bytes */
        tag |= (uint32_t)(*q & 0x7f) << s;
        if (*q++ < 0x80) break;
    }
    for (uint32_t i = 0; t && i < t->nchildren; i++)
        if (t->children[i].number == tag >> 3) return t->children[i].type;
    return NULL;
}
#endif

/* End writer c of type t, open, innermost and not failed: an open packed record closed, a length patched
 * or a group's end tag written. */
PBJ_OUTLINE bool pbj__wclose(pbj_writer *c, const pbj_wtype *t) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_wbuf *b = c->buf;
    if (t && (c->oneofs & t->required) != t->required) return pbj__wmissing(c, t), false;
    if ((~c->gate & PBJ__WPACKED) && !pbj__wpacked_close(c)) return false;
    if (!c->up) {                                 /* the top-level writer */
        b->len = (size_t)(c->p - b->data);
        c->gate = 0;
        b->top = NULL;
        return true;
    }
    if (!c->rsv[0]) {                             /* a group: its end tag */
        uint8_t *p = pbj__wroom(c, pbj_varint_size(c->end_tag));
        if (!p) return false;
        c->p = pbj_put_varint(p, c->end_tag);
    } else if (!pbj__wpatch(c, c->body - c->rsv[0], c->rsv[0], t)) {
        return false;
    }
    pbj__wclosed(c, c->p);
    return true;
}
#endif

/* End the writers open inside w, innermost first. */
PBJ_INLINE bool pbj__wclose_below(pbj_writer *w)
{
    while (w->next && w->next->gate) {
        pbj_writer *c = w->next;
        while (c->next && c->next->gate) c = c->next;
        if (!pbj__wclose(c, pbj__wtype_of(c))) return false;
    }
    return true;
}

/* w, a writer that may be stale: PBJ_OK when it is open and its buffer has not failed. */
PBJ_INLINE pbj_status pbj__wlive(pbj_writer *w, const char *what)
{
    pbj_wbuf *b = w->buf;
    if (!b) return PBJ_ERR_ORDER;
    if (b->status != PBJ_OK) return b->status;
    if (!w->gate) return pbj__wfail(w, PBJ_ERR_ORDER, what);
    return PBJ_OK;
}

/* The slow path of a field call on w (key 2n for field n, bit its oneof's): a failure recorded, children
 * open on w ended, an open packed record closed, then the order and the oneof checked. */
PBJ_OUTLINE pbj_status pbj__wgate(pbj_writer *w, uint32_t key, uint64_t bit, const char *field) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_status st = pbj__wlive(w, field);
    if (st != PBJ_OK) return st;
    if (!pbj__wclose_below(w)) return w->buf->status;
    if ((~w->gate & PBJ__WPACKED) && !pbj__wpacked_close(w)) return w->buf->status;
    if (w->gate <= ~key || (w->oneofs & bit)) return pbj__wfail(w, PBJ_ERR_ORDER, field);
    return PBJ_OK;
}
#endif

/* A field call's check: field n (key 2n) may be written now, on the fast path. */
PBJ_WINLINE bool pbj__wmay(const pbj_writer *w, uint32_t key, uint64_t bit)
{
    return PBJ_LIKELY(w->gate > ~key && !(w->oneofs & bit));
}

/* A field call's check: PBJ_OK when field n (key 2n) may be written now. */
PBJ_WINLINE pbj_status pbj__wcheck(pbj_writer *w, uint32_t key, uint64_t bit, const char *field)
{
    if (pbj__wmay(w, key, bit)) return PBJ_OK;
    return pbj__wgate(w, key, bit, field);
}

/* Open child c of w at p (after its tag; w's p stays where its record begins, which tells c's type), r
 * length bytes reserved; w takes calls again after its field (at wat) once c ends. c's oneofs are cleared
 * when its type tracks any (a frame's last writer may have left bits). */
PBJ_WINLINE pbj_writer *pbj__wopened(pbj_writer *w, pbj_writer *c, uint8_t *p, uint8_t r, uint32_t wat, bool tracks)
{
    w->gate = PBJ__WGATE(wat | PBJ__WBLOCK);      /* first: the compiler cannot tell w from c */
    if (tracks) c->oneofs = 0;
    c->body = c->p = p + r;
    c->gate = PBJ__WGATE(0);
    c->rsv[0] = r;
    return c;
}

/* Open a child writer after its tag (a group's end tag end_tag, else a length is reserved: one byte when
 * fixed, the type's encoding being always shorter than 128 bytes). */
PBJ_OUTLINE pbj_writer *pbj__wchild(pbj_writer *w, const pbj_wtype *t, uint32_t tag, uint32_t end_tag, bool fixed,
                                    uint32_t wat, const char *field) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_wbuf *b = w->buf;
    pbj_writer *c = w->next;
    if (PBJ_UNLIKELY(!c)) return pbj__wfail(w, PBJ_ERR_DEPTH, field), &b->dead;
    uint8_t r = end_tag ? 0 : fixed ? 1 : *pbj__wslot(b, t);
    uint8_t *p = pbj__wroom(w, pbj_varint_size(tag) + r);
    if (!p) return &b->dead;
    pbj__wopened(w, c, pbj_put_varint(p, tag), r, wat, true);
    c->end_tag = end_tag;                         /* a group's (reserved 0) */
    return c;
}
#endif

/* The child a call returns when its check failed: a dead writer every call on fails. */
PBJ_INLINE pbj_writer *pbj__wdead(pbj_writer *w)
{
    static pbj_writer never;                      /* for a writer never started (no buffer) */
    return w->buf ? &w->buf->dead : &never;
}

/* The slow path of opening a child (field key, at after it wat, oneof bit): checked as a field call. */
PBJ_OUTLINE pbj_writer *pbj__wopen_slow(pbj_writer *w, uint32_t key, uint32_t wat, uint64_t bit, const char *field,
                                        const pbj_wtype *t, uint32_t tag, uint32_t end_tag, bool fixed) PBJ__PROTO
#if PBJ__BODIES
{
    if (pbj__wgate(w, key, bit, field) != PBJ_OK) return pbj__wdead(w);
    return pbj__wchild(w, t, tag, end_tag, fixed, wat, field);   /* the caller marks its oneof */
}
#endif

/* The fast path of opening a child for field key: where its tag goes, or NULL when the call is out of order
 * or needs room, or w is the deepest frame. A tag and the longest reservation (10 bytes) fit in
 * PBJ__WSLACK, so p is compared with lim, which is 0 in the deepest frame, whatever the optimisation (not
 * through pbj__wfits, whose compare with lim needs a constant the compiler sees: not at -O0). */
PBJ_WINLINE uint8_t *pbj__wopen_at(pbj_writer *w, uint32_t key, uint64_t bit)
{
    if (PBJ_UNLIKELY(!pbj__wmay(w, key, bit) || (uintptr_t)w->p >= w->lim)) return NULL;
    uint8_t *p = w->p;
    PBJ__WASSUME(p != NULL);
    return p;
}

/* Open a packed record of field n (tag bytes tag_len at tag) on w; its length gets one byte. */
PBJ_INLINE uint8_t *pbj__wpacked_open(pbj_writer *w, uint32_t tag, uint32_t n)
{
    uint8_t *p = pbj__wroom(w, pbj_varint_size(tag) + 1);
    if (!p) return NULL;
    p = pbj_put_varint(p, tag);
    w->packed_at = (size_t)(p - w->buf->data);
    w->gate = PBJ__WGATE(PBJ__WPACKED | n);
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
    if (w->gate != PBJ__WGATE(key - 1)) return true;   /* the map's first entry */
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
    if (b->data) w->p = b->data + b->len;
    pbj__wbounds(w, b);
    w->gate = PBJ__WGATE(0);
    w->type = t;
    w->next = &b->child[1];
    b->child[1].up = w;
    b->top = w;
    return PBJ_OK;
}

/* The slow path of end: w (of type t) checked, the writers open inside it ended, then w. */
PBJ_OUTLINE pbj_status pbj__wend_slow(pbj_writer *w, const pbj_wtype *t) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_status st = pbj__wlive(w, t->name);
    if (st != PBJ_OK) return st;
    if (!pbj__wclose_below(w) || !pbj__wclose(w, t)) return w->buf->status;
    return PBJ_OK;
}
#endif

/* End child w of type t, taking calls and with its required fields, whose length needs other than its
 * reserved bytes: its body moved, its length patched. */
PBJ_OUTLINE pbj_status pbj__wend_moved(pbj_writer *w, const pbj_wtype *t) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t r = w->rsv[0], *body = w->body, *p = w->p;
    size_t len = (size_t)(p - body), k = pbj_varint_size(len);
    if (k > r && (uintptr_t)p >= w->lim) {        /* room to grow first (or the deepest frame): the long way */
        if (!pbj__wpatch(w, body - r, r, t)) return w->buf->status;
        pbj__wclosed(w, w->p);
        return PBJ_OK;
    }
    uint8_t *q = body - r;                        /* k - r more bytes fit in PBJ__WSLACK */
    memmove(q + k, body, len);
    pbj__wmoved(w->buf, t, k);
    pbj_put_varint_n(q, len, k);
    pbj__wclosed(w, q + k + len);
    return PBJ_OK;
}
#endif

/* End child w of type t in frame 1 (the item range noted), taking calls and with its required fields, bytes
 * reserved for its length. */
PBJ_WINLINE pbj_status pbj__wend_item(pbj_writer *w, const pbj_wtype *t)
{
    uint8_t *q = w->body, *p = w->p;
    size_t len = (size_t)(p - q);
    if (w->rsv[0] == 1 && len < 0x80) {
        q[-1] = (uint8_t)len;
    } else if (w->rsv[0] == 2 && len - 0x80 < 0x4000 - 0x80) {
        q[-2] = (uint8_t)(len | 0x80);
        q[-1] = (uint8_t)(len >> 7);
    } else {
        return pbj__wend_moved(w, t);
    }
    pbj__witem(w, p);
    pbj__wreturn(w, w->up, p);
    return PBJ_OK;
}

/* w has r bytes reserved and is not in frame 1: both bytes of rsv in one compare. */
PBJ_WINLINE bool pbj__wplain(const pbj_writer *w, uint8_t r)
{
    const uint8_t want[2] = {r, 0};
    return memcmp(w->rsv, want, 2) == 0;
}

/* (gcc -Os inlines the fast path below into an end of a writer that is no frame's child, w - 1 outside its object,
 * where the path is never taken, and warns: not where it is.) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif
/* End w of type t (and every writer open inside it): a child's length is patched, its required fields
 * (bits required, t's) checked. The fast path: a child not in frame 1, taking calls (none open inside it,
 * no packed record open) with its required fields whose body fits the one or two bytes reserved. */
PBJ_WINLINE pbj_status pbj__wend(pbj_writer *w, uint64_t required, const pbj_wtype *t)
{
    if (PBJ_LIKELY(w->gate > PBJ__WGATE(PBJ__WDONE + 1) && (w->oneofs & required) == required)) {
        uint8_t *q = w->body, *p = w->p;          /* p read before the length's bytes, which may alias it */
        size_t len = (size_t)(p - q);
        if (PBJ_LIKELY(pbj__wplain(w, 1))) {
            if (PBJ_LIKELY(len < 0x80)) {
                q[-1] = (uint8_t)len;
                pbj__wreturn(w, w - 1, p);       /* not frame 1: its parent is the frame before */
                return PBJ_OK;
            }
            return pbj__wend_moved(w, t);
        } else if (pbj__wplain(w, 2)) {
            if (len - 0x80 < 0x4000 - 0x80) {
                q[-2] = (uint8_t)(len | 0x80);
                q[-1] = (uint8_t)(len >> 7);
                pbj__wreturn(w, w - 1, p);
                return PBJ_OK;
            }
            return pbj__wend_moved(w, t);
        } else if (w->rsv[1] && w->rsv[0]) {     /* frame 1 (not a group): the item range noted */
            return pbj__wend_item(w, t);
        }
    }
    return pbj__wend_slow(w, t);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#ifdef __cplusplus
}
#endif

#endif
