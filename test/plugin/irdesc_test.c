/* irdesc_test.c: plugin mode's front end (irdesc.c) on the descriptors of small schemas: the IR it builds
 * is the parser's for the same text (what a descriptor shows and what it does not), and a broken or
 * inconsistent descriptor gives a clean error. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "descriptor.h"
#include "front_util.h"
#include "emit.h"
#include "irdesc.h"
#include "options.h"
#include "resolve.h"
#include "temp_dir.h"

typedef google_protobuf_FileDescriptorSet file_set;
typedef google_protobuf_FileDescriptorProto file_proto;

static char dir[64];
static pbj_arena arena;

static int setup(void **state)
{
    (void)state;
    if (!temp_dir_make(dir, "irdesc")) return -1;
    pbj_arena_init(&arena, NULL, 0);
    return front_begin(state);
}

static int teardown(void **state)
{
    (void)state;
    pbj_arena_free(&arena);
    front_end(state);
    return temp_dir_remove(dir);
}

static void write_file(const char *name, const char *text)
{
    FILE *fp = fopen(ir_pool_printf(front_pool(), "%s/%s", dir, name), "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

/* ---- the two ways to the IR ---------------------------------------------------------------------- */

/* t.proto (and what it imports) parsed and resolved, as pbjc -o reads it. */
static ir_program *parsed(const char *text)
{
    write_file("t.proto", text);
    ir_program *p = ir_pool_alloc(front_pool(), sizeof *p);
    context_program(&front, p);
    ir_pool_vec_push(front_pool(), &p->roots, dir);
    p->keep_tokens = true;
    const char *path = ir_pool_printf(front_pool(), "%s/t.proto", dir);
    assert_int_equal(resolve_program(p, &path, 1), 0);
    return p;
}

/* The bytes of p's descriptor set (its inputs and their imports; flags: DESCRIPTOR_SOURCE_INFO). */
static pbj_slice set_bytes(const ir_program *p, unsigned flags)
{
    const char *path = ir_pool_printf(front_pool(), "%s/set.pb", dir);
    assert_int_equal(descriptor_write_set(p, DESCRIPTOR_IMPORTS | flags, path), 0);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    uint8_t *buf = ir_pool_alloc(front_pool(), 1 << 16);
    size_t n = fread(buf, 1, 1 << 16, fp);
    fclose(fp);
    assert_true(n < 1 << 16);
    return pbj_slice_make(buf, n);
}

/* The set protoc would pass a plugin for p (comments included), decoded. */
static file_set *descriptors(const ir_program *p)
{
    pbj_slice b = set_bytes(p, DESCRIPTOR_SOURCE_INFO);
    file_set *set = pbj_arena_alloc(&arena, sizeof *set);
    assert_non_null(set);
    assert_int_equal(google_protobuf_FileDescriptorSet_decode(set, b.data, b.len, &arena, NULL), PBJ_OK);
    return set;
}

/* emit's sink: every output appended to the text *ctx. */
static int append(void *ctx, const char *name, const char *text, size_t len)
{
    char **all = ctx;
    *all = ir_pool_printf(front_pool(), "%s== %s\n%.*s", *all, name, (int)len, text);
    return 0;
}

/* The code pbjc generates for p's input (its pbj options resolved first, with none from the command line). */
static char *generated(ir_program *p, int *errors)
{
    char *all = ir_pool_strdup(front_pool(), "");
    *errors = options_resolve(options_project_new(front_pool(), front_diag()), p);
    const plan_program *pp = *errors ? NULL : plan_build(p, front_pool());
    if (pp) *errors = plan_check(pp);
    if (*errors == 0) *errors = emit_program_to(pp, append, &all);
    return all;
}

/* Every file of set through irdesc, the last one the input (as a CodeGeneratorRequest lists them); resolved
 * and generated, as plugin mode does. */
static ir_program *built_quiet(const file_set *set, int *errors, char **code)
{
    ir_program *p = ir_pool_alloc(front_pool(), sizeof *p);
    context_program(&front, p);
    for (size_t i = 0; i < set->file.count; i++) ir_pool_vec_push(front_pool(), &p->files, irdesc_file(p, &set->file.data[i]));
    ir_file *input = p->files.v[p->files.n - 1];
    input->is_input = true;
    ir_pool_vec_push(front_pool(), &p->inputs, input);
    *errors = front_diag()->errors ? front_diag()->errors : resolve_loaded(p);
    *code = *errors ? NULL : generated(p, errors);
    return p;
}

