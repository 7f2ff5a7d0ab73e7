/* reflect.c: rt/pbj_reflect.h on test/helpers/h.proto, h2.proto and h4.proto (pbj.by_value): a generic logger written with reflection
 * only, fields set through their tables and read through the structs (and encoded alike), names and JSON names,
 * presence, oneofs, defaults restored by clear, and what reflection refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "h.pb.h"
#include "h2.pb.h"
#include "h4.pb.h"

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

/* ---- a generic logger: every set field as name=value, messages in braces, through the tables alone ---- */

typedef struct logbuf {
    char text[1024];
    size_t len;
} logbuf;

static void put(logbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->text + b->len, sizeof b->text - b->len, fmt, ap);
    va_end(ap);
    if (n > 0) b->len += (size_t)n < sizeof b->text - b->len ? (size_t)n : sizeof b->text - b->len - 1;
}

static void log_message(logbuf *b, const pbj_table *t, const void *m);

static void log_value(logbuf *b, const pbj_field *f, pbj_value v)
{
    switch (pbj_value_of(f)) {
    case PBJ_VALUE_BOOL: put(b, "%s", v.b ? "true" : "false"); break;
    case PBJ_VALUE_I32: {
        const char *name = f->en ? pbj_enum_name(f->en, v.i32) : NULL;
        if (name) put(b, "%s", name);
        else put(b, "%ld", (long)v.i32);
        break;
    }
    case PBJ_VALUE_U32: put(b, "%lu", (unsigned long)v.u32); break;
    case PBJ_VALUE_I64: put(b, "%lld", (long long)v.i64); break;
    case PBJ_VALUE_U64: put(b, "%llu", (unsigned long long)v.u64); break;
    case PBJ_VALUE_F32: put(b, "%g", v.f32); break;
    case PBJ_VALUE_F64: put(b, "%g", v.f64); break;
    case PBJ_VALUE_STR: put(b, "\"%.*s\"", (int)v.str.len, (const char *)v.str.data); break;
    case PBJ_VALUE_MSG: log_message(b, f->sub, v.msg); break;
    }
}

static void log_message(logbuf *b, const pbj_table *t, const void *m)
{
    put(b, "{");
    for (uint32_t i = 0; i < t->count; i++) {
        const pbj_field *f = &t->fields[i];
        if (!pbj_field_has(t, f, m)) continue;
        put(b, " %s=", pbj_field_name(t, f));
        if (!pbj_field_is_repeated(f)) {
            log_value(b, f, pbj_field_get(t, f, m));
            continue;
        }
        put(b, "[");
        for (size_t k = 0; k < pbj_field_count(t, f, m); k++) {
            put(b, k ? "," : "");
            log_value(b, f, pbj_field_get_at(f, m, k));
        }
        put(b, "]");
    }
    put(b, " }");
}

static void logger_reads_every_shape(void **state)
{
    (void)state;
    h_Root m;
    h_Root_init(&m);
    m.id = -3;
    m.title = (pbj_slice){(const uint8_t *)"t", 1};
    m.has_count = true;   /* optional, set to zero: present */
    int32_t nums[] = {1, 2};
    m.nums.data = nums;
    m.nums.count = 2;
    h_Leaf leaf;
    h_Leaf_init(&leaf);
    leaf.name = (pbj_slice){(const uint8_t *)"l", 1};
    m.leaf = &leaf;
    m.choice_case = h_Root_choice_kind;
    m.choice.kind = h_Kind_KIND_A;
    assert_non_null(h_Root_mutable_by_id(&m, 5, &arena));
    logbuf b = {0};
    log_message(&b, &h_Root__table, &m);
    assert_string_equal(b.text, "{ id=-3 title=\"t\" count=0 nums=[1,2] leaf={ name=\"l\" } by_id=[{ key=5 value={ } }]"
                                " kind=KIND_A }");
}

/* ---- setting through the table ------------------------------------------------------------------------ */

static const pbj_field *field(const pbj_table *t, const char *name)
{
    const pbj_field *f = pbj_table_find_name(t, name, strlen(name));
    assert_non_null(f);
    return f;
}

