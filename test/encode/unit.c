/* unit.c: encode's own promises: exact bytes, threads encoding one const message, no allocation, message sets written as protobuf writes them (issue 14 item 1's
 * reproducers), NULL message members, depth limits on cycles and deep chains through every way one message holds
 * another (issue 14 item 9); with --msgset TYPE HEX..., each input decoded and encoded again, in hex,
 * forward and reverse (test/encode/msgset.sh compares them with protobuf's). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <cmocka.h>

/* Allocation through counting hooks that can be made to fail: encode allocates nothing. */
static size_t mallocs, mallocs_left = (size_t)-1;
static void *counting_malloc(size_t n)
{
    if (!mallocs_left) return NULL;
    mallocs_left--;
    mallocs++;
    return malloc(n);
}
#define PBJ_MALLOC(n) counting_malloc(n)
#define PBJ_FREE(p) free(p)
#include "pbj.h"                    /* first: the generated sources leave out text and JSON, which this unit calls */
#include "encode.pb.c"
#include "message_set.pb.c"          /* test/golden/message_set, with --fast-write */
#include "extwire.pb.c"              /* an extension of each kind, with --fast-write */
#include "extforeign.pb.c"           /* message extensions of encx.Host declared in another file */

/* hex's bytes into buf (at most cap); their count. */
static size_t from_hex(const char *hex, uint8_t *buf, size_t cap)
{
    size_t n = strlen(hex) / 2;
    unsigned byte;
    for (size_t k = 0; k < n && k < cap; k++) {
        if (sscanf(hex + 2 * k, "%2x", &byte) != 1) return 0;
        buf[k] = (uint8_t)byte;
    }
    return n < cap ? n : cap;
}

static void to_hex(const uint8_t *p, size_t n, char *out, size_t cap)
{
    out[0] = 0;
    for (size_t i = 0; i < n && 2 * i + 2 < cap; i++) sprintf(out + 2 * i, "%02x", p[i]);
}

/* m encodes to hex: status, length and size agree, and nothing past the length is written. */
static void assert_encodes_to(const enc_Node *m, const char *hex)
{
    uint8_t buf[256];
    size_t len = 0, n = enc_Node_size(m);
    char got[2 * sizeof buf + 1];
    memset(buf, 0xee, sizeof buf);
    assert_true(n < sizeof buf);
    assert_int_equal(enc_Node_encode(m, buf, n, &len), PBJ_OK);
    assert_int_equal(len, n);
    assert_int_equal(buf[n], 0xee);
    to_hex(buf, len, got, sizeof got);
    assert_string_equal(got, hex);
}

static void test_exact_bytes(void **state)
{
    (void)state;
    enc_Node leaf, mid, top;
    enc_Node_init(&leaf);
    enc_Node_init(&mid);
    enc_Node_init(&top);
    leaf.has_v = 1;
    leaf.v = 2;
    mid.child = &leaf;
    top.child = &mid;
    top.kids.data = &leaf;
    top.kids.count = 1;
    assert_encodes_to(&top, "0a040a021802" "12021802");
}

/* A tree of WIDE kids, each with a leaf: encoded by several threads at once below. */
#define WIDE 300
static enc_Node wide_kids[WIDE], wide_leaves[WIDE], wide_top;

static const enc_Node *wide_tree(void)
{
    enc_Node_init(&wide_top);
    for (int i = 0; i < WIDE; i++) {
        enc_Node_init(&wide_kids[i]);
        enc_Node_init(&wide_leaves[i]);
        wide_leaves[i].has_v = 1;
        wide_leaves[i].v = i * 1000;
        wide_kids[i].child = &wide_leaves[i];
        wide_kids[i].has_v = 1;
        wide_kids[i].v = -i;
    }
    wide_top.kids.data = wide_kids;
    wide_top.kids.count = WIDE;
    return &wide_top;
}

/* Several threads size and encode one const message at once, each into its own buffer: the same bytes, and the
 * message unchanged (nothing cached in it). */
#define THREADS 4
typedef struct job {
    const enc_Node *m;
    uint8_t *buf;
    size_t cap, len;
    pbj_status st;
} job;

