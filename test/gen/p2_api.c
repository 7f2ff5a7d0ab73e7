/* p2_api.c: the proto2 API of generated code (test/gen/proto/p2.proto): defaults, has/clear,
 * required fields, typed extensions. Writes a Root built with the extension setters to argv[1]
 * and a message set to argv[2] (run.sh compares them with protoc --encode of
 * test/gen/data/p2_setters.txt and p2_set_setters.txt). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "p2.pb.h"

static const char *out_path, *set_path;

static void write_file(const char *path, const uint8_t *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
}

static void defaults_read_when_absent(void **state)
{
    (void)state;
    p2_Defaults d;
    p2_Defaults_init(&d);
    assert_false(p2_Defaults_has_d_int32(&d));
    assert_int_equal(d.d_int32, -42);
    assert_true(d.d_int64 == INT64_MIN);
    assert_true(d.d_uint32 == 4294967295u);
    assert_true(d.d_uint64 == UINT64_MAX);
    assert_true(d.d_sint32 == INT32_MIN);
    assert_true(d.d_sint64 == INT64_MAX);
    assert_true(d.d_fixed32 == 16 && d.d_fixed64 == 63 && d.d_sfixed32 == -1 && d.d_sfixed64 == -2);
    assert_true(d.d_float == 1500.0f && d.d_double == -0.25 && d.d_bool);
    assert_int_equal(d.d_string.len, 22);
    assert_memory_equal(d.d_string.data, "tab\there \"q\" \\ \001\177?\? \303\251", 22);
    assert_int_equal(d.d_bytes.len, 6);
    assert_memory_equal(d.d_bytes.data, "\000\377\020abc", 6);
    assert_int_equal(d.d_enum, p2_Color_BLUE);
    assert_int_equal(d.d_enum_first, p2_Color_RED);            /* a closed enum's first value */
    assert_true(d.d_inf > 1e308 && d.d_ninf < -1e308 && d.d_nan != d.d_nan && d.f_inf < -1e38f);
    assert_int_equal(d.d_zero, 0);
    assert_int_equal(d.d_empty.len, 0);
    size_t len;
    uint8_t buf[256];
    assert_int_equal(p2_Defaults_encode(&d, buf, sizeof buf, &len), PBJ_OK);
    assert_int_equal(len, 0);                                   /* nothing present, nothing written */
    d.has_d_int32 = 1;                                          /* present at its default: written */
    assert_int_equal(p2_Defaults_encode(&d, buf, sizeof buf, &len), PBJ_OK);
    assert_int_equal(len, 11);
    assert_memory_equal(buf, "\010\326\377\377\377\377\377\377\377\377\001", 11);
    d.d_int32 = 5;
    p2_Defaults_clear_d_int32(&d);
    assert_false(p2_Defaults_has_d_int32(&d));
    assert_int_equal(d.d_int32, -42);
    d.has_d_string = 1;
    d.d_string = PBJ_STR("x");
    p2_Defaults_clear_d_string(&d);
    assert_int_equal(d.d_string.len, 22);
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    assert_int_equal(p2_Defaults_decode(&d, (const uint8_t *)"\020\001", 2, &a, NULL), PBJ_OK);
    assert_true(d.has_d_int64 && d.d_int64 == 1 && !d.has_d_int32 && d.d_int32 == -42);
    pbj_arena_free(&a);
}

static void required_fields(void **state)
{
    (void)state;
    p2_Need n, child;
    p2_Need_Box box;
    size_t len;
    uint8_t buf[64];
    pbj_arena a;
    pbj_decode_options partial = {0, 0, false, PBJ_UNKNOWN_KEEP, true, 0};
    p2_Need_init(&n);
    assert_string_equal(p2_Need_missing(&n), "p2.Need.id");
    assert_int_equal(p2_Need_encode(&n, buf, sizeof buf, &len), PBJ_ERR_REQUIRED);
    assert_int_equal(p2_Need_encode_partial(&n, buf, sizeof buf, &len), PBJ_OK);
    assert_int_equal(len, 0);
    n.has_id = 1;
    p2_Need_init(&child);
    n.child = &child;
    child.has_id = 1;
    p2_Need_Box_init(&box);
    child.box = &box;                                          /* nested: the group's label is missing */
    assert_string_equal(p2_Need_missing(&n), "p2.Need.Box.label");
    assert_int_equal(p2_Need_encode(&n, buf, sizeof buf, &len), PBJ_ERR_REQUIRED);
    box.has_label = 1;
    assert_null(p2_Need_missing(&n));
    assert_int_equal(p2_Need_encode(&n, buf, sizeof buf, &len), PBJ_OK);
    pbj_arena_init(&a, NULL, 0);
    /* id: 1, child { } : the child's id is missing */
    assert_int_equal(p2_Need_decode(&n, (const uint8_t *)"\010\001\022\000", 4, &a, NULL), PBJ_ERR_REQUIRED);
    assert_string_equal(p2_Need_missing(&n), "p2.Need.id");
    assert_int_equal(p2_Need_decode(&n, (const uint8_t *)"\010\001\022\000", 4, &a, &partial), PBJ_OK);
    /* a repeated element split over two records merges before the check: list { } list { id: 2 } */
    assert_int_equal(p2_Need_decode(&n, (const uint8_t *)"\010\001\032\002\010\002", 6, &a, NULL), PBJ_OK);
    pbj_arena_free(&a);
}