static void set_through_the_table(void **state)
{
    (void)state;
    const pbj_table *t = &h_Root__table;
    h_Root m, direct;
    h_Root_init(&m);
    h_Root_init(&direct);
    assert_int_equal(pbj_field_set(t, field(t, "id"), &m, (pbj_value){.i32 = 42}), PBJ_OK);
    assert_int_equal(pbj_field_set(t, field(t, "title"), &m, (pbj_value){.str = PBJ_STR("hello")}), PBJ_OK);
    assert_int_equal(pbj_field_set(t, field(t, "count"), &m, (pbj_value){.i64 = 0}), PBJ_OK);
    assert_int_equal(pbj_field_set(t, field(t, "kind"), &m, (pbj_value){.i32 = h_Kind_KIND_A}), PBJ_OK);
    h_Leaf *leaf = pbj_field_mutable(t, field(t, "leaf"), &m, &arena);
    assert_non_null(leaf);
    assert_ptr_equal(pbj_field_mutable(t, field(t, "leaf"), &m, &arena), leaf);   /* made once */
    assert_int_equal(pbj_field_set(&h_Leaf__table, field(&h_Leaf__table, "name"), leaf, (pbj_value){.str = PBJ_STR("x")}), PBJ_OK);

    assert_int_equal(m.id, 42);
    assert_true(m.has_count);
    assert_int_equal(m.choice_case, h_Root_choice_kind);
    assert_int_equal(m.choice.kind, h_Kind_KIND_A);
    assert_ptr_equal(m.leaf, leaf);

    direct.id = 42;
    direct.title = PBJ_STR("hello");
    direct.has_count = true;
    direct.choice_case = h_Root_choice_kind;
    direct.choice.kind = h_Kind_KIND_A;
    h_Leaf dleaf;
    h_Leaf_init(&dleaf);
    dleaf.name = PBJ_STR("x");
    direct.leaf = &dleaf;
    uint8_t a[128], d[128];
    size_t an, dn;
    assert_int_equal(h_Root_encode(&m, a, sizeof a, &an), PBJ_OK);
    assert_int_equal(h_Root_encode(&direct, d, sizeof d, &dn), PBJ_OK);
    assert_memory_equal(a, d, dn);
    assert_int_equal(an, dn);

    /* a oneof: setting another member moves the case; clearing one not set changes nothing */
    assert_int_equal(pbj_field_set(t, field(t, "text"), &m, (pbj_value){.str = PBJ_STR("now")}), PBJ_OK);
    assert_int_equal(m.choice_case, h_Root_choice_text);
    assert_false(pbj_field_has(t, field(t, "kind"), &m));
    assert_int_equal(pbj_field_get(t, field(t, "kind"), &m).i32, 0);
    assert_int_equal(pbj_field_clear(t, field(t, "node"), &m), PBJ_OK);
    assert_int_equal(m.choice_case, h_Root_choice_text);
    assert_int_equal(pbj_field_clear(t, field(t, "text"), &m), PBJ_OK);
    assert_int_equal(m.choice_case, 0);
}

static void names_and_numbers(void **state)
{
    (void)state;
    const pbj_table *t = &h_Root__table;
    assert_string_equal(pbj_table_full_name(t), "h.Root");
    const pbj_field *by_id = pbj_table_find_name(t, "byId", 4);   /* its JSON name */
    assert_non_null(by_id);
    assert_ptr_equal(by_id, pbj_table_find_name(t, "by_id", 5));
    assert_ptr_equal(by_id, pbj_table_find(t, 9));
    assert_string_equal(pbj_field_name(t, by_id), "by_id");
    assert_string_equal(pbj_field_json_name(t, by_id), "byId");
    assert_true(pbj_field_is_repeated(by_id));
    assert_null(pbj_table_find_name(t, "by", 2));
    assert_null(pbj_table_find_name(t, "by_idx", 6));
    assert_null(pbj_table_find(t, 16));
}

