/* resolve_test.c: the resolver's scoping rules, loading order and defaults, on .proto files written to a temp dir. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context.h"
#include "diag.h"
#include "resolve.h"
#include "suggest.h"
#include "symtab.h"
#include "../unit/temp_dir.h"

/* ---- fixtures: files in a fresh directory, resolved with it as the only root ---- */

static char dir[64];
static pbjc_context run;                 /* each test's run */
static ir_program prog;

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static int setup(void **state)
{
    (void)state;
    if (!temp_dir_make(dir, "resolve")) return -1;
    context_begin(&run);
    memset(&prog, 0, sizeof prog);
    context_program(&run, &prog);
    ir_pool_vec_push(&run.pool, &prog.roots, dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    int rc = temp_dir_remove(dir);
    context_end(&run);
    return rc;
}

/* Resolves the given input files (names relative to dir); returns the error count. */
static int resolve_inputs(const char *first, ...)
{
    IR_VEC(const char *) paths = {0};
    va_list ap;
    va_start(ap, first);
    for (const char *name = first; name; name = va_arg(ap, const char *))
        ir_pool_vec_push(&run.pool, &paths, ir_pool_printf(&run.pool, "%s/%s", dir, name));
    va_end(ap);
    return resolve_program(&prog, paths.v, paths.n);
}

static ir_file *file_named(const char *name)
{
    for (size_t i = 0; i < prog.files.n; i++)
        if (strcmp(prog.files.v[i]->name, name) == 0) return prog.files.v[i];
    fail_msg("no file %s", name);
    return NULL;
}

static ir_message *message_in(ir_message **v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i]->name, name) == 0) return v[i];
    fail_msg("no message %s", name);
    return NULL;
}

/* "Outer.Inner" in file f. */
static ir_message *message_path(ir_file *f, const char *path)
{
    char *copy = ir_pool_strdup(&run.pool, path), *save = NULL;
    ir_message *m = NULL;
    for (char *part = strtok_r(copy, ".", &save); part; part = strtok_r(NULL, ".", &save))
        m = m ? message_in(m->messages.v, m->messages.n, part) : message_in(f->messages.v, f->messages.n, part);
    return m;
}

static ir_field *field_of(ir_message *m, const char *name)
{
    for (size_t i = 0; i < m->fields.n; i++)
        if (strcmp(m->fields.v[i]->name, name) == 0) return m->fields.v[i];
    fail_msg("no field %s in %s", name, m->full_name);
    return NULL;
}

/* The full name of the type field "Msg.field" of file name was bound to. */
static const char *bound(const char *file, const char *msg, const char *field)
{
    ir_field *fd = field_of(message_path(file_named(file), msg), field);
    if (fd->message_type) return fd->message_type->full_name;
    if (fd->enum_type) return fd->enum_type->full_name;
    return "(unbound)";
}

/* ---- scoping rules ------------------------------------------------------------ */

static void innermost_scope_first(void **state)
{
    (void)state;
    write_file("a.proto",
               "syntax = \"proto3\";\npackage a.b;\n"
               "message Inner {}\n"
               "message M {\n  message Inner {}\n  Inner x = 1;\n"
               "  message Deeper { Inner y = 1; }\n}\n"
               "message N { Inner z = 1; }\n");
    assert_int_equal(resolve_inputs("a.proto", NULL), 0);
    assert_string_equal(bound("a.proto", "M", "x"), "a.b.M.Inner");
    assert_string_equal(bound("a.proto", "M.Deeper", "y"), "a.b.M.Inner");    /* outward from Deeper */
    assert_string_equal(bound("a.proto", "N", "z"), "a.b.Inner");
    assert_int_equal(field_of(message_path(file_named("a.proto"), "N"), "z")->type, IR_TYPE_MESSAGE);
}

