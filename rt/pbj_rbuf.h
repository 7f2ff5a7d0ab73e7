/* pbj_rbuf.h: the back-to-front output buffer of the reverse encoder (M_write_reverse, pbj.fast_write). */
#ifndef PBJ_RBUF_H
#define PBJ_RBUF_H

#include "pbj_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes are written from the end of a block toward its start, so a length is
 * written after the value it measures and no size pass runs. The output is
 * [p, end): pbj_rbuf_data and pbj_rbuf_len. A caller block is used until it is
 * full; then blocks come from PBJ_MALLOC, doubling, and the bytes written so
 * far move to the end of the new one. A mark is pbj_rbuf_len at some moment:
 * it counts from the end, so it stays valid when the buffer grows.
 *
 * A message is written down from p with no call to grow: its code only checks
 * that it stays above a limit (lim, an address as an integer: the block's start
 * or above it) and gives up when it would not (NULL); M_write_reverse then
 * doubles the block and writes the message again. So inside a message every
 * position stays put and a length is two pointers apart; the work lost to a
 * retry is at most what the buffer ends up holding. A parent passes its child
 * lim + its margin, so the child leaves room for the parent's tag and length
 * and nothing is checked after it: a child's p may start below its lim, which
 * its first check (pbj__rfits_above) allows for. */
typedef struct pbj_rbuf {
    uint8_t *start;               /* the block */
    uint8_t *p;                   /* the first byte written */
    uint8_t *end;                 /* one past the block */
    uint8_t *owned;               /* the block when it came from PBJ_MALLOC, else NULL */
} pbj_rbuf;

#define PBJ_RBUF_MIN_BLOCK 256
#define PBJ_RBUF_FAST_GROWTH ((size_t)8 << 20)   /* below: a block grows 8 times */

#define PBJ__HOT static inline PBJ__FORCE_INLINE   /* in every field's code: no call (when optimizing) */

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

/* A larger block (at least PBJ_RBUF_MIN_BLOCK) holding the bytes written at its end; false: no memory. A try that
 * does not fit is lost work, so a block grows 8 times up to PBJ_RBUF_FAST_GROWTH and 4 times beyond: a first
 * write from no block costs at most about 2.1 writes (2.3 beyond), 1.17 for the 857 KB bench block, where doubling
 * cost 2.18 (bench/PERF_LOG.md). */
PBJ_OUTLINE bool pbj__rbuf_grow(pbj_rbuf *b) PBJ__PROTO
#if PBJ__BODIES
{
    size_t len = pbj_rbuf_len(b), cap = (size_t)(b->end - b->start);
    if (cap > (size_t)-1 / 16) return false;
    cap = cap < PBJ_RBUF_MIN_BLOCK / 2 ? PBJ_RBUF_MIN_BLOCK : cap * (cap < PBJ_RBUF_FAST_GROWTH ? 8 : 4);
    uint8_t *block = (uint8_t *)PBJ_MALLOC(cap);
    if (!block) return false;
    if (len) memcpy(block + cap - len, b->p, len);
    PBJ_FREE(b->owned);
    b->owned = b->start = block;
    b->end = block + cap;
    b->p = b->end - len;
    return true;
}
#endif

/* A sub-message whose walk ran out of room by the margins (a buffer of exactly M_size bytes) is sized and written
 * exactly by its parent where its end is within this many bytes of lim (field_rwrite.tmpl's exact). */
#define PBJ__REXACT_WINDOW 4096
PBJ_INLINE bool pbj__rnear(const uint8_t *mark, uintptr_t lim) { return (uintptr_t)mark - lim <= PBJ__REXACT_WINDOW; }
/* Whether a message of s bytes (PBJ_SIZE_ERROR: no), its length and rest bytes more fit before mark. */
PBJ_INLINE bool pbj__rexact(const uint8_t *mark, uintptr_t lim, size_t rest, size_t s)
{
    return s != PBJ_SIZE_ERROR && (uintptr_t)mark - lim >= pbj_len_size(s) + rest;
}

