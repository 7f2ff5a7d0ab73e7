/* driver.c: one parity schema's building helpers on a random batch: copy, merge against decoding two encodings
 * one after the other, and streams of every sink and source. */
#define _POSIX_C_SOURCE 200809L
#define PBJ_STREAM_FD           /* pbj_sink_fd, pbj_source_fd */

/*
 * Built once per schema with -DPARITY_HEADER='"x.pb.h"' -DBATCH=<C name of the batch> -DITEM=<its item>.
 *   driver IN.bin      every check on the items of the batch in IN.bin; exit 0 when all hold, else 1
 */
#include PARITY_HEADER

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "wire.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define B_(name) CAT(BATCH, name)
#define I_(name) CAT(ITEM, name)

static int failures;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "helpers: %s:%d: ", __FILE__, __LINE__);      \
            fprintf(stderr, __VA_ARGS__);                                 \
            fprintf(stderr, "\n");                                        \
            failures++;                                                   \
        }                                                                 \
    } while (0)

static bool same_bytes(const pbj_buf *a, const pbj_buf *b)
{
    return a->len == b->len && (!a->len || memcmp(a->data, b->data, a->len) == 0);
}

/* m's encoding appended to out (through M_encode_append). */
static void encode_to(ITEM *m, pbj_buf *out)
{
    pbj_status st = I_(_encode_append)(m, out);
    CHECK(st == PBJ_OK, "encode_append: %s", pbj_status_str(st));
}

/* A copy equals its source, keeps nothing of it (the source's arena is freed first) and encodes the same. */
static void check_copy(ITEM *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        pbj_buf want = {0}, got = {0};
        encode_to(&items[i], &want);
        pbj_arena src_arena, copy_arena;
        pbj_arena_init(&src_arena, NULL, 0);
        pbj_arena_init(&copy_arena, NULL, 0);
        ITEM src, copy;
        CHECK(I_(_decode)(&src, want.data, want.len, &src_arena, NULL) == PBJ_OK, "item %zu: decode", i);
        CHECK(I_(_copy)(&copy, &src, &copy_arena) == PBJ_OK, "item %zu: copy", i);
        CHECK(I_(_equal)(&copy, &items[i]), "item %zu: the copy differs", i);
        pbj_arena_free(&src_arena);                  /* ASan: the copy must not point into it */
        encode_to(&copy, &got);
        CHECK(same_bytes(&got, &want), "item %zu: the copy encodes otherwise", i);
        I_(_clear)(&copy);
        ITEM empty;
        I_(_init)(&empty);
        CHECK(I_(_equal)(&copy, &empty), "item %zu: clear leaves fields", i);
        pbj_arena_free(&copy_arena);
        pbj_buf_free(&want);
        pbj_buf_free(&got);
    }
}

/* merge(copy of a, b) equals decode(encoding of a, then of b), for each item a and the next b. */
static void check_merge(ITEM *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ITEM *a = &items[i], *b = &items[(i + 1) % n];
        pbj_buf both = {0};
        encode_to(a, &both);
        encode_to(b, &both);
        pbj_arena arena;
        pbj_arena_init(&arena, NULL, 0);
        ITEM want, got;
        pbj_status st = I_(_decode)(&want, both.data, both.len, &arena, NULL);
        CHECK(st == PBJ_OK, "item %zu: decode of two encodings: %s", i, pbj_status_str(st));
        CHECK(I_(_copy)(&got, a, &arena) == PBJ_OK, "item %zu: copy", i);
        CHECK(I_(_merge)(&got, b, &arena) == PBJ_OK, "item %zu: merge", i);
        if (!I_(_equal)(&got, &want)) {
            pbj_text t1, t2;
            pbj_text_init(&t1);
            pbj_text_init(&t2);
            I_(_print)(&want, &t1);
            I_(_print)(&got, &t2);
            CHECK(0, "item %zu: merge differs from decoding the two encodings:\n--- decoded\n%.3000s--- merged\n%.3000s", i,
                  t1.data, t2.data);
            pbj_text_free(&t1);
            pbj_text_free(&t2);
        }
        pbj_arena_free(&arena);
        pbj_buf_free(&both);
    }
}

/* Reads back every item from in, one arena reset per message; then the end. */
static void read_back(const char *what, pbj_source *in, ITEM *items, size_t n)
{
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    size_t k = 0;
    while (pbj_source_more(in)) {
        pbj_arena_reset(&arena);
        ITEM m;
        pbj_status st = I_(_read_delimited)(&m, in, &arena, NULL);
        CHECK(st == PBJ_OK, "%s: record %zu: %s", what, k, pbj_status_str(st));
        if (st != PBJ_OK) break;
        CHECK(k < n && I_(_equal)(&m, &items[k]), "%s: record %zu differs", what, k);
        k++;
    }
    CHECK(in->status == PBJ_OK, "%s: %s", what, pbj_status_str(in->status));
    CHECK(k == n, "%s: %zu records read of %zu", what, k, n);
    pbj_arena_free(&arena);
}

