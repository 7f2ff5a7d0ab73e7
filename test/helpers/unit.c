/* unit.c: the building helpers one by one on test/helpers/h.proto and h2.proto: setters copy, add (copies), mutable (values that never move),
 * map put and get in key order, sort_maps, clear, merge of oneofs, proto2 defaults and extensions, encode_append,
 * the service tables, the stream runtime's corner cases, the C-string and array forms of set and add, and whole
 * files read into a pbj_buf (argv[1]: a scratch file's path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "h.pb.h"
#include "h2.pb.h"
#include "h3.pb.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNIT_ASAN 1
#endif
#endif

static pbj_arena arena;

static int setup(void **state)
{
    (void)state;
    pbj_arena_init(&arena, NULL, 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    pbj_arena_free(&arena);
    return 0;
}

/* m encoded, decoded again: equal to m. */
static void assert_round_trip(h_Root *m)
{
    pbj_buf buf = {0};
    assert_int_equal(h_Root_encode_append(m, &buf), PBJ_OK);
    h_Root back;
    assert_int_equal(h_Root_decode(&back, buf.data, buf.len, &arena, NULL), PBJ_OK);
    assert_true(h_Root_equal(m, &back));
    pbj_buf_free(&buf);
}

static void setters_copy_into_the_arena(void **state)
{
    (void)state;
    h_Root m;
    h_Root_init(&m);
    char text[] = "temporary";
    h_Root_set_id(&m, 5);
    assert_int_equal(h_Root_set_title(&m, text, strlen(text), &arena), PBJ_OK);
    assert_int_equal(h_Root_set_blob(&m, "\0\1\2", 3, &arena), PBJ_OK);
    h_Root_set_count(&m, 0);
    memset(text, 'x', sizeof text - 1);                /* the caller's bytes change: the field does not */
    assert_int_equal(m.id, 5);
    assert_true(pbj_slice_eq(m.title, pbj_slice_cstr("temporary")));
    assert_ptr_not_equal(m.title.data, (const uint8_t *)text);
    assert_int_equal(m.blob.len, 3);
    assert_true(m.has_count);                          /* optional: present even at zero */
    assert_int_equal(h_Root_set_title(&m, "\xff", 1, &arena), PBJ_ERR_UTF8);   /* proto3 strings are checked */
    assert_true(pbj_slice_eq(m.title, pbj_slice_cstr("temporary")));
    assert_round_trip(&m);
}

static void add_appends_copies(void **state)
{
    (void)state;
    h_Root m;
    h_Root_init(&m);
    for (int i = 0; i < 100; i++) assert_int_equal(h_Root_add_nums(&m, i, &arena), PBJ_OK);
    char tag[] = "t";
    for (int i = 0; i < 10; i++) assert_int_equal(h_Root_add_tags(&m, tag, 1, &arena), PBJ_OK);
    tag[0] = 'x';                                      /* copied: the caller's bytes may change */
    assert_int_equal(h_Root_add_tags(&m, "\xff", 1, &arena), PBJ_ERR_UTF8);
    h_Leaf leaf;
    h_Leaf_init(&leaf);
    assert_int_equal(h_Leaf_set_name(&leaf, "a", 1, &arena), PBJ_OK);
    assert_int_equal(h_Leaf_put_scores(&leaf, PBJ_STR("s"), 1, &arena), PBJ_OK);
    assert_int_equal(h_Root_add_leaves(&m, &leaf, &arena), PBJ_OK);
    assert_int_equal(h_Leaf_put_scores(&leaf, PBJ_STR("s"), 2, &arena), PBJ_OK);   /* a deep copy: m's keeps 1 */
    assert_int_equal(h_Root_add_leaves(&m, NULL, &arena), PBJ_OK);                 /* NULL: an empty one */
    assert_int_equal(h_Root_add_leaves(&m, &m.leaves.data[0], &arena), PBJ_OK);    /* an element of the array itself */
    assert_int_equal(m.nums.count, 100);
    for (int i = 0; i < 100; i++) assert_int_equal(m.nums.data[i], i);
    assert_int_equal(m.tags.count, 10);
    assert_true(pbj_slice_eq(m.tags.data[9], PBJ_STR("t")));
    assert_int_equal(m.leaves.count, 3);
    assert_true(pbj_slice_eq(m.leaves.data[0].name, PBJ_STR("a")) && pbj_slice_eq(m.leaves.data[2].name, PBJ_STR("a")));
    assert_int_equal(m.leaves.data[0].scores.data[0].value, 1);
    assert_int_equal(m.leaves.data[1].name.len, 0);
    assert_round_trip(&m);
}