static ir_program *built(const file_set *set, char **code)
{
    int errors;
    ir_program *p = built_quiet(set, &errors, code);
    assert_int_equal(errors, 0);
    return p;
}

/* ---- the IR compared where a descriptor does not show it ---------------------------------------- */

static void same_str(const char *a, const char *b, const char *what)
{
    if (!a || !b) {
        if (a != b) fail_msg("%s: \"%s\" against \"%s\"", what, a ? a : "(null)", b ? b : "(null)");
        return;
    }
    if (strcmp(a, b)) fail_msg("%s: \"%s\" against \"%s\"", what, a, b);
}

static const char *full_name_of(const ir_message *m, const ir_enum *e)
{
    return m ? m->full_name : e ? e->full_name : NULL;
}

static void same_comments(const ir_comments *a, const ir_comments *b, const char *what)
{
    same_str(a->leading, b->leading, ir_pool_printf(front_pool(), "%s: leading comment", what));
    same_str(a->trailing, b->trailing, ir_pool_printf(front_pool(), "%s: trailing comment", what));
    assert_int_equal(a->detached.n, b->detached.n);
    for (size_t i = 0; i < a->detached.n; i++) same_str(a->detached.v[i], b->detached.v[i], ir_pool_printf(front_pool(), "%s: detached comment", what));
}

static void same_field(const ir_field *a, const ir_field *b)
{
    const char *what = a->full_name;
    same_str(a->full_name, b->full_name, "field");
    assert_int_equal(a->number, b->number);
    if (a->label != b->label) fail_msg("%s: label %d against %d", what, a->label, b->label);
    if (a->type != b->type) fail_msg("%s: type %d against %d", what, a->type, b->type);
    same_str(full_name_of(a->message_type, a->enum_type), full_name_of(b->message_type, b->enum_type), ir_pool_printf(front_pool(), "%s: type", what));
    if (a->is_map != b->is_map || a->proto3_optional != b->proto3_optional) fail_msg("%s: map or proto3 optional", what);
    same_str(a->json_name, b->json_name, ir_pool_printf(front_pool(), "%s: json_name", what));
    if (a->json_name_explicit != b->json_name_explicit) fail_msg("%s: json_name written", what);   /* (unless it is the default's) */
    same_str(a->default_value, b->default_value, ir_pool_printf(front_pool(), "%s: default", what));
    if ((a->oneof ? a->oneof->index : -1) != (b->oneof ? b->oneof->index : -1)) fail_msg("%s: oneof", what);
    same_str(a->extend ? a->extend->extendee->full_name : NULL, b->extend ? b->extend->extendee->full_name : NULL,
             ir_pool_printf(front_pool(), "%s: extendee", what));
    same_comments(&a->comments, &b->comments, what);
}

static void same_fields(const ir_field *const *a, size_t na, ir_field *const *b, size_t nb)
{
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++) same_field(a[i], b[i]);
}

static void same_enum(const ir_enum *a, const ir_enum *b)
{
    same_str(a->full_name, b->full_name, "enum");
    assert_int_equal(a->allow_alias, b->allow_alias);
    assert_int_equal(a->values.n, b->values.n);
    for (size_t i = 0; i < a->values.n; i++) {
        same_str(a->values.v[i]->full_name, b->values.v[i]->full_name, "enum value");
        assert_int_equal(a->values.v[i]->number, b->values.v[i]->number);
        same_comments(&a->values.v[i]->comments, &b->values.v[i]->comments, a->values.v[i]->full_name);
    }
    same_comments(&a->comments, &b->comments, a->full_name);
}

