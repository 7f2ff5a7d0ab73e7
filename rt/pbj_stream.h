/* pbj_stream.h: length-delimited messages over memory, FILE *, file descriptors and callbacks (M_write_delimited, M_read_delimited). */
#ifndef PBJ_STREAM_H
#define PBJ_STREAM_H

/*
 * A stream is a run of records, each a message's encoding after its length as
 * a varint (what protobuf's writeDelimitedTo and parseDelimitedFrom use).
 *
 *   pbj_sink out;                              // where records go
 *   pbj_sink_file(&out, f);                    // or _memory, _fd, _callback
 *   if (acme_Order_write_delimited(&o, &out) != PBJ_OK) ...
 *   pbj_sink_free(&out);                       // out.buf: a memory sink's bytes
 *
 *   pbj_source in;                             // where records come from
 *   pbj_source_file(&in, f);                   // or _memory, _fd, _callback
 *   while (pbj_source_more(&in)) {             // false at the end, or on an error (in.status)
 *       pbj_arena_reset(&arena);               // one message's memory at a time
 *       if (acme_Order_read_delimited(&o, &in, &arena, NULL) != PBJ_OK) ...
 *   }
 *   pbj_source_free(&in);
 *
 * Both stage bytes in a pbj_buf (pbj.h; grown through PBJ_MALLOC). A memory
 * sink keeps every record in out.buf; the others hand each record to their
 * write function as soon as it is complete. A memory source reads the
 * caller's bytes in place and never allocates; the others read in blocks of
 * at least PBJ_STREAM_BLOCK bytes. A record longer than max_length (default
 * 64 MiB) is PBJ_ERR_TOO_LONG; input ending inside one is PBJ_ERR_TRUNCATED.
 * With pbj_decode_options.alias, strings point into the source's buffer and
 * live until the next record is read. pbj_buf_read_file and pbj_buf_read_path
 * read a whole file into a pbj_buf, to decode one message. PBJ_NO_STDIO leaves
 * out the FILE * sink and source and those two; file descriptors need PBJ_STREAM_FD defined first (POSIX: it
 * includes <unistd.h>, whose names a schema's C names could meet).
 */

#include "pbj_core.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef PBJ_STREAM_BLOCK
#define PBJ_STREAM_BLOCK 4096
#endif

/* ---- sinks ------------------------------------------------------------------ */

/* Write n bytes at p to ctx; PBJ_OK or a status (PBJ_ERR_BUFFER for an I/O error). */
typedef pbj_status (*pbj_write_fn)(void *ctx, const uint8_t *p, size_t n);

typedef struct pbj_sink {
    pbj_buf buf;                  /* staged bytes: every record for a memory sink */
    pbj_write_fn write;           /* NULL: a memory sink */
    void *ctx;
} pbj_sink;

PBJ_INLINE void pbj_sink_callback(pbj_sink *s, pbj_write_fn write, void *ctx)
{
    memset(s, 0, sizeof *s);
    s->write = write;
    s->ctx = ctx;
}

PBJ_INLINE void pbj_sink_memory(pbj_sink *s) { pbj_sink_callback(s, NULL, NULL); }

PBJ_INLINE void pbj_sink_free(pbj_sink *s) { pbj_buf_free(&s->buf); }

/* Room for a record of n bytes, its length written: *body is where the n bytes go. */
PBJ_MUST_USE PBJ_INLINE pbj_status pbj_sink_open(pbj_sink *s, size_t n, uint8_t **body)
{
    if (n > INT32_MAX) return PBJ_ERR_SIZE;
    pbj_status st = pbj_buf_reserve(&s->buf, pbj_len_size(n));
    if (st != PBJ_OK) return st;
    *body = pbj_put_varint(s->buf.data + s->buf.len, n);
    return PBJ_OK;
}

/* The record opened last is complete (st PBJ_OK: its n bytes were written) or dropped (any other st). */
PBJ_MUST_USE PBJ_INLINE pbj_status pbj_sink_close(pbj_sink *s, pbj_status st, size_t n)
{
    if (st != PBJ_OK) return st;
    s->buf.len += pbj_len_size(n);
    if (!s->write) return PBJ_OK;
    st = s->write(s->ctx, s->buf.data, s->buf.len);
    s->buf.len = 0;
    return st;
}

