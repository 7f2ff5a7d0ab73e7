/* test_decode.c: decode's wire semantics against protobuf's C++ 3.21 runtime (wrong wire types, map
 * entries, wrapper payloads, the depth limit) and its memory limit, on test/decode/decode.proto. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decode.pb.h"
#include "unhex.h"

/* Decode hex with mode, expecting want; when it decodes, encode must give back the hex out. */
static void round_trip(const char *hex, pbj_unknown_mode mode, pbj_status want, const char *out)
{
    uint8_t in[256], expect[256], got[256];
    size_t n = unhex(hex, in), len = 0;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    pbj_decode_options o = {0};
    o.unknown = mode;
    dec_Top m;
    assert_int_equal(dec_Top_decode(&m, in, n, &a, &o), want);
    if (want == PBJ_OK) {
        assert_int_equal(dec_Top_encode(&m, got, sizeof got, &len), PBJ_OK);
        assert_int_equal(len, unhex(out, expect));
        assert_memory_equal(got, expect, len);
#ifdef DECODE_REVERSE                               /* the max tier: the reverse encoder writes the same bytes */
        pbj_rbuf rb;
        pbj_rbuf_init(&rb, NULL, 0);
        assert_int_equal(dec_Top_write_reverse(&m, &rb), PBJ_OK);
        assert_int_equal(pbj_rbuf_len(&rb), len);
        assert_memory_equal(pbj_rbuf_data(&rb), expect, len);
        pbj_rbuf_free(&rb);
#endif
    }
    pbj_arena_free(&a);
}

/* A known field with another wire type is an unknown field: kept (written last), dropped, or rejected. */
static void test_wrong_wire_type(void **state)
{
    (void)state;
    round_trip("10050805", PBJ_UNKNOWN_KEEP, PBJ_OK, "08051005");          /* s (string) as a varint */
    round_trip("0a0107", PBJ_UNKNOWN_KEEP, PBJ_OK, "0a0107");              /* i (int32) as bytes */
    round_trip("10050805", PBJ_UNKNOWN_DROP, PBJ_OK, "0805");
    round_trip("10050805", PBJ_UNKNOWN_REJECT, PBJ_ERR_UNKNOWN_FIELD, NULL);
    round_trip("18050805", PBJ_UNKNOWN_KEEP, PBJ_OK, "08051805");          /* leaf (a message) as a varint */
}

/* Inside a map entry a wrong wire type (like any unknown field) is dropped, as C++ does; strict rejects it. */
static void test_map_entry(void **state)
{
    (void)state;
    round_trip("2a0408011007", PBJ_UNKNOWN_KEEP, PBJ_OK, "2a0408011200");
    round_trip("2a0408011007", PBJ_UNKNOWN_REJECT, PBJ_ERR_UNKNOWN_FIELD, NULL);
}

/* A map entry with no value for a message-valued map decodes as an empty message, not NULL. */
static void test_map_message_value(void **state)
{
    (void)state;
    uint8_t in[16];
    size_t n = unhex("32030a016b", in);
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    dec_Top m;
    assert_int_equal(dec_Top_decode(&m, in, n, &a, NULL), PBJ_OK);
    assert_int_equal(m.leaves.count, 1);
    assert_non_null(m.leaves.data[0].value);
    assert_int_equal(m.leaves.data[0].value->a, 0);
    pbj_arena_free(&a);
    round_trip("32030a016b", PBJ_UNKNOWN_KEEP, PBJ_OK, "32050a016b1200");
}

