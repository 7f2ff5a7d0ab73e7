/* limits.c: views refuse what decode refuses, and only that (issue 26). Depth: a view made from its parent is one
 * level deeper; past PBJ_DEFAULT_MAX_DEPTH (decode's default max_depth) its init is PBJ_ERR_DEPTH, and groups in
 * unknown fields nest only as far as decode allows at the view's depth (chains of Tree.left, singular, and
 * Tree.children, repeated: the iterator, around the limit, with an unknown group nested around what is left).
 * Varints: a 10th byte above 1 is read as protobuf's C++ 3.21 reads it (the bits past 64 dropped), an 11th refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