static void same_message(const ir_message *a, const ir_message *b)
{
    same_str(a->full_name, b->full_name, "message");
    if (a->map_entry != b->map_entry || a->is_group != b->is_group || a->message_set_wire_format != b->message_set_wire_format)
        fail_msg("%s: map entry, group or message set", a->full_name);
    same_fields((const ir_field *const *)a->fields.v, a->fields.n, b->fields.v, b->fields.n);
    same_fields((const ir_field *const *)a->extensions.v, a->extensions.n, b->extensions.v, b->extensions.n);
    assert_int_equal(a->oneofs.n, b->oneofs.n);
    for (size_t i = 0; i < a->oneofs.n; i++) {
        same_str(a->oneofs.v[i]->name, b->oneofs.v[i]->name, "oneof");
        assert_int_equal(a->oneofs.v[i]->synthetic, b->oneofs.v[i]->synthetic);
        assert_int_equal(a->oneofs.v[i]->fields.n, b->oneofs.v[i]->fields.n);
        same_comments(&a->oneofs.v[i]->comments, &b->oneofs.v[i]->comments, a->oneofs.v[i]->name);
    }
    assert_int_equal(a->messages.n, b->messages.n);
    for (size_t i = 0; i < a->messages.n; i++) same_message(a->messages.v[i], b->messages.v[i]);
    assert_int_equal(a->enums.n, b->enums.n);
    for (size_t i = 0; i < a->enums.n; i++) same_enum(a->enums.v[i], b->enums.v[i]);
    same_comments(&a->comments, &b->comments, a->full_name);
}

static void same_service(const ir_service *a, const ir_service *b)
{
    same_str(a->full_name, b->full_name, "service");
    assert_int_equal(a->methods.n, b->methods.n);
    for (size_t i = 0; i < a->methods.n; i++) {
        const ir_method *x = a->methods.v[i], *y = b->methods.v[i];
        same_str(x->name, y->name, "method");
        same_str(x->input->full_name, y->input->full_name, "method input");
        same_str(x->output->full_name, y->output->full_name, "method output");
        if (x->client_streaming != y->client_streaming || x->server_streaming != y->server_streaming) fail_msg("%s: streaming", x->name);
        same_comments(&x->comments, &y->comments, x->name);
    }
    same_comments(&a->comments, &b->comments, a->full_name);
}

/* The input of a (parsed) and of b (built): every declaration alike, and the same descriptor set. */
static void same_program(const ir_program *a, const ir_program *b)
{
    const ir_file *x = a->inputs.v[0], *y = b->inputs.v[0];
    assert_int_equal(x->syntax, y->syntax);
    if (x->syntax != IR_PROTO2) assert_int_equal(x->syntax_explicit, y->syntax_explicit);   /* protoc writes no "proto2" */
    same_str(x->package, y->package, "package");
    assert_int_equal(x->imports.n, y->imports.n);
    for (size_t i = 0; i < x->imports.n; i++) {
        same_str(x->imports.v[i].name, y->imports.v[i].name, "import");
        assert_int_equal(x->imports.v[i].kind, y->imports.v[i].kind);
    }
    assert_int_equal(x->messages.n, y->messages.n);
    for (size_t i = 0; i < x->messages.n; i++) same_message(x->messages.v[i], y->messages.v[i]);
    assert_int_equal(x->enums.n, y->enums.n);
    for (size_t i = 0; i < x->enums.n; i++) same_enum(x->enums.v[i], y->enums.v[i]);
    assert_int_equal(x->services.n, y->services.n);
    for (size_t i = 0; i < x->services.n; i++) same_service(x->services.v[i], y->services.v[i]);
    same_fields((const ir_field *const *)x->extensions.v, x->extensions.n, y->extensions.v, y->extensions.n);
    pbj_slice da = set_bytes(a, 0), db = set_bytes(b, 0);    /* options, ranges, defaults, ... */
    assert_int_equal(da.len, db.len);
    assert_memory_equal(da.data, db.data, da.len);
}

/* text parsed, and through its descriptors: the same IR, the same generated code. */
static ir_program *round_trip(const char *text)
{
    ir_program *a = parsed(text);
    char *code;
    ir_program *b = built(descriptors(a), &code);
    same_program(a, b);
    int errors;
    char *want = generated(a, &errors);
    assert_int_equal(errors, 0);
    assert_true(strstr(code, ".pb.c\n"));
    assert_string_equal(code, want);
    return b;
}

/* ---- declarations --------------------------------------------------------------------------------- */