/* Unknown fields inside a wrapper's payload survive a round trip, after its value. */
static void test_wrapper_unknown(void **state)
{
    (void)state;
    round_trip("d20c0408051007", PBJ_UNKNOWN_KEEP, PBJ_OK, "d20c0408051007");
    round_trip("d20c0410070805", PBJ_UNKNOWN_KEEP, PBJ_OK, "d20c0408051007");   /* value first, as C++ writes */
    round_trip("d20c021007", PBJ_UNKNOWN_KEEP, PBJ_OK, "d20c021007");
    round_trip("d20c050d01020304", PBJ_UNKNOWN_KEEP, PBJ_OK, "d20c050d01020304");  /* value as fixed32 */
    round_trip("d20c0408051007", PBJ_UNKNOWN_DROP, PBJ_OK, "d20c020805");
    round_trip("d20c0408051007", PBJ_UNKNOWN_REJECT, PBJ_ERR_UNKNOWN_FIELD, NULL);
    uint8_t in[16];
    size_t n = unhex("d20c0408051007", in);
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    dec_Top x, y;
    assert_int_equal(dec_Top_decode(&x, in, n, &a, NULL), PBJ_OK);
    assert_int_equal(dec_Top_decode(&y, in, 5, &a, NULL), PBJ_ERR_TRUNCATED);
    n = unhex("d20c020805", in);
    assert_int_equal(dec_Top_decode(&y, in, n, &a, NULL), PBJ_OK);
    assert_false(dec_Top_equal(&x, &y));                                  /* the unknown fields count */
    pbj_arena_free(&a);
}

/* Repeated fields are sized once per run (pbj__run_count), a first run exactly: runs split by other fields, packed and
 * unpacked records mixed, and runs that cross the power-of-two capacities all keep every element. */
static void test_runs(void **state)
{
    (void)state;
    round_trip("22020102200322010420052006200720082009", PBJ_UNKNOWN_KEEP, PBJ_OK, "2209010203040506070809");
    round_trip("42000801420042004200", PBJ_UNKNOWN_KEEP, PBJ_OK, "08014200420042004200");
    uint8_t in[200];
    size_t n = 0;
    for (int i = 0; i < 40; i++) {               /* 17 Leafs, a, 23 more: arrays of 32, then 64 */
        if (i == 17) {
            in[n++] = 0x08;
            in[n++] = 0x05;
        }
        in[n++] = 0x42;
        in[n++] = 0x02;
        in[n++] = 0x08;
        in[n++] = (uint8_t)i;
    }
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    dec_Top m;
    assert_int_equal(dec_Top_decode(&m, in, n, &a, NULL), PBJ_OK);
    assert_int_equal(m.list.count, 40);
    for (int i = 0; i < 40; i++) assert_int_equal(m.list.data[i].a, i);
    assert_int_equal(m.i, 5);
    pbj_arena_free(&a);
    n = unhex("420042004200", in);                /* a field's first run takes exactly its elements (and its capacity) */
    assert_int_equal(dec_Top_decode(&m, in, n, &a, NULL), PBJ_OK);
    assert_int_equal(m.list.count, 3);
    assert_int_equal(pbj_arena_used(&a), PBJ_ARENA_ALIGN + 3 * sizeof(dec_Leaf));
    pbj_arena_free(&a);
}

/* Top-level message wrapped in n levels of Top.next (field 7). */
static size_t nested(uint8_t *buf, size_t cap, int n)
{
    size_t at = cap;
    buf[--at] = 0x01;
    buf[--at] = 0x08;                            /* i = 1 at the bottom */
    for (int k = 0; k < n; k++) {
        uint8_t len[10];
        size_t w = (size_t)(pbj_put_varint(len, cap - at) - len);
        at -= w;
        memcpy(buf + at, len, w);
        buf[--at] = 0x3a;                        /* next, length-delimited */
    }
    memmove(buf, buf + at, cap - at);
    return cap - at;
}