/* add and put grow arrays that decode made, whose room is exactly their count: the elements after them stay. */
static void add_grows_decoded_arrays(void **state)
{
    (void)state;
    h_Root m, back;
    h_Root_init(&m);
    h_Leaf leaf;
    h_Leaf_init(&leaf);
    leaf.name = PBJ_STR("n");
    for (int i = 0; i < 5; i++) assert_int_equal(h_Root_add_leaves(&m, &leaf, &arena), PBJ_OK);
    assert_int_equal(h_Root_put_labels(&m, PBJ_STR("k"), PBJ_STR("v"), &arena), PBJ_OK);
    pbj_buf buf = {0};
    assert_int_equal(h_Root_encode_append(&m, &buf), PBJ_OK);
    assert_int_equal(h_Root_decode(&back, buf.data, buf.len, &arena, NULL), PBJ_OK);
    assert_int_equal(h_Root_add_leaves(&back, NULL, &arena), PBJ_OK);   /* was written past the 5 decoded */
    assert_int_equal(h_Root_put_labels(&back, PBJ_STR("a"), PBJ_STR("w"), &arena), PBJ_OK);
    assert_int_equal(back.leaves.count, 6);
    for (int i = 0; i < 5; i++) assert_true(pbj_slice_eq(back.leaves.data[i].name, PBJ_STR("n")));   /* names after the array */
    assert_int_equal(back.labels.count, 2);
    assert_true(pbj_slice_eq(back.labels.data[1].value, PBJ_STR("v")));
    assert_round_trip(&back);
    pbj_buf_free(&buf);
}

static void mutable_makes_once(void **state)
{
    (void)state;
    h_Root m;
    h_Root_init(&m);
    h_Leaf *leaf = h_Root_mutable_leaf(&m, &arena);
    assert_non_null(leaf);
    assert_ptr_equal(h_Root_mutable_leaf(&m, &arena), leaf);
    h_Leaf *node = h_Root_mutable_node(&m, &arena);     /* a oneof's message: sets the case */
    assert_int_equal(m.choice_case, h_Root_choice_node);
    assert_ptr_equal(h_Root_mutable_node(&m, &arena), node);
    assert_int_equal(h_Root_set_text(&m, "x", 1, &arena), PBJ_OK);   /* another case replaces it */
    assert_int_equal(m.choice_case, h_Root_choice_text);
    h_Leaf *again = h_Root_mutable_node(&m, &arena);
    assert_int_equal(m.choice_case, h_Root_choice_node);
    assert_int_equal(again->name.len, 0);
    assert_round_trip(&m);
}

static void put_keeps_keys_sorted(void **state)
{
    (void)state;
    h_Root m;
    h_Root_init(&m);
    const int32_t keys[] = {50, -3, 7, 1000, 0, 7, -90};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        h_Leaf *v = h_Root_mutable_by_id(&m, keys[i], &arena);   /* a map of messages: the value, made when absent */
        assert_non_null(v);
        v->name = pbj_slice_make("v", 1);
    }
    assert_int_equal(m.by_id.count, 6);                /* 7 twice: one entry */
    for (size_t i = 1; i < m.by_id.count; i++) assert_true(m.by_id.data[i - 1].key < m.by_id.data[i].key);
    h_Leaf *found = NULL;
    assert_true(h_Root_get_by_id(&m, 1000, &found));
    assert_ptr_equal(found, h_Root_mutable_by_id(&m, 1000, &arena));
    assert_false(h_Root_get_by_id(&m, 8, &found));
    char key[] = "zeta";
    assert_int_equal(h_Root_put_labels(&m, pbj_slice_cstr(key), PBJ_STR("1"), &arena), PBJ_OK);
    assert_int_equal(h_Root_put_labels(&m, PBJ_STR("alpha"), PBJ_STR("2"), &arena), PBJ_OK);
    assert_int_equal(h_Root_put_labels(&m, PBJ_STR(""), PBJ_STR("3"), &arena), PBJ_OK);
    char value[] = "4";
    assert_int_equal(h_Root_put_labels(&m, PBJ_STR("alpha"), pbj_slice_cstr(value), &arena), PBJ_OK);   /* replaced */
    key[0] = 'Z';                                      /* a new key and a value are copied into the arena */
    value[0] = '5';
    assert_true(pbj_slice_eq(m.labels.data[2].key, PBJ_STR("zeta")));
    pbj_slice got = {0};
    assert_true(h_Root_get_labels(&m, PBJ_STR("alpha"), &got));
    assert_true(pbj_slice_eq(got, PBJ_STR("4")));
    assert_false(h_Root_get_labels(&m, PBJ_STR("Zeta"), &got));
    assert_int_equal(m.labels.count, 3);
    assert_round_trip(&m);                             /* sorted: the decoded copy is equal */
}

