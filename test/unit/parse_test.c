/* parse_test.c: the grammar and the IR builder: each construct builds the IR protoc would. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "front_util.h"

static ir_file *parse_ok(const char *text)
{
    char *err;
    ir_file *f = parse_text(text, &err);
    if (*err) fprintf(stderr, "%s", err);
    assert_string_equal(err, "");
    assert_true(f->parsed_ok);
    return f;
}

/* The first line of the diagnostics for text, which must fail. */
static char *parse_error(const char *text)
{
    char *err;
    ir_file *f = parse_text(text, &err);
    assert_false(f->parsed_ok);
    return first_line(err);
}

static void test_file_header(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto3\";\npackage a.b.c;\nimport \"x.proto\";\n"
                          "import public \"y.proto\";\nimport weak 'z' \".proto\";\noption java_package = \"j\";\n");
    assert_int_equal(f->syntax, IR_PROTO3);
    assert_true(f->syntax_explicit);
    assert_string_equal(f->package, "a.b.c");
    assert_int_equal(f->imports.n, 3);
    assert_string_equal(f->imports.v[0].name, "x.proto");
    assert_int_equal(f->imports.v[0].kind, IR_IMPORT_PLAIN);
    assert_int_equal(f->imports.v[1].kind, IR_IMPORT_PUBLIC);
    assert_string_equal(f->imports.v[2].name, "z.proto");
    assert_int_equal(f->imports.v[2].kind, IR_IMPORT_WEAK);
    assert_string_equal(ir_option_find(&f->options, "java_package"), "j");
}

static void test_missing_syntax_is_proto2_with_warning(void **state)
{
    (void)state;
    char *err;
    ir_file *f = parse_text("message A { optional int32 x = 1; }", &err);
    assert_true(f->parsed_ok);
    assert_int_equal(f->syntax, IR_PROTO2);
    assert_false(f->syntax_explicit);
    assert_non_null(strstr(err, "t.proto: warning: no syntax specified"));
    assert_int_equal(front_diag()->warnings, 1);
}

static void test_message_fields_and_names(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto2\"; package p;\n"
                          "message Outer {\n"
                          "  required int32 a_b_c = 1;\n"
                          "  repeated .p.Outer.Inner inner = 2 [packed = true, deprecated = true];\n"
                          "  optional string s = 0x10 [default = \"hi\", json_name = \"S\"];\n"
                          "  optional double d = 4 [default = -inf];\n"
                          "  message Inner { optional Inner self = 1; }\n"
                          "  enum Kind { K0 = 0; }\n"
                          "}\n");
    assert_int_equal(f->messages.n, 1);
    ir_message *m = f->messages.v[0];
    assert_string_equal(m->full_name, "p.Outer");
    assert_ptr_equal(m->file, f);
    assert_int_equal(m->fields.n, 4);
    ir_field *a = m->fields.v[0];
    assert_string_equal(a->name, "a_b_c");
    assert_string_equal(a->full_name, "p.Outer.a_b_c");
    assert_string_equal(a->json_name, "aBC");
    assert_false(a->json_name_explicit);
    assert_int_equal(a->label, IR_LABEL_REQUIRED);
    assert_int_equal(a->type, IR_TYPE_INT32);
    assert_null(a->type_name);
    assert_int_equal(a->number, 1);
    assert_int_equal(a->loc.line, 3);
    assert_int_equal(a->loc.col, 18);
    ir_field *in = m->fields.v[1];
    assert_int_equal(in->label, IR_LABEL_REPEATED);
    assert_int_equal(in->type, IR_TYPE_UNRESOLVED);
    assert_string_equal(in->type_name, ".p.Outer.Inner");
    assert_int_equal(in->options.n, 2);
    assert_string_equal(ir_option_find(&in->options, "packed"), "true");
    assert_int_equal(in->index, 1);
    ir_field *s = m->fields.v[2];
    assert_int_equal(s->number, 16);
    assert_string_equal(s->json_name, "S");
    assert_true(s->json_name_explicit);
    assert_non_null(s->default_raw);
    assert_int_equal(s->default_raw->kind, IR_VAL_STRING);
    assert_string_equal(s->default_raw->str, "hi");
    assert_int_equal(s->options.n, 0);      /* default and json_name are not options */
    ir_field *d = m->fields.v[3];
    assert_int_equal(d->default_raw->kind, IR_VAL_FLOAT);
    assert_true(d->default_raw->negative);
    assert_true(isinf(d->default_raw->d) && d->default_raw->d < 0);
    assert_string_equal(m->messages.v[0]->full_name, "p.Outer.Inner");
    assert_ptr_equal(m->messages.v[0]->parent, m);
    assert_string_equal(m->enums.v[0]->full_name, "p.Outer.Kind");
    assert_string_equal(m->enums.v[0]->values.v[0]->full_name, "p.Outer.K0");
}