/* The default depth limit is protoc's: 100 messages inside the top-level one decode, 101 do not. */
static void test_default_depth(void **state)
{
    (void)state;
    static uint8_t buf[4096];
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    dec_Top m;
    size_t n = nested(buf, sizeof buf, 100);
    assert_int_equal(dec_Top_decode(&m, buf, n, &a, NULL), PBJ_OK);
    n = nested(buf, sizeof buf, 101);
    assert_int_equal(dec_Top_decode(&m, buf, n, &a, NULL), PBJ_ERR_DEPTH);
    pbj_decode_options o = {0};
    o.max_depth = 2;
    n = nested(buf, sizeof buf, 2);
    assert_int_equal(dec_Top_decode(&m, buf, n, &a, &o), PBJ_OK);
    n = nested(buf, sizeof buf, 3);
    assert_int_equal(dec_Top_decode(&m, buf, n, &a, &o), PBJ_ERR_DEPTH);
    n = unhex("1a020b0c", buf);                  /* leaf holding an unknown group: level 2 (the max tier's */
    o.max_depth = 1;                             /* Leaf keeps no depth count but its unknown fields do) */
    assert_int_equal(dec_Top_decode(&m, buf, n, &a, &o), PBJ_ERR_DEPTH);
    o.max_depth = 2;
    assert_int_equal(dec_Top_decode(&m, buf, n, &a, &o), PBJ_OK);
    n = unhex("2a0408011b1c", buf);              /* a names entry holding an unknown group: level 2 (a scalar-only */
    o.max_depth = 1;                             /* message keeps no depth count in any tier; a map entry does) */
    assert_int_equal(dec_Top_decode(&m, buf, n, &a, &o), PBJ_ERR_DEPTH);
    o.max_depth = 2;
    assert_int_equal(dec_Top_decode(&m, buf, n, &a, &o), PBJ_OK);
    static const struct {
        const char *hex;
        uint32_t deepest;                        /* its deepest level: a wrapper is one, as protobuf's C++ counts it */
    } wrapped[] = {
        {"d20c020805", 1},                       /* w = 5 */
        {"3a05d20c020805", 2},                   /* next { w = 5 } */
        {"d20c021314", 2},                       /* w holding an unknown group */
    };
    for (size_t i = 0; i < sizeof wrapped / sizeof *wrapped; i++) {
        n = unhex(wrapped[i].hex, buf);
        o.max_depth = wrapped[i].deepest - 1;
        if (o.max_depth) assert_int_equal(dec_Top_decode(&m, buf, n, &a, &o), PBJ_ERR_DEPTH);
        o.max_depth = wrapped[i].deepest;
        assert_int_equal(dec_Top_decode(&m, buf, n, &a, &o), PBJ_OK);
    }
    pbj_arena_free(&a);
}

/* A decode of n bytes with max_memory = cap into a, after whatever a held. */
static pbj_status decode_capped(const uint8_t *in, size_t n, pbj_arena *a, size_t cap)
{
    pbj_decode_options o = {0};
    o.max_memory = cap;
    dec_Top m;
    return dec_Top_decode(&m, in, n, a, &o);
}

/* max_memory: no limit by default (50,000 empty Tops, 2 bytes each, take far more than the input's size and
 * decode); an explicit cap counts the bytes this decode allocates, so the verdict is the same in a new arena,
 * in one reset after holding much more, and between other decodes in the same arena: exactly the bytes the
 * decode needs pass, one fewer is PBJ_ERR_NOMEM. */