static void extensions_typed(void **state)
{
    (void)state;
    p2_Root r, back;
    p2_Payload pl, got;
    p2_Scope sc;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    p2_Root_init(&r);
    assert_false(p2_e_int32_has(&r));
    assert_int_equal(p2_e_int32_get(&r), 0);
    assert_memory_equal(p2_e_string_get(&r).data, "dflt", 4);   /* default when absent */
    r.has_a = 1;
    r.a = 1;
    r.has_after = 1;
    r.after = PBJ_STR("z");
    assert_int_equal(p2_e_max_set(&r, 7, &a), PBJ_OK);           /* set out of number order: stored in order */
    assert_int_equal(p2_e_int32_set(&r, 5, &a), PBJ_OK);
    assert_int_equal(p2_e_int32_set(&r, -3, &a), PBJ_OK);          /* replaces */
    assert_int_equal(p2_e_late_set(&r, 450, &a), PBJ_OK);
    assert_int_equal(p2_e_sint64_set(&r, -2, &a), PBJ_OK);
    assert_int_equal(p2_e_double_set(&r, 0.5, &a), PBJ_OK);
    assert_int_equal(p2_e_string_set(&r, PBJ_STR("hi"), &a), PBJ_OK);
    assert_int_equal(p2_e_color_set(&r, p2_Color_GREEN, &a), PBJ_OK);
    assert_int_equal(p2_e_rep_add(&r, 1, &a), PBJ_OK);
    assert_int_equal(p2_e_rep_add(&r, -1, &a), PBJ_OK);
    assert_int_equal(p2_e_strings_add(&r, PBJ_STR("s"), &a), PBJ_OK);
    assert_int_equal(p2_e_packed_add(&r, 1, &a), PBJ_OK);           /* packed: one record, as protoc */
    assert_int_equal(p2_e_packed_add(&r, UINT64_MAX, &a), PBJ_OK);
    assert_int_equal(p2_e_packed_count(&r), 2);
    assert_true(p2_e_packed_at(&r, 1) == UINT64_MAX);
    p2_Payload_init(&pl);
    pl.has_v = 1;
    pl.v = 9;
    assert_int_equal(p2_e_msg_set(&r, &pl, &a), PBJ_OK);
    assert_int_equal(p2_e_msgs_add(&r, &pl, &a), PBJ_OK);
    assert_int_equal(p2_e_bool_set(&r, true, &a), PBJ_OK);
    assert_int_equal(p2_e_bool_clear(&r, &a), PBJ_OK);
    assert_false(p2_e_bool_has(&r));
    p2_Scope_init(&sc);
    sc.has_q = 1;
    sc.q = 4;
    assert_int_equal(p2_Scope_s_self_set(&r, &sc, &a), PBJ_OK);
    assert_int_equal(p2_Scope_s_float_set(&r, 1.25f, &a), PBJ_OK);
    assert_true(p2_e_int32_has(&r));
    assert_int_equal(p2_e_int32_get(&r), -3);
    assert_int_equal(p2_e_rep_count(&r), 2);
    assert_int_equal(p2_e_rep_at(&r, 1), -1);
    assert_int_equal(p2_e_msg_get(&r, &got, &a), PBJ_OK);
    assert_true(p2_Payload_equal(&got, &pl));
    size_t len, need = p2_Root_size(&r);
    uint8_t *buf = malloc(need);
    assert_int_equal(p2_Root_encode(&r, buf, need, &len), PBJ_OK);
    assert_int_equal(p2_Root_decode(&back, buf, len, &a, NULL), PBJ_OK);
    assert_true(p2_Root_equal(&r, &back));
    assert_int_equal(p2_e_sint64_get(&back), -2);
    assert_true(p2_e_double_get(&back) == 0.5);
    assert_int_equal(p2_e_msgs_count(&back), 1);
    assert_int_equal(p2_e_msgs_at(&back, 0, &got, &a), PBJ_OK);
    assert_int_equal(got.v, 9);
    write_file(out_path, buf, len);
    free(buf);
    pbj_arena_free(&a);
}

/* An extension decoded where the run did not know it sits in the unknown fields: the accessors find it there. */
static void extension_from_unknown_fields(void **state)
{
    (void)state;
    p2_Root r;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    p2_Root_init(&r);
    pbj_slice u = pbj_slice_make("\240\006\007\260\011\005", 6);   /* e_int32 (100): 7, then 150: 5 */
    r.pbj_unknown = &u;
    assert_true(p2_e_int32_has(&r));
    assert_int_equal(p2_e_int32_get(&r), 7);
    assert_int_equal(p2_e_int32_set(&r, 8, &a), PBJ_OK);               /* moves to pbj_ext */
    assert_true(r.pbj_unknown != &u);                                  /* a new record: u untouched */
    assert_int_equal(u.len, 6);
    assert_int_equal(r.pbj_unknown->len, 3);
    assert_memory_equal(r.pbj_unknown->data, "\260\011\005", 3);
    assert_int_equal(r.pbj_ext.len, 3);
    assert_int_equal(p2_e_int32_get(&r), 8);
    pbj_arena_free(&a);
}