static void leading_dot_is_fully_qualified(void **state)
{
    (void)state;
    write_file("a.proto",
               "syntax = \"proto3\";\npackage a;\n"
               "message Inner {}\n"
               "message M {\n  message Inner {}\n  .a.Inner x = 1;\n  Inner y = 2;\n}\n");
    assert_int_equal(resolve_inputs("a.proto", NULL), 0);
    assert_string_equal(bound("a.proto", "M", "x"), "a.Inner");
    assert_string_equal(bound("a.proto", "M", "y"), "a.M.Inner");
}

static void partly_qualified_names(void **state)
{
    (void)state;
    write_file("a.proto",
               "syntax = \"proto3\";\npackage p.q;\n"
               "message M { message Inner { enum E { ZERO = 0; } } }\n"
               "message N {\n  M.Inner x = 1;\n  q.M.Inner y = 2;\n  M.Inner.E e = 3;\n}\n");
    assert_int_equal(resolve_inputs("a.proto", NULL), 0);
    assert_string_equal(bound("a.proto", "N", "x"), "p.q.M.Inner");
    assert_string_equal(bound("a.proto", "N", "y"), "p.q.M.Inner");   /* "q" found as a package scope */
    assert_string_equal(bound("a.proto", "N", "e"), "p.q.M.Inner.E");
    assert_int_equal(field_of(message_path(file_named("a.proto"), "N"), "e")->type, IR_TYPE_ENUM);
}

/* protoc binds the first component in the innermost scope that has it, then never looks further. */
static void first_component_binds_innermost(void **state)
{
    (void)state;
    write_file("a.proto",
               "syntax = \"proto2\";\npackage t;\n"
               "message Bar { message Baz {} }\n"
               "message Foo {\n  message Bar {}\n  optional Bar.Baz baz = 1;\n}\n");
    assert_int_equal(resolve_inputs("a.proto", NULL), 1);
}

/* A first component that is not an aggregate (a field), or a lone name that is not a type, is skipped. */
static void non_aggregates_are_skipped(void **state)
{
    (void)state;
    write_file("a.proto",
               "syntax = \"proto2\";\n"
               "message Foo { message Bar {} }\n"
               "message X {}\n"
               "message M {\n  optional int32 Foo = 1;\n  optional Foo.Bar b = 2;\n"
               "  optional int32 X = 3;\n  optional X x = 4;\n}\n");
    assert_int_equal(resolve_inputs("a.proto", NULL), 0);
    assert_string_equal(bound("a.proto", "M", "b"), "Foo.Bar");
    assert_string_equal(bound("a.proto", "M", "x"), "X");
}

static void packages_spread_across_files(void **state)
{
    (void)state;
    write_file("a.proto", "syntax = \"proto3\";\npackage p.q;\nmessage A {}\n");
    write_file("b.proto", "syntax = \"proto3\";\npackage p.q;\nmessage B {}\n");
    write_file("c.proto",
               "syntax = \"proto3\";\npackage p.r;\nimport \"a.proto\";\nimport \"b.proto\";\n"
               "message C {\n  q.A a = 1;\n  p.q.B b = 2;\n  .p.q.A c = 3;\n}\n");
    assert_int_equal(resolve_inputs("c.proto", NULL), 0);
    assert_string_equal(bound("c.proto", "C", "a"), "p.q.A");
    assert_string_equal(bound("c.proto", "C", "b"), "p.q.B");
    assert_string_equal(bound("c.proto", "C", "c"), "p.q.A");
    ir_file *c = file_named("c.proto");
    assert_true(c->imports.v[0].used);
    assert_true(c->imports.v[1].used);
}

static void import_public_is_re_exported(void **state)
{
    (void)state;
    write_file("a.proto", "syntax = \"proto3\";\npackage a;\nmessage A {}\n");
    write_file("b.proto", "syntax = \"proto3\";\nimport public \"a.proto\";\n");
    write_file("c.proto", "syntax = \"proto3\";\nimport public \"b.proto\";\n");
    write_file("d.proto", "syntax = \"proto3\";\nimport \"c.proto\";\nmessage D { a.A x = 1; }\n");
    assert_int_equal(resolve_inputs("d.proto", NULL), 0);
    assert_string_equal(bound("d.proto", "D", "x"), "a.A");
}