/* A record whose bytes are already encoded. */
PBJ_MUST_USE PBJ_INLINE pbj_status pbj_sink_put(pbj_sink *s, const void *bytes, size_t n)
{
    uint8_t *body;
    pbj_status st = pbj_sink_open(s, n, &body);
    if (st == PBJ_OK && n) memcpy(body, bytes, n);
    return pbj_sink_close(s, st, n);
}

/* ---- sources ------------------------------------------------------------------ */

/* Read up to cap bytes into p; *got 0 at the end of the input. PBJ_OK or a status. */
typedef pbj_status (*pbj_read_fn)(void *ctx, uint8_t *p, size_t cap, size_t *got);

typedef struct pbj_source {
    const uint8_t *p, *end;       /* bytes at hand, not yet read */
    pbj_buf buf;                  /* what a reading source read */
    pbj_read_fn read;             /* NULL: a memory source */
    void *ctx;
    bool at_end;                  /* read gave its last byte */
    pbj_status status;            /* the first failure, or PBJ_OK */
    size_t max_length;            /* the longest record; 0 = PBJ_DEFAULT_MAX_LENGTH */
} pbj_source;

PBJ_INLINE void pbj_source_callback(pbj_source *s, pbj_read_fn read, void *ctx)
{
    memset(s, 0, sizeof *s);
    s->read = read;
    s->ctx = ctx;
}

PBJ_INLINE void pbj_source_memory(pbj_source *s, const void *data, size_t len)
{
    pbj_source_callback(s, NULL, NULL);
    s->p = (const uint8_t *)data;
    s->end = s->p + len;
    s->at_end = true;
}

PBJ_INLINE void pbj_source_free(pbj_source *s) { pbj_buf_free(&s->buf); }

/* Read until need bytes are at hand, the input ends or a read fails (s->status). */
PBJ_OUTLINE void pbj__source_fill(pbj_source *s, size_t need) PBJ__PROTO
#if PBJ__BODIES
{
    size_t have = (size_t)(s->end - s->p);
    if (have && s->p != s->buf.data) memmove(s->buf.data, s->p, have);   /* what is left, to the front */
    s->buf.len = have;
    while (s->buf.len < need && !s->at_end) {
        size_t want = need - s->buf.len < PBJ_STREAM_BLOCK ? PBJ_STREAM_BLOCK : need - s->buf.len, got = 0;
        pbj_status st = pbj_buf_reserve(&s->buf, want);
        if (st == PBJ_OK) st = s->read(s->ctx, s->buf.data + s->buf.len, s->buf.cap - s->buf.len, &got);
        if (st != PBJ_OK) {
            s->status = st;
            break;
        }
        s->buf.len += got;
        s->at_end = got == 0;
    }
    s->p = s->buf.data;
    s->end = s->buf.data ? s->buf.data + s->buf.len : NULL;
}
#endif

PBJ_INLINE bool pbj__source_want(pbj_source *s, size_t need)
{
    if ((size_t)(s->end - s->p) < need && !s->at_end) pbj__source_fill(s, need);
    return s->status == PBJ_OK;
}

/* Whether another record follows: false at the end of the input and after a failure (s->status). */
PBJ_INLINE bool pbj_source_more(pbj_source *s)
{
    return pbj__source_want(s, 1) && s->p < s->end;
}

/* The next record's bytes (valid until the next call); a failure sticks to s. */
PBJ_MUST_USE PBJ_OUTLINE pbj_status pbj_source_next(pbj_source *s, pbj_slice *record) PBJ__PROTO
#if PBJ__BODIES
{
    uint64_t n = 0;
    const uint8_t *q;
    size_t max = s->max_length ? s->max_length : PBJ_DEFAULT_MAX_LENGTH;
    if (s->status != PBJ_OK) return s->status;
    if (!pbj__source_want(s, 10)) return s->status;
    if (s->p == s->end) return s->status = PBJ_ERR_TRUNCATED;
    if (!(q = pbj_get_varint(s->p, s->end, &n))) return s->status = pbj_varint_error(s->p, s->end);
    if (n > max) return s->status = PBJ_ERR_TOO_LONG;
    s->p = q;
    if (!pbj__source_want(s, (size_t)n)) return s->status;
    if ((size_t)(s->end - s->p) < n) return s->status = PBJ_ERR_TRUNCATED;
    *record = pbj_slice_make(s->p, (size_t)n);
    s->p += n;
    return PBJ_OK;
}
#endif

