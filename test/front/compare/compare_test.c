/* compare_test.c: pbj.comparable's M_compare: each key's order, ties falling to the next key, nested messages, oneofs, presence. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "compare.pb.h"

static int sign(int c) { return (c > 0) - (c < 0); }

/* a < b, and the order is antisymmetric and reflexive */
static void assert_before(const cmpt_Item *a, const cmpt_Item *b)
{
    assert_int_equal(sign(cmpt_Item_compare(a, b)), -1);
    assert_int_equal(sign(cmpt_Item_compare(b, a)), 1);
    assert_int_equal(cmpt_Item_compare(a, a), 0);
    assert_int_equal(cmpt_Item_compare(b, b), 0);
}

static void items(cmpt_Item *a, cmpt_Item *b)
{
    cmpt_Item_init(a);
    cmpt_Item_init(b);
}

static void keys(cmpt_Key *a, cmpt_Key *b)
{
    cmpt_Key_init(a);
    cmpt_Key_init(b);
}

static void equal_messages_tie(void **state)
{
    (void)state;
    cmpt_Item a, b;
    items(&a, &b);
    assert_int_equal(cmpt_Item_compare(&a, &b), 0);
    a.ignored.count = 3;                      /* a field pbj.comparable does not list plays no part */
    assert_int_equal(cmpt_Item_compare(&a, &b), 0);
}

static void strings_then_bytes_in_listed_order(void **state)
{
    (void)state;
    cmpt_Item a, b;
    items(&a, &b);
    a.name = PBJ_STR("abc"), b.name = PBJ_STR("abd");
    assert_before(&a, &b);
    a.name = PBJ_STR("ab"), b.name = PBJ_STR("abc");          /* a prefix first */
    assert_before(&a, &b);
    a.name = PBJ_STR("B"), b.name = PBJ_STR("a");             /* bytes, not letters */
    assert_before(&a, &b);
    a.name = b.name = PBJ_STR("same");                        /* a tie goes to raw */
    static const uint8_t lo[] = {0x7f}, hi[] = {0xff, 0x00};
    a.raw = pbj_slice_make(lo, 1), b.raw = pbj_slice_make(hi, 2);   /* bytes compare unsigned */
    assert_before(&a, &b);
    b.name = PBJ_STR("samf");                                 /* the first key decides over the second */
    a.raw = pbj_slice_make(hi, 2), b.raw = pbj_slice_make(lo, 1);
    assert_before(&a, &b);
}

static void nested_messages(void **state)
{
    (void)state;
    cmpt_Item a, b;
    cmpt_Key ka, kb;
    items(&a, &b);
    keys(&ka, &kb);
    b.key = &kb;                                              /* absent before present, even present and zero */
    assert_before(&a, &b);
    a.key = &ka;
    assert_int_equal(cmpt_Item_compare(&a, &b), 0);
    ka.id = 5, kb.id = 7;
    assert_before(&a, &b);
    ka.id = -9;
    assert_int_equal(sign(cmpt_Key_compare(&ka, &kb)), -1);
}

static void numbers(void **state)
{
    (void)state;
    cmpt_Item a, b;
    items(&a, &b);
    a.neg = -3, b.neg = 2;                                    /* signed */
    assert_before(&a, &b);
    b.neg = -3;
    a.u = 1, b.u = UINT64_C(1) << 63;                         /* unsigned */
    assert_before(&a, &b);
    b.u = 1;
    a.d = -0.0, b.d = 0.0;                                    /* Java's Double.compare */
    assert_before(&a, &b);
    a.d = INFINITY, b.d = NAN;
    assert_before(&a, &b);
    a.d = NAN;
    assert_int_equal(cmpt_Item_compare(&a, &b), 0);
    a.f = -1.5f, b.f = -0.0f;
    assert_before(&a, &b);
    b.f = -1.5f;
    a.flag = false, b.flag = true;
    assert_before(&a, &b);
}

static void oneof_by_case_then_value(void **state)
{
    (void)state;
    cmpt_Item a, b;
    cmpt_Key ka, kb;
    items(&a, &b);
    keys(&ka, &kb);
    b.choice_case = cmpt_Item_choice_number;                  /* not set first */
    assert_before(&a, &b);
    a.choice_case = cmpt_Item_choice_number, a.choice.number = 100;
    b.choice_case = cmpt_Item_choice_text, b.choice.text = PBJ_STR("");   /* then by field number */
    assert_before(&a, &b);
    b.choice_case = cmpt_Item_choice_number, b.choice.number = 101;       /* same case: by value */
    assert_before(&a, &b);
    a.choice_case = b.choice_case = cmpt_Item_choice_other;
    a.choice.other = &ka, b.choice.other = &kb;
    ka.id = 1, kb.id = 2;
    assert_before(&a, &b);
}

static void presence_and_enums(void **state)
{
    (void)state;
    cmpt_Item a, b;
    items(&a, &b);
    b.has_opt = true;                                         /* absent before present zero */
    assert_before(&a, &b);
    a.has_opt = true, a.opt = 4, b.opt = 5;
    assert_before(&a, &b);
    b.opt = 4;
    b.has_wrapped = true;                                     /* an unboxed wrapper likewise */
    assert_before(&a, &b);
    a.has_wrapped = true, a.wrapped = -1, b.wrapped = 0;
    assert_before(&a, &b);
    b.wrapped = -1;
    a.color = cmpt_Color_RED, b.color = cmpt_Color_BLUE;     /* enums by number, the last key */
    assert_before(&a, &b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(equal_messages_tie),
        cmocka_unit_test(strings_then_bytes_in_listed_order),
        cmocka_unit_test(nested_messages),
        cmocka_unit_test(numbers),
        cmocka_unit_test(oneof_by_case_then_value),
        cmocka_unit_test(presence_and_enums),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