/* Arrays the text and JSON readers and merge made grow by add, put and mutable too: what follows them stays. */
static void add_grows_read_and_merged_arrays(void **state)
{
    (void)state;
    static const char text[] = "leaves { name: \"a\" } leaves { name: \"b\" } leaves { name: \"c\" } labels { key: \"k\" value: \"v\" }";
    static const char json[] = "{\"leaves\": [{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"c\"}], \"labels\": {\"k\": \"v\"}}";
    h_Root read[3];
    assert_int_equal(h_Root_from_text(&read[0], text, sizeof text - 1, &arena, NULL), PBJ_OK);
    assert_int_equal(h_Root_from_json(&read[1], json, sizeof json - 1, &arena, NULL), PBJ_OK);
    assert_int_equal(h_Root_copy(&read[2], &read[0], &arena), PBJ_OK);
    for (int r = 0; r < 3; r++) {
        h_Root *m = &read[r];
        for (int i = 0; i < 9; i++) assert_int_equal(h_Root_add_leaves(m, NULL, &arena), PBJ_OK);
        assert_int_equal(h_Root_put_labels(m, PBJ_STR("a"), PBJ_STR("w"), &arena), PBJ_OK);
        assert_non_null(h_Root_mutable_by_id(m, 3, &arena));
        assert_int_equal(m->leaves.count, 12);
        assert_true(pbj_slice_eq(m->leaves.data[2].name, PBJ_STR("c")));
        assert_int_equal(m->labels.count, 2);
        assert_true(pbj_slice_eq(m->labels.data[1].value, PBJ_STR("v")));
        assert_round_trip(m);
    }
}

/* A message that mutable gives never moves: a write through it after the map, and the array holding its
 * parent, grew many times is in the encoding. */
/* put and mutable refuse a string key or value that must be UTF-8 and is not (proto3, VERIFY), adding nothing, as
 * decode refuses its bytes; set and add of such a string extension too; proto2's and NONE's strings go as given. */
static void put_checks_utf8(void **state)
{
    (void)state;
    h_Root m, back;
    h_Root_init(&m);
    assert_int_equal(h_Root_put_labels(&m, PBJ_STR("\xff"), PBJ_STR("v"), &arena), PBJ_ERR_UTF8);
    assert_int_equal(h_Root_put_labels(&m, PBJ_STR("k"), PBJ_STR("a\xc0\x80"), &arena), PBJ_ERR_UTF8);   /* overlong NUL */
    assert_int_equal(m.labels.count, 0);
    assert_null(h_Root_mutable_by_name(&m, PBJ_STR("\xed\xa0\x80"), &arena));                          /* a surrogate */
    assert_int_equal(m.by_name.count, 0);
    assert_int_equal(h_Root_put_labels(&m, PBJ_STR("k\xc3\xa9"), PBJ_STR("\xe2\x82\xac"), &arena), PBJ_OK);
    assert_non_null(h_Root_mutable_by_name(&m, PBJ_STR("\xc3\xa9"), &arena));
    assert_round_trip(&m);
    /* decode refuses the entries put refused: labels { key: "\xff" value: "v" }, then by_name { key: "\xed\xa0\x80" } */
    static const uint8_t bad_key[] = {0x52, 6, 0x0a, 1, 0xff, 0x12, 1, 'v'}, bad_name[] = {0x7a, 5, 0x0a, 3, 0xed, 0xa0, 0x80};
    assert_int_equal(h_Root_decode(&back, bad_key, sizeof bad_key, &arena, NULL), PBJ_ERR_UTF8);
    assert_int_equal(h_Root_decode(&back, bad_name, sizeof bad_name, &arena, NULL), PBJ_ERR_UTF8);
    h2_Old old;
    h2_Old_init(&old);
    assert_int_equal(h2_Old_put_loose(&old, PBJ_STR("\xff"), PBJ_STR("\xfe"), &arena), PBJ_OK);   /* proto2 */
    assert_int_equal(h3_checked_set(&old, PBJ_STR("\xff"), &arena), PBJ_ERR_UTF8);
    assert_false(h3_checked_has(&old));
    assert_int_equal(h3_checked_set(&old, PBJ_STR("ok"), &arena), PBJ_OK);
    assert_int_equal(h3_unchecked_set(&old, PBJ_STR("\xff"), &arena), PBJ_OK);                      /* NONE */
    assert_true(h3_checked_has(&old) && h3_unchecked_has(&old));
}

