/* deep_test.c: print, equal, copy, merge, sort_maps, size, encode and missing on hand-built chains 100,000 deep and on
 * cycles, decode of chains PBJ_MAX_DEPTH_CAP deep: a status, bounded work, no stack overflow (the test builds run at -O0
 * with ASan, the largest frames). */
#include "deep.pb.h"
#include "deep2.pb.h"
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
    /* a chain of PBJ_TEXT_MAX_DEPTH messages below the top one prints whole (as decode's max_depth counts, issue 26:
     * one level fewer did); one more stops with PBJ_ERR_DEPTH */
    hostile_deep_Node *v = chain(PBJ_TEXT_MAX_DEPTH + 2, false);
    pbj_text t;
    pbj_text_init(&t);
    v[PBJ_TEXT_MAX_DEPTH].next = NULL;
    pbj_status st = hostile_deep_Node_print(&v[0], &t);
    EXPECT(st == PBJ_OK && !t.failed && opens(&t) == PBJ_TEXT_MAX_DEPTH,
           "a chain %d deep prints: %s, %zu levels", PBJ_TEXT_MAX_DEPTH, pbj_status_str(st), opens(&t));
    pbj_text_free(&t);
    v[PBJ_TEXT_MAX_DEPTH].next = &v[PBJ_TEXT_MAX_DEPTH + 1];
    st = hostile_deep_Node_print(&v[0], &t);
    EXPECT(st == PBJ_ERR_DEPTH && t.too_deep, "a chain %d deep prints: %s", PBJ_TEXT_MAX_DEPTH + 1, pbj_status_str(st));
    pbj_text_free(&t);
    /* raised for one text */
    pbj_text_init(&t);
    t.max_depth = PBJ_TEXT_MAX_DEPTH + 1;
    st = hostile_deep_Node_print(&v[0], &t);
    EXPECT(st == PBJ_OK && opens(&t) == PBJ_TEXT_MAX_DEPTH + 1, "max_depth raised: %s", pbj_status_str(st));
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
    EXPECT(opens(&t) == PBJ_TEXT_MAX_DEPTH + 1, "a chain of %d prints %zu levels", CHAIN, opens(&t));
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

/* the chain v (CHAIN long, through next or kids) cut to n nodes */
static void cut(hostile_deep_Node *v, size_t n) {
    v[n - 1].next = NULL;
    v[n - 1].kids.count = 0;
}

static void equal_hostile(bool via_kids) {
    hostile_deep_Node *a = chain(CHAIN, via_kids), *b = chain(CHAIN, via_kids);
    EXPECT(hostile_deep_Node_equal(&a[0], &a[0]), "a chain is not equal to itself");
    EXPECT(!hostile_deep_Node_equal(&a[0], &b[0]), "two chains deeper than PBJ_MAX_ENCODE_DEPTH compare equal");
    /* within the bound: equal, and unequal when the last differs; one more level is too deep */
    cut(a, PBJ_MAX_ENCODE_DEPTH + 1), cut(b, PBJ_MAX_ENCODE_DEPTH + 1);
    EXPECT(!hostile_deep_Node_equal(&a[0], &b[0]), "two chains of PBJ_MAX_ENCODE_DEPTH + 1 compare equal");
    cut(a, PBJ_MAX_ENCODE_DEPTH), cut(b, PBJ_MAX_ENCODE_DEPTH);
    EXPECT(hostile_deep_Node_equal(&a[0], &b[0]), "two chains of PBJ_MAX_ENCODE_DEPTH are unequal");
    b[PBJ_MAX_ENCODE_DEPTH - 1].v = -1;
    EXPECT(!hostile_deep_Node_equal(&a[0], &b[0]), "chains differing at the end compare equal");
    /* two cycles */
    a[1].next = &a[0], b[1].next = &b[0];
    EXPECT(!hostile_deep_Node_equal(&a[0], &b[0]), "two cycles compare equal");
    free(a);
    free(b);
}

/* copy, merge and sort_maps of a chain through next, kids or the map named: PBJ_MAX_ENCODE_DEPTH levels work (the copy
 * equal to it), one more and a cycle give PBJ_ERR_DEPTH (they overflowed the stack) */