static void test_max_memory(void **state)
{
    (void)state;
    size_t n = 100000;
    uint8_t *in = malloc(n);
    assert_non_null(in);
    for (size_t i = 0; i < n; i += 2) {
        in[i] = 0x4a;                            /* tops, length 0 */
        in[i + 1] = 0;
    }
    pbj_arena a, big;
    pbj_arena_init(&a, NULL, 0);
    dec_Top m;
    assert_int_equal(dec_Top_decode(&m, in, n, &a, NULL), PBJ_OK);
    assert_int_equal(m.tops.count, n / 2);
    size_t need = pbj_arena_used(&a);
    assert_true(need > 32 * n);                  /* the old default cap (32 bytes an input byte + 64 KiB) refused it */
    pbj_arena_free(&a);
    pbj_arena_init(&big, NULL, 0);               /* an arena holding one block of 64 MiB */
    assert_non_null(pbj_arena_alloc(&big, (size_t)64 << 20));
    pbj_arena_reset(&big);
    for (int round = 0; round < 2; round++) {
        assert_int_equal(decode_capped(in, n, &a, need - 1), PBJ_ERR_NOMEM);
        assert_int_equal(a.limit, 0);            /* the cap ends with the decode */
        pbj_arena_free(&a);
        assert_int_equal(decode_capped(in, n, &a, need), PBJ_OK);
        assert_int_equal(decode_capped(in, n, &big, need - 1), PBJ_ERR_NOMEM);
        assert_int_equal(decode_capped(in, 4, &big, 4096), PBJ_OK);      /* other decodes between */
        assert_int_equal(decode_capped(in, n, &big, need), PBJ_OK);
        assert_int_equal(decode_capped(in, n, &big, need - 1), PBJ_ERR_NOMEM);
        assert_int_equal(decode_capped(in, n, &big, 4096), PBJ_ERR_NOMEM);
        assert_int_equal(decode_capped(in, n, &big, SIZE_MAX), PBJ_OK);   /* SIZE_MAX, as 0: no cap */
        assert_int_equal(big.limit, 0);
    }
    pbj_arena_free(&a);
    pbj_arena_free(&big);
    free(in);
}

/* Varints past two bytes, read inline when the whole input has 10 bytes left: the value, a varint that runs
 * past its sub-message's end (the bytes after it are the parent's), a 10th byte above 1 (read as C++ 3.21 reads it,
 * the bits past 64 dropped), 11 bytes. */
static void test_long_varints(void **state)
{
    (void)state;
    const char *pad = "3a081206706164647061";                  /* next = {s: "paddpa"}: 10 bytes after */
    char hex[200];
    snprintf(hex, sizeof hex, "1a06088080808004%s", pad);           /* leaf.a = 2^30, 5 bytes */
    round_trip(hex, PBJ_UNKNOWN_KEEP, PBJ_OK, hex);
    snprintf(hex, sizeof hex, "08ffffffffffffffffff01%s", pad);     /* i = -1, 10 bytes */
    round_trip(hex, PBJ_UNKNOWN_KEEP, PBJ_OK, hex);
    snprintf(hex, sizeof hex, "1a0308818080808004%s", pad);         /* leaf.a runs past the leaf's 3 bytes */
    round_trip(hex, PBJ_UNKNOWN_KEEP, PBJ_ERR_TRUNCATED, NULL);
    char want[200];
    snprintf(hex, sizeof hex, "08ffffffffffffffffff02%s", pad);     /* 10th byte 2: the bits past 64 drop (C++ 3.21) */
    snprintf(want, sizeof want, "08ffffffffffffffffff01%s", pad);   /* i (int32) = -1: INT64_MAX's low 32 bits */
    round_trip(hex, PBJ_UNKNOWN_KEEP, PBJ_OK, want);
    snprintf(hex, sizeof hex, "08ffffffffffffffffff7f%s", pad);     /* 10th byte 0x7f: bit 63 only */
    round_trip(hex, PBJ_UNKNOWN_KEEP, PBJ_OK, want);
    snprintf(hex, sizeof hex, "50ffffffffffffffffff02%s", pad);     /* an unknown field 10: kept as it came (after */
    snprintf(want, sizeof want, "%s50ffffffffffffffffff02", pad);   /* the known ones) */
    round_trip(hex, PBJ_UNKNOWN_KEEP, PBJ_OK, want);
    snprintf(hex, sizeof hex, "08ffffffffffffffffff8001%s", pad);   /* 11 bytes */
    round_trip(hex, PBJ_UNKNOWN_KEEP, PBJ_ERR_VARINT, NULL);
    snprintf(hex, sizeof hex, "08ffffffffffffffffff8201%s", pad);   /* 11 bytes, the 10th above 1 */
    round_trip(hex, PBJ_UNKNOWN_KEEP, PBJ_ERR_VARINT, NULL);
    round_trip("08ffffffffffffffffff02", PBJ_UNKNOWN_KEEP, PBJ_OK, "08ffffffffffffffffff01");   /* at the input's end */
    round_trip("08ffffffffffffffffff8201", PBJ_UNKNOWN_KEEP, PBJ_ERR_VARINT, NULL);
    round_trip("08ffffffffffffffffff01", PBJ_UNKNOWN_KEEP, PBJ_OK, "08ffffffffffffffffff01");   /* at the input's end */
    round_trip("08ffffffffffffffffff", PBJ_UNKNOWN_KEEP, PBJ_ERR_TRUNCATED, NULL);
    round_trip("08ffffffff07", PBJ_UNKNOWN_KEEP, PBJ_OK, "08ffffffff07");      /* fewer than 10 bytes left: checked per byte */
    round_trip("1a0408808001", PBJ_UNKNOWN_KEEP, PBJ_OK, "1a0408808001");      /* leaf.a = 2^14, 3 bytes, at the end */
    round_trip("1a03088080", PBJ_UNKNOWN_KEEP, PBJ_ERR_TRUNCATED, NULL);       /* cut by the leaf's end and the input's */
    round_trip("1a0308808001", PBJ_UNKNOWN_KEEP, PBJ_ERR_TRUNCATED, NULL);     /* cut by the leaf's end only */
}