static void test_every_kind_and_label(void **state)
{
    (void)state;
    ir_program *p = round_trip(
        "syntax = \"proto2\";\npackage k;\n"
        "message All {\n"
        "  optional double a = 1; optional float b = 2; optional int64 c = 3; optional uint64 d = 4;\n"
        "  required int32 e = 5; optional fixed64 f = 6; optional fixed32 g = 7; optional bool h = 8;\n"
        "  optional string i = 9; optional bytes j = 12; optional uint32 k = 13; optional sfixed32 l = 15;\n"
        "  optional sfixed64 m = 16; optional sint32 n = 17; optional sint64 o = 18;\n"
        "  optional All p = 19; optional E q = 20; repeated int32 r = 21 [packed = true]; repeated All s = 22;\n"
        "  optional group Grp = 23 { optional int32 x = 1; }\n"
        "  repeated group Rep = 24 { required string y = 1; }\n"
        "}\n"
        "enum E { E0 = 0; E1 = 1; }\n");
    const ir_message *m = p->inputs.v[0]->messages.v[0];
    assert_int_equal(m->fields.n, 21);
    assert_int_equal(m->fields.v[4]->label, IR_LABEL_REQUIRED);
    assert_int_equal(m->fields.v[17]->label, IR_LABEL_REPEATED);
    assert_int_equal(m->fields.v[19]->type, IR_TYPE_GROUP);
    assert_true(m->messages.v[0]->is_group);
    same_str(m->fields.v[19]->message_type->full_name, "k.All.Grp", "group type");
}

static void test_proto3_labels_and_optional(void **state)
{
    (void)state;
    ir_program *p = round_trip(
        "syntax = \"proto3\";\n"
        "message M {\n"
        "  int32 plain = 1;\n"
        "  optional string maybe = 2;\n"
        "  repeated sint64 many = 3;\n"
        "  oneof choice { string text = 4; M more = 5; }\n"
        "  optional M other = 6;\n"
        "}\n");
    const ir_message *m = p->inputs.v[0]->messages.v[0];
    assert_int_equal(m->fields.v[0]->label, IR_LABEL_NONE);
    assert_int_equal(m->fields.v[1]->label, IR_LABEL_OPTIONAL);
    assert_true(m->fields.v[1]->proto3_optional);
    assert_int_equal(m->fields.v[3]->label, IR_LABEL_NONE);
    assert_int_equal(m->oneofs.n, 3);                       /* choice, then the synthetic _maybe and _other */
    assert_false(m->oneofs.v[0]->synthetic);
    assert_true(m->oneofs.v[1]->synthetic);
    same_str(m->oneofs.v[2]->name, "_other", "synthetic oneof");
    assert_ptr_equal(m->fields.v[4]->oneof, m->oneofs.v[0]);
}

static void test_maps(void **state)
{
    (void)state;
    ir_program *p = round_trip(
        "syntax = \"proto3\";\npackage mp;\n"
        "enum Color { RED = 0; BLUE = 1; }\n"
        "message V { int32 x = 1; }\n"
        "message M {\n"
        "  map<string, int32> counts = 1;\n"
        "  map<int64, V> by_id = 2;\n"
        "  map<bool, Color> colors = 3;\n"
        "  repeated MyEntry not_a_map = 4;\n"
        "  message MyEntry { string key = 1; string value = 2; }\n"
        "}\n");
    const ir_message *m = p->inputs.v[0]->messages.v[1];
    assert_true(m->fields.v[0]->is_map);
    assert_true(m->fields.v[2]->is_map);
    assert_false(m->fields.v[3]->is_map);                   /* a repeated message named *Entry is no map */
    assert_true(m->messages.v[1]->map_entry);
    same_str(m->fields.v[1]->message_type->fields.v[1]->message_type->full_name, "mp.V", "map value type");
}

static void test_nested_and_enums(void **state)
{
    (void)state;
    round_trip(
        "syntax = \"proto2\";\npackage a.b;\n"
        "message Outer {\n"
        "  message Middle {\n"
        "    message Inner { optional Kind kind = 1 [default = K2]; optional Outer up = 2; }\n"
        "    enum Kind { option allow_alias = true; K1 = 1; K2 = 2; ALSO_K2 = 2 [deprecated = true]; }\n"
        "    optional Inner inner = 1;\n"
        "  }\n"
        "  optional Middle.Inner deep = 1;\n"
        "  reserved 5 to 9, 100 to max;\n"
        "  reserved \"gone\", \"old\";\n"
        "}\n"
        "enum Top { TOP_ZERO = 0; reserved 3 to 5; reserved \"T9\"; }\n");
}

