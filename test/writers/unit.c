/* unit.c: the writers' rules one by one on test/writers/w3.proto and w2.proto: order, oneofs, map keys, sticky failures, auto-close, lengths at every varint boundary, deep nesting, groups. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "w3.pb.h"
#include "w2.pb.h"

static int failures;

#define CHECK(c)                                                                       \
    do {                                                                               \
        if (!(c)) {                                                                    \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);       \
            failures++;                                                                \
        }                                                                              \
    } while (0)

static pbj_arena arena;

/* The struct encoder's bytes of m, from the arena. */
static pbj_slice encoded(w3_All *m)
{
    size_t n = w3_All_size(m);
    uint8_t *p = (uint8_t *)pbj_arena_alloc(&arena, n + 1);
    w3_All__write(m, p + n);
    return pbj_slice_make(p, n);
}

static bool equals(const pbj_wbuf *b, pbj_slice want)
{
    return b->status == PBJ_OK && b->len == want.len && (!want.len || memcmp(b->data, want.data, want.len) == 0);
}

/* A call out of order: PBJ_ERR_ORDER naming the field, nothing written, every later call fails, reset heals. */
static void test_order(void)
{
    pbj_wbuf b;
    w3_All_writer w;
    pbj_wbuf_init(&b, NULL, 0);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK);
    CHECK(w3_All_writer_i64(&w, 5) == PBJ_OK);
    size_t len = pbj_wbuf_len(&b);
    CHECK(w3_All_writer_i32(&w, 1) == PBJ_ERR_ORDER);
    CHECK(b.len == len && b.status == PBJ_ERR_ORDER && strcmp(b.failed, "w3.All.i32") == 0);
    CHECK(w3_All_writer_u32(&w, 1) == PBJ_ERR_ORDER && b.len == len);         /* sticky */
    CHECK(w3_All_writer_end(&w) == PBJ_ERR_ORDER);
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_i32(&w, 1) == PBJ_OK);
    CHECK(w3_All_writer_i32(&w, 2) == PBJ_ERR_ORDER);                          /* a singular field twice */
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_i64(&w, 0) == PBJ_OK && pbj_wbuf_len(&b) == 0);
    CHECK(w3_All_writer_i32(&w, 1) == PBJ_ERR_ORDER);                          /* after a default: still in order */
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK);
    CHECK(w3_All_writer_add_unpacked_i(&w, 1) == PBJ_OK && w3_All_writer_add_unpacked_i(&w, 2) == PBJ_OK);
    CHECK(w3_All_writer_add_strs(&w, "a", 1) == PBJ_OK);
    CHECK(w3_All_writer_add_unpacked_i(&w, 3) == PBJ_ERR_ORDER);              /* not consecutive */
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK);
    CHECK(w3_All_writer_add_packed_i(&w, 1) == PBJ_OK && w3_All_writer_packed_d(&w, NULL, 0) == PBJ_OK);
    CHECK(w3_All_writer_add_packed_i(&w, 2) == PBJ_ERR_ORDER);                /* its record ended */
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_i32(&w, 1) == PBJ_OK);
    CHECK(w3_All_writer_from(&w, NULL) == PBJ_ERR_ORDER);                      /* from needs a fresh writer */
    pbj_wbuf_free(&b);
}

static void test_oneof_and_maps(void)
{
    pbj_wbuf b;
    w3_All_writer w;
    pbj_wbuf_init(&b, NULL, 0);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_pick_i(&w, 0) == PBJ_OK);
    CHECK(w3_All_writer_pick_s(&w, "x", 1) == PBJ_ERR_ORDER);                 /* a second alternative */
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_pick_s(&w, "x", 1) == PBJ_OK);
    CHECK(w3_All_writer_other_u(&w, 7) == PBJ_OK);                            /* another oneof */
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK);
    CHECK(w3_All_writer_put_counts(&w, PBJ_STR("a"), 1) == PBJ_OK && w3_All_writer_put_counts(&w, PBJ_STR("ab"), 2) == PBJ_OK);
    CHECK(w3_All_writer_put_counts(&w, PBJ_STR("ab"), 3) == PBJ_ERR_ORDER);   /* a key twice */
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_put_counts(&w, PBJ_STR("b"), 1) == PBJ_OK);
    CHECK(w3_All_writer_put_counts(&w, PBJ_STR("a"), 1) == PBJ_ERR_ORDER);    /* descending */
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_put_by_id(&w, -5, NULL) == PBJ_OK);
    CHECK(w3_All_writer_put_by_id(&w, 3, NULL) == PBJ_OK);                    /* signed order */
    CHECK(w3_All_writer_put_by_id(&w, -7, NULL) == PBJ_ERR_ORDER);
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_put_flags(&w, true, PBJ_STR("t")) == PBJ_OK);
    CHECK(w3_All_writer_put_flags(&w, false, PBJ_STR("f")) == PBJ_ERR_ORDER);
    pbj_wbuf_free(&b);
}