/* The limit of a try: the block's start. */
PBJ_INLINE uintptr_t pbj__rbuf_lim(const pbj_rbuf *b) { return (uintptr_t)b->start; }

/* Whether n bytes fit before p, which is at lim or above. */
PBJ__HOT bool pbj_rfits(const uint8_t *p, uintptr_t lim, size_t n) { return PBJ_LIKELY((uintptr_t)p - lim >= n); }
/* The same where p may be below lim (a message's first check; n: a margin, a few hundred bytes at most). */
PBJ__HOT bool pbj__rfits_above(const uint8_t *p, uintptr_t lim, size_t n) { return PBJ_LIKELY((uintptr_t)p >= lim + n); }

/* The end of one try of M_write_reverse, which wrote the message down to p (NULL: it did not fit): true when it
 * must run again in a larger block; else *st is its status (PBJ_ERR_SIZE past 2 GiB, PBJ_ERR_NOMEM), and on an
 * error the buffer holds what it held before. */
PBJ_INLINE bool pbj__rbuf_again(pbj_rbuf *b, uint8_t *p, pbj_status *st)
{
    if (p) {
        *st = (size_t)(b->p - p) > INT32_MAX ? PBJ_ERR_SIZE : PBJ_OK;
        if (*st == PBJ_OK) b->p = p;
        return false;
    }
    if ((size_t)(b->p - b->start) > (size_t)INT32_MAX + ((size_t)1 << 24)) *st = PBJ_ERR_SIZE;   /* 2 GiB and room to spare */
    else if (!pbj__rbuf_grow(b)) *st = PBJ_ERR_NOMEM;
    else return true;
    return false;
}

