/* ir.h: the intermediate representation of .proto files, shared by every phase. */
#ifndef PBJC_IR_H
#define PBJC_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "featureset.h"

typedef struct ir_file ir_file;
typedef struct ir_message ir_message;
typedef struct ir_field ir_field;
typedef struct ir_oneof ir_oneof;
typedef struct ir_enum ir_enum;
typedef struct ir_enum_value ir_enum_value;
typedef struct ir_service ir_service;
typedef struct ir_method ir_method;
typedef struct ir_extend ir_extend;
struct diag_counts;

/* ---- memory: one pool per run (context.h), freed at its end ------------ */

typedef struct ir_pool {
    struct ir_chunk *chunks;
} ir_pool;

#if defined(__GNUC__)
#define IR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define IR_PRINTF(a, b)
#endif
void *ir_pool_alloc(ir_pool *pool, size_t size);    /* zeroed; never NULL (aborts on OOM) */
void  ir_pool_free(ir_pool *pool);                  /* everything allocated from it */
char *ir_pool_strdup(ir_pool *pool, const char *s);
char *ir_pool_chars(ir_pool *pool, size_t n);      /* n bytes for text: neither aligned nor zeroed */
void *ir_pool_take(ir_pool *pool, size_t size);    /* aligned, not zeroed: for what is written before it is read */
char *ir_pool_strndup(ir_pool *pool, const char *s, size_t n);
char *ir_pool_vprintf(ir_pool *pool, const char *fmt, va_list ap) IR_PRINTF(2, 0);
void *ir_pool_vec_grow(ir_pool *pool, void *data, size_t *cap, size_t elem_size);

char *ir_pool_strcat(ir_pool *pool, const char *a, const char *b);    /* a new string a+b */
char *ir_pool_printf(ir_pool *pool, const char *fmt, ...) IR_PRINTF(2, 3);

/* A growable array in a pool: IR_VEC(T) v; ir_pool_vec_push(pool, &v, x); v.v[i], v.n. */
#define IR_VEC(T) struct { T *v; size_t n, cap; }
#define ir_pool_vec_push(pool, vec, item)                                         \
    do {                                                                          \
        if ((vec)->n == (vec)->cap)                                               \
            (vec)->v = ir_pool_vec_grow((pool), (vec)->v, &(vec)->cap, sizeof *(vec)->v); \
        (vec)->v[(vec)->n++] = (item);                                            \
    } while (0)

/* ---- source positions and comments ------------------------------------ */

typedef struct ir_loc {
    uint32_t line, col;          /* both 1-based; col counts bytes */
} ir_loc;

/* Comments as protoc attaches them (SourceCodeInfo.Location): text without the
 * comment markers, lines joined with '\n', NULL when absent. */
typedef struct ir_comments {
    const char *leading;
    const char *trailing;
    IR_VEC(const char *) detached;
    ir_loc leading_loc;          /* where the leading comment starts (for pbj options) */
} ir_comments;

/* Every comment of a file in source order, raw (markers included), for the
 * options phase, which looks for <<<pbj.NAME = VALUE>>> in all of them. */
typedef struct ir_raw_comment {
    const char *text;            /* exactly as in the source, "//..." or "/ *...* /" */
    ir_loc loc;
    ir_message *inside;          /* innermost message whose body contains it, or NULL */
    ir_message *before;          /* message whose leading comment it is part of, or NULL */
} ir_raw_comment;

/* ---- option values ------------------------------------------------------ */

typedef enum ir_value_kind {
    IR_VAL_IDENT,       /* true, false, inf, nan, ENUM_VALUE, any identifier */
    IR_VAL_INT,         /* decimal, octal or hex; sign in .negative */
    IR_VAL_FLOAT,       /* has '.', exponent, or is -inf / -nan written with a sign */
    IR_VAL_STRING,      /* escapes applied, adjacent literals concatenated */
    IR_VAL_AGGREGATE    /* { text format } */
} ir_value_kind;

typedef struct ir_value {
    ir_value_kind kind;
    ir_loc loc;
    bool negative;      /* a leading '-' was written */
    uint64_t u;         /* INT: the magnitude */
    double d;           /* FLOAT (and INT converted), sign applied */
    const char *text;   /* IDENT: the name; INT/FLOAT: source text w/o sign; AGGREGATE: the text between the braces */
    const char *str;    /* STRING: bytes, NUL-terminated for convenience */
    size_t str_len;     /* STRING: length (may hold NULs) */
    const struct ir_token *tokens;  /* AGGREGATE: its tokens, spans of text with their source positions */
    size_t n_tokens;
} ir_value;

/* One token of an aggregate value: text[offset, offset + len), at loc in the source. */
typedef struct ir_token {
    uint32_t offset, len;
    ir_loc loc;
} ir_token;