static void test_map_desugared(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto3\";\n"
                          "message M {\n"
                          "  message Before {}\n"
                          "  map<string, Before> my_map_field = 1 [enforce_utf8 = false];\n"
                          "  message After {}\n"
                          "  map<int32, double> m2 = 2;\n"
                          "}\n");
    ir_message *m = f->messages.v[0];
    assert_int_equal(m->messages.n, 4);
    assert_string_equal(m->messages.v[0]->name, "Before");
    ir_message *e = m->messages.v[1];
    assert_string_equal(e->name, "MyMapFieldEntry");
    assert_string_equal(e->full_name, "M.MyMapFieldEntry");
    assert_true(e->map_entry);
    assert_string_equal(m->messages.v[2]->name, "After");
    assert_string_equal(m->messages.v[3]->name, "M2Entry");
    ir_field *mf = m->fields.v[0];
    assert_true(mf->is_map);
    assert_int_equal(mf->label, IR_LABEL_REPEATED);
    assert_string_equal(mf->type_name, "MyMapFieldEntry");
    assert_string_equal(mf->json_name, "myMapField");
    assert_int_equal(e->fields.n, 2);
    ir_field *k = e->fields.v[0], *v = e->fields.v[1];
    assert_string_equal(k->name, "key");
    assert_int_equal(k->number, 1);
    assert_int_equal(k->label, IR_LABEL_OPTIONAL);
    assert_int_equal(k->type, IR_TYPE_STRING);
    assert_string_equal(k->json_name, "key");
    assert_string_equal(k->full_name, "M.MyMapFieldEntry.key");
    assert_string_equal(v->name, "value");
    assert_int_equal(v->number, 2);
    assert_string_equal(v->type_name, "Before");
    assert_int_equal(k->options.n, 1);      /* enforce_utf8 copied to the string key only */
    assert_int_equal(v->options.n, 0);
    assert_false(mf->proto3_optional);
    assert_int_equal(m->oneofs.n, 0);
}

static void test_groups(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto2\";\n"
                          "message M {\n"
                          "  optional group MyGroup = 1 [deprecated = true] { required int32 a = 2; }\n"
                          "  repeated group Rep = 3 { }\n"
                          "  oneof o { group InOneof = 4 { optional int32 b = 5; } }\n"
                          "}\n"
                          "extend M { optional group Ext = 100 { optional int32 c = 1; } }\n");
    ir_message *m = f->messages.v[0];
    assert_int_equal(m->fields.n, 3);
    ir_field *g = m->fields.v[0];
    assert_string_equal(g->name, "mygroup");
    assert_string_equal(g->json_name, "mygroup");
    assert_int_equal(g->type, IR_TYPE_GROUP);
    assert_string_equal(g->type_name, "MyGroup");
    assert_int_equal(g->options.n, 1);
    assert_int_equal(m->messages.n, 3);
    assert_string_equal(m->messages.v[0]->name, "MyGroup");
    assert_true(m->messages.v[0]->is_group);
    assert_string_equal(m->messages.v[0]->fields.v[0]->full_name, "M.MyGroup.a");
    assert_int_equal(m->fields.v[1]->label, IR_LABEL_REPEATED);
    assert_ptr_equal(m->fields.v[2]->oneof, m->oneofs.v[0]);
    assert_int_equal(m->fields.v[2]->label, IR_LABEL_NONE);
    /* a group in a file-level extend is a file-level message */
    assert_int_equal(f->messages.n, 2);
    assert_string_equal(f->messages.v[1]->name, "Ext");
    assert_string_equal(f->extensions.v[0]->name, "ext");
    assert_string_equal(f->extensions.v[0]->full_name, "ext");
}

static void test_oneofs_and_synthetic_oneofs(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto3\";\n"
                          "message M {\n"
                          "  optional int32 a = 1;\n"
                          "  oneof _a { option (x) = 1; string s = 2; M m = 3; }\n"
                          "  optional string _b = 4;\n"
                          "  int32 c = 5;\n"
                          "  oneof second { bytes y = 6; }\n"
                          "  optional bool d = 7;\n"
                          "}\n");
    ir_message *m = f->messages.v[0];
    assert_int_equal(m->oneofs.n, 5);
    assert_string_equal(m->oneofs.v[0]->name, "_a");
    assert_false(m->oneofs.v[0]->synthetic);
    assert_int_equal(m->oneofs.v[0]->options.n, 1);
    assert_int_equal(m->oneofs.v[0]->fields.n, 2);
    assert_string_equal(m->oneofs.v[1]->name, "second");
    assert_int_equal(m->oneofs.v[1]->index, 1);
    /* synthetic ones after the real ones, in field order, "X" prepended while a name is taken
     * (by a oneof, or by a field: "_b" keeps its name, which its own field holds) */
    assert_string_equal(m->oneofs.v[2]->name, "X_a");
    assert_true(m->oneofs.v[2]->synthetic);
    assert_int_equal(m->oneofs.v[2]->index, 2);
    assert_string_equal(m->oneofs.v[3]->name, "X_b");
    assert_string_equal(m->oneofs.v[4]->name, "_d");
    assert_int_equal(m->oneofs.v[4]->fields.n, 1);
    ir_field *a = m->fields.v[0];
    assert_true(a->proto3_optional);
    assert_int_equal(a->label, IR_LABEL_OPTIONAL);
    assert_ptr_equal(a->oneof, m->oneofs.v[2]);
    ir_field *s = m->fields.v[1];
    assert_int_equal(s->label, IR_LABEL_NONE);
    assert_ptr_equal(s->oneof, m->oneofs.v[0]);
    assert_false(s->proto3_optional);
    assert_null(m->fields.v[4]->oneof);
}