static void mutable_values_never_move(void **state)
{
    (void)state;
    h_Root m;
    h_Root_init(&m);
    h_Leaf *value = h_Root_mutable_by_id(&m, 500, &arena);
    assert_int_equal(h_Root_add_leaves(&m, NULL, &arena), PBJ_OK);
    h_Leaf *inner = h_Leaf_mutable_child(&m.leaves.data[0], &arena);   /* a message field of an element */
    assert_non_null(value);
    assert_non_null(inner);
    for (int32_t k = 0; k < 1000; k++) {               /* entries before and after 500: the array moves and shifts */
        assert_non_null(h_Root_mutable_by_id(&m, k % 2 ? k : -k, &arena));
        assert_int_equal(h_Root_add_leaves(&m, NULL, &arena), PBJ_OK);
    }
    assert_int_equal(h_Leaf_set_name(value, "late", 4, &arena), PBJ_OK);
    assert_int_equal(h_Leaf_set_name(inner, "deep", 4, &arena), PBJ_OK);
    pbj_buf buf = {0};
    assert_int_equal(h_Root_encode_append(&m, &buf), PBJ_OK);
    h_Root back;
    assert_int_equal(h_Root_decode(&back, buf.data, buf.len, &arena, NULL), PBJ_OK);
    h_Leaf *got = NULL;
    assert_true(h_Root_get_by_id(&back, 500, &got));
    assert_true(pbj_slice_eq(got->name, PBJ_STR("late")));
    assert_true(pbj_slice_eq(back.leaves.data[0].child->name, PBJ_STR("deep")));
    assert_true(h_Root_equal(&m, &back));
    pbj_buf_free(&buf);
}

#ifdef UNIT_ASAN
#include <sanitizer/asan_interface.h>
/* Under ASan an array given up when it grows is poisoned (a pointer kept into it is caught); reset unpoisons. */
static void grown_arrays_are_poisoned(void **state)
{
    (void)state;
    h_Root m;
    h_Root_init(&m);
    assert_int_equal(h_Root_add_leaves(&m, NULL, &arena), PBJ_OK);
    const h_Leaf *first = &m.leaves.data[0];
    assert_false(__asan_address_is_poisoned(first));
    for (int i = 0; i < 10; i++) assert_int_equal(h_Root_add_leaves(&m, NULL, &arena), PBJ_OK);
    assert_true(__asan_address_is_poisoned(first));    /* where the first element was */
    assert_false(__asan_address_is_poisoned(&m.leaves.data[0]));
    pbj_arena_reset(&arena);
    assert_false(__asan_address_is_poisoned(first));
}
#endif

static void sort_maps_sorts_nested_maps(void **state)
{
    (void)state;
    h_Root m;
    h_Root_init(&m);
    h_Root_LabelsEntry labels[3] = {{PBJ_STR("b"), PBJ_STR("1"), NULL}, {PBJ_STR("a"), PBJ_STR("2"), NULL},
                                    {PBJ_STR("b"), PBJ_STR("3"), NULL}};
    h_Leaf_ScoresEntry scores[2] = {{PBJ_STR("y"), 1, NULL}, {PBJ_STR("x"), 2, NULL}};
    m.labels.data = labels;
    m.labels.count = 3;
    assert_int_equal(h_Root_add_leaves(&m, NULL, &arena), PBJ_OK);
    h_Leaf *leaf = &m.leaves.data[0];
    leaf->scores.data = scores;
    leaf->scores.count = 2;
    assert_int_equal(h_Root_sort_maps(&m, &arena), PBJ_OK);
    assert_int_equal(m.labels.count, 2);               /* the last of equal keys kept */
    assert_true(pbj_slice_eq(labels[0].key, PBJ_STR("a")) && pbj_slice_eq(labels[1].value, PBJ_STR("3")));
    assert_true(pbj_slice_eq(scores[0].key, PBJ_STR("x")));
    assert_round_trip(&m);
}

/* sort_maps orders int32 keys as numbers (signed), an entry without a value keeps none, and a hand-set map
 * merged into another copies its string keys into the arena. */
static void sort_maps_signed_keys_and_merged_keys(void **state)
{
    (void)state;
    h_Root m, into;
    h_Root_init(&m);
    h_Root_init(&into);
    h_Root_ByIdEntry ids[3] = {{5, NULL, NULL}, {-3, NULL, NULL}, {0, NULL, NULL}};
    m.by_id.data = ids;
    m.by_id.count = 3;
    assert_int_equal(h_Root_sort_maps(&m, &arena), PBJ_OK);
    assert_int_equal(ids[0].key, -3);                  /* unsigned order would put -3 last */
    assert_int_equal(ids[1].key, 0);
    assert_int_equal(ids[2].key, 5);
    char key[] = "k";
    h_Root_LabelsEntry label = {pbj_slice_make((const uint8_t *)key, 1), PBJ_STR("v"), NULL};
    m.labels.data = &label;
    m.labels.count = 1;
    assert_int_equal(h_Root_merge(&into, &m, &arena), PBJ_OK);
    key[0] = 'z';                                      /* the merged key is a copy */
    pbj_slice got;
    assert_true(h_Root_get_labels(&into, PBJ_STR("k"), &got));
    assert_true(pbj_slice_eq(got, PBJ_STR("v")));
    assert_int_equal(into.by_id.count, 3);
    assert_int_equal(into.by_id.data[0].key, -3);
    assert_null(into.by_id.data[0].value);
}