/* ---- shuffled sequences: the calls of one valid w3.All sequence, permuted and duplicated at random ---- */

/* A child of Leaf: opened, one field, ended (the parent's call is what the order checks). */
static pbj_status leaf_child(w3_Leaf_writer *c, pbj_wbuf *b)
{
    if (b->status != PBJ_OK) return b->status;
    pbj_status st = w3_Leaf_writer_id(c, 9);
    return st != PBJ_OK ? st : w3_Leaf_writer_end(c);
}
static pbj_status op_i32(w3_All_writer *w) { return w3_All_writer_i32(w, 1); }
static pbj_status op_i64(w3_All_writer *w) { return w3_All_writer_i64(w, -2); }
static pbj_status op_s(w3_All_writer *w) { return w3_All_writer_s(w, "ab", 2); }
static pbj_status op_opt(w3_All_writer *w) { return w3_All_writer_opt(w, 0); }
static pbj_status op_leaf(w3_All_writer *w) { return leaf_child(w3_All_writer_leaf(w), w->w.buf); }
static pbj_status op_packed(w3_All_writer *w) { return w3_All_writer_packed_i(w, (const int32_t[]){1, 2, 300}, 3); }
static pbj_status op_unpacked1(w3_All_writer *w) { return w3_All_writer_add_unpacked_i(w, 1); }
static pbj_status op_unpacked2(w3_All_writer *w) { return w3_All_writer_add_unpacked_i(w, 2); }
static pbj_status op_strs(w3_All_writer *w) { return w3_All_writer_add_strs(w, "x", 1); }
static pbj_status op_leaves(w3_All_writer *w) { return leaf_child(w3_All_writer_add_leaves(w), w->w.buf); }
static pbj_status op_leaves_from(w3_All_writer *w) { return w3_All_writer_add_leaves_from(w, &(w3_Leaf){.id = 4}); }
static pbj_status op_count_a(w3_All_writer *w) { return w3_All_writer_put_counts(w, PBJ_STR("a"), 1); }
static pbj_status op_count_b(w3_All_writer *w) { return w3_All_writer_put_counts(w, PBJ_STR("b"), 2); }
static pbj_status op_pick_i(w3_All_writer *w) { return w3_All_writer_pick_i(w, 5); }
static pbj_status op_pick_leaf(w3_All_writer *w) { return leaf_child(w3_All_writer_pick_leaf(w), w->w.buf); }
static pbj_status op_wi(w3_All_writer *w) { return w3_All_writer_wi(w, 0); }
static pbj_status op_other(w3_All_writer *w) { return w3_All_writer_other_u(w, 8); }

/* One call: its field, whether it is an element of a repeated field or a map entry, its oneof (0: none),
 * a map key's rank. */
typedef struct {
    pbj_status (*run)(w3_All_writer *w);
    uint32_t number;
    bool repeated;
    int oneof, key;
    const char *name;
} shuffle_op;

static const shuffle_op shuffle_ops[] = {
    {op_i32, 1, false, 0, 0, "w3.All.i32"},          {op_i64, 2, false, 0, 0, "w3.All.i64"},
    {op_s, 14, false, 0, 0, "w3.All.s"},             {op_opt, 17, false, 0, 0, "w3.All.opt"},
    {op_leaf, 19, false, 0, 0, "w3.All.leaf"},       {op_packed, 20, false, 0, 0, "w3.All.packed_i"},
    {op_unpacked1, 23, true, 0, 0, "w3.All.unpacked_i"}, {op_unpacked2, 23, true, 0, 0, "w3.All.unpacked_i"},
    {op_strs, 24, true, 0, 0, "w3.All.strs"},        {op_leaves, 26, true, 0, 0, "w3.All.leaves"},
    {op_leaves_from, 26, true, 0, 0, "w3.All.leaves"}, {op_count_a, 27, true, 0, 1, "w3.All.counts"},
    {op_count_b, 27, true, 0, 2, "w3.All.counts"},   {op_pick_i, 31, false, 1, 0, "w3.All.pick_i"},
    {op_pick_leaf, 33, false, 1, 0, "w3.All.pick_leaf"}, {op_wi, 34, false, 0, 0, "w3.All.wi"},
    {op_other, 41, false, 2, 0, "w3.All.other_u"},
};
#define SHUFFLE_OPS (sizeof shuffle_ops / sizeof *shuffle_ops)

