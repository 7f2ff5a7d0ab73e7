/* driver.c: the writers of one schema against M_encode's bytes, on a batch of random items (test/writers/run.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "replay.h"
#include REPLAY_C                 /* the generated headers and replay_M of every message (replay_gen) */

/*
 * usage: driver_SCHEMA BATCH.bin SEED
 *   For every item of the batch (BATCH, its field items of type ITEM), under each reservation strategy:
 *   ITEM_writer_from and three seeded random call sequences (replay_gen) give exactly ITEM__write's
 *   bytes, into a growing buffer first empty, then after a reset with no PBJ_MALLOC; the caller block
 *   of exactly that size takes it and one a byte short fails with PBJ_ERR_BUFFER; a probe call out of
 *   order after every place where one can come fails with PBJ_ERR_ORDER, writes nothing, and sticks.
 */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define ITEM_WRITER CAT(ITEM, _writer)
#define REPLAY_LOOSE (REPLAY_MISSED + 1)

size_t wtest_mallocs;

void *wtest_malloc(size_t n)
{
    wtest_mallocs++;
    return malloc(n);
}

void wtest_free(void *p) { free(p); }

static int failures;

static void fail(size_t item, int strategy, const char *what)
{
    if (failures++ < 10) fprintf(stderr, "writers: item %zu, strategy %d: %s\n", item, strategy, what);
}

static bool same(const pbj_wbuf *b, const uint8_t *want, size_t n)
{
    return b->status == PBJ_OK && b->len == n && (n == 0 || memcmp(b->data, want, n) == 0);
}

/* m into b: whole through from, else a call sequence seeded with seed (fault: the probe to make). */
static int write_item(pbj_wbuf *b, ITEM *m, uint64_t seed, unsigned fault)
{
    ITEM_WRITER w;
    replay_rng r = {seed | 1, fault};
    int st = CAT(ITEM, _writer_start)(&w, b);
    if (st) return st;
    if (!fault && (CAT(whole_, ITEM)(m) || seed % 4 == 0)) st = CAT(ITEM, _writer_from)(&w, m);
    else st = CAT(replay_, ITEM)(&w, m, &r);
    if (st == REPLAY_CAUGHT && (b->status != PBJ_ERR_ORDER || !b->failed || CAT(ITEM, _writer_end)(&w) != PBJ_ERR_ORDER))
        return REPLAY_LOOSE;                      /* the failure was not recorded, or did not stick */
    if (st) return st;
    return CAT(ITEM, _writer_end)(&w);
}

/* Every probe place of m in turn: the probe fails, writes nothing, and the failure sticks. */
static void probes(pbj_wbuf *b, ITEM *m, size_t item, int strategy, uint64_t seed)
{
    for (unsigned f = 1; f < 200; f++) {
        pbj_wbuf_reset(b);
        int st = write_item(b, m, seed, f);
        if (st == 0) return;                      /* fewer probe places than f */
        if (st == REPLAY_CAUGHT) continue;
        fail(item, strategy, st == REPLAY_MISSED ? "a call out of order was not refused"
                           : st == REPLAY_LOOSE ? "an order failure was not recorded or did not stick"
                                                : pbj_status_str((pbj_status)st));
        return;
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) return 2;
    FILE *in = fopen(argv[1], "rb");
    if (!in) return 2;
    static uint8_t data[1 << 26];
    size_t n = fread(data, 1, sizeof data, in);
    fclose(in);
    uint64_t seed = strtoull(argv[2], NULL, 10);
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    BATCH batch;
    pbj_decode_options opts = {0};
    opts.partial = true;
    if (CAT(BATCH, _decode)(&batch, data, n, &arena, &opts) != PBJ_OK) {
        fprintf(stderr, "writers: cannot decode %s\n", argv[1]);
        return 1;
    }
    size_t moves[3] = {0}, items = batch.items.count;
    for (int s = 0; s < 3; s++) {
        pbj_wbuf b;
        pbj_wbuf_init(&b, NULL, 0);
        pbj_wbuf_set_reserve(&b, (pbj_reserve)s);
        for (size_t i = 0; i < items; i++) {
            ITEM *m = &batch.items.data[i];
            size_t len = CAT(ITEM, _size)(m);
            uint8_t *want = (uint8_t *)malloc(len + 1);
            CAT(ITEM, __write)(m, want + len);   /* back to front, ending at want + len */
            pbj_wbuf fresh;                       /* a tiny growing buffer, empty at first */
            pbj_wbuf_init(&fresh, NULL, 0);
            pbj_wbuf_set_reserve(&fresh, (pbj_reserve)s);
            if (write_item(&fresh, m, seed + i, 0) != 0 || !same(&fresh, want, len)) fail(i, s, "bytes differ in a new buffer");
            pbj_wbuf_free(&fresh);
            for (uint64_t k = 0; k < 3; k++) {
                pbj_wbuf_reset(&b);
                size_t before = b.moves;
                if (write_item(&b, m, seed * 7 + i * 3 + k, 0) != 0 || !same(&b, want, len)) fail(i, s, "bytes differ");
                pbj_wbuf_reset(&b);                 /* warm: the same again allocates nothing */
                size_t mallocs = wtest_mallocs;
                b.moves = before;
                if (write_item(&b, m, seed * 7 + i * 3 + k, 0) != 0 || !same(&b, want, len)) fail(i, s, "bytes differ after a reset");
                if (wtest_mallocs != mallocs) fail(i, s, "PBJ_MALLOC called by a warm buffer");
                if (k == 0) moves[s] += b.moves - before;
            }
            pbj_wbuf block;
            pbj_wbuf_init(&block, want, len);      /* writing over want itself: compared with a copy */
            uint8_t *copy = (uint8_t *)malloc(len + 1);
            memcpy(copy, want, len);
            memset(want, 0xa5, len);
            if (write_item(&block, m, seed, 0) != 0 || !same(&block, copy, len)) fail(i, s, "bytes differ in a caller block");
            if (len) {
                pbj_wbuf_init(&block, want, len - 1);
                if (write_item(&block, m, seed, 0) != PBJ_ERR_BUFFER) fail(i, s, "a short caller block is not refused");
            }
            if (i % 8 == 0) probes(&b, m, i, s, seed + i);
            free(copy);
            free(want);
        }
        pbj_wbuf_free(&b);
    }
    pbj_arena_free(&arena);
    if (failures) {
        fprintf(stderr, "writers: %d failures\n", failures);
        return 1;
    }
    printf("writers: %zu items x 3 strategies ok; body moves per item: adaptive %.3f, per-type %.3f, one-byte %.3f\n",
           items, items ? (double)moves[0] / (double)items : 0.0, items ? (double)moves[1] / (double)items : 0.0,
           items ? (double)moves[2] / (double)items : 0.0);
    return 0;
}
