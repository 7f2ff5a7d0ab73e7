/* wire.h: a growable buffer of protobuf wire format (descriptor sets, option values) and a reader of its fields. */
#ifndef PBJC_WIRE_H
#define PBJC_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes on the heap (not the IR's pool): free(b.p) when done. */
typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
} wbuf;

void wb_put(wbuf *b, const void *data, size_t k);
void wb_varint(wbuf *b, uint64_t v);
void wb_fixed(wbuf *b, uint64_t v, int bytes);           /* 4 or 8 bytes, little-endian */
void wb_tag(wbuf *b, uint32_t field, int wire_type);     /* wire types are rt/pbj.h's PBJ_WT_* */

/* Whole fields: tag and value. */
void wb_varint_field(wbuf *b, uint32_t field, uint64_t v);
void wb_int32_field(wbuf *b, uint32_t field, int32_t v);        /* negatives take ten bytes */
void wb_bytes_field(wbuf *b, uint32_t field, const void *data, size_t len);
void wb_string_field(wbuf *b, uint32_t field, const char *s);   /* nothing when s is NULL */
/* A message value: length-delimited, or between group tags. */
void wb_message_field(wbuf *b, uint32_t field, bool group, const void *data, size_t len);

/* A length-delimited field whose size is known only once written: open, write, close. */
size_t wb_open(wbuf *b, uint32_t field);
void wb_close(wbuf *b, size_t start);

/* One field of [*p, end): its number, wire type and value bytes (a group's
 * content, without its end tag); false at the end. Malformed input is cut short, never over-read. */
bool wire_next_field(const uint8_t **p, const uint8_t *end, uint32_t *num, int *wire_type,
                     const uint8_t **val, size_t *len);

#endif