static void test_extensions(void **state)
{
    (void)state;
    ir_program *p = round_trip(
        "syntax = \"proto2\";\npackage x;\n"
        "message Base { extensions 100 to 199; extensions 1000 to max; optional int32 id = 1; }\n"
        "message Other { extensions 10 to 20; }\n"
        "extend Base { optional int32 tip = 100; repeated string tags = 101; }\n"
        "extend Other { optional Base back = 10; }\n"
        "extend Base { optional bool again = 102; }\n"
        "message Scope {\n"
        "  extend Base { optional Scope self = 150; optional group Grp = 151 { optional int32 v = 1; } }\n"
        "}\n"
        "extend Other { optional group Top = 11 { optional int32 w = 1; } }\n");
    const ir_file *f = p->inputs.v[0];
    assert_int_equal(f->extends.n, 4);                      /* one extend block per run of one extendee */
    assert_int_equal(f->extensions.n, 5);
    assert_true(f->messages.v[3]->is_group);                /* Top, the file-level group extension's */
    assert_int_equal(f->messages.v[2]->extensions.n, 2);
    same_str(f->messages.v[2]->extensions.v[1]->full_name, "x.Scope.grp", "group extension");
}

static void test_defaults_and_json_names(void **state)
{
    (void)state;
    round_trip(
        "syntax = \"proto2\";\n"
        "message D {\n"
        "  optional string s = 1 [default = \"a\\\"b\\n\\\\c\\001\"];\n"
        "  optional bytes b = 2 [default = \"\\000\\377x\\t'\"];\n"
        "  optional double inf = 3 [default = inf]; optional float ninf = 4 [default = -inf];\n"
        "  optional double nan = 5 [default = nan]; optional int64 neg = 6 [default = -9223372036854775808];\n"
        "  optional uint64 big = 7 [default = 18446744073709551615]; optional float f = 8 [default = 1.5e-3];\n"
        "  optional bool t = 9 [default = true]; optional sint32 hex = 10 [default = 0x7f];\n"
        "  optional int32 renamed = 11 [json_name = \"other\"];\n"
        "}\n");
}

static void test_options(void **state)
{
    (void)state;
    ir_program *p = round_trip(
        "syntax = \"proto3\";\n"
        "option java_package = \"com.x\"; option optimize_for = LITE_RUNTIME; option cc_enable_arenas = false;\n"
        "option deprecated = true;\n"
        "message M {\n"
        "  option deprecated = true;\n"
        "  repeated int32 unpacked = 1 [packed = false, deprecated = true];\n"
        "  string s = 2 [ctype = CORD, json_name = \"x\"];\n"
        "  oneof o { int32 a = 3; }\n"
        "}\n"
        "enum E { option deprecated = true; E0 = 0 [deprecated = true]; }\n"
        "service S { option deprecated = true; rpc Call(M) returns (M) { option idempotency_level = NO_SIDE_EFFECTS; }\n"
        "  rpc Stream(stream M) returns (stream M); }\n");
    same_str(ir_option_find(&p->inputs.v[0]->options, "optimize_for"), "LITE_RUNTIME", "file option");
    assert_true(p->inputs.v[0]->messages.v[0]->fields.v[0]->deprecated);
}

static void test_imports_and_services(void **state)
{
    (void)state;
    write_file("dep.proto", "syntax = \"proto3\";\npackage dep;\nmessage Req { string q = 1; }\n");
    write_file("pub.proto", "syntax = \"proto3\";\npackage dep;\nmessage Resp { int32 n = 1; }\n");
    write_file("weak.proto", "syntax = \"proto3\";\npackage dep;\nmessage W {}\n");
    ir_program *p = round_trip(
        "syntax = \"proto3\";\npackage svc;\n"
        "import \"dep.proto\";\nimport public \"pub.proto\";\nimport weak \"weak.proto\";\n"
        "service Api {\n"
        "  rpc Get(dep.Req) returns (dep.Resp);\n"
        "  rpc Up(stream dep.Req) returns (dep.Resp) {}\n"
        "  rpc Down(dep.Req) returns (stream dep.Resp);\n"
        "}\n"
        "message Use { dep.W w = 1; }\n");
    const ir_file *f = p->inputs.v[0];
    assert_int_equal(p->files.n, 4);
    assert_int_equal(f->imports.v[1].kind, IR_IMPORT_PUBLIC);
    assert_int_equal(f->imports.v[2].kind, IR_IMPORT_WEAK);
    assert_true(f->services.v[0]->methods.v[1]->client_streaming);
    assert_true(f->services.v[0]->methods.v[2]->server_streaming);
}