typedef struct ir_optname_part {
    const char *name;   /* "java_package", or "foo.bar" for (foo.bar), ".foo.bar" for (.foo.bar) (as written) */
    bool extension;     /* written in parentheses */
    ir_field *ext;      /* resolve: the extension field a parenthesised part names */
} ir_optname_part;

typedef struct ir_option {
    ir_loc loc;
    IR_VEC(ir_optname_part) name;
    ir_value value;
} ir_option;

/* The options of one element as written (ir_vec_push works on it), and as
 * resolve's option interpreter encodes them: the options message's bytes
 * (NULL when the element has no options message, "" with wire_len 0 when an empty one). */
typedef struct ir_options {
    ir_option *v;
    size_t n, cap;
    const uint8_t *wire;
    size_t wire_len;
    const struct feature_setting *features;   /* resolve: the features set here (editions), as written */
    size_t n_features;
} ir_options;

/* ---- types -------------------------------------------------------------- */

/* X(NAME, keyword, descriptor number, wire type). Numbers are
 * google.protobuf.FieldDescriptorProto.Type; wire types name rt/pbj.h's PBJ_WT_*. */
#define IR_FIELD_TYPES(X)                    \
    X(DOUBLE,   "double",   1, I64)          \
    X(FLOAT,    "float",    2, I32)          \
    X(INT64,    "int64",    3, VARINT)       \
    X(UINT64,   "uint64",   4, VARINT)       \
    X(INT32,    "int32",    5, VARINT)       \
    X(FIXED64,  "fixed64",  6, I64)          \
    X(FIXED32,  "fixed32",  7, I32)          \
    X(BOOL,     "bool",     8, VARINT)       \
    X(STRING,   "string",   9, LEN)          \
    X(GROUP,    "group",   10, SGROUP)       \
    X(MESSAGE,  NULL,      11, LEN)          \
    X(BYTES,    "bytes",   12, LEN)          \
    X(UINT32,   "uint32",  13, VARINT)       \
    X(ENUM,     NULL,      14, VARINT)       \
    X(SFIXED32, "sfixed32",15, I32)          \
    X(SFIXED64, "sfixed64",16, I64)          \
    X(SINT32,   "sint32",  17, VARINT)       \
    X(SINT64,   "sint64",  18, VARINT)

typedef enum ir_type {
    IR_TYPE_UNRESOLVED = 0,   /* a named type before resolve */
#define X(N, kw, num, wt) IR_TYPE_##N = num,
    IR_FIELD_TYPES(X)
#undef X
} ir_type;

const char *ir_type_keyword(ir_type t);     /* "int32", ...; "message"/"enum" for those */
int ir_type_wire_type(ir_type t);              /* a PBJ_WT_*, -1 for IR_TYPE_UNRESOLVED */
bool ir_type_is_packable(ir_type t);        /* scalar numeric, bool, enum */
ir_type ir_type_from_keyword(const char *s, size_t n);  /* IR_TYPE_UNRESOLVED if not a scalar keyword */

typedef enum ir_label {
    IR_LABEL_NONE = 0,        /* nothing written (proto3 singular, oneof member, map) */
    IR_LABEL_OPTIONAL = 1,
    IR_LABEL_REQUIRED = 2,
    IR_LABEL_REPEATED = 3
} ir_label;

typedef enum ir_syntax { IR_PROTO2 = 2, IR_PROTO3 = 3, IR_EDITIONS = 4 } ir_syntax;

/* 2024's export/local on a message or enum (descriptor.proto's SymbolVisibility). */
typedef enum ir_visibility { IR_VISIBILITY_UNSET = 0, IR_VISIBILITY_LOCAL = 1, IR_VISIBILITY_EXPORT = 2 } ir_visibility;

enum { IR_MAP_KEY_NUMBER = 1, IR_MAP_VALUE_NUMBER = 2 };    /* the fields of a map's entry message */

/* ---- declarations ------------------------------------------------------- */

struct ir_field {
    ir_loc loc;                  /* of the field name */
    ir_loc type_loc;             /* of the type name */
    ir_loc number_loc;
    ir_comments comments;
    const char *name;
    const char *full_name;       /* resolve: "pkg.Msg.field" (extensions: "pkg.Scope.ext") */
    int32_t number;
    ir_label label;              /* as written */
    ir_type type;                /* scalar keyword, or after resolve MESSAGE/ENUM/GROUP */
    const char *type_name;       /* named type as written ("Foo", ".a.b.Foo"), NULL for scalars */
    ir_message *message_type;    /* resolve: MESSAGE or GROUP target */
    ir_enum *enum_type;          /* resolve: ENUM target */
    const char *json_name;       /* protoc's default camelCase, or [json_name = ...] */
    bool json_name_explicit;
    const char *default_value;   /* descriptor text form of [default = ...] (resolve fills it), or NULL */
    ir_value *default_raw;       /* the value as written, or NULL */
    ir_options options;          /* as written, [default] and [json_name] excluded */
    ir_oneof *oneof;             /* containing oneof (real or the synthetic proto3-optional one) */
    bool proto3_optional;        /* proto3 "optional": presence via a synthetic oneof */
    bool is_map;                 /* map<K,V>: type_name points at the synthetic *Entry message */
    bool packed;                 /* resolve: written packed ([packed], else packed by default in proto3) */
    bool deprecated;             /* resolve: [deprecated = true] */
    ir_message *parent;          /* containing message, or for extensions the scope (NULL at file level) */
    ir_extend *extend;           /* set for extension fields */
    ir_file *file;
    int index;                   /* position in its container, declaration order */
    ir_features features;        /* resolve: resolved through its scopes (resolve_features.c) */
};

