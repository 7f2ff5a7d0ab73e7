/* test_drop.c: pbj.drop_unknown on test/decode/drop.proto: the layout (no pbj_unknown), unknown fields and
 * closed enums' unknown values skipped however the options say to keep them (strict still rejects), round
 * trips, equality, merge, print and the depth limit, against Full, the same message keeping them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pbj_text.h"
#include "drop.pb.h"
#include "unhex.h"

/* The layout: the option takes the slice away, and nothing else; Ext and Empty keep theirs. */
_Static_assert(sizeof(drop_Full) == sizeof(drop_Lean) + sizeof(pbj_slice *), "Lean has no pbj_unknown");
_Static_assert(sizeof(drop_FullTiny) == sizeof(drop_LeanTiny) + sizeof(pbj_slice *), "LeanTiny has no pbj_unknown");
_Static_assert(offsetof(drop_Ext, pbj_unknown) < sizeof(drop_Ext), "Ext keeps pbj_unknown");
_Static_assert(offsetof(drop_Empty, pbj_unknown) == 0, "Empty keeps pbj_unknown");

/* Known fields and unknown ones at each level: a varint (99), a group (101) in next, one in the tiny
 * leaf, a closed enum's unknown value (colors 7) and a map entry with one (by_id {1: 7}). */
#define IN "08079806051203616263" "1a080801ab060801ac06" "20012007" "2a04080110072a0408021001" "32050805980601"
/* What Full writes (its unknown fields last, in the order read) and what Lean writes. */
#define FULL_OUT "08071203616263" "1a080801ab060801ac06" "2001" "2a0408021001" "32050805980601" "980605" "2007" "2a0408011007"
#define LEAN_OUT "08071203616263" "1a020801" "2001" "2a0408021001" "32020805"