static void test_editions(void **state)
{
    (void)state;
    ir_program *p = round_trip(
        "edition = \"2023\";\n"
        "option features.field_presence = IMPLICIT;\n"
        "message M {\n"
        "  int32 a = 1 [features.field_presence = EXPLICIT];\n"
        "  repeated int32 b = 2 [features.repeated_field_encoding = EXPANDED];\n"
        "  M c = 3 [features.message_encoding = DELIMITED];\n"
        "}\n"
        "enum E { option features.enum_type = CLOSED; E1 = 1; }\n");
    assert_int_equal(p->inputs.v[0]->syntax, IR_EDITIONS);
    assert_int_equal(p->inputs.v[0]->edition, EDITION_2023);
}

/* ---- comments --------------------------------------------------------------------------------------- */

static void test_comments(void **state)
{
    (void)state;
    ir_program *p = round_trip(
        "syntax = \"proto3\";\n\n"
        "// detached from M\n\n"
        "// M leads\n"
        "message M { // M trails\n"
        "  /* field leads */\n"
        "  int32 a = 1; // a trails\n"
        "  // o leads\n"
        "  oneof o { string b = 2; }\n"
        "  // <<<pbj.views = true>>>\n"
        "  message N {}\n"
        "}\n"
        "// E leads\n"
        "enum E {\n"
        "  E0 = 0; // E0 trails\n"
        "}\n"
        "service S {\n"
        "  // Call leads\n"
        "  rpc Call(M) returns (M);\n"
        "}\n"
        "message Last {}\n");
    const ir_file *f = p->inputs.v[0];
    same_str(f->messages.v[0]->comments.leading, " M leads\n", "leading");
    same_str(f->messages.v[0]->fields.v[0]->comments.trailing, " a trails\n", "trailing");
    assert_int_equal(f->messages.v[0]->comments.detached.n, 1);
    bool before_n = false;                                  /* the pbj option's comment leads N, inside M */
    for (size_t i = 0; i < f->comments.n; i++)
        if (strstr(f->comments.v[i].text, "<<<pbj.views = true>>>"))
            before_n = f->comments.v[i].before == f->messages.v[0]->messages.v[0] && f->comments.v[i].inside == f->messages.v[0];
    assert_true(before_n);
}

/* ---- broken and inconsistent descriptors ------------------------------------------------------------- */

static const char *const small =
    "syntax = \"proto3\";\npackage s;\n"
    "message M { int32 f = 1; oneof o { string g = 2; } }\n";

/* set's input built with diagnostics captured: the first line said, "" when none. */
static char *error_of(const file_set *set)
{
    int errors;
    char *code;
    *front_diag() = (diag_counts){ 0 };
    capture_begin();
    ir_program *p = built_quiet(set, &errors, &code);
    char *said = capture_end();
    assert_non_null(p);
    if (errors == 0) return ir_pool_strdup(front_pool(), "");
    return first_line(said);
}

static void expect_error(const file_set *set, const char *want)
{
    char *said = error_of(set);
    if (!strstr(said, want)) fail_msg("wanted an error with \"%s\", got \"%s\"", want, said);
}

static file_set *small_set(void) { return descriptors(parsed(small)); }
static file_proto *input_of(file_set *set) { return &set->file.data[set->file.count - 1]; }

static void test_no_type(void **state)
{
    (void)state;
    file_set *set = small_set();
    input_of(set)->message_type.data[0].field.data[0].has_type = false;
    expect_error(set, "t.proto:3:13: error: field \"f\" has no type");
}

static void test_bad_oneof_index(void **state)
{
    (void)state;
    file_set *set = small_set();
    input_of(set)->message_type.data[0].field.data[1].oneof_index = 3;
    expect_error(set, "error: field \"g\" names oneof 3, which \"M\" does not have");
    set = small_set();
    input_of(set)->message_type.data[0].field.data[1].oneof_index = -1;
    expect_error(set, "names oneof -1");
}