static void clear_empties(void **state)
{
    (void)state;
    h2_Old o;
    h2_Old_init(&o);
    h2_Old_set_level(&o, 3);
    assert_int_equal(h2_Old_set_note(&o, "\xff", 1, &arena), PBJ_OK);   /* proto2 strings are bytes */
    h2_Old_clear(&o);
    assert_int_equal(o.level, 7);                      /* the default again */
    assert_false(o.has_level);
    assert_true(pbj_slice_eq(o.note, PBJ_STR("hi")));
}

/* merge equals decoding the two encodings one after the other. */
static void assert_merge_is_decode(h_Root *a, h_Root *b)
{
    pbj_buf both = {0};
    assert_int_equal(h_Root_encode_append(a, &both), PBJ_OK);
    assert_int_equal(h_Root_encode_append(b, &both), PBJ_OK);
    h_Root want, got;
    assert_int_equal(h_Root_decode(&want, both.data, both.len, &arena, NULL), PBJ_OK);
    assert_int_equal(h_Root_copy(&got, a, &arena), PBJ_OK);
    assert_int_equal(h_Root_merge(&got, b, &arena), PBJ_OK);
    assert_true(h_Root_equal(&got, &want));
    pbj_buf_free(&both);
}

/* merge replaces a key's value message in place: the one mutable gave stays the key's. */
static void merge_keeps_mutable_values(void **state)
{
    (void)state;
    h_Root a, b;
    h_Root_init(&a);
    h_Root_init(&b);
    h_Leaf *held = h_Root_mutable_by_id(&a, 1, &arena);
    assert_int_equal(h_Leaf_set_name(held, "old", 3, &arena), PBJ_OK);
    assert_int_equal(h_Leaf_set_name(h_Root_mutable_by_id(&b, 1, &arena), "new", 3, &arena), PBJ_OK);
    assert_merge_is_decode(&a, &b);
    assert_int_equal(h_Root_merge(&a, &b, &arena), PBJ_OK);
    assert_true(pbj_slice_eq(held->name, PBJ_STR("new")));
    assert_int_equal(h_Leaf_set_name(held, "later", 5, &arena), PBJ_OK);
    h_Leaf *got = NULL;
    assert_true(h_Root_get_by_id(&a, 1, &got));
    assert_ptr_equal(got, held);
}

static void merge_oneofs_maps_and_extensions(void **state)
{
    (void)state;
    h_Root a, b;
    h_Root_init(&a);
    h_Root_init(&b);
    assert_int_equal(h_Leaf_set_name(h_Root_mutable_node(&a, &arena), "n", 1, &arena), PBJ_OK);
    h_Root_mutable_node(&b, &arena)->scores.count = 0;
    assert_int_equal(h_Root_put_labels(&b, PBJ_STR("k"), PBJ_STR(""), &arena), PBJ_OK);
    assert_int_equal(h_Root_put_labels(&a, PBJ_STR("k"), PBJ_STR("old"), &arena), PBJ_OK);
    assert_merge_is_decode(&a, &b);                    /* the same case: merged; the key's entry replaced */
    h_Root_set_kind(&b, h_Kind_KIND_A);
    assert_merge_is_decode(&a, &b);                    /* another case: replaced */
    h2_Old *oa = h_Root_mutable_old(&a, &arena), *ob = h_Root_mutable_old(&b, &arena);
    h2_Old_set_level(ob, 0);
    assert_int_equal(h2_tip_set(oa, 1, &arena), PBJ_OK);
    assert_int_equal(h2_tip_set(ob, 2, &arena), PBJ_OK);
    assert_int_equal(h2_notes_add(oa, PBJ_STR("x"), &arena), PBJ_OK);
    assert_int_equal(h2_notes_add(ob, PBJ_STR("y"), &arena), PBJ_OK);
    h2_Old_Item item;
    h2_Old_Item_init(&item);
    h2_Old_Item_set_n(&item, 4);
    assert_int_equal(h2_Old_add_item(ob, &item, &arena), PBJ_OK);
    assert_merge_is_decode(&a, &b);                    /* singular extensions replace, repeated ones append */
    h_Root got;
    assert_int_equal(h_Root_copy(&got, &a, &arena), PBJ_OK);
    assert_int_equal(h_Root_merge(&got, &b, &arena), PBJ_OK);
    assert_int_equal(h2_tip_get(got.old), 2);
    assert_int_equal(h2_notes_count(got.old), 2);
    assert_true(got.old->has_level && got.old->level == 0);
}