static void symbol_not_imported_is_rejected(void **state)
{
    (void)state;
    write_file("a.proto", "syntax = \"proto3\";\npackage a;\nmessage A {}\n");
    write_file("b.proto", "syntax = \"proto3\";\nimport \"a.proto\";\nmessage B { a.A x = 1; }\n");
    write_file("c.proto", "syntax = \"proto3\";\nimport \"b.proto\";\nmessage C { a.A x = 1; B b = 2; }\n");
    assert_int_equal(resolve_inputs("c.proto", NULL), 1);
    assert_string_equal(bound("c.proto", "C", "b"), "B");
    assert_string_equal(bound("c.proto", "C", "x"), "(unbound)");
}

static void enum_values_are_siblings_of_their_enum(void **state)
{
    (void)state;
    write_file("a.proto",
               "syntax = \"proto2\";\npackage p;\n"
               "message M {\n  enum E { ZERO = 0; ONE = 1; }\n  optional E e = 1 [default = ONE];\n}\n"
               "message ONE {}\n");
    assert_int_equal(resolve_inputs("a.proto", NULL), 0);
    ir_field *e = field_of(message_path(file_named("a.proto"), "M"), "e");
    assert_string_equal(e->enum_type->values.v[1]->full_name, "p.M.ONE");
    assert_string_equal(e->default_value, "ONE");
}

static void extensions_and_rpcs_are_bound(void **state)
{
    (void)state;
    write_file("a.proto",
               "syntax = \"proto2\";\npackage p;\n"
               "message Base { extensions 100 to max; }\n"
               "message Scope {\n  extend Base { optional Scope ext = 100; }\n}\n"
               "service S { rpc Call(Base) returns (Scope); }\n");
    assert_int_equal(resolve_inputs("a.proto", NULL), 0);
    ir_file *f = file_named("a.proto");
    ir_message *scope = message_path(f, "Scope");
    assert_string_equal(scope->extensions.v[0]->full_name, "p.Scope.ext");
    assert_string_equal(scope->extends.v[0]->extendee->full_name, "p.Base");
    assert_string_equal(scope->extensions.v[0]->message_type->full_name, "p.Scope");
    assert_string_equal(f->services.v[0]->methods.v[0]->input->full_name, "p.Base");
    assert_string_equal(f->services.v[0]->methods.v[0]->output->full_name, "p.Scope");
}

static void custom_option_names_are_bound(void **state)
{
    (void)state;
    write_file("a.proto",
               "syntax = \"proto3\";\npackage p;\nimport \"google/protobuf/descriptor.proto\";\n"
               "message Limits { int32 max = 1; }\n"
               "extend google.protobuf.MessageOptions { Limits limits = 50001; }\n"
               "message M { option (limits).max = 3; }\n"
               "message N { option (.p.limits) = { max: 4 }; }\n");
    ir_pool_vec_push(&run.pool, &prog.roots, "/usr/include");
    assert_int_equal(resolve_inputs("a.proto", NULL), 0);
    ir_message *m = message_path(file_named("a.proto"), "M");
    assert_string_equal(m->options.v[0].name.v[0].ext->full_name, "p.limits");
    ir_message *n = message_path(file_named("a.proto"), "N");
    assert_string_equal(n->options.v[0].name.v[0].ext->full_name, "p.limits");
    assert_true(file_named("a.proto")->imports.v[0].used);
}

/* ---- loading --------------------------------------------------------------------- */

/* protoc's --include_imports order: depth-first post-order of the imports in declaration order. */
static void files_follow_their_imports(void **state)
{
    (void)state;
    write_file("a.proto", "syntax = \"proto3\";\n");
    write_file("b.proto", "syntax = \"proto3\";\nimport \"a.proto\";\n");
    write_file("c.proto", "syntax = \"proto3\";\nimport \"b.proto\";\nimport \"a.proto\";\n");
    write_file("d.proto", "syntax = \"proto3\";\nimport \"a.proto\";\n");
    assert_int_equal(resolve_inputs("d.proto", "c.proto", NULL), 0);
    const char *want[] = {"a.proto", "d.proto", "b.proto", "c.proto"};
    assert_int_equal(prog.files.n, 4);
    for (size_t i = 0; i < 4; i++) assert_string_equal(prog.files.v[i]->name, want[i]);
    assert_int_equal(prog.inputs.n, 2);
    assert_string_equal(prog.inputs.v[0]->name, "d.proto");
    assert_true(prog.inputs.v[1]->is_input);
    assert_false(file_named("a.proto")->is_input);
}