/* Whether op may follow the calls so far (the writer's order place at, its oneofs written, the last key). */
static bool shuffle_valid(const shuffle_op *op, uint32_t at, const bool *oneof_done, int last_key)
{
    if (at >= 2 * op->number || (op->oneof && oneof_done[op->oneof])) return false;
    return !op->key || at != 2 * op->number - 1 || op->key > last_key;
}

static uint64_t shuffle_state = 0x9e3779b97f4a7c15u;
static uint32_t shuffle_next(uint32_t n)
{
    shuffle_state ^= shuffle_state << 13, shuffle_state ^= shuffle_state >> 7, shuffle_state ^= shuffle_state << 17;
    return (uint32_t)(shuffle_state % n);
}

/* Random sequences of the calls (each a uniform pick: permutations and duplications): the first call a
 * model of the rules refuses fails with PBJ_ERR_ORDER naming its field and writes nothing, every later call
 * and end fail the same way; a sequence the model takes all of ends and is the struct encoder's bytes of
 * its own decoding. */
static void test_shuffled(void)
{
    pbj_wbuf b;
    w3_All_writer w;
    pbj_wbuf_init(&b, NULL, 0);
    int caught = 0, whole = 0;
    for (int round = 0; round < 3000; round++) {
        size_t n = 1 + shuffle_next(2 * SHUFFLE_OPS);
        bool oneof_done[3] = {false, false, false}, failed = false;
        uint32_t at = 0;
        int last_key = 0;
        pbj_wbuf_reset(&b);
        CHECK(w3_All_writer_start(&w, &b) == PBJ_OK);
        for (size_t i = 0; i < n; i++) {
            const shuffle_op *op = &shuffle_ops[round == 0 ? i % SHUFFLE_OPS : shuffle_next(SHUFFLE_OPS)];
            size_t len = pbj_wbuf_len(&b);
            bool ok = !failed && shuffle_valid(op, at, oneof_done, last_key);
            pbj_status st = op->run(&w);
            if (ok) {
                CHECK(st == PBJ_OK);
                at = op->repeated ? 2 * op->number - 1 : 2 * op->number;
                oneof_done[op->oneof] = op->oneof != 0;
                last_key = op->key;
                continue;
            }
            CHECK(st == PBJ_ERR_ORDER && pbj_wbuf_len(&b) == len && b.status == PBJ_ERR_ORDER);
            if (!failed) {
                CHECK(b.failed && strcmp(b.failed, op->name) == 0);
                caught++;
            }
            failed = true;
        }
        pbj_status end = w3_All_writer_end(&w);
        CHECK(end == (failed ? PBJ_ERR_ORDER : PBJ_OK));
        if (failed) continue;
        w3_All m;
        whole++;
        CHECK(w3_All_decode(&m, b.data, b.len, &arena, NULL) == PBJ_OK && equals(&b, encoded(&m)));
    }
    CHECK(caught > 1000 && whole > 100);                /* both outcomes were tried */
    pbj_wbuf_free(&b);
}

/* Floating-point values as the struct encoder writes them: 0.0 skipped, -0.0 and NaN written (their bits). */
static void test_floats(void)
{
    static const double values[] = {0.0, -0.0, NAN, -NAN, 1.5};
    pbj_wbuf b;
    pbj_wbuf_init(&b, NULL, 0);
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        w3_All m;
        w3_All_init(&m);
        m.fl = (float)values[i];
        m.db = values[i];
        w3_All_writer w;
        pbj_wbuf_reset(&b);
        CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_fl(&w, m.fl) == PBJ_OK);
        CHECK(w3_All_writer_db(&w, m.db) == PBJ_OK && w3_All_writer_end(&w) == PBJ_OK);
        CHECK(equals(&b, encoded(&m)) && (b.len == 0) == (i == 0));
    }
    pbj_wbuf_free(&b);
}

