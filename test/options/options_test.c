/* options_test.c: unit tests of the options phase over hand-built IR. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "context.h"

/* ---- building IR by hand --------------------------------------------------- */

static ir_program prog;
static pbjc_context ctx;          /* each test is a run of its own */

static ir_file *file(const char *name, bool is_input)
{
    ir_file *f = ir_file_new(&ctx.pool, &ctx.diag, name, name, "", 0);
    f->syntax = IR_PROTO3;
    f->package = "acme";
    f->is_input = is_input;
    f->parsed_ok = true;
    ir_pool_vec_push(&ctx.pool, &prog.files, f);
    if (is_input) ir_pool_vec_push(&ctx.pool, &prog.inputs, f);
    return f;
}

static ir_message *message(ir_file *f, ir_message *parent, const char *name)
{
    ir_message *m = ir_pool_alloc(&ctx.pool, sizeof *m);
    m->name = name;
    m->full_name = ir_pool_printf(&ctx.pool, "%s.%s", parent ? parent->full_name : f->package, name);
    m->file = f;
    m->parent = parent;
    if (parent)
        ir_pool_vec_push(&ctx.pool, &parent->messages, m);
    else
        ir_pool_vec_push(&ctx.pool, &f->messages, m);
    return m;
}

static ir_field *field(ir_message *m, const char *name, ir_message *type)
{
    ir_field *fd = ir_pool_alloc(&ctx.pool, sizeof *fd);
    fd->name = name;
    fd->full_name = ir_pool_printf(&ctx.pool, "%s.%s", m->full_name, name);
    fd->number = (int32_t)m->fields.n + 1;
    fd->type = type ? IR_TYPE_MESSAGE : IR_TYPE_INT32;
    fd->message_type = type;
    fd->parent = m;
    fd->file = m->file;
    ir_pool_vec_push(&ctx.pool, &m->fields, fd);
    return fd;
}

/* map<string, value> name = N; in m, with its synthetic entry message. */
static ir_field *map_field(ir_message *m, const char *name, const char *entry_name, ir_message *value)
{
    ir_message *entry = message(m->file, m, entry_name);
    entry->map_entry = true;
    field(entry, "key", NULL);
    field(entry, "value", value);
    ir_field *fd = field(m, name, entry);
    fd->is_map = true;
    fd->label = IR_LABEL_REPEATED;
    return fd;
}

static void comment(ir_file *f, const char *text, uint32_t line, uint32_t col, ir_message *inside, ir_message *before)
{
    ir_raw_comment c = { text, { line, col }, inside, before };
    ir_pool_vec_push(&ctx.pool, &f->comments, c);
}

static int teardown(void **state)
{
    (void)state;
    context_end(&ctx);
    return 0;
}

static int setup(void **state)
{
    (void)state;
    memset(&prog, 0, sizeof prog);
    context_begin(&ctx);
    context_program(&ctx, &prog);
    return 0;
}

/* ---- capturing stderr ---------------------------------------------------------- */

static FILE *captured;
static int saved_stderr = -1;

static void capture_start(void)
{
    fflush(stderr);
    captured = tmpfile();
    assert_non_null(captured);
    saved_stderr = dup(2);
    dup2(fileno(captured), 2);
}

/* The first line written to stderr since capture_start. */
static const char *capture_first_line(void)
{
    static char line[1024];
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    rewind(captured);
    if (!fgets(line, sizeof line, captured)) line[0] = '\0';
    fclose(captured);
    line[strcspn(line, "\n")] = '\0';
    return line;
}

/* options_parse_arg at args[i] (copied, as argv is writable); *i moves as it consumes. */
static int parse_arg(int argc, const char *const *args, int *i)
{
    char **argv = ir_pool_alloc(&ctx.pool, (size_t)argc * sizeof *argv);
    for (int k = 0; k < argc; k++) argv[k] = ir_pool_strdup(&ctx.pool, args[k]);
    return options_parse_arg(ctx.project, argc, argv, i);
}