static void test_option_values(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto2\";\n"
                          "option (a.b).c.(.d.e) = { a: 1 b { c: \"x\" } [ext.f]: -2 // comment\n"
                          " l: [1, 2] };\n"
                          "option i = -9223372036854775808;\n"
                          "option u = 18446744073709551615;\n"
                          "option fl = 1.5e3;\n"
                          "option ni = -nan;\n"
                          "option id = FOO;\n"
                          "option s = \"ab\" 'c' \"\\0d\";\n"
                          "option kw = max;\n");
    assert_int_equal(f->options.n, 8);
    ir_option *o = &f->options.v[0];
    assert_int_equal(o->name.n, 3);
    assert_string_equal(o->name.v[0].name, "a.b");
    assert_true(o->name.v[0].extension);
    assert_string_equal(o->name.v[1].name, "c");
    assert_false(o->name.v[1].extension);
    assert_string_equal(o->name.v[2].name, ".d.e");
    assert_true(o->name.v[2].extension);
    assert_int_equal(o->value.kind, IR_VAL_AGGREGATE);
    assert_string_equal(o->value.text, "a : 1 b { c : \"x\" } [ ext . f ] : - 2 l : [ 1 , 2 ]");
    const ir_option *i = ir_option_get(&f->options, "i");
    assert_int_equal(i->value.kind, IR_VAL_INT);
    assert_true(i->value.negative);
    assert_true(i->value.u == (uint64_t)INT64_MAX + 1);
    assert_true(ir_option_get(&f->options, "u")->value.u == UINT64_MAX);
    const ir_option *fl = ir_option_get(&f->options, "fl");
    assert_int_equal(fl->value.kind, IR_VAL_FLOAT);
    assert_true(fl->value.d == 1500.0);
    assert_string_equal(fl->value.text, "1.5e3");
    const ir_option *ni = ir_option_get(&f->options, "ni");
    assert_int_equal(ni->value.kind, IR_VAL_FLOAT);
    assert_true(isnan(ni->value.d) && ni->value.negative);
    assert_string_equal(ir_option_find(&f->options, "id"), "FOO");
    const ir_option *s = ir_option_get(&f->options, "s");
    assert_int_equal(s->value.kind, IR_VAL_STRING);
    assert_int_equal(s->value.str_len, 5);
    assert_memory_equal(s->value.str, "abc\0d", 5);
    assert_string_equal(ir_option_find(&f->options, "kw"), "max");
}

static void test_enums(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto2\"; package p;\n"
                          "enum E {\n"
                          "  option allow_alias = true;\n"
                          "  ZERO = 0;\n"
                          "  NEG = -2147483648 [deprecated = true];\n"
                          "  ALIAS = 0;\n"
                          "  reserved 5, 10 to 20, -7 to -3, 100 to max;\n"
                          "  reserved \"OLD\", \"GONE\";\n"
                          "  max = 4;\n"
                          "}\n"
                          "enum F { F0 = 0; }\n");
    ir_enum *e = f->enums.v[0];
    assert_true(e->allow_alias);
    assert_false(f->enums.v[1]->allow_alias);
    assert_string_equal(e->full_name, "p.E");
    assert_int_equal(e->values.n, 4);
    assert_int_equal(e->values.v[1]->number, INT32_MIN);
    assert_int_equal(e->values.v[1]->options.n, 1);
    assert_string_equal(e->values.v[1]->full_name, "p.NEG");
    assert_ptr_equal(e->values.v[1]->parent, e);
    assert_string_equal(e->values.v[3]->name, "max");
    assert_int_equal(e->reserved_ranges.n, 4);
    assert_int_equal(e->reserved_ranges.v[0].start, 5);
    assert_int_equal(e->reserved_ranges.v[0].end, 5);
    assert_int_equal(e->reserved_ranges.v[2].start, -7);
    assert_int_equal(e->reserved_ranges.v[2].end, -3);
    assert_int_equal(e->reserved_ranges.v[3].end, INT32_MAX);
    assert_int_equal(e->reserved_names.n, 2);
    assert_string_equal(e->reserved_names.v[1], "GONE");
}