static void write_all(const char *what, pbj_sink *out, ITEM *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        pbj_status st = I_(_write_delimited)(&items[i], out);
        CHECK(st == PBJ_OK, "%s: write %zu: %s", what, i, pbj_status_str(st));
    }
}

/* A callback sink collecting into a pbj_buf; a callback source giving at most 3 bytes a call. */
static pbj_status collect(void *ctx, const uint8_t *p, size_t n) { return pbj_buf_append((pbj_buf *)ctx, p, n); }

typedef struct trickle {
    const uint8_t *p, *end;
} trickle;

static pbj_status drip(void *ctx, uint8_t *p, size_t cap, size_t *got)
{
    trickle *t = ctx;
    size_t k = (size_t)(t->end - t->p);
    *got = k < 3 ? k : 3;
    if (*got > cap) *got = cap;
    memcpy(p, t->p, *got);
    t->p += *got;
    return PBJ_OK;
}

static void check_streams(ITEM *items, size_t n)
{
    pbj_sink mem;
    pbj_sink_memory(&mem);
    write_all("memory", &mem, items, n);
    pbj_source in;
    pbj_source_memory(&in, mem.buf.data, mem.buf.len);
    read_back("memory", &in, items, n);

    pbj_buf collected = {0};                         /* a callback sink writes what a memory sink keeps */
    pbj_sink cb;
    pbj_sink_callback(&cb, collect, &collected);
    write_all("callback", &cb, items, n);
    CHECK(same_bytes(&collected, &mem.buf), "callback: other bytes than memory");
    trickle t = {mem.buf.data, mem.buf.data + mem.buf.len};
    pbj_source_callback(&in, drip, &t);
    read_back("callback, 3 bytes a read", &in, items, n);
    pbj_source_free(&in);
    pbj_sink_free(&cb);

    FILE *f = tmpfile();
    pbj_sink_file(&cb, f);
    write_all("FILE", &cb, items, n);
    rewind(f);
    pbj_source_file(&in, f);
    read_back("FILE", &in, items, n);
    pbj_source_free(&in);
    pbj_sink_free(&cb);
    rewind(f);                                       /* the same file through its descriptor */
    pbj_sink_fd(&cb, fileno(f));
    write_all("fd", &cb, items, n);
    CHECK(lseek(fileno(f), 0, SEEK_SET) == 0, "fd: lseek");
    pbj_source_fd(&in, fileno(f));
    read_back("fd", &in, items, n);
    pbj_source_free(&in);
    pbj_sink_free(&cb);
    fclose(f);

    if (mem.buf.len) {                               /* the last byte missing: truncated, after n - 1 records */
        pbj_source_memory(&in, mem.buf.data, mem.buf.len - 1);
        pbj_arena arena;
        pbj_arena_init(&arena, NULL, 0);
        ITEM m;
        size_t k = 0;
        pbj_status st = PBJ_OK;
        while (pbj_source_more(&in) && (st = I_(_read_delimited)(&m, &in, &arena, NULL)) == PBJ_OK) k++;
        CHECK(st == PBJ_ERR_TRUNCATED && in.status == PBJ_ERR_TRUNCATED && k == n - 1, "truncated stream: %s after %zu",
              pbj_status_str(st), k);
        uint8_t huge[] = {0xff, 0xff, 0xff, 0xff, 0x0f};     /* a length beyond max_length (64 MiB) */
        pbj_source_memory(&in, huge, sizeof huge);
        CHECK(I_(_read_delimited)(&m, &in, &arena, NULL) == PBJ_ERR_TOO_LONG, "a 4 GiB length is not too long");
        pbj_arena_free(&arena);
    }
    pbj_buf_free(&collected);
    pbj_sink_free(&mem);
}

int main(int argc, char **argv)
{
    wbuf in = {0};
    if (argc != 2 || wb_read_file(&in, argv[1]) != 0) {
        fprintf(stderr, "usage: driver IN.bin\n");
        return 2;
    }
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    BATCH batch;
    pbj_status st = B_(_decode)(&batch, in.p, in.n, &arena, NULL);
    if (st != PBJ_OK) {
        fprintf(stderr, "helpers: decode of %s: %s\n", argv[1], pbj_status_str(st));
        return 1;
    }
    check_copy(batch.items.data, batch.items.count);
    check_merge(batch.items.data, batch.items.count);
    check_streams(batch.items.data, batch.items.count);
    pbj_arena_free(&arena);
    free(in.p);
    if (failures) fprintf(stderr, "helpers: %s: %d failures\n", argv[1], failures);
    return failures != 0;
}
