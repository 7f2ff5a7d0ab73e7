/* driver.c: M_write_reverse and M_encode against the size pass on decoded batches: the same bytes, any buffer. */
#define _POSIX_C_SOURCE 200809L

/*
 * Built once per batch type with -DREV_HEADER='"x.pb.h"' -DBATCH=<C name of the batch> -DITEM=<C name of its
 * item> and -include test/reverse/alloc.h (every file). A batch is a message whose field 1 is `repeated ITEM items`.
 *
 *   driver check [-exact] IN.bin...   decode each batch; the batch and every item written in reverse must be
 *                                     M_encode's bytes (-exact: the batch's bytes are IN's too), with the same
 *                                     status; from no block, from a tiny caller block that grows, prepended to
 *                                     bytes already written, after a reset, in a caller block of every size up
 *                                     to past the message's (to 16 KiB), and when PBJ_MALLOC fails; and M_encode
 *                                     (one walk where the buffer has room) gives M_size's and M__write's bytes
 *                                     and statuses in buffers of every size, and with room to spare.
 *
 * Exit 0 when every check holds; 1 with the first difference on stderr.
 */
#include REV_HEADER

#include <stdio.h>
#include <stdlib.h>

#include "wire.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define B_(name) CAT(BATCH, name)
#define I_(name) CAT(ITEM, name)

/* ---- PBJ_MALLOC that fails after `rev_allowed` more blocks (-1: never) ---------- */

/* ---- one message type's encoders, behind plain pointers ---------------------- */
typedef struct codec {
    size_t (*size)(void *m);
    pbj_status (*encode)(void *m, uint8_t *buf, size_t cap, size_t *len);
    pbj_status (*reverse)(const void *m, pbj_rbuf *out);
    uint8_t *(*write)(const void *m, uint8_t *end);   /* M__write: the size pass's writer, back to front from end */
} codec;

static size_t batch_size(void *m) { return B_(_size)((BATCH *)m); }
static pbj_status batch_encode(void *m, uint8_t *b, size_t c, size_t *n) { return B_(_encode)((BATCH *)m, b, c, n); }
static pbj_status batch_reverse(const void *m, pbj_rbuf *out) { return B_(_write_reverse)((const BATCH *)m, out); }
static size_t item_size(void *m) { return I_(_size)((ITEM *)m); }
static pbj_status item_encode(void *m, uint8_t *b, size_t c, size_t *n) { return I_(_encode)((ITEM *)m, b, c, n); }
static pbj_status item_reverse(const void *m, pbj_rbuf *out) { return I_(_write_reverse)((const ITEM *)m, out); }

static uint8_t *batch_write(const void *m, uint8_t *end) { return B_(__write)((const BATCH *)m, end); }
static uint8_t *item_write(const void *m, uint8_t *end) { return I_(__write)((const ITEM *)m, end); }

static const codec batch_codec = {batch_size, batch_encode, batch_reverse, batch_write};
static const codec item_codec = {item_size, item_encode, item_reverse, item_write};

static const char *what_ = "";
static size_t index_;

static int differ(const char *how, const uint8_t *want, size_t wn, const uint8_t *got, size_t gn)
{
    if (wn == gn && (wn == 0 || memcmp(want, got, wn) == 0)) return 0;
    size_t at = 0;
    while (at < wn && at < gn && want[at] == got[at]) at++;
    fprintf(stderr, "%s %zu: %s: %zu bytes vs encode's %zu, first difference at %zu\n", what_, index_, how, gn, wn, at);
    return 1;
}

static int status_differs(const char *how, pbj_status want, pbj_status got)
{
    if (want == got) return 0;
    fprintf(stderr, "%s %zu: %s: %s, encode gives %s\n", what_, index_, how, pbj_status_str(got), pbj_status_str(want));
    return 1;
}

/* want twice: what two writes of one message prepended give. */
static uint8_t *twice(const uint8_t *want, size_t n)
{
    uint8_t *w = malloc(2 * n + 1);
    if (!w) abort();
    if (n) {
        memcpy(w, want, n);
        memcpy(w + n, want, n);
    }
    return w;
}