/* ---- writes ending at p, after room was checked: each returns the new p, the first byte it wrote ---- */
/* pbj_rput_varint past two bytes, out of line: 3 to 5 bytes unrolled (ids, amounts, times), longer ones a loop. */
static PBJ__NOINLINE uint8_t *pbj__rput_varint_long(uint8_t *p, uint64_t v)
{
    if (v < (uint64_t)1 << 21) {
        p[-3] = (uint8_t)(v | 0x80), p[-2] = (uint8_t)(v >> 7 | 0x80), p[-1] = (uint8_t)(v >> 14);
        return p - 3;
    }
    if (v < (uint64_t)1 << 28) {
        p[-4] = (uint8_t)(v | 0x80), p[-3] = (uint8_t)(v >> 7 | 0x80), p[-2] = (uint8_t)(v >> 14 | 0x80);
        p[-1] = (uint8_t)(v >> 21);
        return p - 4;
    }
    if (v < (uint64_t)1 << 35) {
        p[-5] = (uint8_t)(v | 0x80), p[-4] = (uint8_t)(v >> 7 | 0x80), p[-3] = (uint8_t)(v >> 14 | 0x80);
        p[-2] = (uint8_t)(v >> 21 | 0x80), p[-1] = (uint8_t)(v >> 28);
        return p - 5;
    }
    uint8_t *q = p - pbj_varint_size(v);
    for (uint8_t *w = q; w < p - 1; w++) {
        *w = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[-1] = (uint8_t)v;
    return q;
}

/* v as a varint (10 bytes of room): one and two bytes inline. A branch-free 8-byte store of the 7-bit groups took
 * more instructions than a loop on the synthetic block (bench/PERF_LOG.md). */
PBJ__HOT uint8_t *pbj_rput_varint(uint8_t *p, uint64_t v)
{
    if (PBJ_LIKELY(v < 0x80)) {
        *--p = (uint8_t)v;
        return p;
    }
    if (v < 0x4000) {             /* two bytes: most lengths of sub-messages */
        p[-2] = (uint8_t)(v | 0x80);
        p[-1] = (uint8_t)(v >> 7);
        return p - 2;
    }
    return pbj__rput_varint_long(p, v);
}

PBJ__HOT uint8_t *pbj_rput_fixed32(uint8_t *p, uint32_t v) { return pbj_store_le32(p - 4, v) - 4; }
PBJ__HOT uint8_t *pbj_rput_fixed64(uint8_t *p, uint64_t v) { return pbj_store_le64(p - 8, v) - 8; }

PBJ__HOT uint8_t *pbj_rput_raw(uint8_t *p, const void *data, size_t n)
{
    if (n) memcpy(p - n, data, n);
    return p - n;
}

/* M_encode's move of the n bytes it wrote at src down to dst, below them: one memmove where they are at most 2 KiB
 * or the gap between them is under 64 bytes (glibc moves up to 2 KiB with vector loads and stores; a larger copy is
 * `rep movsb`, as fast on hardware but counted byte by byte under callgrind), else memcpy in pieces no longer than
 * the gap, at most 2 KiB. */
PBJ_INLINE void pbj__move_down(uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t gap = (size_t)(src - dst), piece = gap < 2048 ? gap : 2048;
    if (n <= 2048 || piece < 64) {
        memmove(dst, src, n);
        return;
    }
    for (size_t i = 0; i < n; i += piece) memcpy(dst + i, src + i, n - i < piece ? n - i : piece);
}

/* A string or bytes: its length needs 10 bytes of room beyond s.len. */
PBJ__HOT uint8_t *pbj_rput_bytes(uint8_t *p, pbj_slice s)
{
    return pbj_rput_varint(pbj_rput_raw(p, s.data, s.len), s.len);
}

/* A message's first check and its unknown fields u before p (which may be below lim), with margin bytes of room
 * left; NULL when they do not fit. */
PBJ_INLINE uint8_t *pbj__rput_unknown(pbj_slice u, uint8_t *p, uintptr_t lim, size_t margin)
{
    if (!pbj__rfits_above(p, lim, margin) || !pbj_rfits(p, lim + margin, u.len)) return NULL;
    return pbj_rput_raw(p, u.data, u.len);
}

/* The records of ext with numbers in [lo, hi] before p, with margin bytes of room left; NULL when they do not fit. */
PBJ_INLINE uint8_t *pbj__ext_rwrite(pbj_slice ext, uint32_t lo, uint32_t hi, uint8_t *p, uintptr_t lim, size_t margin)
{
    size_t from, to;
    if (!ext.len) return p;
    pbj__ext_span(ext, lo, hi, &from, &to);
    if (to <= from) return p;
    if (!pbj_rfits(p, lim, to - from + margin)) return NULL;
    return pbj_rput_raw(p, ext.data + from, to - from);
}

/* The same where the room is known (M__write): no check. */
PBJ_INLINE uint8_t *pbj__ext_rput(pbj_slice ext, uint32_t lo, uint32_t hi, uint8_t *p)
{
    size_t from, to;
    if (!ext.len) return p;
    pbj__ext_span(ext, lo, hi, &from, &to);
    return to > from ? pbj_rput_raw(p, ext.data + from, to - from) : p;
}

/* A message set's items (its extensions, then its unknown fields, as pbj__msgset_items writes them) before p, with
 * margin bytes of room left; NULL when they do not fit. */
PBJ_INLINE uint8_t *pbj__msgset_rwrite(pbj_slice ext, pbj_slice unknown, uint8_t *p, uintptr_t lim, size_t margin)
{
    size_t n = pbj__msgset_items(ext, unknown, NULL);
    if (!pbj_rfits(p, lim, n + margin)) return NULL;
    p -= n;
    pbj__msgset_items(ext, unknown, p);
    return p;
}

/* The same where the room is known (M__write): no check. */
PBJ_INLINE uint8_t *pbj__msgset_rput(pbj_slice ext, pbj_slice unknown, uint8_t *p)
{
    p -= pbj__msgset_items(ext, unknown, NULL);
    pbj__msgset_items(ext, unknown, p);
    return p;
}

#ifdef __cplusplus
}
#endif

#endif
