/* wire.c: a growable buffer of protobuf wire format and a reader of its fields. */
#include "wire.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../rt/pbj_core.h"   /* the varint writer, wire type names, PBJ_TAG */

static void wb_need(wbuf *b, size_t k)
{
    if (b->n + k <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + k)
        cap *= 2;
    b->p = realloc(b->p, cap);
    if (!b->p)
        abort();
    b->cap = cap;
}

void wb_put(wbuf *b, const void *data, size_t k)
{
    if (k == 0)
        return;
    wb_need(b, k);
    memcpy(b->p + b->n, data, k);
    b->n += k;
}

void wb_varint(wbuf *b, uint64_t v)
{
    uint8_t tmp[10];
    wb_put(b, tmp, (size_t)(pbj_put_varint(tmp, v) - tmp));
}

void wb_fixed(wbuf *b, uint64_t v, int bytes)
{
    uint8_t tmp[8];
    for (int i = 0; i < bytes; i++)
        tmp[i] = (uint8_t)(v >> (8 * i));          /* little-endian on any host */
    wb_put(b, tmp, (size_t)bytes);
}

void wb_tag(wbuf *b, uint32_t field, int wire_type)
{
    wb_varint(b, PBJ_TAG(field, wire_type));
}

void wb_varint_field(wbuf *b, uint32_t field, uint64_t v)
{
    wb_tag(b, field, PBJ_WT_VARINT);
    wb_varint(b, v);
}

void wb_int32_field(wbuf *b, uint32_t field, int32_t v)
{
    wb_varint_field(b, field, (uint64_t)(int64_t)v);
}

void wb_bytes_field(wbuf *b, uint32_t field, const void *data, size_t len)
{
    wb_tag(b, field, PBJ_WT_LEN);
    wb_varint(b, len);
    wb_put(b, data, len);
}

void wb_string_field(wbuf *b, uint32_t field, const char *s)
{
    if (s)
        wb_bytes_field(b, field, s, strlen(s));
}

void wb_message_field(wbuf *b, uint32_t field, bool group, const void *data, size_t len)
{
    if (!group) {
        wb_bytes_field(b, field, data, len);
        return;
    }
    wb_tag(b, field, PBJ_WT_SGROUP);
    wb_put(b, data, len);
    wb_tag(b, field, PBJ_WT_EGROUP);
}

size_t wb_open(wbuf *b, uint32_t field)
{
    wb_tag(b, field, PBJ_WT_LEN);
    return b->n;
}

void wb_close(wbuf *b, size_t start)
{
    assert(start <= b->n);
    uint8_t tmp[10];
    size_t len = b->n - start, k = (size_t)(pbj_put_varint(tmp, len) - tmp);
    wb_need(b, k);
    memmove(b->p + start + k, b->p + start, len);
    memcpy(b->p + start, tmp, k);
    b->n += k;
}

/* A tag is the field number, then the wire type in its low bits (PBJ_TAG). */
enum { TAG_TYPE_BITS = 3, TAG_TYPE_MASK = (1 << TAG_TYPE_BITS) - 1 };

/* The runtime's varint reader on a cursor: a malformed or cut varint reads as 0 and ends the input. */
static uint64_t read_varint(const uint8_t **p, const uint8_t *end)
{
    uint64_t v = 0;
    const uint8_t *q = pbj_get_varint(*p, end, &v);
    *p = q ? q : end;
    return q ? v : 0;
}

bool wire_next_field(const uint8_t **p, const uint8_t *end, uint32_t *num, int *wire_type,
                     const uint8_t **val, size_t *len)
{
    if (*p >= end)
        return false;
    uint64_t tag = read_varint(p, end);
    *num = (uint32_t)(tag >> TAG_TYPE_BITS);
    *wire_type = (int)(tag & TAG_TYPE_MASK);
    *val = *p;
    size_t skip = *wire_type == PBJ_WT_I64 ? 8 : *wire_type == PBJ_WT_I32 ? 4 : 0;
    if (*wire_type == PBJ_WT_VARINT) {
        read_varint(p, end);
    } else if (*wire_type == PBJ_WT_LEN) {
        skip = (size_t)read_varint(p, end);
        *val = *p;
    } else if (*wire_type == PBJ_WT_SGROUP) {      /* up to its end tag */
        uint32_t inner;
        int inner_type;
        const uint8_t *before = *p, *v;
        size_t n;
        while (wire_next_field(p, end, &inner, &inner_type, &v, &n) && inner_type != PBJ_WT_EGROUP)
            before = *p;
        *len = (size_t)(before - *val);
        return true;
    }
    *p = skip <= (size_t)(end - *p) ? *p + skip : end;
    *len = (size_t)(*p - *val);
    return true;
}
