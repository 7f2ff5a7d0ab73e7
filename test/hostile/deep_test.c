/* deep_test.c: print and equal on hand-built chains 100,000 deep and on cycles, decode of chains PBJ_MAX_DEPTH_CAP deep: a status,
 * bounded work, no stack overflow (the test builds run at -O0 with ASan, the largest frames). */
#include "deep.pb.h"
#include "google/protobuf/descriptor.pb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHAIN 100000
static int failures;

#define EXPECT(cond, ...)                              \
    do {                                               \
        if (!(cond)) {                                 \
            fprintf(stderr, "FAIL deep_test: " __VA_ARGS__); \
            fprintf(stderr, "\n");                     \
            failures++;                                \
        }                                              \
    } while (0)

/* n nodes, each pointing to the next through next (or through kids when via_kids); the last ends it. */
static hostile_deep_Node *chain(size_t n, bool via_kids) {
    hostile_deep_Node *v = calloc(n, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        hostile_deep_Node_init(&v[i]);
        v[i].v = (int32_t)i;
        if (i + 1 == n) break;
        if (via_kids) v[i].kids = (hostile_deep_Node_kids_array){&v[i + 1], 1};
        else v[i].next = &v[i + 1];
    }
    return v;
}

/* The depth a text reaches: its "{" lines. */
static size_t opens(const pbj_text *t) {
    size_t n = 0;
    for (size_t i = 0; i < t->len; i++) n += t->data[i] == '{';
    return n;
}

static void print_depths(void) {
    /* a chain of PBJ_TEXT_MAX_DEPTH messages prints whole; one more stops with PBJ_ERR_DEPTH */
    hostile_deep_Node *v = chain(PBJ_TEXT_MAX_DEPTH + 1, false);
    pbj_text t;
    pbj_text_init(&t);
    v[PBJ_TEXT_MAX_DEPTH - 1].next = NULL;
    pbj_status st = hostile_deep_Node_print(&v[0], &t);
    EXPECT(st == PBJ_OK && !t.failed && opens(&t) == PBJ_TEXT_MAX_DEPTH - 1,
           "a chain of %d prints: %s, %zu levels", PBJ_TEXT_MAX_DEPTH, pbj_status_str(st), opens(&t));
    pbj_text_free(&t);
    v[PBJ_TEXT_MAX_DEPTH - 1].next = &v[PBJ_TEXT_MAX_DEPTH];
    st = hostile_deep_Node_print(&v[0], &t);
    EXPECT(st == PBJ_ERR_DEPTH && t.too_deep, "a chain of %d prints: %s", PBJ_TEXT_MAX_DEPTH + 1, pbj_status_str(st));
    pbj_text_free(&t);
    /* raised for one text */
    pbj_text_init(&t);
    t.max_depth = PBJ_TEXT_MAX_DEPTH + 1;
    st = hostile_deep_Node_print(&v[0], &t);
    EXPECT(st == PBJ_OK && opens(&t) == PBJ_TEXT_MAX_DEPTH, "max_depth raised: %s", pbj_status_str(st));
    pbj_text_free(&t);
    free(v);
}

static void print_hostile(bool via_kids) {
    hostile_deep_Node *v = chain(CHAIN, via_kids);
    pbj_text t;
    pbj_text_init(&t);
    pbj_status st = hostile_deep_Node_print(&v[0], &t);
    size_t len = t.len;
    EXPECT(st == PBJ_ERR_DEPTH, "a chain of %d prints: %s", CHAIN, pbj_status_str(st));
    EXPECT(opens(&t) == PBJ_TEXT_MAX_DEPTH, "a chain of %d prints %zu levels", CHAIN, opens(&t));
    pbj_text_free(&t);
    /* a cycle: the same bounded text */
    v[1].next = via_kids ? NULL : &v[0];
    if (via_kids) v[1].kids = (hostile_deep_Node_kids_array){&v[0], 1};
    pbj_text_init(&t);
    st = hostile_deep_Node_print(&v[0], &t);
    EXPECT(st == PBJ_ERR_DEPTH && t.len <= len, "a cycle prints: %s, %zu bytes", pbj_status_str(st), t.len);
    pbj_text_free(&t);
    free(v);
}