static void *encode_job(void *arg)
{
    job *j = (job *)arg;
    for (int k = 0; k < 50 && j->st == PBJ_OK; k++) {
        j->st = enc_Node_encode(j->m, j->buf, j->cap, &j->len);
        if (enc_Node_size(j->m) != j->cap) j->st = PBJ_ERR_SIZE;
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    const enc_Node *m = wide_tree();
    enc_Node before = *m;
    size_t n = enc_Node_size(m), len;
    uint8_t *want = (uint8_t *)malloc(n);
    assert_int_equal(enc_Node_encode(m, want, n, &len), PBJ_OK);
    pthread_t t[THREADS];
    job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (job){m, (uint8_t *)malloc(n), n, 0, PBJ_OK};
        assert_int_equal(pthread_create(&t[i], NULL, encode_job, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_int_equal(jobs[i].st, PBJ_OK);
        assert_int_equal(jobs[i].len, n);
        assert_memory_equal(jobs[i].buf, want, n);
        free(jobs[i].buf);
    }
    assert_memory_equal(&before, m, sizeof before);
    pbj_arena a;
    enc_Node back;
    pbj_arena_init(&a, NULL, 0);
    assert_int_equal(enc_Node_decode(&back, want, n, &a, NULL), PBJ_OK);
    assert_true(enc_Node_equal(&back, m));
    assert_int_equal(back.kids.data[WIDE - 1].child->v, (WIDE - 1) * 1000);
    pbj_arena_free(&a);
    free(want);
}

/* Encode into a buffer one byte short: PBJ_ERR_BUFFER with the size needed, nothing written past it (with
 * pbj.fast_write the one walk from its end has written into it before it ran out of room: its contents are
 * unspecified on an error). */
static void test_short_buffer(void **state)
{
    (void)state;
    const enc_Node *m = wide_tree();
    size_t n = enc_Node_size(m), len = 0;
    uint8_t *buf = (uint8_t *)malloc(n);
    memset(buf, 0xee, n);
    assert_int_equal(enc_Node_encode(m, buf, n - 1, &len), PBJ_ERR_BUFFER);
    assert_int_equal(len, n);
    assert_int_equal(buf[n - 1], 0xee);
    free(buf);
}

/* With every allocation failing, encode and size still work (they allocate nothing); the reverse encoder into no
 * block and an extension set into an empty arena say PBJ_ERR_NOMEM. */
static void test_no_memory(void **state)
{
    (void)state;
    const enc_Node *m = wide_tree();
    size_t n = enc_Node_size(m), len, before = mallocs;
    uint8_t *buf = (uint8_t *)malloc(n);
    mallocs_left = 0;
    assert_int_equal(enc_Node_encode(m, buf, n, &len), PBJ_OK);
    assert_int_equal(len, n);
    assert_int_equal(mallocs, before);
    pbj_rbuf r;
    pbj_rbuf_init(&r, NULL, 0);
    assert_int_equal(enc_Node_write_reverse(m, &r), PBJ_ERR_NOMEM);
    assert_int_equal(pbj_rbuf_len(&r), 0);
    pbj_arena a;
    enc_Node holder;
    pbj_arena_init(&a, NULL, 0);
    enc_Node_init(&holder);
    assert_int_equal(enc_ext_node_set(&holder, m, &a), PBJ_ERR_NOMEM);
    assert_false(enc_ext_node_has(&holder));
    mallocs_left = (size_t)-1;
    pbj_arena_free(&a);
    free(buf);
}

/* A oneof message member or a map value set to NULL encodes as an empty message, as if it pointed to one. */
static void test_null_members(void **state)
{
    (void)state;
    enc_Node n, empty;
    enc_Node_ByidEntry e[2] = {{0}, {0}};
    enc_Node_init(&n);
    enc_Node_init(&empty);
    n.pick_case = enc_Node_pick_one;
    n.pick.one = NULL;
    assert_encodes_to(&n, "2200");
    n.pick.one = &empty;
    assert_encodes_to(&n, "2200");
    enc_Node_init(&n);
    e[0].key = 5;
    e[1].key = 6;
    e[1].value = &empty;
    n.byid.data = e;
    n.byid.count = 2;
    assert_encodes_to(&n, "320408051200" "320408061200");
}

/* m reaches itself or nests too deep: size, encode, the reverse encoder and a writer fail with the depth
 * status and write nothing. */
static void assert_too_deep(const enc_Node *m)
{
    uint8_t buf[16] = {0};
    size_t len = 99;
    assert_int_equal(enc_Node_size(m), PBJ_SIZE_ERROR);
    assert_int_equal(enc_Node_encode(m, buf, sizeof buf, &len), PBJ_ERR_DEPTH);
    assert_int_equal(len, 0);
    assert_int_equal(buf[0], 0);
    pbj_rbuf r;
    pbj_rbuf_init(&r, buf, sizeof buf);
    assert_int_equal(enc_Node_write_reverse(m, &r), PBJ_ERR_DEPTH);
    assert_int_equal(pbj_rbuf_len(&r), 0);
    pbj_rbuf_free(&r);
    pbj_wbuf b;
    enc_Node_writer w;
    pbj_wbuf_init(&b, NULL, 0);
    assert_int_equal(enc_Node_writer_start(&w, &b), PBJ_OK);
    assert_int_equal(enc_Node_writer_from(&w, m), PBJ_ERR_DEPTH);
    pbj_wbuf_free(&b);
}

/* A cycle through each way one message holds another. */
static void test_cycles(void **state)
{
    (void)state;
    enc_Node n, other;
    enc_Node_G g;
    enc_Node_ByidEntry e = {0};
    enc_Node_init(&n);                       /* a pointer */
    n.child = &n;
    assert_too_deep(&n);
    enc_Node_init(&n);                       /* a repeated field */
    n.kids.data = &n;
    n.kids.count = 1;
    assert_too_deep(&n);
    enc_Node_init(&n);                       /* a oneof member */
    n.pick_case = enc_Node_pick_one;
    n.pick.one = &n;
    assert_too_deep(&n);
    enc_Node_init(&n);                       /* a map value */
    e.key = 1;
    e.value = &n;
    n.byid.data = &e;
    n.byid.count = 1;
    assert_too_deep(&n);
    enc_Node_init(&n);                       /* a group */
    enc_Node_G_init(&g);
    g.in = &n;
    n.g = &g;
    assert_too_deep(&n);
    enc_Node_init(&n);                       /* two messages through each other */
    enc_Node_init(&other);
    n.child = &other;
    other.kids.data = &n;
    other.kids.count = 1;
    assert_too_deep(&other);
    enc_Node_init(&n);                       /* a repeated field of two: not 2^depth steps */
    enc_Node pair[2];
    enc_Node_init(&pair[0]);
    enc_Node_init(&pair[1]);
    pair[0].kids.data = pair[1].kids.data = pair;
    pair[0].kids.count = pair[1].kids.count = 2;
    assert_too_deep(&pair[0]);
}

/* An extension's value is encoded when set: a cycle there fails the set. */
static void test_extension_cycle(void **state)
{
    (void)state;
    enc_Node n, v;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    enc_Node_init(&n);
    enc_Node_init(&v);
    v.child = &v;
    assert_int_equal(enc_ext_node_set(&n, &v, &a), PBJ_ERR_DEPTH);
    assert_false(enc_ext_node_has(&n));
    v.child = NULL;
    v.has_v = 1;
    v.v = 7;
    assert_int_equal(enc_ext_node_set(&n, &v, &a), PBJ_OK);
    assert_encodes_to(&n, "a2060218" "07");
    pbj_arena_free(&a);
}

/* A chain of depth messages, each the child of the one before. */
static enc_Node *chain(size_t depth)
{
    enc_Node *v = (enc_Node *)malloc(depth * sizeof *v);
    for (size_t i = 0; i < depth; i++) {
        enc_Node_init(&v[i]);
        v[i].child = i + 1 < depth ? &v[i + 1] : NULL;
    }
    return v;
}

static void test_deep_chains(void **state)
{
    (void)state;
    enum { DEEP = 100000 };
    enc_Node *deep = chain(DEEP);
    assert_too_deep(deep);
    assert_too_deep(&deep[DEEP - PBJ_MAX_ENCODE_DEPTH - 1]);   /* one level past the limit */
    enc_Node *limit = &deep[DEEP - PBJ_MAX_ENCODE_DEPTH];     /* exactly at the limit: encodes */
    size_t n = enc_Node_size(limit), len;
    uint8_t *buf = (uint8_t *)malloc(n);
    assert_int_equal(enc_Node_encode(limit, buf, n, &len), PBJ_OK);
    assert_int_equal(len, n);
    pbj_rbuf r;
    pbj_rbuf_init(&r, NULL, 0);
    assert_int_equal(enc_Node_write_reverse(limit, &r), PBJ_OK);
    assert_int_equal(pbj_rbuf_len(&r), n);
    assert_memory_equal(pbj_rbuf_data(&r), buf, n);
    pbj_rbuf_free(&r);
    pbj_arena a;
    enc_Node back;
    pbj_arena_init(&a, NULL, 0);
    pbj_decode_options o = {.max_depth = PBJ_MAX_ENCODE_DEPTH - 1};   /* levels inside the top one: decode reads it */
    assert_int_equal(enc_Node_decode(&back, buf, len, &a, &o), PBJ_OK);
    o.max_depth = PBJ_MAX_ENCODE_DEPTH - 2;
    assert_int_equal(enc_Node_decode(&back, buf, len, &a, &o), PBJ_ERR_DEPTH);
    pbj_arena_free(&a);
    free(buf);
    free(deep);
}

/* A chain at PBJ_MAX_ENCODE_DEPTH sizes, encodes and writes back to front in a thread with 1 MiB of stack, as
 * pbj.h says the limit fits (the lengths are checked back on the main thread). */
static void *limit_job(void *arg)
{
    const enc_Node *m = (const enc_Node *)arg;
    size_t n = enc_Node_size(m), len = 0;
    uint8_t *buf = (uint8_t *)malloc(n);
    pbj_rbuf r;
    pbj_rbuf_init(&r, NULL, 0);
    bool whole = buf && enc_Node_encode(m, buf, n, &len) == PBJ_OK && len == n &&
                 enc_Node_write_reverse(m, &r) == PBJ_OK && pbj_rbuf_len(&r) == n;
    pbj_rbuf_free(&r);
    free(buf);
    return whole ? arg : NULL;
}

static void test_small_stack(void **state)
{
    (void)state;
    enc_Node *limit = chain(PBJ_MAX_ENCODE_DEPTH);
    pthread_attr_t attr;
    pthread_t t;
    void *ret = NULL;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstacksize(&attr, (size_t)1 << 20), 0);
    assert_int_equal(pthread_create(&t, &attr, limit_job, limit), 0);
    assert_int_equal(pthread_join(t, &ret), 0);
    pthread_attr_destroy(&attr);
    assert_ptr_equal(ret, limit);
    free(limit);
}

/* A message set decoded from in encodes forward and reverse to want (hex), the whole length written, and inside a
 * Holder too (where a wrong size would show in the length before it); decoded again, the encoding is M_equal to the
 * first and encodes the same (issue 26: a length-delimited field and an item of one type_id came back in another
 * order, unequal). */
static void assert_msgset(const char *in_hex, const char *want)
{
    uint8_t in[64], out[64], holder_in[80];
    char got[2 * sizeof out + 1];
    size_t n = from_hex(in_hex, in, sizeof in), len = 0, size;
    pbj_arena a;
    golden_message_set_Set s;
    golden_message_set_Holder h;
    pbj_arena_init(&a, NULL, 0);
    assert_int_equal(golden_message_set_Set_decode(&s, in, n, &a, NULL), PBJ_OK);
    size = golden_message_set_Set_size(&s);
    memset(out, 0xee, sizeof out);
    assert_int_equal(golden_message_set_Set_encode(&s, out, size, &len), PBJ_OK);
    assert_int_equal(len, size);
    assert_int_equal(out[len], 0xee);
    to_hex(out, len, got, sizeof got);
    assert_string_equal(got, want);
    golden_message_set_Set again;
    uint8_t out2[64];
    size_t len2 = 0;
    assert_int_equal(golden_message_set_Set_decode(&again, out, len, &a, NULL), PBJ_OK);
    assert_true(golden_message_set_Set_equal(&s, &again));
    assert_int_equal(golden_message_set_Set_encode(&again, out2, sizeof out2, &len2), PBJ_OK);
    assert_memory_equal(out, out2, len);
    assert_int_equal(len2, len);
    pbj_rbuf r;
    pbj_rbuf_init(&r, NULL, 0);
    assert_int_equal(golden_message_set_Set_write_reverse(&s, &r), PBJ_OK);
    to_hex(pbj_rbuf_data(&r), pbj_rbuf_len(&r), got, sizeof got);
    assert_string_equal(got, want);
    pbj_rbuf_free(&r);
    holder_in[0] = 0x0a;                                /* Holder { set = in; after = 1 } */
    holder_in[1] = (uint8_t)n;
    memcpy(holder_in + 2, in, n);
    holder_in[n + 2] = 0x10;
    holder_in[n + 3] = 0x01;
    assert_int_equal(golden_message_set_Holder_decode(&h, holder_in, n + 4, &a, NULL), PBJ_OK);
    size = golden_message_set_Holder_size(&h);
    assert_int_equal(size, 4 + strlen(want) / 2);
    assert_int_equal(golden_message_set_Holder_encode(&h, out, size, &len), PBJ_OK);
    assert_int_equal(out[1], strlen(want) / 2);
    assert_int_equal(out[len - 1], 0x01);
    pbj_arena_free(&a);
}

/* Issue 14 item 1: these decoded, then encode said OK with part of its output unwritten. The bytes protobuf's C++
 * runtime writes for each (test/encode/oracle.py): items only, each with a type_id and a message. */
static void test_msgset_reproducers(void **state)
{
    (void)state;
    assert_msgset("0800", "");                                     /* field 1, a varint: not an item */
    assert_msgset("0b0c", "");                                     /* an item with no type_id */
    assert_msgset("0b10021a0208000c", "0b10021a0208000c");         /* type_id 2, below the extension range */
    assert_msgset("0b10ffffffff0f1a0208000c", "0b10ffffffff0f1a0208000c");   /* type_id 2^32-1 */
    assert_msgset("0b10050c", "");                                 /* no message */
    assert_msgset("2a0100", "0b10051a01000c");                     /* an unknown length-delimited field: an item */
    assert_msgset("0b1a02080110e9070c", "0b10e9071a0208010c");     /* canonical order */
    assert_msgset("ca3e020801", "0b10e9071a0208010c");             /* a known extension as a field */
}

/* Issue 26: items in type_id order, whether they came as items or length-delimited fields, below the extension
 * range or in it (protobuf writes unknown type_ids in arrival order: test/parity/README.md lists the departure). */
static void test_msgset_order(void **state)
{
    (void)state;
    assert_msgset("8a05042700901a1200", "0b10021a000c0b10511a042700901a0c");
    assert_msgset("1200", "0b10021a000c");
    assert_msgset("0b10511a000c0b10021a000c", "0b10021a000c0b10511a000c");
    assert_msgset("0b10061a000c2a0100", "0b10051a01000c0b10061a000c");
    assert_msgset("0b10e9071a0208010c1200", "0b10021a000c0b10e9071a0208010c");
}

/* Issue 14 item 3: an item of a known type_id with no message: print and the accessors added 0 to NULL. protobuf
 * drops the item: not there, an empty message from _get, nothing written. */
static void test_msgset_no_message(void **state)
{
    (void)state;
    const uint8_t in[] = {0x0b, 0x10, 0xe9, 0x07, 0x0c};
    golden_message_set_Set s;
    golden_message_set_Item item;
    pbj_arena a;
    char text[64];
    pbj_text t;
    pbj_arena_init(&a, NULL, 0);
    assert_int_equal(golden_message_set_Set_decode(&s, in, sizeof in, &a, NULL), PBJ_OK);
    assert_false(golden_message_set_Item_item_has(&s));
    assert_int_equal(golden_message_set_Item_item_get(&s, &item, &a), PBJ_OK);
    assert_false(item.has_v);
    pbj_text_init_buffer(&t, text, sizeof text);
    assert_int_equal(golden_message_set_Set_print(&s, &t), PBJ_OK);
    assert_int_equal(golden_message_set_Set_size(&s), 0);
    pbj_arena_free(&a);
}

/* in (hex) decoded as an encx.Host with unknown-field mode u: the status, and *m in arena a. */
static pbj_status decode_host(const char *hex, encx_Host *m, pbj_arena *a, pbj_unknown_mode u)
{
    static uint8_t in[4096];
    pbj_decode_options o = {.unknown = u};
    return encx_Host_decode(m, in, from_hex(hex, in, sizeof in), a, &o);
}

/* Issue 14 item 2: decode checks each record of a known extension against the extension's type, as protobuf's C++
 * runtime: a wrong wire type is an unknown field (written back, rejected when strict), a packed record of a repeated
 * scalar is read whichever way it is declared, and a packed record cut inside a value fails as a normal field's. */
static void test_ext_records(void **state)
{
    (void)state;
    char big[2 * (3 + 2044) + 1] = "52fc0f";                      /* fixed64 10 as 2,044 bytes, length-delimited */
    encx_Host m;
    pbj_arena a;
    uint8_t out[4096];
    size_t len;
    pbj_arena_init(&a, NULL, 0);
    memset(big + 6, 'a', 2 * 2044);
    assert_int_equal(decode_host(big, &m, &a, PBJ_UNKNOWN_KEEP), PBJ_OK);
    assert_true(!encx_x_fixed64_has(&m) && encx_x_fixed64_get(&m) == 0 && m.pbj_ext.len == 0);
    assert_int_equal(pbj_unknown_bytes(m.pbj_unknown).len, 3 + 2044);
    assert_int_equal(encx_Host_encode(&m, out, sizeof out, &len), PBJ_OK);
    assert_int_equal(len, 3 + 2044);                               /* written back as it came */
    assert_int_equal(encx_x_fixed64_set(&m, 7, &a), PBJ_OK);       /* a new value beside it, as C++ */
    assert_true(encx_x_fixed64_get(&m) == 7 && pbj_unknown_bytes(m.pbj_unknown).len == 3 + 2044);
    assert_int_equal(decode_host(big, &m, &a, PBJ_UNKNOWN_REJECT), PBJ_ERR_UNKNOWN_FIELD);
    assert_int_equal(decode_host("f20106010000000200", &m, &a, PBJ_UNKNOWN_KEEP), PBJ_ERR_TRUNCATED);   /* 6 bytes of fixed32s */
    assert_int_equal(decode_host("fa010c010000000000000002000000", &m, &a, PBJ_UNKNOWN_KEEP), PBJ_ERR_TRUNCATED);
    assert_int_equal(decode_host("8202020180", &m, &a, PBJ_UNKNOWN_KEEP), PBJ_ERR_TRUNCATED);   /* a varint cut */
    assert_int_equal(decode_host("82020c01ffffffffffffffffffff01", &m, &a, PBJ_UNKNOWN_KEEP), PBJ_ERR_VARINT);
    /* fixed64s declared unpacked, sent packed, then one unpacked: three values */
    assert_int_equal(decode_host("fa011001000000000000000200000000000000f9010300000000000000", &m, &a, PBJ_UNKNOWN_KEEP), PBJ_OK);
    assert_int_equal(encx_r_fixed64_count(&m), 3);
    assert_true(encx_r_fixed64_at(&m, 1) == 2 && encx_r_fixed64_at(&m, 2) == 3);
    /* packed fixed32s sent unpacked */
    assert_int_equal(decode_host("f50105000000", &m, &a, PBJ_UNKNOWN_KEEP), PBJ_OK);
    assert_true(encx_r_fixed32_count(&m) == 1 && encx_r_fixed32_at(&m, 0) == 5);
    /* singular numbers sent packed, a message as a varint, a group as bytes, a string as fixed32: unknown */
    assert_int_equal(decode_host("5a0401000000" "900101" "9a0100" "8501" "01000000", &m, &a, PBJ_UNKNOWN_KEEP), PBJ_OK);
    assert_true(!encx_x_fixed32_has(&m) && !encx_x_sub_has(&m) && !encx_xgroup_has(&m) && !encx_x_string_has(&m));
    assert_int_equal(m.pbj_ext.len, 0);
    assert_int_equal(pbj_unknown_bytes(m.pbj_unknown).len, 18);
    /* a closed enum's values outside the enum are unknown fields; packed, the others stay */
    assert_int_equal(decode_host("a00101" "a00105" "a20203010500", &m, &a, PBJ_UNKNOWN_KEEP), PBJ_OK);
    assert_true(encx_x_color_has(&m) && encx_x_color_get(&m) == 1);
    assert_true(encx_r_color_count(&m) == 2 && encx_r_color_at(&m, 0) == 1 && encx_r_color_at(&m, 1) == 0);
    assert_int_equal(encx_Host_encode(&m, out, sizeof out, &len), PBJ_OK);
    to_hex(out, len, big, sizeof big);
    assert_string_equal(big, "a00101" "a202020100" "a00105" "a00205");
    assert_int_equal(decode_host("a00105", &m, &a, PBJ_UNKNOWN_REJECT), PBJ_ERR_UNKNOWN_FIELD);
    assert_int_equal(decode_host("900101", &m, &a, PBJ_UNKNOWN_DROP), PBJ_OK);   /* dropped as unknown */
    assert_true(m.pbj_ext.len == 0 && pbj_unknown_bytes(m.pbj_unknown).len == 0);
    pbj_arena_free(&a);
}

/* m as text (M_print) and as JSON, into the two buffers. */
static void host_texts(const encx_Host *m, char *text, char *json, size_t cap)
{
    pbj_text t;
    pbj_text_init(&t);
    assert_int_equal(encx_Host_print(m, &t), PBJ_OK);
    snprintf(text, cap, "%.*s", (int)t.len, t.data);
    pbj_text_free(&t);
    assert_int_equal(encx_Host_to_json(m, &t, NULL), PBJ_OK);
    snprintf(json, cap, "%.*s", (int)t.len, t.data);
    pbj_text_free(&t);
}

/* Message extensions of encx.Host declared in another file (extforeign.proto): Host's table cannot name their types
 * (rows flagged PBJ_F_UNTYPED, no sub). Decode keeps their records as extensions, written among the fields; text and
 * JSON, which would need the type, pass them by: printed as unknown fields, left out of JSON, not read by name. */
static void test_untyped_extensions(void **state)
{
    (void)state;
    encx_Host m;
    pbj_arena a;
    char text[256], json[256];
    uint8_t out[64];
    size_t len;
    static const char ext_text[] = "[encf.x_far] { y: 1 }", ext_json[] = "{\"[encf.x_far]\": {\"y\": 1}}";
    pbj_arena_init(&a, NULL, 0);
    assert_int_equal(decode_host("a00601" "9203020807", &m, &a, PBJ_UNKNOWN_KEEP), PBJ_OK);   /* last = 1, x_far { y: 7 } */
    assert_true(m.pbj_ext.len == 5 && pbj_unknown_bytes(m.pbj_unknown).len == 0);
    assert_int_equal(encx_Host_encode(&m, out, sizeof out, &len), PBJ_OK);
    to_hex(out, len, text, sizeof text);
    assert_string_equal(text, "9203020807" "a00601");                                    /* in number order */
    host_texts(&m, text, json, sizeof text);
    assert_string_equal(text, "50 {\n  1: 7\n}\nlast: 1\n");
    assert_string_equal(json, "{\"last\":1}");
    assert_int_equal(encx_Host_from_text(&m, ext_text, sizeof ext_text - 1, &a, NULL), PBJ_ERR_SYNTAX);
    assert_int_equal(encx_Host_from_json(&m, ext_json, sizeof ext_json - 1, &a, NULL), PBJ_ERR_SYNTAX);
    pbj_arena_free(&a);
}

/* Every extension of an encx.Host read through its accessors, message ones decoded (ASan sees a read past a
 * record); false when a message extension does not decode. */
static volatile uint64_t ext_sum;   /* keeps the reads */
static bool read_extensions(const encx_Host *m, pbj_arena *a)
{
    encx_Sub sub;
    encx_XGroup g;
    uint64_t sum = encx_x_fixed64_get(m) + encx_x_fixed32_get(m) + (uint64_t)encx_x_int64_get(m) +
                   (uint64_t)encx_x_sint32_get(m) + encx_x_bool_get(m) + (uint64_t)encx_x_double_get(m) +
                   encx_x_string_get(m).len + encx_x_bytes_get(m).len + (uint64_t)encx_x_color_get(m);
    bool ok = encx_x_sub_get(m, &sub, a) == PBJ_OK && encx_xgroup_get(m, &g, a) == PBJ_OK;
    for (size_t i = 0; i < encx_r_fixed32_count(m); i++) sum += encx_r_fixed32_at(m, i);
    for (size_t i = 0; i < encx_r_fixed64_count(m); i++) sum += encx_r_fixed64_at(m, i);
    for (size_t i = 0; i < encx_r_int32_count(m); i++) sum += (uint64_t)encx_r_int32_at(m, i);
    for (size_t i = 0; i < encx_r_sint64_count(m); i++) sum += (uint64_t)encx_r_sint64_at(m, i);
    for (size_t i = 0; i < encx_r_string_count(m); i++) sum += encx_r_string_at(m, i).len;
    for (size_t i = 0; i < encx_r_sub_count(m); i++) ok &= encx_r_sub_at(m, i, &sub, a) == PBJ_OK;
    for (size_t i = 0; i < encx_r_color_count(m); i++) sum += (uint64_t)encx_r_color_at(m, i);
    for (size_t i = 0; i < encx_r_float_count(m); i++) sum += (uint64_t)encx_r_float_at(m, i);
    ext_sum = sum;
    return ok;
}

/* One input decoded as T and encoded again forward and reverse: -1 when it does not decode (or, in an encx.Host,
 * a message extension does not), 1 when the encoders disagree, else 0 with the bytes in *out. */
#define REENCODE(T, check)                                                                                      \
    static int reencode_##T(const uint8_t *in, size_t n, pbj_arena *a, pbj_rbuf *r, uint8_t **out, size_t *len) \
    {                                                                                                           \
        T m;                                                                                                    \
        if (T##_decode(&m, in, n, a, NULL) != PBJ_OK || !check(&m, a)) return -1;                             \
        size_t size = T##_size(&m);                                                                             \
        *out = (uint8_t *)malloc(size + 1);                                                                     \
        if (T##_encode(&m, *out, size, len) != PBJ_OK || *len != size) return 1;                                \
        if (T##_write_reverse(&m, r) != PBJ_OK || pbj_rbuf_len(r) != size) return 1;                           \
        return memcmp(pbj_rbuf_data(r), *out, size) != 0;                                                       \
    }
#define ANY(m, a) ((void)(m), (void)(a), true)
REENCODE(golden_message_set_Set, ANY)
REENCODE(golden_message_set_Holder, ANY)
REENCODE(encx_Host, read_extensions)

/* --msgset TYPE HEX... (golden.message_set.Set or .Holder), --ext HEX... (encx.Host): each input decoded and
 * encoded again, one line each ("error" when it does not decode); 1 when the reverse encoder's bytes differ. */
static int reencode_main(int argc, char **argv)
{
    bool ext = strcmp(argv[1], "--ext") == 0, holder = !ext && strcmp(argv[2], "golden.message_set.Holder") == 0;
    for (int i = ext ? 2 : 3; i < argc; i++) {
        size_t n = strlen(argv[i]) / 2, len = 0;
        uint8_t *in = (uint8_t *)malloc(n + 1), *out = NULL;
        pbj_arena a;
        pbj_rbuf r;
        int got;
        from_hex(argv[i], in, n);
        pbj_arena_init(&a, NULL, 0);
        pbj_rbuf_init(&r, NULL, 0);
        got = ext      ? reencode_encx_Host(in, n, &a, &r, &out, &len)
              : holder ? reencode_golden_message_set_Holder(in, n, &a, &r, &out, &len)
                       : reencode_golden_message_set_Set(in, n, &a, &r, &out, &len);
        if (got > 0) {
            fprintf(stderr, "unit %s: %s: the reverse encoder's bytes differ\n", argv[1], argv[i]);
            return 1;
        }
        printf("%s -> ", argv[i]);
        if (got < 0) printf("error");
        for (size_t k = 0; got == 0 && k < len; k++) printf("%02x", out[k]);
        printf("\n");
        free(out);
        free(in);
        pbj_rbuf_free(&r);
        pbj_arena_free(&a);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && (strcmp(argv[1], "--msgset") == 0 || strcmp(argv[1], "--ext") == 0)) return reencode_main(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_bytes),
        cmocka_unit_test(test_null_members),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_short_buffer),
        cmocka_unit_test(test_no_memory),
        cmocka_unit_test(test_msgset_reproducers),
        cmocka_unit_test(test_msgset_order),
        cmocka_unit_test(test_msgset_no_message),
        cmocka_unit_test(test_cycles),
        cmocka_unit_test(test_extension_cycle),
        cmocka_unit_test(test_deep_chains),
        cmocka_unit_test(test_small_stack),
        cmocka_unit_test(test_ext_records),
        cmocka_unit_test(test_untyped_extensions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