/* ---- FILE * (unless PBJ_NO_STDIO) and file descriptors (with PBJ_STREAM_FD) ----------- */
/* Only user code uses them: a generated source without the runtime's bodies (PBJ__BODIES) parses neither. */
#if !defined(PBJ_NO_STDIO) && (!defined(PBJ__GENERATED_SOURCE) || PBJ__BODIES)
#include <stdio.h>

PBJ_OUTLINE pbj_status pbj__file_write(void *ctx, const uint8_t *p, size_t n) PBJ__PROTO
#if PBJ__BODIES
{
    return fwrite(p, 1, n, (FILE *)ctx) == n ? PBJ_OK : PBJ_ERR_BUFFER;
}
#endif

PBJ_OUTLINE pbj_status pbj__file_read(void *ctx, uint8_t *p, size_t cap, size_t *got) PBJ__PROTO
#if PBJ__BODIES
{
    *got = fread(p, 1, cap, (FILE *)ctx);
    return *got == 0 && ferror((FILE *)ctx) ? PBJ_ERR_TRUNCATED : PBJ_OK;
}
#endif

PBJ_INLINE void pbj_sink_file(pbj_sink *s, FILE *f) { pbj_sink_callback(s, pbj__file_write, f); }
PBJ_INLINE void pbj_source_file(pbj_source *s, FILE *f) { pbj_source_callback(s, pbj__file_read, f); }

/* Appends what f holds from its position to its end to b, for M_decode(&m, b.data, b.len, ...):
 * PBJ_ERR_IO when reading fails, PBJ_ERR_NOMEM when b cannot grow (b keeps what was read). */
PBJ_OUTLINE pbj_status pbj_buf_read_file(pbj_buf *b, FILE *f) PBJ__PROTO
#if PBJ__BODIES
{
    for (;;) {
        pbj_status st = pbj_buf_reserve(b, PBJ_STREAM_BLOCK);
        if (st != PBJ_OK) return st;
        size_t got = fread(b->data + b->len, 1, b->cap - b->len, f);
        b->len += got;
        if (got == 0) return ferror(f) ? PBJ_ERR_IO : PBJ_OK;
    }
}
#endif

/* Appends the whole file at path to b (opened "rb"): PBJ_ERR_IO when it cannot be opened or read. */
PBJ_OUTLINE pbj_status pbj_buf_read_path(pbj_buf *b, const char *path) PBJ__PROTO
#if PBJ__BODIES
{
    FILE *f = fopen(path, "rb");
    if (!f) return PBJ_ERR_IO;
    pbj_status st = pbj_buf_read_file(b, f);
    return fclose(f) != 0 && st == PBJ_OK ? PBJ_ERR_IO : st;
}
#endif

#endif

#if defined(PBJ_STREAM_FD) && (!defined(PBJ__GENERATED_SOURCE) || PBJ__BODIES)
#include <errno.h>
#include <unistd.h>

/* The descriptor travels in the context pointer itself. */
PBJ_OUTLINE pbj_status pbj__fd_write(void *ctx, const uint8_t *p, size_t n) PBJ__PROTO
#if PBJ__BODIES
{
    int fd = (int)(intptr_t)ctx;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return PBJ_ERR_BUFFER;
        p += k;
        n -= (size_t)k;
    }
    return PBJ_OK;
}
#endif

PBJ_OUTLINE pbj_status pbj__fd_read(void *ctx, uint8_t *p, size_t cap, size_t *got) PBJ__PROTO
#if PBJ__BODIES
{
    ssize_t k;
    do k = read((int)(intptr_t)ctx, p, cap);
    while (k < 0 && errno == EINTR);
    *got = k > 0 ? (size_t)k : 0;
    return k < 0 ? PBJ_ERR_TRUNCATED : PBJ_OK;
}
#endif

PBJ_INLINE void pbj_sink_fd(pbj_sink *s, int fd) { pbj_sink_callback(s, pbj__fd_write, (void *)(intptr_t)fd); }
PBJ_INLINE void pbj_source_fd(pbj_source *s, int fd) { pbj_source_callback(s, pbj__fd_read, (void *)(intptr_t)fd); }
#endif

#ifdef __cplusplus
}
#endif

#endif
