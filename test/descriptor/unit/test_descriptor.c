/* test_descriptor.c: the descriptor writer on hand-built IR, against protoc's set for the same file;
 * the SourceCodeInfo of a parsed file, decoded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "context.h"
#include "descriptor.h"
#include "diag.h"
#include "parser.h"
#include "resolve.h"
#include "srcinfo.h"

static pbjc_context run;                 /* the tests' one run */

static const char *out_dir;      /* argv[1]: where the sets are written */

static ir_option option(const char *name, ir_value_kind kind, const char *text)
{
    ir_option o = { 0 };
    ir_optname_part part = { .name = name };
    ir_pool_vec_push(&run.pool, &o.name, part);
    o.value.kind = kind;
    o.value.text = text;
    o.value.str = text;
    o.value.str_len = strlen(text);
    return o;
}

static ir_field *field(ir_message *m, const char *name, int32_t number, ir_label label, ir_type type)
{
    ir_field *f = ir_pool_alloc(&run.pool, sizeof *f);
    f->name = name;
    f->json_name = name;         /* every name here is one word */
    f->full_name = ir_pool_printf(&run.pool, "%s.%s", m->full_name, name);
    f->number = number;
    f->label = label;
    f->type = type;
    f->parent = m;
    f->file = m->file;
    f->index = (int)m->fields.n;
    ir_pool_vec_push(&run.pool, &m->fields, f);
    return f;
}

static ir_message *message(ir_file *file, ir_message *parent, const char *name)
{
    ir_message *m = ir_pool_alloc(&run.pool, sizeof *m);
    m->name = name;
    m->full_name = parent ? ir_pool_printf(&run.pool, "%s.%s", parent->full_name, name) : ir_pool_printf(&run.pool, "%s.%s", file->package, name);
    m->parent = parent;
    m->file = file;
    if (parent)
        ir_pool_vec_push(&run.pool, &parent->messages, m);
    else
        ir_pool_vec_push(&run.pool, &file->messages, m);
    return m;
}

static ir_oneof *oneof(ir_message *m, const char *name, bool synthetic)
{
    ir_oneof *o = ir_pool_alloc(&run.pool, sizeof *o);
    o->name = name;
    o->synthetic = synthetic;
    o->parent = m;
    o->index = (int)m->oneofs.n;
    ir_pool_vec_push(&run.pool, &m->oneofs, o);
    return o;
}

static void join(ir_oneof *o, ir_field *f)
{
    f->oneof = o;
    ir_pool_vec_push(&run.pool, &o->fields, f);
}