#define ORIGIN(m, id) (options_of(m)->opt[OPTION_##id].origin)
#define VALUE(m, id) (options_of(m)->opt[OPTION_##id].value)

/* ---- tests ------------------------------------------------------------------------ */

static void defaults_before_and_without_settings(void **state)
{
    (void)state;
    ir_file *f = file("a.proto", true);
    ir_message *m = message(f, NULL, "M");
    assert_int_equal(VALUE(m, WRITERS), 0);
    assert_int_equal(options_resolve(ctx.project, &prog), 0);
    assert_int_equal(options_tier_of(m), OPTIONS_TIER_DEFAULT);
    assert_false(options_on(m, OPTION_FAST_WRITE));
    assert_int_equal(ORIGIN(m, FAST_WRITE), OPTIONS_FROM_DEFAULT);
    char buf[256];
    options_describe(m, buf, sizeof buf);
    assert_string_equal(buf, "performance=default(default) fast_write=false(default) drop_unknown=false(default) by_value=false(default) writers=false(default) "
                             "views=false(default) json=true(default) text_read=true(default)");
}

/* pbj.json is on by default; false on a message reached from one where it is on is the closure's error; an
 * imported message it reaches needs no input (its own run writes its JSON code). */
static void json_on_by_default_and_closes(void **state)
{
    (void)state;
    ir_file *f = file("a.proto", true), *g = file("b.proto", false);
    ir_message *root = message(f, NULL, "Root"), *leaf = message(f, NULL, "Leaf"), *other = message(g, NULL, "Other");
    field(root, "leaf", leaf);
    field(root, "other", other);
    comment(f, "// <<<pbj.json = false>>>", 5, 1, NULL, leaf);
    capture_start();
    assert_int_equal(options_resolve(ctx.project, &prog), 1);
    assert_string_equal(capture_first_line(),
                        "a.proto:5:7: error: pbj.json = false on acme.Leaf, but the json of acme.Root reach it: "
                        "acme.Root.leaf -> acme.Leaf");
    assert_true(options_on(root, OPTION_JSON));
    assert_true(options_on(other, OPTION_JSON));
    assert_int_equal(options_check_closure_inputs(&prog), 0);
}

static void levels_message_over_file_over_project(void **state)
{
    (void)state;
    int i = 0;
    const char *argv[] = { "--no-views", "--pbj", "pbj.writers=false" };
    assert_int_equal(parse_arg(3, argv, &i), 1);
    i = 1;
    assert_int_equal(parse_arg(3, argv, &i), 1);
    assert_int_equal(i, 2);
    ir_file *f = file("a.proto", true);
    ir_message *a = message(f, NULL, "A"), *b = message(f, NULL, "B"), *c = message(f, NULL, "C");
    comment(f, "// <<<pbj.writers = true>>>", 1, 1, NULL, NULL);
    comment(f, "/* <<<pbj.writers = \"false\">>> */", 3, 1, NULL, b);
    comment(f, "//<<<pbj.views=true>>> trailing words", 4, 5, c, NULL);
    assert_int_equal(options_resolve(ctx.project, &prog), 0);
    assert_int_equal(VALUE(a, WRITERS), 1);
    assert_int_equal(ORIGIN(a, WRITERS), OPTIONS_FROM_FILE);
    assert_int_equal(VALUE(b, WRITERS), 0);
    assert_int_equal(ORIGIN(b, WRITERS), OPTIONS_FROM_MESSAGE);
    assert_int_equal(ORIGIN(a, VIEWS), OPTIONS_FROM_PROJECT);
    assert_int_equal(VALUE(c, VIEWS), 1);
    assert_int_equal(ORIGIN(c, VIEWS), OPTIONS_FROM_MESSAGE);
}

