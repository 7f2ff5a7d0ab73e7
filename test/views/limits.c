/* limits.c: views refuse what decode refuses, and only that (issue 26). Depth: a view made from its parent is one
 * level deeper; a message nested past PBJ_DEFAULT_MAX_DEPTH (decode's default max_depth) is PBJ_ERR_DEPTH (from the
 * init of the view holding it), and groups in unknown fields nest only as far as decode allows at the view's depth
 * (chains of Tree.left, singular, and Tree.children, repeated: the iterator, around the limit, with an unknown group
 * nested around what is left; chains of depth.proto's Node ending in each kind of field that makes a view).
 * Varints: a 10th byte above 1 is read as protobuf's C++ 3.21 reads it (the bits past 64 dropped), an 11th refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "depth.pb.h"
#include "nesting.pb.h"

static int failures;

/* Bytes written back to front from the end of a buffer. */
typedef struct back {
    uint8_t *buf, *p;
} back;

static void put(back *b, const uint8_t *s, size_t n)
{
    b->p -= n;
    memcpy(b->p, s, n);
}

static void put_varint(back *b, uint64_t v)
{
    uint8_t tmp[10];
    put(b, tmp, (size_t)(pbj_put_varint(tmp, v) - tmp));
}

/* A Tree n deep through field tag (0x1a left, 0x12 children), the deepest holding an unknown group (field 100)
 * nested g deep (g = 0: none). */
static size_t tree(back *b, uint8_t tag, int n, int g)
{
    uint8_t *end = b->p;
    for (int i = 0; i < g; i++) put_varint(b, 100 << 3 | 4);
    for (int i = 0; i < g; i++) put_varint(b, 100 << 3 | 3);
    for (int i = 0; i < n; i++) {
        put_varint(b, (uint64_t)(end - b->p));
        put(b, &tag, 1);
    }
    return (size_t)(end - b->p);
}

/* The view's verdict: each level's view made from its parent's, down to the deepest. */
static pbj_status walk(const uint8_t *in, size_t len, uint8_t tag, int n)
{
    parity_nesting_Tree_view v, sub;
    pbj_status st = parity_nesting_Tree_view_init(&v, in, len);
    for (int i = 0; i < n && st == PBJ_OK; i++) {
        if (tag == 0x1a) st = parity_nesting_Tree_view_left(&v, &sub);
        else {
            pbj_view_iter it = parity_nesting_Tree_view_children(&v);
            if (!parity_nesting_Tree_view_children_next(&it, &sub)) st = it.status != PBJ_OK ? it.status : PBJ_ERR_TRUNCATED;
        }
        v = sub;
    }
    return st;
}

static void check(uint8_t tag, int n, int g)
{
    static uint8_t buf[1 << 14];
    back b = {buf, buf + sizeof buf};
    size_t len = tree(&b, tag, n, g);
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    parity_nesting_Tree m;
    pbj_status dec = parity_nesting_Tree_decode(&m, b.p, len, &a, NULL), view = walk(b.p, len, tag, n);
    pbj_arena_free(&a);
    int levels = n + g;                                        /* a group is a level, as a message is */
    pbj_status want = levels <= PBJ_DEFAULT_MAX_DEPTH ? PBJ_OK : PBJ_ERR_DEPTH;
    if (dec != want || view != want) {
        fprintf(stderr, "FAIL views depth: %s %d deep, a group %d deep: view %s, decode %s, want %s\n",
                tag == 0x1a ? "left" : "children", n, g, pbj_status_str(view), pbj_status_str(dec), pbj_status_str(want));
        failures++;
    }
}

/* The shapes of depth.proto's Node: what the deepest Node of a chain holds (a record, as its payload's bytes). */
typedef enum shape { LEAF, LEAF_EMPTY, LEAF_ABSENT, LEAVES, BUNCH, NAMED, COUNTS, ONE, BOXED, EXT_LEAF, EXT_LEAVES, EXT_PAIR,
                     LEAF_CUT, BUNCH_CUT, SHAPES } shape;