static void test_ranges(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto2\";\n"
                          "message M {\n"
                          "  extensions 100 to 199, 300 [(verification) = UNVERIFIED];\n"
                          "  extensions 1000 to max;\n"
                          "  reserved 2, 4 to 6, 9 to max;\n"
                          "  reserved \"a\", \"b\";\n"
                          "}\n"
                          "message S { option message_set_wire_format = true; extensions 4 to max; }\n");
    ir_message *m = f->messages.v[0];
    assert_int_equal(m->extension_ranges.n, 3);
    assert_int_equal(m->extension_ranges.v[0].start, 100);
    assert_int_equal(m->extension_ranges.v[0].end, 199);
    assert_int_equal(m->extension_ranges.v[0].options.n, 1);
    assert_true(m->extension_ranges.v[0].options.v[0].name.v[0].extension);
    assert_int_equal(m->extension_ranges.v[1].start, 300);
    assert_int_equal(m->extension_ranges.v[1].options.n, 1);
    assert_int_equal(m->extension_ranges.v[2].end, 536870911);
    assert_int_equal(m->extension_ranges.v[2].options.n, 0);
    assert_int_equal(m->reserved_ranges.n, 3);
    assert_int_equal(m->reserved_ranges.v[2].end, 536870911);
    assert_int_equal(m->reserved_names.n, 2);
    assert_int_equal(f->messages.v[1]->extension_ranges.v[0].end, INT32_MAX - 1);
}

static void test_extend_blocks(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto2\"; package p;\n"
                          "extend google.protobuf.FileOptions { optional int32 top = 50000; repeated string more = 50001; }\n"
                          "message Scope {\n"
                          "  extend .google.protobuf.FieldOptions { optional bool nested = 50002; }\n"
                          "}\n");
    assert_int_equal(f->extends.n, 1);
    ir_extend *x = f->extends.v[0];
    assert_string_equal(x->extendee_name, "google.protobuf.FileOptions");
    assert_null(x->scope);
    assert_int_equal(x->fields.n, 2);
    assert_int_equal(f->extensions.n, 2);
    ir_field *top = f->extensions.v[0];
    assert_string_equal(top->full_name, "p.top");
    assert_ptr_equal(top->extend, x);
    assert_null(top->parent);
    assert_int_equal(f->extensions.v[1]->index, 1);
    ir_message *s = f->messages.v[0];
    assert_int_equal(s->extends.n, 1);
    assert_ptr_equal(s->extends.v[0]->scope, s);
    assert_string_equal(s->extends.v[0]->extendee_name, ".google.protobuf.FieldOptions");
    ir_field *nested = s->extensions.v[0];
    assert_string_equal(nested->full_name, "p.Scope.nested");
    assert_ptr_equal(nested->parent, s);
    assert_int_equal(s->fields.n, 0);
}

static void test_services(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto3\"; package p;\n"
                          "service S {\n"
                          "  option deprecated = true;\n"
                          "  rpc A(Req) returns (Resp);\n"
                          "  rpc B(stream .p.Req) returns (stream Resp) { option idempotency_level = NO_SIDE_EFFECTS; ; }\n"
                          "  rpc C(Req) returns (stream Resp) {}\n"
                          "  ;\n"
                          "}\n");
    ir_service *s = f->services.v[0];
    assert_string_equal(s->full_name, "p.S");
    assert_int_equal(s->options.n, 1);
    assert_int_equal(s->methods.n, 3);
    ir_method *a = s->methods.v[0], *b = s->methods.v[1], *c = s->methods.v[2];
    assert_string_equal(a->input_name, "Req");
    assert_string_equal(a->output_name, "Resp");
    assert_false(a->client_streaming || a->server_streaming || a->has_body);
    assert_true(b->client_streaming && b->server_streaming && b->has_body);
    assert_string_equal(b->input_name, ".p.Req");
    assert_int_equal(b->options.n, 1);
    assert_false(c->client_streaming);
    assert_true(c->server_streaming && c->has_body);
    assert_int_equal(c->options.n, 0);
}

static void test_keywords_as_identifiers(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto2\"; package syntax.message;\n"
                          "message message {\n"
                          "  optional message message = 1;\n"
                          "  optional int32 option = 2;\n"
                          "  optional int32 syntax = 3;\n"
                          "  repeated group Group = 4 {}\n"
                          "  optional map map = 5;\n"
                          "  optional stream returns = 6;\n"
                          "  required to max = 7;\n"
                          "  optional .syntax.message.string str = 8;\n"
                          "  message string {}\n"
                          "  message map {}\n"
                          "  message stream {}\n"
                          "  message to {}\n"
                          "  enum enum { enum = 0; reserved_x = 1; }\n"
                          "}\n"
                          "service service { rpc rpc(message) returns (message); }\n");
    (void)f;
}