static void service_tables(void **state)
{
    (void)state;
    assert_string_equal(h_Shop_service.full_name, "h.Shop");
    assert_int_equal(h_Shop_service.count, 4);
    const pbj_method *m = h_Shop_service.methods;
    assert_string_equal(m[1].path, "/h.Shop/Watch");
    assert_string_equal(m[1].request, "h.Leaf");
    assert_string_equal(m[1].response, "h.Root");
    assert_true(!m[0].client_streaming && !m[0].server_streaming && !m[1].client_streaming && m[1].server_streaming);
    assert_true(m[2].client_streaming && !m[2].server_streaming && m[3].client_streaming && m[3].server_streaming);
    assert_int_equal(h_Empty_service.count, 0);
}

static pbj_status fail_write(void *ctx, const uint8_t *p, size_t n)
{
    (void)ctx, (void)p, (void)n;
    return PBJ_ERR_BUFFER;
}

static pbj_status fail_read(void *ctx, uint8_t *p, size_t cap, size_t *got)
{
    (void)ctx, (void)p, (void)cap;
    *got = 0;
    return PBJ_ERR_TRUNCATED;
}

static void stream_corners(void **state)
{
    (void)state;
    h_Leaf leaf;
    h_Leaf_init(&leaf);
    pbj_sink out;
    pbj_sink_callback(&out, fail_write, NULL);         /* a write error is returned */
    assert_int_equal(h_Leaf_write_delimited(&leaf, &out), PBJ_ERR_BUFFER);
    leaf.child = &leaf;                                /* a cycle: the size pass fails before a byte is written */
    assert_int_equal(h_Leaf_write_delimited(&leaf, &out), PBJ_ERR_DEPTH);
    pbj_buf buf = {0};
    assert_int_equal(h_Leaf_encode_append(&leaf, &buf), PBJ_ERR_DEPTH);
    assert_int_equal(buf.len, 0);
    pbj_buf_free(&buf);
    leaf.child = NULL;
    pbj_sink_free(&out);
    pbj_source in;
    pbj_source_callback(&in, fail_read, NULL);         /* a read error stops the stream and sticks */
    assert_false(pbj_source_more(&in));
    assert_int_equal(in.status, PBJ_ERR_TRUNCATED);
    assert_int_equal(h_Leaf_read_delimited(&leaf, &in, &arena, NULL), PBJ_ERR_TRUNCATED);
    pbj_source_free(&in);
    const uint8_t empty_records[] = {0, 0, 0x80};       /* two empty messages, then a varint cut short */
    pbj_source_memory(&in, empty_records, sizeof empty_records);
    assert_int_equal(h_Leaf_read_delimited(&leaf, &in, &arena, NULL), PBJ_OK);
    assert_int_equal(h_Leaf_read_delimited(&leaf, &in, &arena, NULL), PBJ_OK);
    assert_true(pbj_source_more(&in));
    assert_int_equal(h_Leaf_read_delimited(&leaf, &in, &arena, NULL), PBJ_ERR_TRUNCATED);
    assert_false(pbj_source_more(&in));
    const uint8_t bad[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    pbj_source_memory(&in, bad, sizeof bad);
    assert_int_equal(h_Leaf_read_delimited(&leaf, &in, &arena, NULL), PBJ_ERR_VARINT);
    pbj_source_memory(&in, NULL, 0);                   /* an empty stream has no record */
    assert_false(pbj_source_more(&in));
    assert_int_equal(in.status, PBJ_OK);
    const uint8_t small[] = {2, 0x0a, 0x00, 1};
    pbj_source_memory(&in, small, sizeof small);
    in.max_length = 1;                                 /* a record longer than max_length */
    assert_int_equal(h_Leaf_read_delimited(&leaf, &in, &arena, NULL), PBJ_ERR_TOO_LONG);
    pbj_sink_memory(&out);
    assert_int_equal(pbj_sink_put(&out, "\x0a\x00", 2), PBJ_OK);
    assert_int_equal(out.buf.len, 3);
    assert_memory_equal(out.buf.data, "\x02\x0a\x00", 3);
    pbj_sink_free(&out);
}

/* The C-string forms of string setters and add: strlen's bytes, copied and checked as the others. */
static void cstring_forms(void **state)
{
    (void)state;
    h_Root m;
    h_Root_init(&m);
    char text[] = "temporary";
    assert_int_equal(h_Root_set_title_str(&m, text, &arena), PBJ_OK);
    memset(text, 'x', sizeof text - 1);                /* copied: the caller's bytes may change */
    assert_true(pbj_slice_eq(m.title, PBJ_STR("temporary")));
    assert_int_equal(h_Root_set_title_str(&m, "\xff", &arena), PBJ_ERR_UTF8);
    assert_int_equal(h_Root_set_text_str(&m, "in a oneof", &arena), PBJ_OK);
    assert_int_equal(m.choice_case, h_Root_text_tag);
    assert_true(pbj_slice_eq(m.choice.text, PBJ_STR("in a oneof")));
    assert_int_equal(h_Root_add_tags_str(&m, "a", &arena), PBJ_OK);
    assert_int_equal(h_Root_add_tags_str(&m, "", &arena), PBJ_OK);
    assert_int_equal(h_Root_add_tags_str(&m, "\xc3", &arena), PBJ_ERR_UTF8);
    assert_int_equal(m.tags.count, 2);
    assert_true(pbj_slice_eq(m.tags.data[0], PBJ_STR("a")) && m.tags.data[1].len == 0);
    h_Leaf *leaf = h_Root_mutable_leaf(&m, &arena);
    assert_non_null(leaf);
    assert_int_equal(h_Leaf_set_name_str(leaf, "leaf", &arena), PBJ_OK);
    assert_round_trip(&m);
}

/* add_many appends a whole array at once: to nothing, to what add made, and to a decoded array of exact room. */
static void add_many_appends_arrays(void **state)
{
    (void)state;
    h_Root m;
    h_Root_init(&m);
    int32_t values[1000];
    for (int i = 0; i < 1000; i++) values[i] = i * 7 - 3000;
    assert_int_equal(h_Root_add_nums_many(&m, values, 0, &arena), PBJ_OK);
    assert_int_equal(m.nums.count, 0);
    assert_int_equal(h_Root_add_nums(&m, 42, &arena), PBJ_OK);
    assert_int_equal(h_Root_add_nums_many(&m, values, 3, &arena), PBJ_OK);
    assert_int_equal(h_Root_add_nums_many(&m, values, 1000, &arena), PBJ_OK);
    assert_int_equal(m.nums.count, 1004);
    assert_int_equal(m.nums.data[0], 42);
    for (int i = 0; i < 3; i++) assert_int_equal(m.nums.data[1 + i], values[i]);
    for (int i = 0; i < 1000; i++) assert_int_equal(m.nums.data[4 + i], values[i]);
    pbj_buf buf = PBJ_BUF_INIT;
    assert_int_equal(h_Root_encode_append(&m, &buf), PBJ_OK);
    h_Root back;
    assert_int_equal(h_Root_decode(&back, buf.data, buf.len, &arena, NULL), PBJ_OK);
    assert_int_equal(h_Root_add_nums_many(&back, values + 10, 2, &arena), PBJ_OK);   /* a decoded array grows */
    assert_int_equal(back.nums.count, 1006);
    assert_int_equal(back.nums.data[1003], values[999]);
    assert_int_equal(back.nums.data[1004], values[10]);
    assert_int_equal(back.nums.data[1005], values[11]);
    pbj_buf_free(&buf);
    assert_round_trip(&back);
}

static const char *scratch_path = "pbj_helpers_unit.bin";

/* A whole file read into a pbj_buf, from a FILE * and by path, decodes to the message written; failures are PBJ_ERR_IO. */
static void buf_reads_whole_files(void **state)
{
    (void)state;
    h_Root m;
    h_Root_init(&m);
    for (int i = 0; i < 3000; i++) assert_int_equal(h_Root_add_nums(&m, i * 1000, &arena), PBJ_OK);   /* past a block */
    assert_int_equal(h_Root_set_title_str(&m, "file", &arena), PBJ_OK);
    pbj_buf enc;
    pbj_buf_init(&enc);
    assert_int_equal(h_Root_encode_append(&m, &enc), PBJ_OK);
    assert_true(enc.len > 2 * PBJ_STREAM_BLOCK);
    FILE *f = fopen(scratch_path, "w+b");
    assert_non_null(f);
    assert_int_equal(fwrite(enc.data, 1, enc.len, f), enc.len);
    rewind(f);
    pbj_buf in = PBJ_BUF_INIT;
    assert_int_equal(pbj_buf_read_file(&in, f), PBJ_OK);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(in.len, enc.len);
    assert_memory_equal(in.data, enc.data, enc.len);
    h_Root back;
    assert_int_equal(h_Root_decode(&back, in.data, in.len, &arena, NULL), PBJ_OK);
    assert_true(h_Root_equal(&m, &back));
    assert_int_equal(pbj_buf_read_path(&in, scratch_path), PBJ_OK);   /* appends */
    assert_int_equal(in.len, 2 * enc.len);
    assert_memory_equal(in.data + enc.len, enc.data, enc.len);
    assert_int_equal(remove(scratch_path), 0);
    assert_int_equal(pbj_buf_read_path(&in, scratch_path), PBJ_ERR_IO);   /* gone */
    assert_int_equal(pbj_buf_read_path(&in, "test/helpers"), PBJ_ERR_IO);   /* a directory opens, but does not read */
    assert_int_equal(in.len, 2 * enc.len);
    pbj_buf_free(&in);
    pbj_buf_free(&enc);
    assert_null(in.data);
}

/* An enum's table: E_name gives a number's first-declared name, E_from_name every name's number; fields point
 * to their enum's table. */
static void enum_tables_look_up(void **state)
{
    (void)state;
    static const struct { const char *name; int32_t number; } named[] = {
        {"ODD_ONE", 1}, {"ODD_UNO", 1}, {"ODD_NEG", -5}, {"ODD_TWO", 2}, {"ODD_LOW", INT32_MIN}, {"ODD_THREE", 3},
        {"ODD_BIG", 1000000}, {"ODD", 7}, {"ODD_ZERO", 0},
    };
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        int32_t v = 0;
        assert_true(h2_Odd_from_name(named[i].name, strlen(named[i].name), &v));
        assert_int_equal(v, named[i].number);
    }
    assert_string_equal(h2_Odd_name(1), "ODD_ONE");
    assert_string_equal(h2_Odd_name(INT32_MIN), "ODD_LOW");
    assert_string_equal(h2_Odd_name(-5), "ODD_NEG");
    assert_string_equal(h2_Odd_name(3), "ODD_THREE");
    assert_string_equal(h2_Odd_name(7), "ODD");
    assert_string_equal(h2_Odd_name(0), "ODD_ZERO");
    assert_string_equal(h2_Odd_name(1000000), "ODD_BIG");
    static const int32_t unnamed[] = {-1, 4, 6, 8, -4, -6, 999999, 1000001, INT32_MAX, INT32_MIN + 1};
    for (size_t i = 0; i < sizeof unnamed / sizeof *unnamed; i++) assert_null(h2_Odd_name(unnamed[i]));
    static const char *const not_names[] = {"", "OD", "ODD_", "ODD_ON", "ODD_ONEE", "odd", "ODD_ZZZ", "A"};
    int32_t v = 99;
    for (size_t i = 0; i < sizeof not_names / sizeof *not_names; i++)
        assert_false(h2_Odd_from_name(not_names[i], strlen(not_names[i]), &v));
    assert_false(h2_Odd_from_name("ODD\0", 4, &v));   /* a NUL in the input is not the name's end */
    assert_int_equal(v, 99);

    const pbj_enum *e = &h2_Odd__enum;
    assert_int_equal(e->count, 9);
    assert_int_equal(e->flags, PBJ_E_CLOSED);
    assert_string_equal(e->pool + e->name, "h2.Odd");
    for (uint32_t i = 1; i < e->count; i++) assert_true(e->values[i - 1].number <= e->values[i].number);
    const pbj_field *f = pbj_table_find(&h2_Odds__table, 1);
    assert_ptr_equal(f->en, e);
    const pbj_field *entry = pbj_table_find(&h2_Odds__table, 2);
    assert_null(entry->en);
    assert_ptr_equal(pbj_table_find(entry->sub, 2)->en, e);
    assert_int_equal(h_Kind__enum.flags, 0);   /* proto3: open */
    assert_string_equal(h_Kind_name(1), "KIND_A");
    assert_null(h_Kind_name(2));
    assert_true(h_Kind_from_name("KIND_NONE", 9, &v) && v == 0);
}