/* Decode hex with max_length = limit (and the input longer than it: decode checks lengths only against the bytes
 * left, after M_decode stops the input at its first top-level length past the limit). */
static pbj_status decode_limited(const char *hex, size_t limit)
{
    uint8_t in[256];
    size_t n = unhex(hex, in);
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    pbj_decode_options o = {0};
    o.max_length = limit;
    dec_Top m;
    pbj_status st = dec_Top_decode(&m, in, n, &a, &o);
    pbj_arena_free(&a);
    return st;
}

/* max_length: every length-delimited record (top-level, nested, unknown, packed, in a group) past it is
 * PBJ_ERR_TOO_LONG; records within it decode however long the input; an error met first is still the one said. */
static void test_max_length(void **state)
{
    (void)state;
    assert_int_equal(decode_limited("08031203616263", 4), PBJ_OK);                  /* s = "abc": 3 of 7 bytes */
    assert_int_equal(decode_limited("08031203616263", 2), PBJ_ERR_TOO_LONG);
    assert_int_equal(decode_limited("0803120568656c6c6f", 4), PBJ_ERR_TOO_LONG);     /* s = "hello" */
    assert_int_equal(decode_limited("0803120568656c6c6f", 5), PBJ_OK);
    assert_int_equal(decode_limited("3a0412026869", 4), PBJ_OK);                      /* next = {s: "hi"} */
    assert_int_equal(decode_limited("3a0412026869", 3), PBJ_ERR_TOO_LONG);
    assert_int_equal(decode_limited("5a0568656c6c6f", 4), PBJ_ERR_TOO_LONG);         /* unknown field 11 */
    assert_int_equal(decode_limited("22050102030405", 4), PBJ_ERR_TOO_LONG);         /* packed nums */
    assert_int_equal(decode_limited("12096869", 2), PBJ_ERR_TOO_LONG);               /* past the input too */
    assert_int_equal(decode_limited("12096869", 0), PBJ_ERR_TRUNCATED);              /* (0: the default limit) */
    assert_int_equal(decode_limited("63120568656c6c6f64", 4), PBJ_ERR_TOO_LONG);     /* in unknown group 12 */
    assert_int_equal(decode_limited("1a020880120568656c6c6f", 4), PBJ_ERR_TRUNCATED); /* leaf.a cut, then s too long */
    assert_int_equal(decode_limited("120568656c6c6f1a020880", 4), PBJ_ERR_TOO_LONG);  /* the other order */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrong_wire_type),
        cmocka_unit_test(test_map_entry),
        cmocka_unit_test(test_map_message_value),
        cmocka_unit_test(test_wrapper_unknown),
        cmocka_unit_test(test_runs),
        cmocka_unit_test(test_default_depth),
        cmocka_unit_test(test_max_memory),
        cmocka_unit_test(test_long_varints),
        cmocka_unit_test(test_max_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