static void component_beats_tier_at_any_level(void **state)
{
    (void)state;
    ir_file *f = file("a.proto", true);
    ir_message *a = message(f, NULL, "A"), *b = message(f, NULL, "B");
    comment(f, "// <<<pbj.fast_write = false>>>", 1, 1, NULL, NULL);
    comment(f, "// <<<pbj.performance = max>>>", 2, 1, NULL, a);
    int i = 0;
    const char *argv[] = { "--performance=max" };
    assert_int_equal(parse_arg(1, argv, &i), 1);
    assert_int_equal(options_resolve(ctx.project, &prog), 0);
    assert_int_equal(options_tier_of(a), OPTIONS_TIER_MAX);
    assert_int_equal(VALUE(a, FAST_WRITE), 0);
    assert_int_equal(ORIGIN(a, FAST_WRITE), OPTIONS_FROM_FILE);
    assert_int_equal(ORIGIN(b, PERFORMANCE), OPTIONS_FROM_PROJECT);
    assert_int_equal(VALUE(b, FAST_WRITE), 0);
}

static void tier_implies_component(void **state)
{
    (void)state;
    ir_file *f = file("a.proto", true);
    ir_message *a = message(f, NULL, "A");
    comment(f, "// <<<pbj.performance = max>>>", 2, 1, NULL, a);
    assert_int_equal(options_resolve(ctx.project, &prog), 0);
    assert_true(options_on(a, OPTION_FAST_WRITE));
    assert_int_equal(ORIGIN(a, FAST_WRITE), OPTIONS_FROM_TIER);
    char buf[256];
    size_t len = options_describe(a, buf, sizeof buf);
    assert_int_equal(len, strlen(buf));
    assert_non_null(strstr(buf, "fast_write=true(tier max)"));
    char tiny[8];                                              /* truncates like snprintf */
    assert_int_equal(options_describe(a, tiny, sizeof tiny), len);
    assert_string_equal(tiny, "perform");
}

static void closure_paths_through_every_field_kind(void **state)
{
    (void)state;
    ir_file *lib = file("lib.proto", false), *f = file("a.proto", true);
    ir_message *leaf = message(lib, NULL, "Leaf"), *other = message(lib, NULL, "Other");
    ir_message *root = message(f, NULL, "Root"), *mid = message(f, NULL, "Middle");
    ir_message *self = message(f, NULL, "Self"), *lone = message(f, NULL, "Lone");
    field(root, "middle", mid);
    field(root, "count", NULL);
    map_field(mid, "leaves", "LeavesEntry", leaf);
    ir_field *o = field(leaf, "other", other);
    o->label = IR_LABEL_REPEATED;
    field(other, "root", root);                                /* a cycle back to the root */
    field(self, "self", self);
    comment(f, "// <<<pbj.writers = true>>>", 3, 1, NULL, root);
    comment(f, "// <<<pbj.views = true>>>", 9, 1, NULL, self);
    assert_int_equal(options_resolve(ctx.project, &prog), 0);
    assert_int_equal(ORIGIN(leaf, WRITERS), OPTIONS_FROM_CLOSURE);
    assert_string_equal(options_of(leaf)->opt[OPTION_WRITERS].via, "acme.Root.middle -> acme.Middle.leaves");
    assert_string_equal(options_of(other)->opt[OPTION_WRITERS].via,
                        "acme.Root.middle -> acme.Middle.leaves -> acme.Leaf.other");
    assert_int_equal(ORIGIN(root, WRITERS), OPTIONS_FROM_MESSAGE);
    assert_false(options_on(lone, OPTION_WRITERS));
    assert_true(options_on(mid->messages.v[0], OPTION_WRITERS));   /* the entry takes its owner's */
    assert_true(options_on(self, OPTION_VIEWS));
    assert_int_equal(ORIGIN(self, VIEWS), OPTIONS_FROM_MESSAGE);
}

