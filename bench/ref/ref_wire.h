/* ref_wire.h: wire primitives shared by the reference codec's passes (varints, tags, zigzag). */
#ifndef PBJBENCH_REF_WIRE_H
#define PBJBENCH_REF_WIRE_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>

#define RB_LIKELY(x) __builtin_expect(!!(x), 1)
#define RB_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RB_TAG(num, wt) ((uint8_t)(((num) << 3) | (wt))) /* every field number here is < 16 */

static inline uint64_t rb_zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t rb_unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

/* Writes v as a varint ending just before p; returns its first byte. */
static inline uint8_t *rb_put_varint_rev(uint8_t *p, uint64_t v)
{
  if (RB_LIKELY(v < 0x80)) { *--p = (uint8_t)v; return p; }
  unsigned bits = 64u - (unsigned)__builtin_clzll(v);
  unsigned n = (bits + 6) / 7;
  uint8_t *q = p - n;
  for (uint8_t *w = q; w < p - 1; w++) { *w = (uint8_t)(v | 0x80); v >>= 7; }
  p[-1] = (uint8_t)v;
  return q;
}

/* Reads a varint at p (bounded by end) into *v; NULL when malformed. */
static inline const uint8_t *rb_get_varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
  if (RB_LIKELY(p < end && *p < 0x80)) { *v = *p; return p + 1; }
  uint64_t r = 0;
  for (unsigned s = 0; s < 64 && p < end; s += 7) {
    uint8_t b = *p++;
    r |= (uint64_t)(b & 0x7f) << s;
    if (b < 0x80) { *v = r; return p; }
  }
  return NULL;
}

/* Skips a field of wire type tag & 7; NULL when malformed or a group. */
static inline const uint8_t *rb_skip(const uint8_t *p, const uint8_t *end, uint64_t tag)
{
  uint64_t n;
  switch (tag & 7) {
  case 0: return rb_get_varint(p, end, &n);
  case 1: return end - p >= 8 ? p + 8 : NULL;
  case 2: p = rb_get_varint(p, end, &n); return p && n <= (uint64_t)(end - p) ? p + n : NULL;
  case 5: return end - p >= 4 ? p + 4 : NULL;
  default: return NULL;
  }
}

#endif