/* Use before start and after end; invalid UTF-8 refused before anything is written, the writer still usable. */
static void test_lifecycle(void)
{
    pbj_wbuf b;
    w3_All_writer w;
    memset(&w, 0, sizeof w);
    pbj_wbuf_init(&b, NULL, 0);
    CHECK(w3_All_writer_i32(&w, 1) == PBJ_ERR_ORDER);                          /* never started */
    CHECK(w3_All_writer_end(&w) == PBJ_ERR_ORDER);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK);
    CHECK(w3_All_writer_s(&w, "\xff", 1) == PBJ_ERR_UTF8 && pbj_wbuf_len(&b) == 0 && b.status == PBJ_OK);
    CHECK(w3_All_writer_s(&w, "ok", 2) == PBJ_OK && w3_All_writer_end(&w) == PBJ_OK);
    CHECK(w3_All_writer_i32(&w, 1) == PBJ_ERR_ORDER && b.len == 4);           /* after end */
    pbj_wbuf_reset(&b);
    w3_All_writer w2;
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK);
    CHECK(w3_All_writer_start(&w2, &b) == PBJ_ERR_ORDER);                      /* one top-level writer at a time */
    pbj_wbuf_free(&b);
    uint8_t small[3];
    pbj_wbuf_init(&b, small, sizeof small);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_s(&w, "abcd", 4) == PBJ_ERR_BUFFER);
    CHECK(w3_All_writer_end(&w) == PBJ_ERR_BUFFER && b.len == 0);
}

/* Children: auto-closed by a call on the parent and by its end; item ranges; equal to the struct encoder. */
static void test_children(void)
{
    pbj_wbuf b;
    w3_All_writer w;
    pbj_wbuf_init(&b, NULL, 0);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK);
    w3_Leaf_writer *leaf = w3_All_writer_leaf(&w);
    CHECK(w3_Leaf_writer_id(leaf, 9) == PBJ_OK);
    w3_Leaf_writer *kid = w3_Leaf_writer_add_kids(leaf);
    CHECK(w3_Leaf_writer_name(kid, "k", 1) == PBJ_OK);
    w3_Leaf_writer *l1 = w3_All_writer_add_leaves(&w);                        /* ends kid and leaf */
    CHECK(b.item_at == 0 && b.item_len == 10);         /* leaf: tag 2, length 1, id 2, kids 5 */
    CHECK(w3_Leaf_writer_id(kid, 1) == PBJ_ERR_ORDER);                          /* ended: refused */
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK);
    leaf = w3_All_writer_leaf(&w);
    CHECK(w3_Leaf_writer_id(leaf, 9) == PBJ_OK);
    kid = w3_Leaf_writer_add_kids(leaf);
    CHECK(w3_Leaf_writer_name(kid, "k", 1) == PBJ_OK);
    l1 = w3_All_writer_add_leaves(&w);
    CHECK(w3_Leaf_writer_id(l1, 1) == PBJ_OK);
    CHECK(w3_All_writer_add_leaves_from(&w, &(w3_Leaf){.id = 2}) == PBJ_OK);
    CHECK(w3_All_writer_add_leaves_raw(&w, "\x08\x03", 2) == PBJ_OK);
    w3_Leaf_writer *pick = w3_All_writer_pick_leaf(&w);
    CHECK(w3_All_writer_end(&w) == PBJ_OK);                                     /* ends pick */
    (void)pick;
    w3_Leaf k = {.name = PBJ_STR("k")};
    w3_Leaf one = {.id = 9, .kids = {&k, 1}}, leaves[3] = {{.id = 1}, {.id = 2}, {.id = 3}}, empty = {.id = 0};
    w3_All m;
    w3_All_init(&m);
    m.leaf = &one;
    m.leaves.data = leaves;
    m.leaves.count = 3;
    m.pick_case = w3_All_pick_pick_leaf;
    m.pick.pick_leaf = &empty;
    CHECK(equals(&b, encoded(&m)));
    pbj_wbuf_free(&b);
}

/* Item ranges of direct children ended explicitly (the end's fast paths): one and two length bytes reserved,
 * bodies that fit them and bodies moved to fit. */