/* hand.proto, as parse and resolve leave it. */
static ir_program *hand_program(void)
{
    ir_file *file = ir_file_new(&run.pool, &run.diag, "hand.proto", "test/descriptor/unit/hand.proto", "", 0);
    file->syntax = IR_PROTO3;
    file->syntax_explicit = true;
    file->package = "hand";
    file->is_input = true;
    ir_pool_vec_push(&run.pool, &file->options, option("java_package", IR_VAL_STRING, "h"));
    ir_pool_vec_push(&run.pool, &file->options, option("optimize_for", IR_VAL_IDENT, "CODE_SIZE"));

    ir_message *outer = message(file, NULL, "Outer");
    ir_field *counts = field(outer, "counts", 1, IR_LABEL_NONE, IR_TYPE_MESSAGE);
    ir_message *entry = message(file, outer, "CountsEntry");
    entry->map_entry = true;
    counts->is_map = true;
    counts->type_name = "CountsEntry";
    counts->message_type = entry;
    field(entry, "key", 1, IR_LABEL_OPTIONAL, IR_TYPE_STRING);
    field(entry, "value", 2, IR_LABEL_OPTIONAL, IR_TYPE_INT32);

    ir_field *maybe = field(outer, "maybe", 2, IR_LABEL_OPTIONAL, IR_TYPE_INT32);
    maybe->proto3_optional = true;
    ir_oneof *pick = oneof(outer, "pick", false);
    join(pick, field(outer, "s", 3, IR_LABEL_NONE, IR_TYPE_STRING));
    ir_field *o = field(outer, "o", 4, IR_LABEL_NONE, IR_TYPE_MESSAGE);
    o->message_type = outer;
    join(pick, o);
    join(oneof(outer, "_maybe", true), maybe);

    ir_enum *kind = ir_pool_alloc(&run.pool, sizeof *kind);
    kind->name = "Kind";
    kind->full_name = "hand.Outer.Kind";
    kind->parent = outer;
    kind->file = file;
    const char *names[] = { "K0", "K1" };
    for (int i = 0; i < 2; i++) {
        ir_enum_value *v = ir_pool_alloc(&run.pool, sizeof *v);
        v->name = names[i];
        v->number = -i;
        v->parent = kind;
        ir_pool_vec_push(&run.pool, &kind->values, v);
    }
    ir_pool_vec_push(&run.pool, &outer->enums, kind);
    ir_field *kinds = field(outer, "kinds", 5, IR_LABEL_REPEATED, IR_TYPE_ENUM);
    kinds->enum_type = kind;
    ir_pool_vec_push(&run.pool, &kinds->options, option("packed", IR_VAL_IDENT, "false"));
    ir_pool_vec_push(&run.pool, &kinds->options, option("deprecated", IR_VAL_IDENT, "true"));

    ir_range r1 = { .start = 10, .end = 12 }, r2 = { .start = 20, .end = 536870911 };
    ir_pool_vec_push(&run.pool, &outer->reserved_ranges, r1);
    ir_pool_vec_push(&run.pool, &outer->reserved_ranges, r2);
    ir_pool_vec_push(&run.pool, &outer->reserved_names, "old");

    ir_service *s = ir_pool_alloc(&run.pool, sizeof *s);
    s->name = "S";
    s->full_name = "hand.S";
    s->file = file;
    ir_method *go = ir_pool_alloc(&run.pool, sizeof *go);
    go->name = "Go";
    go->input = go->output = outer;
    go->client_streaming = true;
    ir_pool_vec_push(&run.pool, &s->methods, go);
    ir_pool_vec_push(&run.pool, &file->services, s);

    ir_program *prog = ir_pool_alloc(&run.pool, sizeof *prog);
    context_program(&run, prog);
    ir_pool_vec_push(&run.pool, &prog->files, file);
    ir_pool_vec_push(&run.pool, &prog->inputs, file);
    return prog;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = malloc(1 << 16);
    assert_non_null(buf);
    *len = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
}

