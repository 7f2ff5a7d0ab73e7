/* pbj_rbuf.h: the back-to-front output buffer of the reverse encoder (M_write_reverse, pbj.fast_write). */
#ifndef PBJ_RBUF_H
#define PBJ_RBUF_H

#include "pbj.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes are written from the end of a block toward its start, so a length is
 * written after the value it measures and no size pass runs. The output is
 * [p, end): pbj_rbuf_data and pbj_rbuf_len. A caller block is used until it is
 * full; then blocks come from PBJ_MALLOC, doubling, and the bytes written so
 * far move to the end of the new one. A mark is pbj_rbuf_len at some moment:
 * it counts from the end, so it stays valid when the buffer grows. */
typedef struct pbj_rbuf {
    uint8_t *start;               /* the block */
    uint8_t *p;                   /* the first byte written */
    uint8_t *end;                 /* one past the block */
    uint8_t *owned;               /* the block when it came from PBJ_MALLOC, else NULL */
} pbj_rbuf;

#define PBJ_RBUF_MIN_BLOCK 256

/* An empty buffer writing into buf[0..cap) first (buf NULL: from PBJ_MALLOC from the first byte). */
PBJ_INLINE void pbj_rbuf_init(pbj_rbuf *b, void *buf, size_t cap)
{
    static uint8_t none[1];       /* no block: an empty one (so a cursor is never NULL) */
    b->start = buf ? (uint8_t *)buf : none;
    b->end = b->p = buf ? b->start + cap : none;
    b->owned = NULL;
}

/* Empty again, keeping the block (a grown one too) for the next message. */
PBJ_INLINE void pbj_rbuf_reset(pbj_rbuf *b) { b->p = b->end; }

PBJ_INLINE const uint8_t *pbj_rbuf_data(const pbj_rbuf *b) { return b->p; }
PBJ_INLINE size_t pbj_rbuf_len(const pbj_rbuf *b) { return (size_t)(b->end - b->p); }

/* Release a block from PBJ_MALLOC; the buffer is then empty with no block. */
PBJ_INLINE void pbj_rbuf_free(pbj_rbuf *b)
{
    PBJ_FREE(b->owned);
    pbj_rbuf_init(b, NULL, 0);
}

/* A new block holding the len bytes at p and room for n more before them; the new p, or NULL (no memory). */
PBJ_OUTLINE uint8_t *pbj__rbuf_grow(pbj_rbuf *b, uint8_t *p, size_t n)
{
    size_t len = (size_t)(b->end - p), cap = (size_t)(b->end - b->start);
    if (n > (size_t)-1 / 2 - len) return NULL;
    if (cap < PBJ_RBUF_MIN_BLOCK) cap = PBJ_RBUF_MIN_BLOCK;
    while (cap < len + n) cap *= 2;
    uint8_t *block = (uint8_t *)PBJ_MALLOC(cap);
    if (!block) return NULL;
    if (len) memcpy(block + cap - len, p, len);
    PBJ_FREE(b->owned);
    b->owned = b->start = block;
    b->end = block + cap;
    return b->p = b->end - len;
}

/* p with room for n bytes before it (p may move when the buffer grows); NULL when there is no memory. */
PBJ_INLINE uint8_t *pbj_rbuf_room(pbj_rbuf *b, uint8_t *p, size_t n)
{
    if (PBJ_LIKELY((size_t)(p - b->start) >= n)) return p;
    return pbj__rbuf_grow(b, p, n);
}

/* Bytes written since mark (a pbj_rbuf_len), the cursor at p. */
PBJ_INLINE size_t pbj_rbuf_since(const pbj_rbuf *b, const uint8_t *p, size_t mark) { return (size_t)(b->end - p) - mark; }

/* ---- writes ending at p: each returns the new p, the first byte it wrote ---- */
PBJ_INLINE uint8_t *pbj_rput_varint(uint8_t *p, uint64_t v)
{
    if (PBJ_LIKELY(v < 0x80)) {
        *--p = (uint8_t)v;
        return p;
    }
    size_t n = pbj_varint_size(v);
    pbj_put_varint_n(p - n, v, n);
    return p - n;
}

PBJ_INLINE uint8_t *pbj_rput_fixed32(uint8_t *p, uint32_t v) { return pbj_store_le32(p - 4, v) - 4; }
PBJ_INLINE uint8_t *pbj_rput_fixed64(uint8_t *p, uint64_t v) { return pbj_store_le64(p - 8, v) - 8; }

PBJ_INLINE uint8_t *pbj_rput_raw(uint8_t *p, const void *data, size_t n)
{
    if (n) memcpy(p - n, data, n);
    return p - n;
}

PBJ_INLINE uint8_t *pbj_rput_bytes(uint8_t *p, pbj_slice s)
{
    return pbj_rput_varint(pbj_rput_raw(p, s.data, s.len), s.len);
}

/* The records of ext with numbers in [lo, hi] before p, after room; NULL when there is no memory. */
PBJ_INLINE uint8_t *pbj__ext_rwrite(pbj_slice ext, uint32_t lo, uint32_t hi, pbj_rbuf *b, uint8_t *p)
{
    size_t from, to;
    if (!ext.len) return p;
    pbj__ext_span(ext, lo, hi, &from, &to);
    if (to <= from) return p;
    if (!(p = pbj_rbuf_room(b, p, to - from))) return NULL;
    return pbj_rput_raw(p, ext.data + from, to - from);
}

/* The end of M_write_reverse, its bytes written down to p (NULL: no memory): PBJ_ERR_SIZE past 2 GiB; on an
 * error the buffer holds what it held at mark. */
PBJ_INLINE pbj_status pbj__rbuf_finish(pbj_rbuf *b, size_t mark, uint8_t *p)
{
    pbj_status st = !p ? PBJ_ERR_NOMEM : pbj_rbuf_since(b, p, mark) > INT32_MAX ? PBJ_ERR_SIZE : PBJ_OK;
    b->p = st == PBJ_OK ? p : b->end - mark;
    return st;
}

#ifdef __cplusplus
}
#endif

#endif