static void test_item_ends(void)
{
    static const size_t names[] = {1, 200, 200, 1};   /* reserved 1: fits, moved; then learnt 2: fits, moved */
    char text[200];
    memset(text, 'a', sizeof text);
    pbj_wbuf b;
    w3_All_writer w;
    pbj_wbuf_init(&b, NULL, 0);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK);
    size_t at = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        w3_Leaf_writer *l = w3_All_writer_add_leaves(&w);
        CHECK(w3_Leaf_writer_name(l, text, names[i]) == PBJ_OK);
        CHECK(w3_Leaf_writer_end(l) == PBJ_OK);
        size_t body = 1 + (names[i] < 128 ? 1 : 2) + names[i];                /* the name's tag, length, bytes */
        size_t len = 2 + (body < 128 ? 1 : 2) + body;                          /* the leaf's tag (field 26) and length */
        CHECK(b.item_at == at && b.item_len == len);
        at += len;
    }
    CHECK(w3_All_writer_end(&w) == PBJ_OK && b.len == at);
    pbj_wbuf_free(&b);
}

/* Body lengths about every varint boundary and 2.1 MB, in each strategy: canonical, moves counted. */
static void test_lengths(void)
{
    static const size_t sizes[] = {0, 1, 2, 124, 125, 126, 127, 128, 129, 16380, 16381, 16382, 16383, 16384, 2100000};
    char *text = (char *)malloc(2100000);
    memset(text, 'a', 2100000);
    for (int s = 0; s < 3; s++) {
        pbj_wbuf b;
        pbj_wbuf_init(&b, NULL, 0);
        pbj_wbuf_set_reserve(&b, (pbj_reserve)s);
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            size_t body = sizes[k];                   /* Leaf.name: 1 tag byte, its length, the text */
            size_t n = body < 2 ? 0 : body - 1 - pbj_varint_size(body - 1 - pbj_varint_size(body - 2));
            w3_All_writer w;
            pbj_wbuf_reset(&b);
            size_t moves = b.moves;
            CHECK(w3_All_writer_start(&w, &b) == PBJ_OK);
            w3_Leaf_writer *leaf = w3_All_writer_leaf(&w);
            if (body) CHECK(w3_Leaf_writer_name(leaf, text, n) == PBJ_OK);
            CHECK(w3_All_writer_end(&w) == PBJ_OK);
            w3_Leaf l = {.name = pbj_slice_make(text, n)};
            w3_All m;
            w3_All_init(&m);
            m.leaf = &l;
            CHECK(equals(&b, encoded(&m)));
            if (s == PBJ_RESERVE_ONE_BYTE) CHECK((b.moves != moves) == (b.len - 2 - (body > 0) >= 128));
        }
        pbj_wbuf_free(&b);
    }
    free(text);
}

/* 100 levels through child writers; deeper than PBJ_WRITER_DEPTH fails with PBJ_ERR_DEPTH. */
static void test_deep(void)
{
    pbj_wbuf b;
    pbj_wbuf_init(&b, NULL, 0);
    w3_Deep_writer top, *w;
    w3_Deep levels[100];
    for (int i = 0; i < 100; i++) {
        w3_Deep_init(&levels[i]);
        levels[i].depth = i;
        levels[i].next = i < 99 ? &levels[i + 1] : NULL;
    }
    /* level i: next (field 1) opens level i + 1, then depth (field 2) once the levels below ended */
    CHECK(w3_Deep_writer_start(&top, &b) == PBJ_OK);
    w3_Deep_writer *open[100];
    open[0] = &top;
    for (int i = 1; i < 100; i++) open[i] = w3_Deep_writer_next(open[i - 1]);
    for (int i = 99; i >= 0; i--) CHECK(w3_Deep_writer_depth(open[i], i) == PBJ_OK);
    CHECK(w3_Deep_writer_end(&top) == PBJ_OK);
    size_t n = w3_Deep_size(&levels[0]);
    uint8_t *want = (uint8_t *)malloc(n);
    w3_Deep__write(&levels[0], want + n);
    CHECK(b.status == PBJ_OK && b.len == n && memcmp(b.data, want, n) == 0);
    free(want);
    CHECK(w3_Deep_writer_depth(open[99], 1) == PBJ_ERR_ORDER);                /* ended with its parent */

    pbj_wbuf_reset(&b);
    CHECK(w3_Deep_writer_start(&top, &b) == PBJ_OK);
    w = &top;
    for (int i = 0; i < PBJ_WRITER_DEPTH; i++) w = w3_Deep_writer_next(w);
    CHECK(b.status == PBJ_ERR_DEPTH && w3_Deep_writer_depth(w, 1) == PBJ_ERR_DEPTH);
    pbj_wbuf_free(&b);
}