static void test_bad_syntax(void **state)
{
    (void)state;
    file_set *set = small_set();
    input_of(set)->syntax = pbj_slice_cstr("proto4");
    expect_error(set, "error: unrecognized syntax \"proto4\" (edition 0)");
    set = small_set();
    input_of(set)->syntax = pbj_slice_cstr("editions");       /* and no edition */
    expect_error(set, "unrecognized syntax \"editions\" (edition 0)");
    set = small_set();                                      /* an edition pbjc does not know */
    input_of(set)->syntax = pbj_slice_cstr("editions");
    input_of(set)->has_edition = true;
    input_of(set)->edition = google_protobuf_Edition_EDITION_PROTO3;
    expect_error(set, "unrecognized syntax \"editions\" (edition 999)");
}

static void test_unresolved_names(void **state)
{
    (void)state;
    file_set *set = small_set();
    google_protobuf_FieldDescriptorProto *f = &input_of(set)->message_type.data[0].field.data[0];
    f->type = google_protobuf_FieldDescriptorProto_Type_TYPE_MESSAGE;
    f->has_type_name = true;
    f->type_name = pbj_slice_cstr(".s.Nowhere");
    expect_error(set, "is not defined");
    set = small_set();
    f = &input_of(set)->message_type.data[0].field.data[0];
    f->has_type = false;                                    /* a name alone: resolve finds its kind */
    f->has_type_name = true;
    f->type_name = pbj_slice_cstr(".s.M");
    assert_string_equal(error_of(set), "");
}

static void test_missing_import(void **state)
{
    (void)state;
    write_file("dep.proto", "syntax = \"proto3\";\nmessage D {}\n");
    file_set *set = descriptors(parsed("syntax = \"proto3\";\nimport \"dep.proto\";\nmessage M { D d = 1; }\n"));
    set->file.data[0] = set->file.data[1];                 /* the import's descriptor left out */
    set->file.count = 1;
    expect_error(set, "dep.proto");
}

static void test_duplicates(void **state)
{
    (void)state;
    file_set *set = small_set();
    google_protobuf_DescriptorProto *m = &input_of(set)->message_type.data[0];
    m->field.data[1].number = 1;                           /* two fields numbered 1 */
    expect_error(set, "error: Field number 1 has already been used in \"s.M\" by field \"f\".");
    set = small_set();
    input_of(set)->message_type.data[0].field.data[1].name = pbj_slice_cstr("f");
    expect_error(set, "\"f\" is already defined");
}

static void test_bad_numbers_and_extendee(void **state)
{
    (void)state;
    file_set *set = small_set();
    input_of(set)->message_type.data[0].field.data[0].number = 0;
    expect_error(set, "error: Field numbers must be positive integers.");
    set = descriptors(parsed("syntax = \"proto2\";\nmessage B { extensions 5 to 9; }\nextend B { optional int32 e = 5; }\n"));
    input_of(set)->extension.data[0].extendee = pbj_slice_cstr(".Nope");
    expect_error(set, "t.proto:3:12: error: \".Nope\" is not defined.");
    set = descriptors(parsed("syntax = \"proto2\";\nmessage B { extensions 5 to 9; }\nextend B { optional int32 e = 5; }\n"));
    input_of(set)->extension.data[0].number = 10;
    expect_error(set, "error: \"B\" does not declare 10 as an extension number.");
}

/* A map field whose entry message is not the key and value protoc makes: one change at a time. */
static void test_bad_map_entry(void **state)
{
    (void)state;
    static const char *const map = "syntax = \"proto2\";\nmessage M { map<string, int32> m = 1; }\n";
    const char *want = "t.proto:2:13: error: map field \"m\": its entry type \"MEntry\" is not an optional key = 1 and value = 2";
    for (int change = 0; change < 5; change++) {
        file_set *set = descriptors(parsed(map));
        google_protobuf_DescriptorProto *entry = &input_of(set)->message_type.data[0].nested_type.data[0];
        google_protobuf_FieldDescriptorProto *key = &entry->field.data[0], *value = &entry->field.data[1];
        switch (change) {
        case 0: entry->field.count = 1; break;
        case 1: value->number = 3; break;
        case 2: key->name = pbj_slice_cstr("k"); break;
        case 3: key->label = google_protobuf_FieldDescriptorProto_Label_LABEL_REPEATED; break;
        default: *key = *value; break;                      /* two values */
        }
        expect_error(set, want);
    }
}