static const struct {
    const char *name;
    uint8_t rec[12];
    size_t len;
    int below;   /* the levels of messages below the deepest Node */
    bool cut;    /* malformed: the view's status must be decode's, whichever comes first, depth or the cut */
} shapes[SHAPES] = {
    [LEAF] = {"leaf", {0x12, 2, 0x08, 1}, 4, 1},
    [LEAF_EMPTY] = {"empty leaf", {0x12, 0}, 2, 1},
    [LEAF_ABSENT] = {"absent leaf", {0}, 0, 0},
    [LEAVES] = {"leaves", {0x1a, 2, 0x08, 1, 0x1a, 0}, 6, 1},
    [BUNCH] = {"group", {0x23, 0x28, 1, 0x24}, 4, 1},
    [NAMED] = {"map to a message", {0x32, 6, 0x08, 1, 0x12, 2, 0x08, 1}, 8, 2},
    [COUNTS] = {"map of numbers", {0x3a, 4, 0x08, 1, 0x10, 2}, 6, 1},
    [ONE] = {"oneof member", {0x42, 2, 0x08, 1}, 4, 1},
    [BOXED] = {"wrapper", {0x4a, 2, 0x08, 5}, 4, 1},   /* held unboxed, still a level (as protobuf's C++ counts it) */
    [EXT_LEAF] = {"extension", {0xa2, 0x06, 2, 0x08, 1}, 5, 1},
    [EXT_LEAVES] = {"repeated extension", {0xaa, 0x06, 2, 0x08, 1}, 5, 1},
    [EXT_PAIR] = {"extension holding a message", {0xb2, 0x06, 4, 0x0a, 2, 0x08, 1}, 7, 2},
    [LEAF_CUT] = {"leaf whose length passes the end", {0x12, 5, 0x08, 1}, 4, 1, true},
    [BUNCH_CUT] = {"group with no end", {0x23, 0x28, 1}, 3, 1, true},
};

/* The view's verdict on shape k held by the deepest Node, n - 1 levels down: each Node's view made from its parent's,
 * then every view of what it holds. */
static pbj_status walk_shape(const uint8_t *in, size_t len, int n, shape k)
{
    views_depth_Node_view v, sub;
    views_depth_Leaf_view leaf;
    pbj_view_iter it;
    pbj_status st = views_depth_Node_view_init(&v, in, len);
    for (int i = 1; i < n && st == PBJ_OK; i++, v = sub) st = views_depth_Node_view_next(&v, &sub);
    if (st != PBJ_OK) return st;
    switch (k) {
    case LEAF: case LEAF_EMPTY: case LEAF_ABSENT: case LEAF_CUT: return views_depth_Node_view_leaf(&v, &leaf);
    case ONE: return views_depth_Node_view_one(&v, &leaf);
    case EXT_LEAF: return views_depth_ext_leaf_view(&v, &leaf);
    case EXT_PAIR: {
        views_depth_Pair_view pair;
        pbj_status st2 = views_depth_ext_pair_view(&v, &pair);
        return st2 != PBJ_OK ? st2 : views_depth_Pair_view_a(&pair, &leaf);
    }
    case BOXED: return views_depth_Node_view_boxed(&v) == 5 ? PBJ_OK : PBJ_ERR_TAG;
    case BUNCH: case BUNCH_CUT: {
        views_depth_Node_Bunch_view g;
        return views_depth_Node_view_bunch(&v, &g);
    }
    case LEAVES: case EXT_LEAVES: {
        int got = 0;
        it = k == LEAVES ? views_depth_Node_view_leaves(&v) : views_depth_ext_leaves_view(&v);
        while (k == LEAVES ? views_depth_Node_view_leaves_next(&it, &leaf) : views_depth_ext_leaves_view_next(&it, &leaf)) got++;
        return it.status != PBJ_OK ? it.status : got ? PBJ_OK : PBJ_ERR_TRUNCATED;
    }
    case NAMED: {
        views_depth_Node_NamedEntry_view e;
        it = views_depth_Node_view_named(&v);
        if (!views_depth_Node_view_named_next(&it, &e)) return it.status != PBJ_OK ? it.status : PBJ_ERR_TRUNCATED;
        return views_depth_Node_NamedEntry_view_value(&e, &leaf);
    }
    case COUNTS: {
        views_depth_Node_CountsEntry_view e;
        it = views_depth_Node_view_counts(&v);
        if (!views_depth_Node_view_counts_next(&it, &e)) return it.status != PBJ_OK ? it.status : PBJ_ERR_TRUNCATED;
        return views_depth_Node_CountsEntry_view_value(&e) == 2 ? PBJ_OK : PBJ_ERR_TAG;
    }
    default: return PBJ_ERR_TAG;
    }
}