static void test_keywords_as_identifiers_ir(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto3\";\n"
                          "message M {\n"
                          "  optional message message = 1;\n"
                          "  string option = 2;\n"
                          "  map map = 3;\n"
                          "  map<string, map> m = 4;\n"
                          "  int32 extensions_ = 5;\n"
                          "  .M.string string = 6;\n"
                          "  message string {}\n"
                          "  message map {}\n"
                          "}\n");
    ir_message *m = f->messages.v[0];
    assert_int_equal(m->fields.n, 6);
    assert_string_equal(m->fields.v[0]->name, "message");
    assert_string_equal(m->fields.v[0]->type_name, "message");
    assert_string_equal(m->fields.v[1]->name, "option");
    assert_int_equal(m->fields.v[1]->type, IR_TYPE_STRING);
    assert_string_equal(m->fields.v[2]->type_name, "map");
    assert_false(m->fields.v[2]->is_map);
    assert_true(m->fields.v[3]->is_map);
    assert_string_equal(m->fields.v[5]->type_name, ".M.string");
    assert_string_equal(m->fields.v[5]->name, "string");
}

static void test_comments_attached(void **state)
{
    (void)state;
    ir_file *f = parse_ok("syntax = \"proto3\";\n"
                          "\n"
                          "// detached\n"
                          "\n"
                          "// leading of M\n"
                          "// <<<pbj.writers = true>>>\n"
                          "message M { // trailing of M\n"
                          "  /* leading of x */\n"
                          "  int32 x = 1; // trailing of x\n"
                          "  // inside, before }\n"
                          "}\n"
                          "enum E {\n"
                          "  // leading of V\n"
                          "  V = 0;\n"
                          "}\n");
    ir_message *m = f->messages.v[0];
    assert_string_equal(m->comments.leading, " leading of M\n <<<pbj.writers = true>>>\n");
    assert_int_equal(m->comments.leading_loc.line, 5);
    assert_string_equal(m->comments.trailing, " trailing of M\n");
    assert_int_equal(m->comments.detached.n, 1);
    assert_string_equal(m->comments.detached.v[0], " detached\n");
    ir_field *x = m->fields.v[0];
    assert_string_equal(x->comments.leading, " leading of x ");
    assert_string_equal(x->comments.trailing, " trailing of x\n");   /* the next line is nobody's: before a "}" */
    assert_string_equal(f->enums.v[0]->values.v[0]->comments.leading, " leading of V\n");
    /* every comment raw, in order, with the message it is in or before */
    assert_int_equal(f->comments.n, 8);
    assert_string_equal(f->comments.v[0].text, "// detached");
    assert_null(f->comments.v[0].before);
    assert_null(f->comments.v[0].inside);
    assert_string_equal(f->comments.v[2].text, "// <<<pbj.writers = true>>>");
    assert_int_equal(f->comments.v[2].loc.line, 6);
    assert_int_equal(f->comments.v[2].loc.col, 1);
    assert_ptr_equal(f->comments.v[1].before, m);
    assert_ptr_equal(f->comments.v[2].before, m);
    assert_null(f->comments.v[2].inside);
    assert_ptr_equal(f->comments.v[3].inside, m);
    assert_string_equal(f->comments.v[4].text, "/* leading of x */");
    assert_ptr_equal(f->comments.v[4].inside, m);
    assert_null(f->comments.v[4].before);
    assert_null(f->comments.v[7].inside);
}