static void copy_hostile(int via) {
    hostile_deep_Node *v = calloc(CHAIN, sizeof *v);
    for (size_t i = 0; i < CHAIN; i++) {
        hostile_deep_Node_init(&v[i]);
        v[i].v = (int32_t)i;
    }
    static hostile_deep_Node_NamedEntry entries[CHAIN];
    for (size_t i = 0; i + 1 < CHAIN; i++) {
        if (via == 0) v[i].next = &v[i + 1];
        if (via == 1) v[i].kids = (hostile_deep_Node_kids_array){&v[i + 1], 1};
        if (via == 2) {
            hostile_deep_Node_NamedEntry_init(&entries[i]);
            entries[i].key = (int32_t)i;
            entries[i].value = &v[i + 1];
            v[i].named = (hostile_deep_Node_named_array){&entries[i], 1};
        }
    }
    /* a map level is two messages deep (the entry, then its value) */
    size_t ok = via == 2 ? (PBJ_MAX_ENCODE_DEPTH + 1) / 2 : PBJ_MAX_ENCODE_DEPTH;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    for (int round = 0; round < 3; round++) {
        /* round 0: ok levels; 1: ok + 1; 2: a cycle (the last one points back to the first) */
        size_t n = round == 0 ? ok : ok + 1;
        hostile_deep_Node *last = &v[n - 1];
        hostile_deep_Node save = *last;
        last->next = NULL, last->kids.count = 0, last->named.count = 0;
        if (round == 2) {
            if (via == 0) last->next = &v[0];
            if (via == 1) last->kids = (hostile_deep_Node_kids_array){&v[0], 1};
            if (via == 2) {
                entries[n - 1].value = &v[0];
                last->named = (hostile_deep_Node_named_array){&entries[n - 1], 1};
            }
        }
        pbj_status want = round == 0 ? PBJ_OK : PBJ_ERR_DEPTH;
        hostile_deep_Node c, m;
        pbj_status st = hostile_deep_Node_copy(&c, &v[0], &a);
        EXPECT(st == want, "copy via %d, round %d: %s", via, round, pbj_status_str(st));
        if (round == 0) EXPECT(st == PBJ_OK && hostile_deep_Node_equal(&c, &v[0]), "the copy via %d differs", via);
        hostile_deep_Node_init(&m);
        st = hostile_deep_Node_merge(&m, &v[0], &a);
        EXPECT(st == want, "merge via %d, round %d: %s", via, round, pbj_status_str(st));
        st = hostile_deep_Node_sort_maps(&v[0], &a);
        EXPECT(st == want, "sort_maps via %d, round %d: %s", via, round, pbj_status_str(st));
        size_t len = 1;
        uint8_t byte;
        st = hostile_deep_Node_encode(&v[0], &byte, 1, &len);
        EXPECT(round == 0 ? st == PBJ_ERR_BUFFER : st == PBJ_ERR_DEPTH && len == 0, "encode via %d, round %d: %s", via,
               round, pbj_status_str(st));
        static uint8_t room[1 << 16];            /* room to spare: the one walk (forward in deep_test_fw) */
        st = hostile_deep_Node_encode(&v[0], room, sizeof room, &len);
        EXPECT(round == 0 ? st == PBJ_OK && len == hostile_deep_Node_size(&v[0]) : st == PBJ_ERR_DEPTH && len == 0,
               "encode with room via %d, round %d: %s", via, round, pbj_status_str(st));
        *last = save;
        pbj_arena_reset(&a);
    }
    pbj_arena_free(&a);
    free(v);
}

/* M_missing of a chain of required-field messages: bounded by PBJ_MAX_DEPTH_CAP + 1 (all that decode accepts), a
 * cycle gives PBJ_MISSING_TOO_DEEP and encode PBJ_ERR_DEPTH (it overflowed the stack) */
static void missing_hostile(void) {
    size_t n = PBJ_MAX_DEPTH_CAP + 2;
    hostile_deep2_Req *v = calloc(n, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        hostile_deep2_Req_init(&v[i]);
        hostile_deep2_Req_set_id(&v[i], (int32_t)i);
        if (i + 1 < n) v[i].next = &v[i + 1];
    }
    v[PBJ_MAX_DEPTH_CAP].next = NULL;
    v[PBJ_MAX_DEPTH_CAP].has_id = 0;
    const char *r = hostile_deep2_Req_missing(&v[0]);
    EXPECT(r && !strcmp(r, "hostile.deep2.Req.id"), "missing of a chain of PBJ_MAX_DEPTH_CAP + 1: %s", r ? r : "NULL");
    v[PBJ_MAX_DEPTH_CAP].next = &v[PBJ_MAX_DEPTH_CAP + 1];
    v[PBJ_MAX_DEPTH_CAP].has_id = 1;
    v[PBJ_MAX_DEPTH_CAP + 1].has_id = 0;
    r = hostile_deep2_Req_missing(&v[0]);
    EXPECT(r && !strcmp(r, PBJ_MISSING_TOO_DEEP), "missing of a chain of PBJ_MAX_DEPTH_CAP + 2: %s", r ? r : "NULL");
    v[1].next = &v[0];
    r = hostile_deep2_Req_missing(&v[0]);
    EXPECT(r && !strcmp(r, PBJ_MISSING_TOO_DEEP), "missing of a cycle: %s", r ? r : "NULL");
    uint8_t buf[16];
    size_t len;
    pbj_status st = hostile_deep2_Req_encode(&v[0], buf, sizeof buf, &len);
    EXPECT(st == PBJ_ERR_DEPTH, "encode of a cycle of required messages: %s", pbj_status_str(st));
    free(v);
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
    for (int via = 0; via < 3; via++) copy_hostile(via);
    missing_hostile();
    if (failures) return 1;
    printf("deep: print, equal, copy, merge, sort_maps, encode and missing bounded on chains and cycles; decode clamped to %d levels within the stack\n", PBJ_MAX_DEPTH_CAP);
    return 0;
}