static void first_root_wins(void **state)
{
    (void)state;
    char sub[128];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    write_file("sub/a.proto", "syntax = \"proto3\";\nmessage FromSub {}\n");
    write_file("a.proto", "syntax = \"proto3\";\nmessage FromTop {}\n");
    write_file("sub/b.proto", "syntax = \"proto3\";\nimport \"a.proto\";\nmessage B { FromSub x = 1; }\n");
    prog.roots.n = 0;
    ir_pool_vec_push(&run.pool, &prog.roots, ir_pool_strdup(&run.pool, sub));
    ir_pool_vec_push(&run.pool, &prog.roots, dir);
    assert_int_equal(resolve_inputs("sub/b.proto", NULL), 0);
    assert_string_equal(prog.inputs.v[0]->name, "b.proto");
    assert_string_equal(bound("b.proto", "B", "x"), "FromSub");
}

/* As protoc: an input that is no file on disk is taken as a name under the roots. */
static void input_by_virtual_name(void **state)
{
    (void)state;
    char sub[128];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    write_file("sub/a.proto", "syntax = \"proto3\";\nmessage A {}\n");
    write_file("sub/b.proto", "syntax = \"proto3\";\nimport \"a.proto\";\nmessage B { A a = 1; }\n");
    prog.roots.n = 0;
    ir_pool_vec_push(&run.pool, &prog.roots, ir_pool_strdup(&run.pool, sub));
    const char *input = "b.proto";   /* not a path from the current directory */
    assert_int_equal(resolve_program(&prog, &input, 1), 0);
    assert_int_equal(prog.inputs.n, 1);
    assert_string_equal(prog.inputs.v[0]->name, "b.proto");
    assert_string_equal(prog.inputs.v[0]->path, ir_pool_printf(&run.pool, "%s/b.proto", sub));
    assert_string_equal(bound("b.proto", "B", "a"), "A");
}

static void input_outside_roots_is_rejected(void **state)
{
    (void)state;
    write_file("a.proto", "syntax = \"proto3\";\n");
    prog.roots.n = 0;
    ir_pool_vec_push(&run.pool, &prog.roots, "/nonexistent-root");
    assert_int_equal(resolve_inputs("a.proto", NULL), 1);
    assert_int_equal(prog.files.n, 0);
}

static void missing_import_and_cycle_are_errors(void **state)
{
    (void)state;
    write_file("a.proto", "syntax = \"proto3\";\nimport \"b.proto\";\nimport \"missing.proto\";\n");
    write_file("b.proto", "syntax = \"proto3\";\nimport \"a.proto\";\n");
    assert_int_equal(resolve_inputs("a.proto", NULL), 2);
}

/* ---- defaults, in protoc's descriptor text ---------------------------------------- */