static void test_syntax_errors(void **state)
{
    (void)state;
    assert_string_equal(parse_error("syntax = \"proto3\";\nmessage A {\n  int32 x = 1\n}\n"),
                        "t.proto:4:1: error: expected ';', found '}'");
    assert_string_equal(parse_error("syntax = \"proto3\";\nmessage A {\n"),
                        "t.proto:3:1: error: end of file inside message \"A\" (opened at line 2, column 9): missing '}'");
    assert_string_equal(parse_error("syntax = \"proto3\";\nfoo bar;\n"),
                        "t.proto:2:1: error: expected a top-level statement (message, enum, service, extend, import, package or option), found 'foo'");
    assert_string_equal(parse_error("edition = \"2022\";\n"),
                        "t.proto:1:11: error: unrecognized edition \"2022\"; pbjc recognizes \"2023\", \"2024\" and \"2026\"");
    assert_string_equal(parse_error("edition = \"2023\";\nmessage A { optional int32 x = 1; }\n"),
                        "t.proto:2:13: error: label \"optional\" is not allowed in editions; use option "
                        "features.field_presence = EXPLICIT (the default)");
    assert_string_equal(parse_error("edition = \"2023\";\nmessage A { group G = 1 {} }\n"),
                        "t.proto:2:13: error: group syntax is not supported in editions; use a message field with "
                        "features.message_encoding = DELIMITED");
    assert_string_equal(parse_error("edition = \"2023\";\nexport message A {}\n"),
                        "t.proto:2:1: error: \"export\" is not supported before edition 2024");
    assert_string_equal(parse_error("edition = \"2023\";\nimport option \"a.proto\";\n"),
                        "t.proto:2:8: error: \"option\" is not supported before edition 2024");
    assert_string_equal(parse_error("syntax = \"proto4\";\n"),
                        "t.proto:1:10: error: unrecognized syntax identifier \"proto4\"; pbjc recognizes only \"proto2\" and \"proto3\"");
    assert_string_equal(parse_error("syntax = \"proto2\";\nmessage A { int32 x = 1; }\n"),
                        "t.proto:2:19: error: expected \"required\", \"optional\", or \"repeated\" (proto2 fields need a label)");
    assert_string_equal(parse_error("syntax = \"proto3\";\nmessage A { oneof o { optional int32 x = 1; } }\n"),
                        "t.proto:2:23: error: fields in oneofs must not have labels (required / optional / repeated)");
    assert_string_equal(parse_error("syntax = \"proto3\";\nmessage A { oneof o { map<int32, int32> x = 1; } }\n"),
                        "t.proto:2:23: error: map fields are not allowed in oneofs");
    assert_string_equal(parse_error("syntax = \"proto3\";\nmessage A { repeated map<int32, int32> x = 1; }\n"),
                        "t.proto:2:13: error: field labels (required/optional/repeated) are not allowed on map fields");
    assert_string_equal(parse_error("syntax = \"proto2\";\nmessage A { optional group g = 1 {} }\n"),
                        "t.proto:2:28: error: group names must start with a capital letter");
    assert_string_equal(parse_error("syntax = \"proto3\";\nmessage A { int32 x = 2147483648; }\n"),
                        "t.proto:2:23: error: field number out of range: 2147483648");
    assert_string_equal(parse_error("syntax = \"proto3\";\noption x = -foo;\n"),
                        "t.proto:2:13: error: identifier after '-' must be inf or nan, not 'foo'");
    assert_string_equal(parse_error("syntax = \"proto3\";\nservice S { rpc M(int32) returns (R); }\n"),
                        "t.proto:2:19: error: expected a message type, found 'int32'");
    assert_string_equal(parse_error("syntax = \"proto3\";\npackage a;\npackage b;\n"),
                        "t.proto:3:1: error: multiple package definitions");
    assert_string_equal(parse_error("syntax = \"proto3\";\nmessage A { oneof o { } }\n"),
                        "t.proto:2:23: error: expected a field or an option, found '}'");
    assert_string_equal(parse_error("syntax = \"proto2\";\nmessage A {}\nextend A { }\n"),
                        "t.proto:3:12: error: expected a field, found '}'");
    assert_string_equal(parse_error("syntax = \"proto3\";\noption x = { a: 1 ;\n"),
                        "t.proto:2:12: error: aggregate value not closed before the end of the file");
}

/* Messages (groups included) nest at most 31 deep, as protoc allows. */
static void test_nesting_limit(void **state)
{
    (void)state;
    char text[4096];
    for (int depth = 31; depth <= 40; depth += 9) {
        size_t n = (size_t)snprintf(text, sizeof text, "syntax = \"proto3\";\n");
        for (int i = 0; i < depth; i++) n += (size_t)snprintf(text + n, sizeof text - n, "message M%d { ", i);
        for (int i = 0; i < depth; i++) text[n++] = '}';
        text[n] = '\0';
        if (depth == 31) {
            ir_file *f = parse_ok(text);
            assert_int_equal(f->messages.v[0]->messages.v[0]->messages.n, 1);
        } else {
            char *err;
            ir_file *f = parse_text(text, &err);
            assert_false(f->parsed_ok);
            assert_int_equal(front_diag()->errors, 1);
            assert_string_equal(first_line(err), "t.proto:2:433: error: messages are nested too deeply (more than 31 levels)");
        }
    }
}

/* Two runs at once: a file's diagnostics count into its own run's counts (its program's), not into
 * those of the run begun last, and its nodes live in its run's pool. */