/* One change to a good descriptor of src at a time; each gives its error (irdesc's or resolve's). */
static void test_inconsistent(void **state)
{
    (void)state;
    static const char *const src = "syntax = \"proto2\";\npackage p;\n"
                                   "message M { optional int32 f = 1; oneof o { string g = 2; } optional E e = 3; extensions 10 to 20; }\n"
                                   "enum E { A = 0; }\n";
    static const char *const want[] = {
        "t.proto:3:35: error: Oneof must have at least one field.",
        "t.proto:3:13: error: field \"f\" is proto3 optional but not alone in a oneof",
        "t.proto:3:13: error: Expected integer for field default value.",
        "t.proto:3:61: error: Enum type \"p.E\" has no value named \"B\".",
        "t.proto:3:1: error: Extension range end number must be greater than start number.",
        "t.proto:3:1: error: \"\" is not a valid identifier.",
        "t.proto:3:13: error: \"a b\" is not a valid identifier.",
        "t.proto:4:10: error: \"1A\" is not a valid identifier.",
        "t.proto:2:1: error: \"p..q\" is not a valid identifier.",
        "t.proto:2:1: error: \"p.\" is not a valid identifier.",
    };
    for (size_t change = 0; change < sizeof want / sizeof *want; change++) {
        file_set *set = descriptors(parsed(src));
        file_proto *fd = input_of(set);
        google_protobuf_DescriptorProto *m = &fd->message_type.data[0];
        google_protobuf_FieldDescriptorProto *f = &m->field.data[0], *e = &m->field.data[2];
        switch (change) {
        case 0: m->field.data[1].has_oneof_index = false; break;
        case 1: f->proto3_optional = true; break;
        case 2: f->has_default_value = true, f->default_value = pbj_slice_cstr("abc"); break;
        case 3: e->has_default_value = true, e->default_value = pbj_slice_cstr("B"); break;
        case 4: m->extension_range.data[0].end = 5; break;
        case 5: m->name = pbj_slice_cstr(""); break;
        case 6: f->name = pbj_slice_cstr("a b"); break;
        case 7: fd->enum_type.data[0].value.data[0].name = pbj_slice_cstr("1A"); break;
        case 8: fd->package = pbj_slice_cstr("p..q"); break;
        default: fd->package = pbj_slice_cstr("p."); break;
        }
        expect_error(set, want[change]);
    }
}

/* A type number descriptor.proto does not know reaches irdesc as no type (a closed enum's unknown value). */
static void test_unknown_type_number(void **state)
{
    (void)state;
    file_set *set = small_set();
    input_of(set)->message_type.data[0].field.data[0].type = (google_protobuf_FieldDescriptorProto_Type)99;
    size_t cap = google_protobuf_FileDescriptorSet_size(set), len = 0;
    uint8_t *buf = ir_pool_alloc(front_pool(), cap);
    assert_int_equal(google_protobuf_FileDescriptorSet_encode(set, buf, cap, &len), PBJ_OK);
    assert_int_equal(google_protobuf_FileDescriptorSet_decode(set, buf, len, &arena, NULL), PBJ_OK);
    expect_error(set, "t.proto:3:13: error: field \"f\" has no type");
}

static void test_empty_file(void **state)
{
    (void)state;
    file_proto fd;
    google_protobuf_FileDescriptorProto_init(&fd);         /* no name, no syntax: an empty proto2 file */
    ir_file *f = irdesc_file(&front_prog, &fd);
    assert_int_equal(front_diag()->errors, 0);
    assert_int_equal(f->syntax, IR_PROTO2);
    same_str(f->name, "", "name");
    assert_int_equal(f->messages.n + f->enums.n + f->services.n, 0);
}

int main(void)
{
#define UNIT(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
    const struct CMUnitTest tests[] = {
        UNIT(test_every_kind_and_label), UNIT(test_proto3_labels_and_optional), UNIT(test_maps),
        UNIT(test_nested_and_enums), UNIT(test_extensions), UNIT(test_defaults_and_json_names), UNIT(test_options),
        UNIT(test_imports_and_services), UNIT(test_editions), UNIT(test_comments), UNIT(test_no_type),
        UNIT(test_bad_oneof_index), UNIT(test_bad_syntax), UNIT(test_unresolved_names), UNIT(test_missing_import),
        UNIT(test_duplicates), UNIT(test_bad_numbers_and_extendee), UNIT(test_bad_map_entry), UNIT(test_inconsistent),
        UNIT(test_unknown_type_number), UNIT(test_empty_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