/* The deepest frame (PBJ_WRITER_DEPTH - 1), in a caller block and in a growing buffer with room: its own
 * fields are written (its room checks go the slow way: its lim is 0) and so is a child from a struct, but a
 * child writer opened in it fails with PBJ_ERR_DEPTH, writing nothing (at -O0 too, where the fast path's
 * room check is not folded). */
static void test_deepest(void)
{
    enum { LEVELS = PBJ_WRITER_DEPTH + 1 };      /* the frames, and one level from a struct */
    static w3_Deep levels[LEVELS];
    static uint8_t block[1 << 12];
    for (int i = 0; i < LEVELS; i++) {
        w3_Deep_init(&levels[i]);
        levels[i].depth = i + 1;
        levels[i].next = i + 1 < LEVELS ? &levels[i + 1] : NULL;
    }
    size_t n = w3_Deep_size(&levels[0]);
    uint8_t *want = (uint8_t *)malloc(n);
    w3_Deep__write(&levels[0], want + n);
    for (int grows = 0; grows < 2; grows++) {
        pbj_wbuf b;
        pbj_wbuf_init(&b, grows ? NULL : block, sizeof block);
        w3_Deep_writer top, *open[PBJ_WRITER_DEPTH];
        CHECK(w3_Deep_writer_start(&top, &b) == PBJ_OK);
        open[0] = &top;
        for (int i = 1; i < PBJ_WRITER_DEPTH; i++) open[i] = w3_Deep_writer_next(open[i - 1]);
        CHECK(w3_Deep_writer_next_from(open[PBJ_WRITER_DEPTH - 1], &levels[PBJ_WRITER_DEPTH]) == PBJ_OK);
        for (int i = PBJ_WRITER_DEPTH - 1; i >= 0; i--) CHECK(w3_Deep_writer_depth(open[i], i + 1) == PBJ_OK);
        CHECK(w3_Deep_writer_end(&top) == PBJ_OK);
        CHECK(b.status == PBJ_OK && b.len == n && memcmp(b.data, want, n) == 0);

        pbj_wbuf_reset(&b);                       /* again, now with room: a child writer in the deepest frame */
        CHECK(w3_Deep_writer_start(&top, &b) == PBJ_OK);
        for (int i = 1; i < PBJ_WRITER_DEPTH; i++) open[i] = w3_Deep_writer_next(open[i - 1]);
        size_t len = pbj_wbuf_len(&b);
        CHECK(b.status == PBJ_OK && len + 16 < b.cap);
        w3_Deep_writer *w = w3_Deep_writer_next(open[PBJ_WRITER_DEPTH - 1]);
        CHECK(b.status == PBJ_ERR_DEPTH && strcmp(b.failed, "w3.Deep.next") == 0 && b.len == len);
        CHECK(w3_Deep_writer_depth(w, 1) == PBJ_ERR_DEPTH && w3_Deep_writer_end(&top) == PBJ_ERR_DEPTH);
        pbj_wbuf_free(&b);
    }
    free(want);
}

/* proto2: presence written even at the default, groups through child, from and raw. */
static void test_proto2(void)
{
    pbj_wbuf b;
    w2_Old_writer w;
    pbj_wbuf_init(&b, NULL, 0);
    CHECK(w2_Old_writer_start(&w, &b) == PBJ_OK);
    CHECK(w2_Old_writer_a(&w, 0) == PBJ_OK && w2_Old_writer_req(&w, "", 0) == PBJ_OK);
    w2_Old_G_writer *g = w2_Old_writer_g(&w);
    CHECK(w2_Old_G_writer_x(g, 5) == PBJ_OK && w2_Old_G_writer_add_ys(g, "y", 1) == PBJ_OK);
    CHECK(w2_Old_G_writer_end(g) == PBJ_OK);
    CHECK(b.item_at == 4 && b.item_len == 7);       /* a group as a direct child: from its tag to its end tag */
    w2_Old_R r = {.has_z = 1, .z = 300};
    CHECK(w2_Old_writer_add_r_from(&w, &r) == PBJ_OK);
    CHECK(w2_Old_writer_add_r_raw(&w, "\x40\x01", 2) == PBJ_OK);
    CHECK(w2_Old_writer_add_r(&w) != NULL && w2_Old_writer_end(&w) == PBJ_OK);
    w2_Old m;
    w2_Old_init(&m);
    m.has_a = 1;
    m.a = 0;
    m.has_req = 1;
    pbj_slice ys = PBJ_STR("y");
    w2_Old_G gm = {.has_x = 1, .x = 5, .ys = {&ys, 1}};
    w2_Old_R rs[3] = {r, {.has_z = 1, .z = 1}, {.has_z = 0}};
    m.g = &gm;
    m.r.data = rs;
    m.r.count = 3;
    size_t n = w2_Old_size(&m);
    uint8_t want[64];
    CHECK(n <= sizeof want);
    w2_Old__write(&m, want + n);
    CHECK(b.status == PBJ_OK && b.len == n && memcmp(b.data, want, n) == 0);
    CHECK(b.item_at == n - 2 && b.item_len == 2);   /* the last R, ended by the top-level writer's end */
    pbj_wbuf_free(&b);
}