static void test_two_runs_apart(void **state)
{
    (void)state;
    pbjc_context other;
    context_begin(&other);                   /* begun after the tests' run: the globals are its now */
    *front_diag() = (diag_counts){ 0 };
    capture_begin();
    ir_file *f = parser_parse(&front_prog, "t.proto", "t.proto", "syntax = \"proto3\";\nmessage {", 28);
    capture_end();
    assert_false(f->parsed_ok);
    assert_int_equal(front_diag()->errors, 1);
    assert_int_equal(other.diag.errors, 0);
    assert_ptr_equal(f->pool, front_pool());
    assert_ptr_equal(f->diag, front_diag());
    context_end(&other);
}

/* Several errors in one file are all reported: recovery skips to the next ';'. */
static void test_recovery_reports_every_error(void **state)
{
    (void)state;
    char *err;
    ir_file *f = parse_text("syntax = \"proto3\";\n"
                            "message A {\n"
                            "  int32 x = ;\n"
                            "  int32 y = 2;\n"
                            "  string z = 3 [;\n"
                            "  int32 w = 4;\n"
                            "}\n"
                            "enum E { V = x; W = 1; }\n"
                            "message B { int32 ok = 1; }\n", &err);
    assert_false(f->parsed_ok);
    assert_int_equal(front_diag()->errors, 3);
    assert_non_null(strstr(err, "t.proto:3:13: error: expected an integer, found ';'"));
    assert_non_null(strstr(err, "t.proto:5:17: error:"));
    assert_non_null(strstr(err, "t.proto:8:14: error:"));
    /* what parsed around the errors is kept */
    assert_int_equal(f->messages.n, 2);
    assert_int_equal(f->messages.v[0]->fields.n, 3);   /* x never got its number; z did */
    assert_string_equal(f->messages.v[0]->fields.v[0]->name, "y");
    assert_string_equal(f->messages.v[0]->fields.v[2]->name, "w");
    assert_string_equal(f->messages.v[1]->fields.v[0]->name, "ok");
    assert_string_equal(f->enums.v[0]->values.v[0]->name, "W");
}

/* Recovery as protoc's: a "{...}" block is skipped whole, a '}' ends the broken statement
 * and still closes its block, an unmatched '}' is dropped. */
static void test_recovery_at_braces(void **state)
{
    (void)state;
    char *err;
    ir_file *f = parse_text("syntax = \"proto3\";\n"
                            "message A { int32 x = 1; } }\n"
                            "message B { int32 y = 1; int32 z = 2; }\n"
                            "message C { int32 w = 1 }\n"
                            "message 5 { int32 skipped = 1; message Inner {} }\n"
                            "message D { int32 ok = 1; oneof o { } int32 after = 2; }\n", &err);
    assert_int_equal(front_diag()->errors, 4);
    assert_string_equal(err,
        "t.proto:2:28: error: expected a top-level statement (message, enum, service, extend, import, package or option), found '}'\n"
        "message A { int32 x = 1; } }\n"
        "                           ^\n"
        "t.proto:4:25: error: expected ';', found '}'\n"
        "message C { int32 w = 1 }\n"
        "                        ^\n"
        "t.proto:5:9: error: expected an identifier, found '5'\n"
        "message 5 { int32 skipped = 1; message Inner {} }\n"
        "        ^\n"
        "t.proto:6:37: error: expected a field or an option, found '}'\n"
        "message D { int32 ok = 1; oneof o { } int32 after = 2; }\n"
        "                                    ^\n");
    assert_int_equal(f->messages.n, 4);
    assert_string_equal(f->messages.v[1]->name, "B");
    assert_int_equal(f->messages.v[1]->fields.n, 2);
    assert_string_equal(f->messages.v[2]->name, "C");
    assert_string_equal(f->messages.v[3]->name, "D");
    assert_int_equal(f->messages.v[3]->fields.n, 2);
    assert_string_equal(f->messages.v[3]->fields.v[1]->name, "after");
}

/* The type tables from IR_FIELD_TYPES, and the finders. */
static void count_message(ir_message *m, void *ctx)
{
    char **order = ctx;
    *order = ir_pool_printf(front_pool(), "%s%s ", *order, m->name);
}

