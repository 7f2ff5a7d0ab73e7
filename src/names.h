/* names.h: every C identifier the generated code declares, spelled in one place, and the list the collision check walks. */
#ifndef PBJC_NAMES_H
#define PBJC_NAMES_H

#include "ir.h"

/* The functions of a message M: X(member, suffix), named M + suffix. */
#define NAMES_MESSAGE_FUNCTIONS(X)                                                        \
    X(init, "_init") X(size, "_size") X(encode, "_encode") X(decode, "_decode")           \
    X(equal, "_equal") X(print, "_print") X(write, "__write") X(decode_body, "__decode")  \
    X(missing, "_missing") X(encode_partial, "_encode_partial")                         \
    X(write_reverse, "_write_reverse") X(write_reverse_body, "__write_reverse")          \
    X(clear, "_clear") X(copy, "_copy") X(merge, "_merge") X(sort_maps, "_sort_maps")    \
    X(encode_append, "_encode_append") X(write_delimited, "_write_delimited")           \
    X(read_delimited, "_read_delimited")                                                 \
    X(write_reverse_inline, "__write_reverse_inline") X(decode_leaf, "__decode_leaf")       \
    X(write_inline, "__write_inline") X(rexact_value, "__rexact_value")                 \
    X(size_depth, "__size")                                                                   \
    X(to_json, "_to_json") X(from_json, "_from_json")   /* JSON (json.tmpl) */                \
    X(from_text, "_from_text")   /* text reading (text_read.tmpl) */ \
    X(table, "__table") X(table_fields, "__fields") X(table_oneofs, "__oneofs")   /* the field table (table.tmpl) */ \
    X(init_table, "__init_table") X(table_ext, "__ext_singular") X(table_compare, "__compare_keys") \
    X(table_exts, "__exts") X(table_ext_ranges, "__ext_ranges") \
    X(codec, "__codec")   /* and the thunks PBJ_CODEC defines: M__c_decode, ... (rt/pbj_table.h) */

/* The accessors of an extension X: X(member, suffix), named X + suffix. */
#define NAMES_EXTENSION_FUNCTIONS(X)                                                      \
    X(count, "_count") X(at, "_at") X(add, "_add") X(has, "_has") X(get, "_get")          \
    X(set, "_set") X(clear, "_clear")

/* A message M's view (pbj.views): X(member, suffix), named M + suffix. */
#define NAMES_VIEW_FUNCTIONS(X)                                                           \
    X(type, "_view") X(init, "_view_init") X(print, "_view_print") X(scan, "__view_scan")             \
    X(layout, "_view__layout") X(ext_raw, "__view_ext_raw")   /* and the thunk PBJ_VIEW_LAYOUT defines: M_view__visit */

/* A message M's writer: X(member, suffix), named M + suffix. */
#define NAMES_WRITER_FUNCTIONS(X)                                                          \
    X(type, "_writer") X(start, "_writer_start") X(end, "_writer_end") X(from, "_writer_from") \
    X(wtype, "__wtype") X(unknown, "_writer_unknown")

/* The functions of one field f of a message M, by API: X(ID, prefix, suffix). Views: M + "_view_" + prefix + f + suffix
 * (a oneof's case too); writers: M + "_writer_" + prefix + f + suffix; building helpers: M + "_" + prefix + f;
 * a view accessor of extension X: X + suffix. */
#define NAMES_FIELD_PIECES(X)                                                                          \
    X(VIEW_GET, "", "") X(VIEW_HAS, "has_", "") X(VIEW_NEXT, "", "_next") X(VIEW_CASE, "", "_case")      \
    X(WRITER_SET, "", "") X(WRITER_ADD, "add_", "") X(WRITER_PUT, "put_", "") X(WRITER_FROM, "", "_from") \
    X(WRITER_ADD_FROM, "add_", "_from") X(WRITER_RAW, "", "_raw") X(WRITER_ADD_RAW, "add_", "_raw")        \
    X(HELPER_ADD, "add_", "") X(HELPER_SET, "set_", "") X(HELPER_MUTABLE, "mutable_", "")                 \
    X(HELPER_PUT, "put_", "") X(HELPER_GET, "get_", "") X(HELPER_SET_STR, "set_", "_str")                 \
    X(HELPER_ADD_STR, "add_", "_str") X(HELPER_ADD_MANY, "add_", "_many")                                 \
    X(EXT_VIEW_GET, "", "_view") X(EXT_VIEW_HAS, "", "_view_has") X(EXT_VIEW_NEXT, "", "_view_next")

#define NAMES_PIECE_ID(ID, prefix, suffix) NAMES_##ID,
typedef enum names_piece { NAMES_FIELD_PIECES(NAMES_PIECE_ID) } names_piece;
#undef NAMES_PIECE_ID

#define NAMES_MEMBER(member, suffix) const char *member;
typedef struct names_message { NAMES_MESSAGE_FUNCTIONS(NAMES_MEMBER) } names_message;
typedef struct names_view { NAMES_VIEW_FUNCTIONS(NAMES_MEMBER) } names_view;
typedef struct names_writer { NAMES_WRITER_FUNCTIONS(NAMES_MEMBER) } names_writer;
typedef struct names_extension { NAMES_EXTENSION_FUNCTIONS(NAMES_MEMBER) } names_extension;
#undef NAMES_MEMBER