/* Write m when PBJ_MALLOC fails after k blocks, for k = 0, 1, ... until it succeeds: a failure leaves out as it was. */
static int check_nomem(const codec *c, const void *m, const uint8_t *want, size_t n, pbj_status se)
{
    uint8_t tiny[8];
    uint8_t *both = twice(want, n);
    int bad = 0;
    for (long k = 0; k < 64 && !bad; k++) {
        pbj_rbuf r;
        pbj_rbuf_init(&r, tiny, sizeof tiny);
        pbj_status st = c->reverse(m, &r);         /* the bytes already there */
        bad |= status_differs("first write", se, st);
        rev_allowed = k;
        st = c->reverse(m, &r);
        rev_allowed = -1;
        if (st == PBJ_ERR_NOMEM) {
            bad |= differ("out of memory: left as it was", want, se == PBJ_OK ? n : 0, pbj_rbuf_data(&r), pbj_rbuf_len(&r));
        } else {
            bad |= status_differs("rev_allowed enough blocks", se, st);
            if (st == PBJ_OK) bad |= differ("rev_allowed enough blocks", both, 2 * n, pbj_rbuf_data(&r), pbj_rbuf_len(&r));
            k = 64;
        }
        pbj_rbuf_free(&r);
    }
    free(both);
    return bad;
}

/* In a caller block of every size from none to past n (from the heap, so a byte written below it is caught): each
 * check in turn is the one that gives up, from a sub-message's first one (its p below its lim) to a string's. */
static int check_every_block(const codec *c, const void *m, const uint8_t *want, size_t n, pbj_status se)
{
    int bad = 0;
    for (size_t k = 0; k <= n + 80 && !bad; k += n / 64 + 1) {
        uint8_t *block = malloc(k + 1);
        if (!block) abort();
        pbj_rbuf r;
        pbj_rbuf_init(&r, block, k);
        bad |= status_differs("in a block of every size", se, c->reverse(m, &r));
        bad |= differ("in a block of every size", want, n, pbj_rbuf_data(&r), pbj_rbuf_len(&r));
        if (bad) fprintf(stderr, "  block of %zu bytes\n", k);
        pbj_rbuf_free(&r);
        free(block);
    }
    return bad;
}

/* M_encode into a buffer of cap bytes (from the heap, so a byte written outside it is caught): se when the message
 * cannot be encoded, else PBJ_ERR_BUFFER and the size needed below n, else the n bytes of want. */
static int check_encode_in(const codec *c, void *m, const uint8_t *want, size_t n, pbj_status se, size_t cap)
{
    uint8_t *buf = malloc(cap + 1);
    if (!buf) abort();
    size_t len = 0;
    pbj_status st = c->encode(m, buf, cap, &len);
    int bad = status_differs("encode", se != PBJ_OK ? se : cap < n ? PBJ_ERR_BUFFER : PBJ_OK, st);
    if (se == PBJ_OK && !bad && len != n) {
        fprintf(stderr, "%s %zu: encode: *len %zu, not %zu\n", what_, index_, len, n);
        bad = 1;
    }
    if (st == PBJ_OK && !bad) bad = differ("encode", want, n, buf, len);
    if (bad) fprintf(stderr, "  encode into %zu bytes\n", cap);
    free(buf);
    return bad;
}

/* M_encode (one walk from the buffer's end where it has room, else the size pass) against M_size and M__write, the
 * size pass's writer: in buffers of every size up to past n, and with room to spare, a little (the bytes moved with
 * one memmove) or much (in pieces). */
static int check_encode(const codec *c, void *m, pbj_status se)
{
    size_t n = c->size(m);
    if (se != PBJ_OK) return check_encode_in(c, m, NULL, 0, se, n == PBJ_SIZE_ERROR ? 4096 : n + 4096);
    uint8_t *want = malloc(n + 1);
    if (!want) abort();
    int bad = 0;
    if (n && c->write(m, want + n) != want) {
        fprintf(stderr, "%s %zu: M__write did not write M_size's bytes\n", what_, index_);
        bad = 1;
    }
    for (size_t k = 0; k <= n + 80 && !bad; k += n / 64 + 1) bad |= check_encode_in(c, m, want, n, se, k);
    for (size_t k = n > 24 ? n - 24 : 0; k <= n + 24 && !bad; k++)   /* every size near n: the walk's exact end */
        bad |= check_encode_in(c, m, want, n, se, k);
    const size_t room[] = {0, 1, 63, 64, 500, 2047, 2048, 2049, 5000, n / 2 + 3, n + 7};
    for (size_t i = 0; i < sizeof room / sizeof room[0] && !bad; i++)
        bad |= check_encode_in(c, m, want, n, se, n + room[i]);
    free(want);
    return bad;
}