struct ir_oneof {
    ir_loc loc;
    ir_comments comments;
    const char *name;            /* for a synthetic one: "_" + field name, as protoc does */
    ir_options options;
    IR_VEC(ir_field *) fields;
    bool synthetic;              /* made for a proto3 optional field */
    ir_message *parent;
    int index;                   /* descriptor oneof_index */
    ir_features features;        /* resolve */
};

typedef struct ir_range {
    ir_loc loc;
    int32_t start, end;          /* inclusive end as written; "max" = the largest field number (message sets: INT32_MAX - 1) */
    ir_options options;          /* extension ranges only */
} ir_range;

struct ir_message {
    ir_loc loc;
    ir_comments comments;
    const char *name;
    const char *full_name;       /* "pkg.Outer.Inner" without leading dot */
    ir_options options;
    IR_VEC(ir_field *) fields;   /* declaration order, oneof members included */
    IR_VEC(ir_oneof *) oneofs;   /* real ones first in declaration order, then synthetic (as protoc) */
    IR_VEC(ir_message *) messages;   /* nested, incl. map entries and groups, in declaration order */
    IR_VEC(ir_enum *) enums;
    IR_VEC(ir_extend *) extends;
    IR_VEC(ir_field *) extensions;   /* fields of extend blocks declared inside, in order */
    IR_VEC(ir_range) extension_ranges;
    IR_VEC(ir_range) reserved_ranges;
    IR_VEC(const char *) reserved_names;
    bool map_entry;              /* synthetic entry of a map field: key and value, numbered below */
    bool is_group;               /* synthetic message of a group field */
    bool message_set_wire_format;    /* option message_set_wire_format = true (set by the builder) */
    bool deprecated;             /* resolve: option deprecated = true */
    ir_message *parent;          /* NULL at file level */
    ir_file *file;
    struct options_state *options_state;   /* options.c's pbj options of this message; NULL before options_resolve */
    ir_features features;        /* resolve */
    ir_visibility visibility;    /* 2024: export / local as written */
    ir_loc visibility_loc;       /* where */
};

struct ir_enum_value {
    ir_loc loc;
    ir_comments comments;
    const char *name;
    const char *full_name;       /* enum values are siblings of their enum: "pkg.VALUE" or "pkg.Msg.VALUE" */
    int32_t number;
    ir_options options;
    bool deprecated;             /* resolve: [deprecated = true] */
    ir_enum *parent;
    ir_loc number_loc;
    ir_features features;        /* resolve */
};

struct ir_enum {
    ir_loc loc;
    ir_comments comments;
    const char *name;
    const char *full_name;
    ir_options options;
    IR_VEC(ir_enum_value *) values;
    IR_VEC(ir_range) reserved_ranges;
    IR_VEC(const char *) reserved_names;
    bool allow_alias;
    bool deprecated;             /* resolve: option deprecated = true */
    ir_message *parent;
    ir_file *file;
    ir_features features;        /* resolve */
    ir_visibility visibility;    /* 2024: export / local as written */
    ir_loc visibility_loc;       /* where */
};

struct ir_method {
    ir_loc loc;
    ir_comments comments;
    const char *name;
    const char *input_name, *output_name;    /* as written */
    ir_loc input_loc, output_loc;
    ir_message *input, *output;              /* resolve */
    bool client_streaming, server_streaming;
    bool has_body;                           /* written with a "{ ... }" body: protoc then writes options, even empty */
    ir_options options;
};

struct ir_service {
    ir_loc loc;
    ir_comments comments;
    const char *name;
    const char *full_name;
    ir_options options;
    IR_VEC(ir_method *) methods;
    ir_file *file;
};

struct ir_extend {
    ir_loc loc;
    ir_comments comments;
    const char *extendee_name;   /* as written */
    ir_loc extendee_loc;
    ir_message *extendee;        /* resolve */
    IR_VEC(ir_field *) fields;
    ir_message *scope;           /* where the extend block appears; NULL at file level */
};