static void test_ir_tables_and_finders(void **state)
{
    (void)state;
    assert_string_equal(ir_type_keyword(IR_TYPE_SFIXED64), "sfixed64");
    assert_string_equal(ir_type_keyword(IR_TYPE_MESSAGE), "message");
    assert_string_equal(ir_type_keyword(IR_TYPE_ENUM), "enum");
    assert_null(ir_type_keyword(IR_TYPE_UNRESOLVED));
    assert_int_equal(ir_type_wire_type(IR_TYPE_INT32), 0);
    assert_int_equal(ir_type_wire_type(IR_TYPE_DOUBLE), 1);
    assert_int_equal(ir_type_wire_type(IR_TYPE_BYTES), 2);
    assert_int_equal(ir_type_wire_type(IR_TYPE_GROUP), 3);
    assert_int_equal(ir_type_wire_type(IR_TYPE_FIXED32), 5);
    assert_int_equal(ir_type_wire_type(IR_TYPE_UNRESOLVED), -1);
    assert_true(ir_type_is_packable(IR_TYPE_ENUM));
    assert_true(ir_type_is_packable(IR_TYPE_BOOL));
    assert_false(ir_type_is_packable(IR_TYPE_STRING));
    assert_false(ir_type_is_packable(IR_TYPE_MESSAGE));
    assert_int_equal(ir_type_from_keyword("uint32", 6), IR_TYPE_UINT32);
    assert_int_equal(ir_type_from_keyword("int32x", 5), IR_TYPE_INT32);   /* length-bounded */
    assert_int_equal(ir_type_from_keyword("group", 5), IR_TYPE_GROUP);
    assert_int_equal(ir_type_from_keyword("message", 7), IR_TYPE_UNRESOLVED);
    assert_int_equal(ir_type_from_keyword("Int32", 5), IR_TYPE_UNRESOLVED);

    ir_file *f = parse_ok("syntax = \"proto3\";\n"
                          "option go_package = 'g';\noption (custom) = \"c\";\noption cc_enable_arenas = true;\n"
                          "message A { message B { message C {} } message D {} }\nmessage E {}\n");
    assert_string_equal(ir_option_find(&f->options, "go_package"), "g");
    assert_string_equal(ir_option_find(&f->options, "cc_enable_arenas"), "true");
    assert_null(ir_option_find(&f->options, "custom"));            /* parenthesised: not a simple name */
    assert_ptr_equal(ir_option_get(&f->options, "go_package"), &f->options.v[0]);
    char *order = ir_pool_strdup(front_pool(), "");
    ir_each_message(f, count_message, &order);
    assert_string_equal(order, "A B C D E ");
    assert_string_equal(ir_pool_printf(front_pool(), "%d-%s", 7, "x"), "7-x");
    assert_string_equal(ir_pool_strcat(front_pool(), "ab", "cd"), "abcd");
}

/* Editions: the edition, visibility, option imports; "export" and "local" stay names elsewhere. */
static void test_editions(void **state)
{
    (void)state;
    ir_file *f = parse_ok("edition = \"2024\";\nimport option \"o.proto\";\nimport \"d.proto\";\n"
                          "export message A { local enum E { Z = 0; } local message B {} }\nlocal enum F { Y = 0; }\n");
    assert_int_equal(f->syntax, IR_EDITIONS);
    assert_int_equal(f->edition, EDITION_2024);
    assert_int_equal(f->imports.v[0].kind, IR_IMPORT_OPTION);
    assert_int_equal(f->imports.v[1].kind, IR_IMPORT_PLAIN);
    assert_int_equal(f->messages.v[0]->visibility, IR_VISIBILITY_EXPORT);
    assert_int_equal(f->messages.v[0]->enums.v[0]->visibility, IR_VISIBILITY_LOCAL);
    assert_int_equal(f->messages.v[0]->messages.v[0]->visibility, IR_VISIBILITY_LOCAL);
    assert_int_equal(f->enums.v[0]->visibility, IR_VISIBILITY_LOCAL);
    f = parse_ok("edition = \"2023\";\nmessage A { repeated int32 r = 1; int32 s = 2; }\n");
    assert_int_equal(f->edition, EDITION_2023);
    assert_int_equal(f->messages.v[0]->fields.v[1]->label, IR_LABEL_NONE);
    f = parse_ok("syntax = \"proto3\";\nmessage local { export x = 1; }\nmessage export { local y = 1; }\n");
    assert_string_equal(f->messages.v[0]->name, "local");
    assert_string_equal(f->messages.v[0]->fields.v[0]->type_name, "export");
    assert_string_equal(f->messages.v[1]->fields.v[0]->type_name, "local");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_header),
        cmocka_unit_test(test_missing_syntax_is_proto2_with_warning),
        cmocka_unit_test(test_message_fields_and_names),
        cmocka_unit_test(test_map_desugared),
        cmocka_unit_test(test_groups),
        cmocka_unit_test(test_oneofs_and_synthetic_oneofs),
        cmocka_unit_test(test_option_values),
        cmocka_unit_test(test_enums),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_extend_blocks),
        cmocka_unit_test(test_services),
        cmocka_unit_test(test_keywords_as_identifiers),
        cmocka_unit_test(test_keywords_as_identifiers_ir),
        cmocka_unit_test(test_comments_attached),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_nesting_limit),
        cmocka_unit_test(test_two_runs_apart),
        cmocka_unit_test(test_recovery_reports_every_error),
        cmocka_unit_test(test_recovery_at_braces),
        cmocka_unit_test(test_ir_tables_and_finders),
        cmocka_unit_test(test_editions),
    };
    return cmocka_run_group_tests(tests, front_begin, front_end);
}