/* m written in reverse against its encoding (and against want when given). */
static int check(const codec *c, void *m, const uint8_t *exact, size_t exact_n)
{
    size_t cap = c->size(m) + 1, n = 0;
    uint8_t *want = malloc(cap);
    if (!want) abort();
    pbj_status se = c->encode(m, want, cap, &n), st;
    if (se != PBJ_OK) n = 0;
    int bad = exact && differ("encode vs the input", exact, exact_n, want, n);

    pbj_rbuf r;                                   /* no block: every byte from PBJ_MALLOC */
    pbj_rbuf_init(&r, NULL, 0);
    bad |= status_differs("from no block", se, st = c->reverse(m, &r));
    bad |= differ("from no block", want, n, pbj_rbuf_data(&r), pbj_rbuf_len(&r));
    pbj_rbuf_free(&r);

    uint8_t tiny[3];                              /* a caller block too small: it grows, marks move with it */
    pbj_rbuf_init(&r, tiny, sizeof tiny);
    bad |= status_differs("from a tiny block", se, st = c->reverse(m, &r));
    bad |= differ("from a tiny block", want, n, pbj_rbuf_data(&r), pbj_rbuf_len(&r));
    uint8_t *both = twice(want, n);               /* prepended to what is there */
    bad |= status_differs("prepended", se, st = c->reverse(m, &r));
    bad |= differ("prepended", both, 2 * n, pbj_rbuf_data(&r), pbj_rbuf_len(&r));
    free(both);
    pbj_rbuf_reset(&r);                           /* the grown block again */
    bad |= status_differs("after reset", se, st = c->reverse(m, &r));
    bad |= differ("after reset", want, n, pbj_rbuf_data(&r), pbj_rbuf_len(&r));
    pbj_rbuf_free(&r);

    uint8_t *big = malloc(n + 1);                 /* a caller block of the size (room is asked for in runs: it may grow) */
    if (!big) abort();
    pbj_rbuf_init(&r, big, n);
    bad |= status_differs("in a block of the size", se, st = c->reverse(m, &r));
    bad |= differ("in a block of the size", want, n, pbj_rbuf_data(&r), pbj_rbuf_len(&r));
    pbj_rbuf_free(&r);
    free(big);

    if (n <= 16384) bad |= check_every_block(c, m, want, n, se);
    bad |= check_encode(c, m, se);
    bad |= check_nomem(c, m, want, n, se);
    free(want);
    return bad;
}

static int check_file(const char *path, int exact)
{
    wbuf in = {0};
    if (wb_read_file(&in, path) != 0) {
        perror(path);
        return 1;
    }
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    BATCH m;
    pbj_decode_options o = {0};
    o.partial = true;                             /* missing required fields: both encoders must refuse alike */
    pbj_status st = B_(_decode)(&m, in.p, in.n, &a, &o);
    int bad = 0;
    if (st != PBJ_OK) {
        fprintf(stderr, "%s: decode fails: %s\n", path, pbj_status_str(st));
        bad = 1;
    }
    what_ = "batch";
    index_ = 0;
    if (!bad) bad = check(&batch_codec, &m, exact ? in.p : NULL, in.n);
    what_ = "item";
    for (size_t i = 0; !bad && i < m.items.count; i++) {
        index_ = i;
        bad = check(&item_codec, &m.items.data[i], NULL, 0);
    }
    if (bad) fprintf(stderr, "  in %s\n", path);
    else printf("%s: %zu items, reverse = encode\n", path, m.items.count);
    pbj_arena_free(&a);
    free(in.p);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3 || strcmp(argv[1], "check") != 0) {
        fprintf(stderr, "usage: %s check [-exact] IN.bin...\n", argv[0]);
        return 2;
    }
    int exact = argc > 2 && strcmp(argv[2], "-exact") == 0, bad = 0;
    for (int i = 2 + exact; i < argc; i++) bad |= check_file(argv[i], exact);
    return bad;
}