/* proto2 required fields: end (or the parent's call that ends a child) fails naming the first missing. */
static void test_required(void)
{
    pbj_wbuf b;
    w2_Old_writer w;
    pbj_wbuf_init(&b, NULL, 0);
    CHECK(w2_Old_writer_start(&w, &b) == PBJ_OK && w2_Old_writer_a(&w, 1) == PBJ_OK);
    CHECK(w2_Old_writer_end(&w) == PBJ_ERR_REQUIRED && strcmp(b.failed, "w2.Old.req") == 0);
    pbj_wbuf_reset(&b);
    CHECK(w2_Old_writer_start(&w, &b) == PBJ_OK && w2_Old_writer_req(&w, "r", 1) == PBJ_OK);
    w2_Old_writer *child = w2_Old_writer_child(&w);
    CHECK(w2_Old_writer_a(child, 2) == PBJ_OK);
    CHECK(w2_Old_writer_end(&w) == PBJ_ERR_REQUIRED && strcmp(b.failed, "w2.Old.req") == 0);   /* the child's */
    pbj_wbuf_reset(&b);
    CHECK(w2_Old_writer_start(&w, &b) == PBJ_OK && w2_Old_writer_req(&w, "r", 1) == PBJ_OK);
    child = w2_Old_writer_child(&w);
    CHECK(w2_Old_writer_req(child, "", 0) == PBJ_OK && w2_Old_writer_end(child) == PBJ_OK);
    const w2_Old inner = {.has_req = 1};          /* a const struct through _from */
    CHECK(w2_Old_writer_end(&w) == PBJ_OK);
    w2_Old_writer w2;
    pbj_wbuf_reset(&b);
    CHECK(w2_Old_writer_start(&w2, &b) == PBJ_OK && w2_Old_writer_from(&w2, &inner) == PBJ_OK && w2_Old_writer_end(&w2) == PBJ_OK);
    CHECK(b.len == 2 && memcmp(b.data, "\x12\x00", 2) == 0);
    /* children of other types ended by the top's end (their types found from their tags): a group, which
     * has no required field, inside a child, and a grandchild of type Old without its own */
    pbj_wbuf_reset(&b);
    CHECK(w2_Old_writer_start(&w, &b) == PBJ_OK && w2_Old_writer_req(&w, "r", 1) == PBJ_OK);
    child = w2_Old_writer_child(&w);
    CHECK(w2_Old_writer_req(child, "", 0) == PBJ_OK && w2_Old_G_writer_x(w2_Old_writer_g(child), 5) == PBJ_OK);
    CHECK(w2_Old_writer_end(&w) == PBJ_OK);
    CHECK(b.len == 11 && memcmp(b.data, "\x12\x01r\x6a\x06\x12\x00\x23\x28\x05\x24", 11) == 0);
    pbj_wbuf_reset(&b);
    CHECK(w2_Old_writer_start(&w, &b) == PBJ_OK && w2_Old_writer_req(&w, "r", 1) == PBJ_OK);
    child = w2_Old_writer_child(&w);
    CHECK(w2_Old_writer_req(child, "", 0) == PBJ_OK && w2_Old_writer_a(w2_Old_writer_child(child), 1) == PBJ_OK);
    CHECK(w2_Old_writer_end(&w) == PBJ_ERR_REQUIRED && strcmp(b.failed, "w2.Old.req") == 0);   /* the grandchild's */
    pbj_wbuf_free(&b);
}