/* One C name at file scope and the declaration it comes from. */
typedef struct names_decl {
    const char *cname;
    const char *what;            /* "message", "a function of message", ... */
    const char *full_name;       /* of the declaration the name comes from */
    const ir_file *file;
    ir_loc loc;
} names_decl;

/* Every name one file's generated code declares, in the order they are made. */
typedef IR_VEC(names_decl) names_list;

/* C keyword or reserved: name + "_" */
const char *names_sanitize(ir_pool *pool, const char *name);
/* "a.b.Outer.Inner" -> "a_b_Outer_Inner" */
const char *names_of_full_name(ir_pool *pool, const char *full_name);
const char *names_message_cname(ir_pool *pool, const ir_message *m);
const char *names_enum_cname(ir_pool *pool, const ir_enum *e);
/* The static string pool of the field tables of file f's .pb.c: "pbj__pool_" and its path, one unit may hold several. */
const char *names_table_pool(ir_pool *pool, const ir_file *f);

/* Each of these makes a name, records it in list l (with its owner) unless l is NULL, and returns it. */
void names_message_functions(ir_pool *pool, names_list *l, names_message *n, const char *cname, const ir_message *m);
void names_extension_functions(ir_pool *pool, names_list *l, names_extension *n, const char *cname, const ir_field *f);
void names_view_functions(ir_pool *pool, names_list *l, names_view *n, const char *cname, const ir_message *m);
/* A view's accessor of a field or oneof (member), piece NAMES_VIEW_*. */
const char *names_view_accessor(ir_pool *pool, names_list *l, const char *cname, names_piece piece, const char *member,
                                const char *full_name, const ir_file *f, ir_loc loc);
/* A view accessor of extension f, piece NAMES_EXT_VIEW_*. */
const char *names_extension_view(ir_pool *pool, names_list *l, const char *cname, names_piece piece, const ir_field *f);
void names_writer_functions(ir_pool *pool, names_list *l, names_writer *n, const char *cname, const ir_message *m);
/* A field's writer function, piece NAMES_WRITER_*: the member with "_" added when it is one of the writer's own
 * words (start, end, from, unknown). */
const char *names_writer_field(ir_pool *pool, names_list *l, const char *cname, names_piece piece, const char *member, const ir_field *f);
const char *names_message_type(ir_pool *pool, names_list *l, const char *cname, const ir_message *m);
const char *names_oneof_case_type(ir_pool *pool, names_list *l, const char *cname, const char *oneof, const ir_message *m, const ir_oneof *o);
const char *names_oneof_none(ir_pool *pool, names_list *l, const char *cname, const char *oneof, const ir_message *m, const ir_oneof *o);
const char *names_case_const(ir_pool *pool, names_list *l, const char *cname, const char *oneof, const char *member, const ir_field *f);
const char *names_has_fn(ir_pool *pool, names_list *l, const char *cname, const char *member, const ir_field *f);
const char *names_clear_fn(ir_pool *pool, names_list *l, const char *cname, const char *member, const ir_field *f);
const char *names_array_type(ir_pool *pool, names_list *l, const char *cname, const char *member, const ir_field *f);
const char *names_tag_define(ir_pool *pool, names_list *l, const char *cname, const char *member, const ir_field *f);
const char *names_enum_type(ir_pool *pool, names_list *l, const char *cname, const ir_enum *e);
const char *names_enum_name_fn(ir_pool *pool, names_list *l, const char *cname, const ir_enum *e);
const char *names_enum_value(ir_pool *pool, names_list *l, const char *cname, const ir_enum_value *v, const ir_enum *e);
/* An enum's table (rt/pbj_table.h) and its arrays: cname + "__enum", "__values", "__by_name". */
const char *names_enum_table(ir_pool *pool, names_list *l, const char *cname, const char *suffix, const ir_enum *e);

/* A field's building helper (helpers.tmpl), piece NAMES_HELPER_*. */
const char *names_helper_field(ir_pool *pool, names_list *l, const char *cname, names_piece piece, const char *member, const ir_field *f);
/* A service's table (service.tmpl): its C name + "_service", and the array of its methods: + "__methods". */
const char *names_service_table(ir_pool *pool, names_list *l, const ir_service *s);
const char *names_service_methods(ir_pool *pool, names_list *l, const ir_service *s);

/* Struct members (not at file scope, not in the list). */
const char *names_has_member(ir_pool *pool, const char *member);     /* "has_" + member */
const char *names_case_member(ir_pool *pool, const char *oneof);     /* oneof + "_case" */
const char *names_wrapper_unknown(ir_pool *pool, const char *member);   /* "pbj__" + member + "_unknown": no field member starts so */
/* A map field's entry lookup of the building helpers: "pbj__" + cname + "_entry_" + member (pbj__: no clash with a user's
 * name, so not in the list). */
const char *names_helper_entry(ir_pool *pool, const char *cname, const char *member);

/* Two declarations giving one name in lists[0..n): each reported (diag_error at the later one); returns how many. */
int names_check(const names_list *const *lists, size_t n);

/* pbj.comparable: M + "_compare", the order of two messages by the fields it lists. */
const char *names_compare_fn(ir_pool *pool, names_list *l, const char *cname, const ir_message *m);

/* An enum's lookup of a value by name (text and JSON reading): cname + "_from_name". */
const char *names_enum_from_name_fn(ir_pool *pool, names_list *l, const char *cname, const ir_enum *e);

#endif