static void refusals_and_defaults(void **state)
{
    (void)state;
    const pbj_table *t = &h_Root__table;
    h_Root m;
    h_Root_init(&m);
    assert_int_equal(pbj_field_set(t, field(t, "nums"), &m, (pbj_value){.i32 = 1}), PBJ_ERR_KIND);
    assert_int_equal(pbj_field_set(t, field(t, "title"), &m, (pbj_value){.str = PBJ_STR("\xff")}), PBJ_ERR_UTF8);
    assert_int_equal(m.title.len, 0);
    assert_null(pbj_field_mutable(t, field(t, "id"), &m, &arena));
    assert_null(pbj_field_mutable(t, field(t, "leaves"), &m, &arena));

    const pbj_table *ot = &h2_Old__table;
    h2_Old old;
    h2_Old_init(&old);
    const pbj_field *level = field(ot, "level"), *note = field(ot, "note");
    assert_false(pbj_field_has(ot, level, &old));
    assert_int_equal(pbj_field_get(ot, level, &old).i32, 7);   /* the proto2 default */
    assert_int_equal(pbj_field_set(ot, level, &old, (pbj_value){.i32 = 3}), PBJ_OK);
    assert_int_equal(pbj_field_set(ot, note, &old, (pbj_value){.str = PBJ_STR("\xff")}), PBJ_OK);   /* proto2: as given */
    assert_true(pbj_field_has(ot, level, &old) && old.level == 3);
    assert_int_equal(pbj_field_clear(ot, level, &old), PBJ_OK);
    assert_int_equal(pbj_field_clear(ot, note, &old), PBJ_OK);
    assert_false(pbj_field_has(ot, level, &old));
    assert_int_equal(old.level, 7);
    assert_memory_equal(old.note.data, "hi", 2);

    int32_t nums[] = {4, 5, 6};
    m.nums.data = nums;
    m.nums.count = 3;
    assert_int_equal(pbj_field_get_at(field(t, "nums"), &m, 2).i32, 6);
    assert_int_equal(pbj_field_clear(t, field(t, "nums"), &m), PBJ_OK);
    assert_int_equal(m.nums.count, 0);
}

/* A message held by value (pbj.by_value): its row's mode, presence by its has member, mutable in place (and the
 * generated mutable alike), get a pointer into the parent, set a copy, clear; the array of it as before. */
static void by_value(void **state)
{
    (void)state;
    const pbj_table *t = &h4_Holder__table;
    const pbj_field *id = field(t, "id"), *other = field(t, "other");
    h4_Holder m;
    h4_Holder_init(&m);
    assert_int_equal(id->mode, PBJ_MODE_BY_VALUE);
    assert_int_equal(id->size, sizeof(h4_Id));
    assert_false(pbj_field_has(t, id, &m));
    assert_null(pbj_field_get(t, id, &m).msg);
    h4_Id *x = pbj_field_mutable(t, id, &m, &arena);
    assert_ptr_equal(x, &m.id);
    assert_true(m.has_id && pbj_field_has(t, id, &m));
    x->num = 42;
    assert_ptr_equal(pbj_field_get(t, id, &m).msg, &m.id);
    assert_ptr_equal(pbj_field_mutable(t, id, &m, &arena), &m.id);   /* present: left as it is */
    assert_int_equal(m.id.num, 42);
    h4_Id v = {.num = 7, .flag = true};
    assert_int_equal(pbj_field_set(t, other, &m, (pbj_value){.msg = &v}), PBJ_OK);
    assert_true(m.has_other && m.other.num == 7 && m.other.flag);
    assert_int_equal(pbj_field_clear(t, id, &m), PBJ_OK);
    assert_false(m.has_id);
    assert_int_equal(m.id.num, 0);
    assert_ptr_equal(h4_Holder_mutable_id(&m, NULL), &m.id);
    assert_true(m.has_id);
    uint8_t buf[64];
    size_t n = 0;
    assert_int_equal(h4_Holder_encode(&m, buf, sizeof buf, &n), PBJ_OK);
    assert_int_equal(n, 8);   /* id: empty (2), other: {num 7, flag} (6) */
    h4_Holder back;
    assert_int_equal(h4_Holder_decode(&back, buf, n, &arena, NULL), PBJ_OK);
    assert_true(h4_Holder_equal(&m, &back));
    logbuf b = {0};
    log_message(&b, t, &back);
    assert_string_equal(b.text, "{ id={ } other={ num=7 flag=true } }");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(logger_reads_every_shape, setup, teardown),
        cmocka_unit_test_setup_teardown(set_through_the_table, setup, teardown),
        cmocka_unit_test_setup_teardown(names_and_numbers, setup, teardown),
        cmocka_unit_test_setup_teardown(refusals_and_defaults, setup, teardown),
        cmocka_unit_test_setup_teardown(by_value, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