/* M decoded from hex with mode (want), encoded (forward and back to front) to out. */
#define ROUND_TRIP(M, hex, mode, want, out)                                                          \
    do {                                                                                             \
        uint8_t in_[256], expect_[256], got_[256];                                                   \
        size_t n_ = unhex(hex, in_), len_ = 0;                                                       \
        pbj_arena a_;                                                                                \
        pbj_arena_init(&a_, NULL, 0);                                                                \
        pbj_decode_options o_ = {0};                                                                 \
        o_.unknown = mode;                                                                           \
        M m_;                                                                                        \
        assert_int_equal(M##_decode(&m_, in_, n_, &a_, &o_), want);                                  \
        if (want == PBJ_OK) {                                                                        \
            assert_int_equal(M##_encode(&m_, got_, sizeof got_, &len_), PBJ_OK);                     \
            assert_int_equal(len_, unhex(out, expect_));                                             \
            assert_memory_equal(got_, expect_, len_);                                                \
            pbj_rbuf rb_;                                                                            \
            pbj_rbuf_init(&rb_, NULL, 0);                                                            \
            assert_int_equal(M##_write_reverse(&m_, &rb_), PBJ_OK);                                  \
            assert_int_equal(pbj_rbuf_len(&rb_), len_);                                              \
            assert_memory_equal(pbj_rbuf_data(&rb_), expect_, len_);                                 \
            pbj_rbuf_free(&rb_);                                                                     \
        }                                                                                            \
        pbj_arena_free(&a_);                                                                         \
    } while (0)

static void test_round_trips(void **state)
{
    (void)state;
    ROUND_TRIP(drop_Full, IN, PBJ_UNKNOWN_KEEP, PBJ_OK, FULL_OUT);
    ROUND_TRIP(drop_Lean, IN, PBJ_UNKNOWN_KEEP, PBJ_OK, LEAN_OUT);
    ROUND_TRIP(drop_Full, IN, PBJ_UNKNOWN_DROP, PBJ_OK, LEAN_OUT);
    ROUND_TRIP(drop_Lean, IN, PBJ_UNKNOWN_DROP, PBJ_OK, LEAN_OUT);
    ROUND_TRIP(drop_Lean, IN, PBJ_UNKNOWN_REJECT, PBJ_ERR_UNKNOWN_FIELD, NULL);
    ROUND_TRIP(drop_Lean, "3205" "0805980601", PBJ_UNKNOWN_REJECT, PBJ_ERR_UNKNOWN_FIELD, NULL);   /* in the leaf */
    ROUND_TRIP(drop_Lean, "2007", PBJ_UNKNOWN_REJECT, PBJ_ERR_UNKNOWN_FIELD, NULL);             /* closed enum */
    ROUND_TRIP(drop_Lean, LEAN_OUT, PBJ_UNKNOWN_REJECT, PBJ_OK, LEAN_OUT);
    ROUND_TRIP(drop_Lean, "9806", PBJ_UNKNOWN_KEEP, PBJ_ERR_TRUNCATED, NULL);                 /* still read */
    ROUND_TRIP(drop_Lean, "ab060801", PBJ_UNKNOWN_KEEP, PBJ_ERR_TRUNCATED, NULL);             /* an open group */
    ROUND_TRIP(drop_Ext, "0801" "a0062a" "980605", PBJ_UNKNOWN_KEEP, PBJ_OK, "0801" "a0062a" "980605");
    ROUND_TRIP(drop_Ext, "a50601020304", PBJ_UNKNOWN_KEEP, PBJ_OK, "a50601020304");            /* e as fixed32 */
    ROUND_TRIP(drop_Empty, "980605", PBJ_UNKNOWN_KEEP, PBJ_OK, "980605");
}

/* Unknown groups still count against the depth limit, in the inlined leaf too. */
static void test_depth(void **state)
{
    (void)state;
    uint8_t in[64];
    size_t n = unhex("3208" "ab06ab06ac06ac06", in);          /* tiny { group { group } }: levels 1, 2, 3 */
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    pbj_decode_options o = {0};
    drop_Lean lean;
    drop_Full full;
    for (uint32_t depth = 1; depth <= 4; depth++) {
        o.max_depth = depth;
        pbj_status want = depth < 3 ? PBJ_ERR_DEPTH : PBJ_OK;
        assert_int_equal(drop_Full_decode(&full, in, n, &a, &o), want);
        assert_int_equal(drop_Lean_decode(&lean, in, n, &a, &o), want);
    }
    pbj_arena_free(&a);
}

/* Equality ignores what was dropped; merge and copy work without a slice; print shows no unknown fields. */
static void test_equal_merge_print(void **state)
{
    (void)state;
    uint8_t in[256], out[256], lean_out[256];
    size_t n = unhex(IN, in), len = 0, want = unhex(LEAN_OUT, lean_out);
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    drop_Lean x, y, z;
    drop_Full f, g;
    assert_int_equal(drop_Lean_decode(&x, in, n, &a, NULL), PBJ_OK);
    assert_int_equal(drop_Lean_decode(&y, lean_out, want, &a, NULL), PBJ_OK);
    assert_true(drop_Lean_equal(&x, &y));
    assert_int_equal(drop_Full_decode(&f, in, n, &a, NULL), PBJ_OK);
    assert_int_equal(drop_Full_decode(&g, lean_out, want, &a, NULL), PBJ_OK);
    assert_false(drop_Full_equal(&f, &g));                   /* Full's unknown fields count */
    y.i = 8;
    assert_false(drop_Lean_equal(&x, &y));
    assert_int_equal(drop_Lean_copy(&z, &x, &a), PBJ_OK);
    assert_int_equal(drop_Lean_merge(&z, &y, &a), PBJ_OK);
    assert_int_equal(z.i, 8);
    assert_int_equal(z.colors.count, 2);
    assert_int_equal(drop_Lean_encode(&x, out, sizeof out, &len), PBJ_OK);
    assert_int_equal(len, want);
    assert_memory_equal(out, lean_out, len);
    pbj_text t, u;
    pbj_text_init(&t);
    pbj_text_init(&u);
    assert_int_equal(drop_Full_print(&f, &t), PBJ_OK);
    assert_non_null(strstr(t.data, "99: 5"));
    assert_int_equal(drop_Lean_print(&x, &u), PBJ_OK);
    assert_null(strstr(u.data, "99:"));
    assert_non_null(strstr(u.data, "i: 7"));
    pbj_text_free(&t);
    pbj_text_free(&u);
    pbj_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_equal_merge_print),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