/* A closed enum extension's values outside the enum are unknown fields, as protobuf keeps them: e_color: 99,
 * e_colors: 99, e_colors: GREEN, e_colors_packed: [RED, 99, GREEN]; then the same met in the unknown fields. */
static void extension_closed_enum(void **state)
{
    (void)state;
    static const char in[] = "\330\006\143\220\007\143\220\007\004\232\007\003\003\143\004";
    static const char unknown[] = "\330\006\143\220\007\143\230\007\143";   /* the values outside, in order */
    p2_Root r;
    pbj_arena a;
    uint8_t buf[64];
    size_t len;
    pbj_arena_init(&a, NULL, 0);
    assert_int_equal(p2_Root_decode(&r, (const uint8_t *)in, sizeof in - 1, &a, NULL), PBJ_OK);
    assert_false(p2_e_color_has(&r));
    assert_int_equal(p2_e_color_get(&r), p2_Color_RED);
    assert_int_equal(p2_e_colors_count(&r), 1);
    assert_int_equal(p2_e_colors_at(&r, 0), p2_Color_GREEN);
    assert_int_equal(p2_e_colors_packed_count(&r), 2);
    assert_int_equal(p2_e_colors_packed_at(&r, 1), p2_Color_GREEN);
    assert_int_equal(p2_e_colors_clear(&r, &a), PBJ_OK);             /* its unknown values stay */
    assert_int_equal(p2_e_color_set(&r, p2_Color_BLUE, &a), PBJ_OK);
    assert_int_equal(p2_Root_encode(&r, buf, sizeof buf, &len), PBJ_OK);
    assert_int_equal(len, 17 + sizeof unknown - 1);
    assert_memory_equal(buf, "\330\006\376\377\377\377\377\377\377\377\377\001\232\007\002\003\004", 17);
    assert_memory_equal(buf + 17, unknown, sizeof unknown - 1);
    p2_Root_init(&r);                                                  /* decoded by a run that did not know them */
    pbj_slice u = pbj_slice_make(in, sizeof in - 1);
    r.pbj_unknown = &u;
    assert_false(p2_e_color_has(&r));
    assert_int_equal(p2_e_colors_count(&r), 1);
    assert_int_equal(p2_e_colors_packed_count(&r), 2);
    assert_int_equal(p2_e_colors_packed_at(&r, 0), p2_Color_RED);
    assert_int_equal(p2_e_colors_packed_add(&r, p2_Color_GREEN, &a), PBJ_OK);
    assert_int_equal(p2_e_colors_packed_count(&r), 3);
    assert_int_equal(r.pbj_ext.len, 6);
    assert_memory_equal(r.pbj_ext.data, "\232\007\003\003\004\004", 6);
    assert_int_equal(pbj_unknown_bytes(r.pbj_unknown).len, 12);
    assert_memory_equal(r.pbj_unknown->data, "\330\006\143\220\007\143\220\007\004\230\007\143", 12);
    pbj_arena_free(&a);
}

static void message_set_items(void **state)
{
    (void)state;
    p2_Set set, back;
    p2_SetItem item, got;
    p2_Other other;
    uint8_t buf[64];
    size_t len;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    p2_Set_init(&set);
    p2_SetItem_init(&item);
    item.has_v = 1;
    item.v = -1;
    p2_Other_init(&other);
    other.has_s = 1;
    other.s = PBJ_STR("o");
    assert_int_equal(p2_SetItem_item_set(&set, &item, &a), PBJ_OK);
    assert_int_equal(p2_Other_other_set(&set, &other, &a), PBJ_OK);   /* type_id 5 goes before 1001 */
    assert_true(p2_SetItem_item_has(&set));
    assert_int_equal(p2_Set_encode(&set, buf, sizeof buf, &len), PBJ_OK);
    write_file(set_path, buf, len);
    assert_int_equal(p2_Set_decode(&back, buf, len, &a, NULL), PBJ_OK);
    assert_int_equal(p2_SetItem_item_get(&back, &got, &a), PBJ_OK);
    assert_int_equal(got.v, -1);
    assert_int_equal(p2_Other_other_clear(&back, &a), PBJ_OK);
    assert_false(p2_Other_other_has(&back));
    assert_true(p2_SetItem_item_has(&back));
    pbj_arena_free(&a);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_read_when_absent),
        cmocka_unit_test(required_fields),
        cmocka_unit_test(extensions_typed),
        cmocka_unit_test(message_set_items),
        cmocka_unit_test(extension_from_unknown_fields),
        cmocka_unit_test(extension_closed_enum),
    };
    if (argc < 3) return fprintf(stderr, "usage: p2_api OUT.bin SET.bin\n"), 2;
    out_path = argv[1];
    set_path = argv[2];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