static void equal_hostile(bool via_kids) {
    hostile_deep_Node *a = chain(CHAIN, via_kids), *b = chain(CHAIN, via_kids);
    EXPECT(hostile_deep_Node_equal(&a[0], &a[0]), "a chain is not equal to itself");
    EXPECT(!hostile_deep_Node_equal(&a[0], &b[0]), "two chains deeper than PBJ_MAX_DEPTH_CAP compare equal");
    /* within the cap: equal, and unequal when the last differs */
    a[PBJ_MAX_DEPTH_CAP - 1].next = NULL, b[PBJ_MAX_DEPTH_CAP - 1].next = NULL;
    a[PBJ_MAX_DEPTH_CAP - 1].kids.count = 0, b[PBJ_MAX_DEPTH_CAP - 1].kids.count = 0;
    EXPECT(hostile_deep_Node_equal(&a[0], &b[0]), "two chains of PBJ_MAX_DEPTH_CAP are unequal");
    b[PBJ_MAX_DEPTH_CAP - 1].v = -1;
    EXPECT(!hostile_deep_Node_equal(&a[0], &b[0]), "chains differing at the end compare equal");
    /* two cycles */
    a[1].next = &a[0], b[1].next = &b[0];
    EXPECT(!hostile_deep_Node_equal(&a[0], &b[0]), "two cycles compare equal");
    free(a);
    free(b);
}

/* The encoding of n messages each the next's parent through field tag (length-delimited), back to front into buf
 * (size cap): where it starts. */
static uint8_t *nested(uint8_t *buf, size_t cap, size_t n, uint8_t tag) {
    uint8_t *p = buf + cap;
    for (size_t i = 0; i < n; i++) {
        uint8_t v[10];
        size_t len = (size_t)(buf + cap - p), k = 0;
        do v[k++] = (uint8_t)((len & 0x7f) | (len > 0x7f ? 0x80 : 0)); while ((len >>= 7) != 0);
        p -= k;
        memcpy(p, v, k);
        *--p = tag;
    }
    return p;
}

#define DECODE_AT_CAP(T, tag)                                                                                      \
    for (size_t extra = 0; extra < 2; extra++) {                                                                   \
        uint8_t *p = nested(buf, cap, PBJ_MAX_DEPTH_CAP + extra, tag);                                             \
        pbj_arena a;                                                                                               \
        pbj_arena_init(&a, NULL, 0);                                                                               \
        T m;                                                                                                       \
        pbj_status st = T##_decode(&m, p, (size_t)(buf + cap - p), &a, &o);                                        \
        EXPECT(st == (extra ? PBJ_ERR_DEPTH : PBJ_OK), "decode of %zu nested %s: %s", (size_t)PBJ_MAX_DEPTH_CAP + extra, \
               #T, pbj_status_str(st));                                                                            \
        pbj_arena_free(&a);                                                                                        \
    }

/* max_depth past the cap is clamped to it: a chain of PBJ_MAX_DEPTH_CAP messages under the top-level one decodes, one
 * more is PBJ_ERR_DEPTH, each within an 8 MiB stack (DescriptorProto's decoder has the largest frames known) */
static void decode_cap(void) {
    size_t cap = (PBJ_MAX_DEPTH_CAP + 2) * 4;
    uint8_t *buf = malloc(cap);
    pbj_decode_options o = {0};
    o.max_depth = UINT32_MAX;
    o.max_memory = SIZE_MAX;                                  /* a DescriptorProto is large for its 3 bytes */
    DECODE_AT_CAP(hostile_deep_Node, 0x0a)                    /* through next */
    DECODE_AT_CAP(google_protobuf_DescriptorProto, 0x1a)      /* through nested_type */
    free(buf);
}

int main(void) {
    decode_cap();
    print_depths();
    print_hostile(false);
    print_hostile(true);
    equal_hostile(false);
    equal_hostile(true);
    if (failures) return 1;
    printf("deep: print and equal bounded on chains of %d and on cycles; decode clamped to %d levels within the stack\n", CHAIN, PBJ_MAX_DEPTH_CAP);
    return 0;
}