static void defaults_as_protoc_writes_them(void **state)
{
    (void)state;
    write_file("a.proto",
               "syntax = \"proto2\";\n"
               "message M {\n"
               "  optional double d1 = 1 [default = 0.1];\n"
               "  optional double d2 = 2 [default = 0.3333333333333333];\n"
               "  optional float f1 = 3 [default = 0.1];\n"
               "  optional float f2 = 4 [default = 1e10];\n"
               "  optional double d3 = 5 [default = -inf];\n"
               "  optional float f3 = 6 [default = nan];\n"
               "  optional int32 i1 = 7 [default = 0x10];\n"
               "  optional int64 i2 = 8 [default = -9223372036854775808];\n"
               "  optional uint64 u1 = 9 [default = 18446744073709551615];\n"
               "  optional bytes b1 = 10 [default = \"\\001a\\\"\\n\\xff\"];\n"
               "  optional string s1 = 11 [default = \"h\\303\\251\"];\n"
               "  optional bool t = 12 [default = true];\n"
               "  optional double d4 = 13 [default = 5];\n"
               "  optional float f4 = 14 [default = 3.4028236e38];\n"
               "}\n");
    assert_int_equal(resolve_inputs("a.proto", NULL), 0);
    ir_message *m = message_path(file_named("a.proto"), "M");
    static const char *const want[][2] = {
        {"d1", "0.1"}, {"d2", "0.33333333333333331"}, {"f1", "0.1"}, {"f2", "1e+10"},
        {"d3", "-inf"}, {"f3", "nan"}, {"i1", "16"}, {"i2", "-9223372036854775808"},
        {"u1", "18446744073709551615"}, {"b1", "\\001a\\\"\\n\\377"}, {"s1", "h\303\251"},
        {"t", "true"}, {"d4", "5"}, {"f4", "inf"},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        assert_string_equal(field_of(m, want[i][0])->default_value, want[i][1]);
}

/* ---- the symbol table ------------------------------------------------------------- */

static void symtab_keeps_every_key(void **state)
{
    (void)state;
    symtab t;
    symtab_init(&t);
    enum { N = 20000 };
    static int values[N];
    for (int i = 0; i < N; i++) {
        const char *key = ir_pool_printf(&run.pool, "pkg.Message%d.field", i);
        assert_null(symtab_put(&t, key, strlen(key), &values[i]));
    }
    for (int i = 0; i < N; i++) {
        const char *key = ir_pool_printf(&run.pool, "pkg.Message%d.field", i);
        assert_ptr_equal(symtab_get(&t, key, strlen(key)), &values[i]);
        assert_ptr_equal(symtab_put(&t, key, strlen(key), &values[0]), &values[i]);   /* first one stays */
    }
    assert_null(symtab_get(&t, "pkg.Message1", 12));
    assert_null(symtab_get(&t, "pkg.Message1.fiel", 17));
    assert_int_equal(t.count, N);
    symtab_free(&t);
}

/* "did you mean": the nearest within the limit, the first of equals, long words too. */
static void suggest_picks_the_nearest(void **state)
{
    (void)state;
    static const char *const words[] = { "views", "writers", "viewz", "performance" };
    assert_int_equal(suggest_nearest("view", words, 4, 2), 0);          /* views and viewz tie: the first */
    assert_int_equal(suggest_nearest("writer", words, 4, 1), 1);
    assert_int_equal(suggest_nearest("perfomance", words, 4, 1), 3);
    assert_int_equal(suggest_nearest("colour", words, 4, 2), -1);
    assert_int_equal(suggest_nearest("writes", words, 4, 0), -1);
    assert_int_equal(suggest_nearest("views", words, 4, 0), 0);
    assert_int_equal(suggest_nearest("x", words, 0, 5), -1);
    const char *long_names[] = { "a_rather_long_message_name_that_goes_on_and_on_Ok" };
    assert_int_equal(suggest_nearest("a_rather_long_message_name_that_goes_on_and_on_OK", long_names, 1, 1), 0);
}

/* ---- editions: language features resolve through the scopes, else by their edition defaults ---- */

/* The value of language feature "Message.field" of features file lang (its one extension) at fs, in ed. */
static int32_t language(const ir_features *fs, feature_edition ed, const char *lang, const char *feature)
{
    ir_file *f = file_named(lang);
    assert_int_equal(f->extensions.n, 1);
    const char *dot = strchr(feature, '.');
    char *message = ir_pool_strndup(&run.pool, feature, (size_t)(dot - feature));
    return features_language(fs, ed, f->extensions.v[0], field_of(message_path(f, message), dot + 1));
}

static void language_features_resolve(void **state)
{
    (void)state;
    ir_pool_vec_push(&run.pool, &prog.roots, "test/editions/features");
    ir_pool_vec_push(&run.pool, &prog.roots, "src/proto");
    write_file("l.proto", "edition = \"2023\";\n"
                          "import \"google/protobuf/cpp_features.proto\";\n"
                          "import \"google/protobuf/java_features.proto\";\n"
                          "import \"google/protobuf/go_features.proto\";\n"
                          "option features.(pb.cpp).string_type = CORD;\n"
                          "message M {\n"
                          "  option features = { [pb.go] { api_level: API_HYBRID } };\n"
                          "  string a = 1 [features.(pb.cpp).string_type = VIEW];\n"
                          "  string b = 2;\n"
                          "  message N { int32 c = 1; }\n"
                          "}\n");
    write_file("p2.proto", "syntax = \"proto2\";\n"
                           "import \"google/protobuf/java_features.proto\";\n"
                           "message P { optional int32 d = 1; }\n");
    assert_int_equal(resolve_inputs("l.proto", "p2.proto", NULL), 0);
    ir_message *m = message_path(file_named("l.proto"), "M");
    const ir_features *a = &field_of(m, "a")->features, *b = &field_of(m, "b")->features;
    const char *cpp = "google/protobuf/cpp_features.proto", *java = "google/protobuf/java_features.proto";
    const char *go = "google/protobuf/go_features.proto";
    assert_int_equal(language(a, EDITION_2023, cpp, "CppFeatures.string_type"), 1);                /* VIEW, its own */
    assert_int_equal(language(b, EDITION_2023, cpp, "CppFeatures.string_type"), 2);                /* CORD, the file's */
    assert_int_equal(language(&m->messages.v[0]->fields.v[0]->features, EDITION_2023, go, "GoFeatures.api_level"), 2);
    assert_int_equal(language(b, EDITION_2023, java, "JavaFeatures.legacy_closed_enum"), 0);      /* proto3's default on */
    assert_int_equal(language(b, EDITION_2023, cpp, "CppFeatures.enum_name_uses_string_view"), 0);
    assert_int_equal(language(b, EDITION_2024, cpp, "CppFeatures.enum_name_uses_string_view"), 1);
    ir_file *p2 = file_named("p2.proto");
    assert_int_equal(features_edition(p2), EDITION_PROTO2);
    const ir_features *d = &field_of(message_path(p2, "P"), "d")->features;
    assert_int_equal(language(d, features_edition(p2), java, "JavaFeatures.legacy_closed_enum"), 1);   /* LEGACY's */
    assert_int_equal(language(d, features_edition(p2), cpp, "CppFeatures.string_type"), 3);            /* STRING */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(innermost_scope_first, setup, teardown),
        cmocka_unit_test_setup_teardown(leading_dot_is_fully_qualified, setup, teardown),
        cmocka_unit_test_setup_teardown(partly_qualified_names, setup, teardown),
        cmocka_unit_test_setup_teardown(first_component_binds_innermost, setup, teardown),
        cmocka_unit_test_setup_teardown(non_aggregates_are_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(packages_spread_across_files, setup, teardown),
        cmocka_unit_test_setup_teardown(import_public_is_re_exported, setup, teardown),
        cmocka_unit_test_setup_teardown(symbol_not_imported_is_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(enum_values_are_siblings_of_their_enum, setup, teardown),
        cmocka_unit_test_setup_teardown(extensions_and_rpcs_are_bound, setup, teardown),
        cmocka_unit_test_setup_teardown(custom_option_names_are_bound, setup, teardown),
        cmocka_unit_test_setup_teardown(files_follow_their_imports, setup, teardown),
        cmocka_unit_test_setup_teardown(first_root_wins, setup, teardown),
        cmocka_unit_test_setup_teardown(input_by_virtual_name, setup, teardown),
        cmocka_unit_test_setup_teardown(input_outside_roots_is_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(missing_import_and_cycle_are_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(defaults_as_protoc_writes_them, setup, teardown),
        cmocka_unit_test_setup_teardown(symtab_keeps_every_key, setup, teardown),
        cmocka_unit_test(suggest_picks_the_nearest),
        cmocka_unit_test_setup_teardown(language_features_resolve, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