int main(int argc, char **argv)
{
    if (argc > 1) scratch_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(setters_copy_into_the_arena, setup, teardown),
        cmocka_unit_test_setup_teardown(add_appends_copies, setup, teardown),
        cmocka_unit_test_setup_teardown(add_grows_decoded_arrays, setup, teardown),
        cmocka_unit_test_setup_teardown(add_grows_read_and_merged_arrays, setup, teardown),
        cmocka_unit_test_setup_teardown(mutable_makes_once, setup, teardown),
        cmocka_unit_test_setup_teardown(put_keeps_keys_sorted, setup, teardown),
        cmocka_unit_test_setup_teardown(put_checks_utf8, setup, teardown),
        cmocka_unit_test_setup_teardown(mutable_values_never_move, setup, teardown),
        cmocka_unit_test_setup_teardown(merge_keeps_mutable_values, setup, teardown),
#ifdef UNIT_ASAN
        cmocka_unit_test_setup_teardown(grown_arrays_are_poisoned, setup, teardown),
#endif
        cmocka_unit_test_setup_teardown(sort_maps_sorts_nested_maps, setup, teardown),
        cmocka_unit_test_setup_teardown(sort_maps_signed_keys_and_merged_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(clear_empties, setup, teardown),
        cmocka_unit_test_setup_teardown(merge_oneofs_maps_and_extensions, setup, teardown),
        cmocka_unit_test_setup_teardown(service_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(stream_corners, setup, teardown),
        cmocka_unit_test_setup_teardown(cstring_forms, setup, teardown),
        cmocka_unit_test_setup_teardown(add_many_appends_arrays, setup, teardown),
        cmocka_unit_test_setup_teardown(buf_reads_whole_files, setup, teardown),
        cmocka_unit_test_setup_teardown(enum_tables_look_up, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