/* Unknown fields and extension records as encoded bytes, between checked calls. */
static void test_unknown(void)
{
    pbj_wbuf b;
    w3_All_writer w;
    pbj_wbuf_init(&b, NULL, 0);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_i32(&w, 1) == PBJ_OK);
    w3_Leaf_writer *leaf = w3_All_writer_leaf(&w);
    CHECK(w3_Leaf_writer_id(leaf, 2) == PBJ_OK);
    CHECK(w3_All_writer_unknown(&w, "\x98\x06\x07", 3) == PBJ_OK);          /* ends leaf first */
    CHECK(w3_All_writer_start_(&w, 3) == PBJ_OK && w3_All_writer_end(&w) == PBJ_OK);
    CHECK(b.len == 13 && memcmp(b.data, "\x08\x01\x9a\x01\x02\x08\x02\x98\x06\x07\xb0\x02\x03", 13) == 0);
    pbj_wbuf_reset(&b);
    CHECK(w3_All_writer_start(&w, &b) == PBJ_OK && w3_All_writer_i64(&w, 3) == PBJ_OK);
    CHECK(w3_All_writer_unknown(&w, "", 0) == PBJ_OK && w3_All_writer_i32(&w, 4) == PBJ_ERR_ORDER);   /* still checked */
    pbj_wbuf_free(&b);
}

/* 65 oneofs: the 1st and the 65th are told apart (no shared bit); a second alternative of the 1st fails. */
static void test_many_oneofs(void)
{
    pbj_wbuf b;
    w3_Oneofs_writer w;
    pbj_wbuf_init(&b, NULL, 0);
    CHECK(w3_Oneofs_writer_start(&w, &b) == PBJ_OK && w3_Oneofs_writer_a0(&w, 1) == PBJ_OK);
    CHECK(w3_Oneofs_writer_b0(&w, 1) == PBJ_ERR_ORDER);
    pbj_wbuf_reset(&b);
    CHECK(w3_Oneofs_writer_start(&w, &b) == PBJ_OK && w3_Oneofs_writer_a0(&w, 1) == PBJ_OK);
    CHECK(w3_Oneofs_writer_a64(&w, 1) == PBJ_OK && w3_Oneofs_writer_end(&w) == PBJ_OK);
    pbj_wbuf_free(&b);
}

/* A type always under 128 bytes reserves one length byte: unknown fields that make it longer move its body
 * (in every strategy), and the output is still canonical. */
static void test_fixed_reserve(void)
{
    static uint8_t unknown[200];
    for (int s = 0; s < 3; s++) {
        pbj_wbuf b;
        w3_Holder_writer w;
        pbj_wbuf_init(&b, NULL, 0);
        pbj_wbuf_set_reserve(&b, (pbj_reserve)s);
        for (int round = 0; round < 2; round++) {            /* the second: nothing learnt changes it */
            pbj_wbuf_reset(&b);
            size_t moves = b.moves;
            CHECK(w3_Holder_writer_start(&w, &b) == PBJ_OK);
            w3_Small_writer *small = w3_Holder_writer_small(&w);
            CHECK(w3_Small_writer_v(small, 5) == PBJ_OK && w3_Small_writer_unknown(small, unknown, sizeof unknown) == PBJ_OK);
            CHECK(w3_Small_writer_end(small) == PBJ_OK && w3_Holder_writer_end(&w) == PBJ_OK);
            CHECK(b.len == 205 && memcmp(b.data, "\x0a\xca\x01\x08\x05", 5) == 0);   /* length 202 in two bytes */
            CHECK(memcmp(b.data + 5, unknown, sizeof unknown) == 0 && b.moves == moves + 1);
            CHECK(w3_Holder_writer_start(&w, &b) == PBJ_OK);                   /* a short one: no move */
            small = w3_Holder_writer_small(&w);
            CHECK(w3_Small_writer_v(small, 300) == PBJ_OK && w3_Holder_writer_end(&w) == PBJ_OK);
            CHECK(b.len == 210 && memcmp(b.data + 205, "\x0a\x03\x08\xac\x02", 5) == 0 && b.moves == moves + 1);
        }
        pbj_wbuf_free(&b);
    }
}

int main(void)
{
    pbj_arena_init(&arena, NULL, 0);
    test_order();
    test_oneof_and_maps();
    test_shuffled();
    test_floats();
    test_lifecycle();
    test_children();
    test_item_ends();
    test_lengths();
    test_deep();
    test_deepest();
    test_proto2();
    test_required();
    test_many_oneofs();
    test_unknown();
    test_fixed_reserve();
    pbj_arena_free(&arena);
    if (failures) return 1;
    puts("writers unit: ok");
    return 0;
}