static void reached_explicit_false_names_the_path(void **state)
{
    (void)state;
    ir_file *f = file("a.proto", true);
    ir_message *root = message(f, NULL, "Root"), *mid = message(f, NULL, "Middle"), *leaf = message(f, NULL, "Leaf");
    field(root, "middle", mid);
    field(mid, "leaf", leaf);
    comment(f, "// <<<pbj.writers = true>>>", 3, 1, NULL, root);
    comment(f, "/* doc\n   <<<pbj.writers = false>>> */", 7, 3, leaf, NULL);
    capture_start();
    int errors = options_resolve(ctx.project, &prog);
    assert_string_equal(capture_first_line(),
                        "a.proto:8:7: error: pbj.writers = false on acme.Leaf, but the writers of acme.Root reach it: "
                        "acme.Root.middle -> acme.Middle.leaf -> acme.Leaf");
    assert_int_equal(errors, 1);
    assert_false(options_on(leaf, OPTION_WRITERS));
}

/* Comments of one file with a message M: each at (line, col), before M, inside M or (NULL) at file level. */
typedef struct scan_case {
    struct { const char *text; uint32_t line, col; const char *place; } comments[2];
    int errors;
    const char *first_line;
} scan_case;

static const scan_case scan_cases[] = {
    { { { "//  <<< pbj.writer = true>>>", 2, 5, NULL } }, 1,
      "a.proto:2:13: error: unknown pbj option pbj.writer; did you mean pbj.writers?" },
    { { { "// <<<pbj.views = yes>>>", 1, 1, "before" } }, 1,
      "a.proto:1:7: error: bad value 'yes' for pbj.views (expected true or false)" },
    { { { "// <<<pbj.performance = max>>> <<<pbj.performance = max>>>", 1, 1, "before" },
        { "/*\n\n <<<pbj.performance = default>>> */", 4, 4, "inside" } }, 1,
      "a.proto:6:5: error: conflicting values for pbj.performance on message acme.M: default here, max before" },
    { { { "/* <<<pbj.writers true>>> */", 3, 2, "inside" } }, 1,
      "a.proto:3:8: error: malformed pbj option: expected <<<pbj.NAME = VALUE>>>" },
    { { { "// <<<pbj.zzzzzzz = 1>>> and <<<pbj.views = true", 1, 1, NULL } }, 2,
      "a.proto:1:7: error: unknown pbj option pbj.zzzzzzz (known: pbj.performance, pbj.fast_write, pbj.drop_unknown, "
      "pbj.by_value, pbj.writers, pbj.views, pbj.java_package, pbj.message_java_package, pbj.enum_java_package, "
      "pbj.service_java_package, pbj.cacheable, pbj.comparable, pbj.json, pbj.text_read)" },
};

static void scanner_errors_with_positions(void **state)
{
    for (size_t k = 0; k < sizeof scan_cases / sizeof scan_cases[0]; k++) {
        const scan_case *sc = &scan_cases[k];
        teardown(state);             /* each case a run of its own */
        setup(state);
        ir_file *f = file("a.proto", true);
        ir_message *m = message(f, NULL, "M");
        for (size_t j = 0; j < 2 && sc->comments[j].text; j++) {
            const char *place = sc->comments[j].place;
            comment(f, sc->comments[j].text, sc->comments[j].line, sc->comments[j].col,
                    place && !strcmp(place, "inside") ? m : NULL, place && !strcmp(place, "before") ? m : NULL);
        }
        capture_start();
        int errors = options_resolve(ctx.project, &prog);
        assert_string_equal(capture_first_line(), sc->first_line);
        assert_int_equal(errors, sc->errors);
    }
}

static void prose_and_java_package_are_not_errors(void **state)
{
    (void)state;
    ir_file *f = file("a.proto", true);
    ir_message *m = message(f, NULL, "M");
    comment(f, "// x <<< 2 and a <<<b>>> c", 1, 1, NULL, NULL);
    comment(f, "// <<<pbj.java_package = \"com.hedera.hapi.node.base\">>> This comment is special", 2, 5, m, NULL);
    assert_int_equal(options_resolve(ctx.project, &prog), 0);
    assert_string_equal(options_of(m)->opt[OPTION_JAVA_PACKAGE].text, "com.hedera.hapi.node.base");
    char buf[256];
    options_describe(m, buf, sizeof buf);
    assert_null(strstr(buf, "java"));
}