/* n Nodes through Node.next, the deepest holding shape k: the view refuses it exactly when a message would lie past
 * PBJ_DEFAULT_MAX_DEPTH levels, as decode does (an extension's message: decode reads it only when asked, with a
 * depth of its own, so views refuse it by the same count instead). The scans of Leaf, Bunch and CountsEntry check no
 * depth: the Node holding them refuses them. */
static void check_shape(int n, shape k)
{
    static uint8_t buf[1 << 12];
    back b = {buf, buf + sizeof buf};
    put(&b, shapes[k].rec, shapes[k].len);
    for (int i = 1; i < n; i++) {
        put_varint(&b, (uint64_t)(buf + sizeof buf - b.p));
        put(&b, (const uint8_t[]){0x0a}, 1);
    }
    size_t len = (size_t)(buf + sizeof buf - b.p);
    int levels = n - 1 + shapes[k].below;
    pbj_status want = levels <= PBJ_DEFAULT_MAX_DEPTH ? PBJ_OK : PBJ_ERR_DEPTH, view = walk_shape(b.p, len, n, k), dec = want;
    if (k != EXT_LEAF && k != EXT_LEAVES && k != EXT_PAIR) {
        pbj_arena a;
        views_depth_Node m;
        pbj_arena_init(&a, NULL, 0);
        dec = views_depth_Node_decode(&m, b.p, len, &a, NULL);
        pbj_arena_free(&a);
    }
    if (shapes[k].cut) want = dec != PBJ_OK ? dec : PBJ_ERR_TRUNCATED;   /* decode refuses it, somehow */
    if (view != want || dec != want) {
        fprintf(stderr, "FAIL views depth: %d Nodes holding %s: view %s, decode %s, want %s\n", n, shapes[k].name,
                pbj_status_str(view), pbj_status_str(dec), pbj_status_str(want));
        failures++;
    }
}

/* A varint field (Tree.kind, 4) of 10 and 11 bytes, at the input's end and before another field: the view's status
 * and value are decode's. */
static void varints(void)
{
    static const struct {
        const char *what;
        uint8_t in[16];
        size_t len;
        pbj_status want;
        int32_t kind;
    } cases[] = {
        {"10th byte 2", {0x20, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02}, 11, PBJ_OK, 1},
        {"10th byte 2, a field after", {0x20, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02, 0x0a, 0x00}, 13, PBJ_OK, 1},
        {"10th byte 0x7f, cut", {0x20, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f}, 11, PBJ_OK, 2},
        {"11 bytes", {0x20, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x82, 0x01}, 12, PBJ_ERR_VARINT, 0},
        {"11 bytes, a field after", {0x20, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x0a, 0x00}, 14,
         PBJ_ERR_VARINT, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        parity_nesting_Tree_view v;
        parity_nesting_Tree m;
        pbj_arena a;
        pbj_arena_init(&a, NULL, 0);
        pbj_status view = parity_nesting_Tree_view_init(&v, cases[i].in, cases[i].len);
        pbj_status dec = parity_nesting_Tree_decode(&m, cases[i].in, cases[i].len, &a, NULL);
        if (view != cases[i].want || dec != cases[i].want ||
            (view == PBJ_OK && (parity_nesting_Tree_view_kind(&v) != cases[i].kind || m.kind != cases[i].kind))) {
            fprintf(stderr, "FAIL views varint: %s: view %s, decode %s\n", cases[i].what, pbj_status_str(view), pbj_status_str(dec));
            failures++;
        }
        pbj_arena_free(&a);
    }
}

int main(void)
{
    varints();
    for (int k = 0; k < SHAPES; k++)
        for (int n = 98; n <= 103; n++) check_shape(n, (shape)k);
    static const uint8_t tags[] = {0x1a, 0x12};
    for (size_t t = 0; t < 2; t++) {
        for (int n = 98; n <= 102; n++) check(tags[t], n, 0);
        for (int n = 0; n <= 60; n += 30)
            for (int g = 98 - n; g <= 102 - n; g++) check(tags[t], n, g);
    }
    if (failures) return 1;
    printf("views limits: views refuse nesting past %d levels exactly where decode does (messages and groups); "
           "10-byte varints as decode reads them\n", PBJ_DEFAULT_MAX_DEPTH);
    return 0;
}
