/* depth.c: views refuse what decode refuses for depth, and only that (issue 26): a view made from its parent is one
 * level deeper; past PBJ_DEFAULT_MAX_DEPTH (decode's default max_depth) its init is PBJ_ERR_DEPTH, and groups in
 * unknown fields nest only as far as decode allows at the view's depth. Chains of Tree.left (singular) and
 * Tree.children (repeated: the iterator) around the limit, with an unknown group nested around what is left. */
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

int main(void)
{
    static const uint8_t tags[] = {0x1a, 0x12};
    for (size_t t = 0; t < 2; t++) {
        for (int n = 98; n <= 102; n++) check(tags[t], n, 0);
        for (int n = 0; n <= 60; n += 30)
            for (int g = 98 - n; g <= 102 - n; g++) check(tags[t], n, g);
    }
    if (failures) return 1;
    printf("views depth: views refuse nesting past %d levels exactly where decode does (messages and groups)\n", PBJ_DEFAULT_MAX_DEPTH);
    return 0;
}