static void hand_built_ir_matches_protoc(void **state)
{
    (void)state;
    char *mine = ir_pool_printf(&run.pool, "%s/hand.pbjc.pb", out_dir), *theirs = ir_pool_printf(&run.pool, "%s/hand.protoc.pb", out_dir);
    ir_program *prog = hand_program();
    assert_int_equal(resolve_interpret_options(prog), 0);
    assert_int_equal(descriptor_write_set(prog, DESCRIPTOR_IMPORTS, mine), 0);
    char *cmd = ir_pool_printf(&run.pool, "protoc -Itest/descriptor/unit --descriptor_set_out=%s test/descriptor/unit/hand.proto", theirs);
    assert_int_equal(system(cmd), 0);
    size_t n1, n2;
    char *a = slurp(mine, &n1), *b = slurp(theirs, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    free(a);
    free(b);
}

static void unwritable_path_is_an_error(void **state)
{
    (void)state;
    assert_int_not_equal(descriptor_write_set(hand_program(), DESCRIPTOR_IMPORTS, "/nonexistent-dir/x.pb"), 0);
}

/* The errors resolving path under root (and /usr/include) reports, each counted once. */
static int validate(const char *root, const char *path)
{
    ir_program prog = { 0 };
    context_program(&run, &prog);
    ir_pool_vec_push(&run.pool, &prog.roots, root);
    ir_pool_vec_push(&run.pool, &prog.roots, "/usr/include");
    run.diag = (diag_counts){ 0 };
    int errors = resolve_program(&prog, &path, 1);
    assert_int_equal(run.diag.errors, errors);
    return errors;
}

/* What only the option interpreter finds: aggregate values, "was already set" (protoc rejects each). */
static void validate_rejects_what_resolve_lets_through(void **state)
{
    (void)state;
    static const char *const broken[] = {
        "option_aggregate_unknown_field", "option_aggregate_then_field", "option_set_twice",
        "option_path_set_twice", "option_path_aggregate_nested", "option_path_then_whole",
        "option_path_empty_message_set",
    };
    for (size_t i = 0; i < sizeof broken / sizeof *broken; i++)
        assert_int_equal(validate("test/errors", ir_pool_printf(&run.pool, "test/errors/%s.proto", broken[i])), 1);
}

/* Setting parts of one option is no error unless the exact final field was set (protoc accepts these). */
static void validate_accepts_option_paths(void **state)
{
    (void)state;
    assert_int_equal(validate("test/descriptor/cases", "test/descriptor/cases/option_paths.proto"), 0);
    assert_int_equal(validate("test/descriptor/cases", "test/descriptor/cases/proto3_options.proto"), 0);
    assert_int_equal(validate("test/descriptor/cases", "test/descriptor/cases/custom_options.proto"), 0);
}

/* A packed run of varints as "a b c". */
static void put_packed_text(wbuf *out, const uint8_t *p, const uint8_t *end)
{
    while (p < end) {
        uint64_t v = 0;
        for (int shift = 0; p < end; shift += 7) {
            v |= (uint64_t)(*p & 0x7f) << shift;
            if (!(*p++ & 0x80)) break;
        }
        char num[24];
        int n = snprintf(num, sizeof num, "%s%llu", out->n && out->p[out->n - 1] != '[' ? " " : "", (unsigned long long)v);
        wb_put(out, num, (size_t)n);
    }
}

/* The locations of a SourceCodeInfo as lines "[path] [span]". */
static char *locations_text(const wbuf *info)
{
    wbuf out = { 0 };
    const uint8_t *p = info->p, *end = info->p + info->n, *val, *loc, *loc_end;
    uint32_t num;
    int wt;
    size_t len;
    assert_true(wire_next_field(&p, end, &num, &wt, &val, &len));    /* the source_code_info field */
    for (const uint8_t *q = val, *q_end = val + len; wire_next_field(&q, q_end, &num, &wt, &loc, &len);) {
        const uint8_t *path = NULL, *span = NULL;
        size_t path_len = 0, span_len = 0;
        for (loc_end = loc + len; wire_next_field(&loc, loc_end, &num, &wt, &val, &len);) {
            if (num == 1) { path = val; path_len = len; }
            if (num == 2) { span = val; span_len = len; }
        }
        wb_put(&out, "[", 1);
        if (path) put_packed_text(&out, path, path + path_len);
        wb_put(&out, "] [", 3);
        put_packed_text(&out, span, span + span_len);
        wb_put(&out, "]\n", 2);
    }
    wb_put(&out, "", 1);
    return (char *)out.p;
}

/* Without protoc: a tab is 8 columns, a group has a field's and a message's locations over the same
 * text (its name twice more), a map's type spans "map<...>", its entry has no location. */
static void source_info_of_a_group_a_map_and_a_tab(void **state)
{
    (void)state;
    const char *text = "syntax = \"proto2\";\nmessage M {\n\toptional group G = 1 {}\n\tmap<int32, M> m = 2;\n}\n";
    ir_program prog = { .keep_tokens = true };
    context_program(&run, &prog);
    ir_file *f = parser_parse(&prog, "t.proto", "t.proto", ir_pool_strdup(&run.pool, text), strlen(text));
    assert_true(f->parsed_ok);
    wbuf info = { 0 };
    srcinfo_put(&info, 9, f);
    char *got = locations_text(&info);
    assert_string_equal(got,
        "[] [0 0 4 1]\n"
        "[12] [0 0 18]\n"
        "[4 0] [1 0 4 1]\n"
        "[4 0 1] [1 8 9]\n"
        "[4 0 2 0] [2 8 31]\n"          /* optional group G = 1 {} */
        "[4 0 2 0 4] [2 8 16]\n"
        "[4 0 2 0 5] [2 17 22]\n"
        "[4 0 2 0 1] [2 23 24]\n"
        "[4 0 2 0 3] [2 27 28]\n"
        "[4 0 3 0] [2 8 31]\n"          /* the group's message */
        "[4 0 3 0 1] [2 23 24]\n"
        "[4 0 2 0 6] [2 23 24]\n"
        "[4 0 2 1] [3 8 28]\n"          /* map<int32, M> m = 2; */
        "[4 0 2 1 6] [3 8 21]\n"
        "[4 0 2 1 1] [3 22 23]\n"
        "[4 0 2 1 3] [3 26 27]\n");
    free(got);
    free(info.p);
}

int main(int argc, char **argv)
{
    out_dir = argc > 1 ? argv[1] : ".";
    context_begin(&run);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_built_ir_matches_protoc),
        cmocka_unit_test(unwritable_path_is_an_error),
        cmocka_unit_test(source_info_of_a_group_a_map_and_a_tab),
        cmocka_unit_test(validate_rejects_what_resolve_lets_through),
        cmocka_unit_test(validate_accepts_option_paths),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    context_end(&run);
    return failed;
}