typedef enum ir_import_kind { IR_IMPORT_PLAIN, IR_IMPORT_PUBLIC, IR_IMPORT_WEAK, IR_IMPORT_OPTION } ir_import_kind;

typedef struct ir_import {
    ir_loc loc;
    const char *name;            /* "google/protobuf/any.proto", as written */
    ir_import_kind kind;
    ir_file *file;               /* resolve */
    bool used;                   /* resolve: for the unused-import warning */
} ir_import;

struct ir_file {
    const char *name;            /* virtual name relative to its root: "a/b.proto" */
    const char *path;            /* path on disk, used in diagnostics; NULL when compiled into pbjc (wkt.c) */
    const char *source;          /* whole text, NUL-terminated */
    size_t source_len;
    ir_syntax syntax;
    bool syntax_explicit;        /* a syntax statement was written */
    const char *package;         /* NULL when none */
    ir_loc package_loc;
    IR_VEC(ir_import) imports;
    ir_options options;
    IR_VEC(ir_message *) messages;
    IR_VEC(ir_enum *) enums;
    IR_VEC(ir_service *) services;
    IR_VEC(ir_extend *) extends;
    IR_VEC(ir_field *) extensions;   /* fields of file-level extend blocks, in order */
    IR_VEC(ir_raw_comment) comments; /* every comment, source order */
    struct srcinfo_tokens *tokens;   /* the grammar tokens, for SourceCodeInfo (srcinfo.c) */
    bool is_input;               /* given on the command line (code is generated for it) */
    bool parsed_ok;
    feature_edition edition;     /* edition = "2023": EDITION_2023 (syntax IR_EDITIONS); 0 for proto2/3 */
    ir_features features;        /* resolve */
    ir_pool *pool;               /* the run's: every node and string of the file */
    struct diag_counts *diag;    /* the run's: what diagnostics against the file count into */
};

/* The whole run: every file loaded, in dependency order. */
typedef struct ir_program {
    IR_VEC(const char *) roots;      /* -I roots in order; "." when none given */
    IR_VEC(ir_file *) files;         /* every file loaded, each after the files it imports */
    IR_VEC(ir_file *) inputs;        /* the command-line files, in command-line order */
    bool keep_tokens;                /* each parse keeps its tokens (ir_file.tokens), for SourceCodeInfo */
    ir_pool *pool;                   /* the run's (context_program sets both) */
    struct diag_counts *diag;
} ir_program;

/* Names and finders shared by the builder and the later phases. */
/* A file of the run whose pool and counts are given (from its ir_program). */
ir_file *ir_file_new(ir_pool *pool, struct diag_counts *diag, const char *name, const char *path, const char *source,
                     size_t len);
const char *ir_join_name(ir_pool *pool, const char *scope, const char *name);   /* "scope.name", or name when scope is NULL or "" */
const char *ir_option_find(const ir_options *opts, const char *simple_name);  /* NULL or IDENT/STRING text */
const ir_option *ir_option_get(const ir_options *opts, const char *simple_name);
bool ir_option_is_feature(const ir_option *o);      /* features, features.NAME, ... */
/* The first parts of an option's name as written, "(foo.bar).baz", for messages. */
const char *ir_option_name(ir_pool *pool, const ir_option *o, size_t parts);

/* Visit every message of a file, depth first in declaration order (nested after parent). */
typedef void (*ir_message_fn)(ir_message *m, void *ctx);
void ir_each_message(ir_file *f, ir_message_fn fn, void *ctx);

/* The builder's (irbuild.c), for IR built from descriptors (irdesc.c): every full name of f, as at
 * the end of a parse; protoc's default JSON name of a field ("foo_bar" -> "fooBar"). */
void irbuild_full_names(ir_file *f);
const char *irbuild_json_name(ir_pool *pool, const char *name);

/* The value type of a google.protobuf wrapper message (Int32Value -> INT32 ...), IR_TYPE_UNRESOLVED for any other. */
ir_type ir_wrapper_type(const ir_message *m);

/* ---- what later phases ask of the resolved features (resolve_features.c sets them) ---- */

/* The edition that resolves a file's features: its edition, or proto2's or proto3's. */
feature_edition features_edition(const ir_file *f);
bool features_explicit_presence(const ir_field *f);   /* not IMPLICIT (for singular fields) */
bool features_required(const ir_field *f);            /* LEGACY_REQUIRED (proto2's required) */
bool features_closed_enum(const ir_enum *e);
bool features_utf8_checked(const ir_field *f);        /* a string field that VERIFYs */
bool features_delimited(const ir_field *f);           /* group framing */
/* A group, or a DELIMITED field written as one (named as its type, lowercased; the type beside it):
 * text format names it by its type, as protobuf's IsGroupLike. */
bool features_group_like(const ir_field *f);

#endif