static void command_line_flags(void **state)
{
    (void)state;
    const char *argv[] = { "--fast-write", "--performance", "max", "--pbj=views=true",
                     "-o", "--no-fast-write", "--pbj", "pbj.writerz=true",
                     "--pbj", "pbj.views=maybe", "--pbj", "--pbj=pbj.performance='max'" };
    int argc = (int)(sizeof argv / sizeof argv[0]), i = 0;
    assert_int_equal(parse_arg(argc, argv, &i), 1);
    i = 1;
    assert_int_equal(parse_arg(argc, argv, &i), 1);
    assert_int_equal(i, 2);
    i = 3;
    assert_int_equal(parse_arg(argc, argv, &i), 1);
    i = 4;
    assert_int_equal(parse_arg(argc, argv, &i), 0);
    i = 11;                                                    /* quotes stripped; the same value again is no conflict */
    assert_int_equal(parse_arg(argc, argv, &i), 1);
    capture_start();
    i = 5;
    assert_int_equal(parse_arg(argc, argv, &i), -1);
    assert_string_equal(capture_first_line(), "pbjc: error: --no-fast-write conflicts with pbj.fast_write = true given before");
    capture_start();
    i = 6;
    assert_int_equal(parse_arg(argc, argv, &i), -1);
    assert_string_equal(capture_first_line(),
                        "pbjc: error: unknown pbj option pbj.writerz in --pbj pbj.writerz=true; did you mean pbj.writers?");
    capture_start();
    i = 8;
    assert_int_equal(parse_arg(argc, argv, &i), -1);
    assert_string_equal(capture_first_line(),
                        "pbjc: error: bad value 'maybe' for pbj.views in --pbj pbj.views=maybe (expected true or false)");
    capture_start();
    i = 10;                                                    /* "--pbj" last: its value is missing */
    assert_int_equal(parse_arg(11, argv, &i), -1);
    assert_string_equal(capture_first_line(), "pbjc: error: --pbj needs NAME=VALUE, e.g. --pbj pbj.writers=true");

    ir_file *f = file("a.proto", true);
    ir_message *m = message(f, NULL, "M");
    assert_int_equal(options_resolve(ctx.project, &prog), 0);
    assert_int_equal(options_tier_of(m), OPTIONS_TIER_MAX);
    assert_int_equal(ORIGIN(m, FAST_WRITE), OPTIONS_FROM_PROJECT);
    assert_int_equal(ORIGIN(m, VIEWS), OPTIONS_FROM_PROJECT);
}

static void help_lists_every_flag(void **state)
{
    (void)state;
    char text[2048] = "";
    FILE *out = fmemopen(text, sizeof text - 1, "w");
    assert_non_null(out);
    options_print_help(out);
    fclose(out);
    const char *flags[] = { "--performance=default|max", "--fast-write, --no-fast-write", "--writers, --no-writers",
                            "--views, --no-views", "--pbj NAME=VALUE" };
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++) assert_non_null(strstr(text, flags[k]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(defaults_before_and_without_settings, setup, teardown),
        cmocka_unit_test_setup_teardown(levels_message_over_file_over_project, setup, teardown),
        cmocka_unit_test_setup_teardown(component_beats_tier_at_any_level, setup, teardown),
        cmocka_unit_test_setup_teardown(tier_implies_component, setup, teardown),
        cmocka_unit_test_setup_teardown(closure_paths_through_every_field_kind, setup, teardown),
        cmocka_unit_test_setup_teardown(reached_explicit_false_names_the_path, setup, teardown),
        cmocka_unit_test_setup_teardown(json_on_by_default_and_closes, setup, teardown),
        cmocka_unit_test_setup_teardown(scanner_errors_with_positions, setup, teardown),
        cmocka_unit_test_setup_teardown(prose_and_java_package_are_not_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(command_line_flags, setup, teardown),
        cmocka_unit_test_setup_teardown(help_lists_every_flag, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
