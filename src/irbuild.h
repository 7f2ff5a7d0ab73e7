/* irbuild.h: the builder the grammar's actions call (private to parse.y, irbuild.c, parser.c). */
#ifndef PBJC_IRBUILD_H
#define PBJC_IRBUILD_H

#include "ir.h"

/* Comments protoc attaches to the declaration a ';' or '{' ends. */
typedef struct pcomments {
    const char *leading, *trailing;
    IR_VEC(const char *) detached;
    ir_loc leading_loc;
    size_t leading_raw, leading_raw_n;   /* which ir_file.comments make up leading */
} pcomments;

/* A grammar token: a span of the source. */
typedef struct ptok {
    const char *p;
    uint32_t len;
    int kind;
    ir_loc loc;
    pcomments *c;        /* ';' and '{': comments for the declaration they end */
    const ir_token *tokens;   /* an aggregate value's tokens (spans of p) */
    size_t n_tokens;
} ptok;

/* A name or a string built from tokens. */
typedef struct pname {
    const char *s;
    size_t len;          /* strings may hold NULs */
    ir_loc loc;
} pname;

/* A range bound: an integer or "max". */
typedef struct pnum {
    int64_t v;
    ir_loc loc;
    bool max;
} pnum;

typedef enum scope_kind { SC_FILE, SC_MESSAGE, SC_ENUM, SC_SERVICE, SC_METHOD, SC_ONEOF, SC_EXTEND } scope_kind;

typedef struct scope {
    scope_kind kind;
    void *node;          /* ir_file, ir_message, ir_enum, ir_service, ir_method, ir_oneof, ir_extend */
    ir_message *msg;     /* the message fields go to (oneof: its parent; extend: its scope) */
} scope;

/* A message body's span, to tell later which comments lie inside it. */
typedef struct body_span {
    ir_message *m;
    size_t open, close;  /* byte offsets of '{' and '}' */
} body_span;

typedef struct pctx {
    ir_file *file;
    IR_VEC(scope) scopes;
    IR_VEC(body_span) bodies;
    ir_field *field;             /* the field whose [options] are being read */
    ir_enum_value *value;        /* the enum value whose [options] are being read */
    ir_message *group;           /* the message of the group field being read */
    pname map_key, map_value;    /* the map field being read: its types, until its entry is made */
    IR_VEC(size_t) comment_offsets;  /* byte offset of each of file->comments */
    IR_VEC(ir_range) ranges;     /* ranges of the extensions/reserved statement being read */
    ir_options range_options;    /* [options] of an extensions statement */
    bool in_ranges;              /* [options] go to range_options */
    bool ranges_are_reserved;
    int errors;
    int syntax_errors;           /* counted even when one is not reported again */
    ir_loc last_error;           /* where the last syntax error was reported */
    bool eof_error;              /* a syntax error at the end of the file was reported */
    bool depth_error;            /* messages nested too deeply was reported */
    bool stop;                   /* an error after which the rest of the file is not read */
    ir_enum *closed_enum;        /* an enum just closed, checked at the next token (pb_enum_validate) */
    const char *closed_enum_end; /* its '}' */
} pctx;

void pctx_init(pctx *ctx, ir_file *f);
void pctx_finish(pctx *ctx);     /* comments' .inside, checks at the end of the file */
void pctx_syntax_error(pctx *ctx, const ptok *found, const int *expected, int nexpected);

/* Values and names. */
pname pb_name(pctx *ctx, ptok t);
pname pb_name_dot(pctx *ctx, ptok dot, ptok t);              /* .name */
pname pb_name_append(pctx *ctx, pname a, ptok t);            /* a.name */
pname pb_string(pctx *ctx, ptok t);
pname pb_string_append(pctx *ctx, pname a, ptok t);
ir_value *pb_value(pctx *ctx, ir_value_kind kind, ptok t, ptok *minus);
ir_value *pb_value_string(pctx *ctx, pname s);
ir_option *pb_optname(pctx *ctx, ir_option *o, pname part, bool extension);
pnum pb_num(pctx *ctx, ptok t, ptok *minus);
pnum pb_max(pctx *ctx, ptok t);

/* Statements. */
void pb_syntax(pctx *ctx, ptok kw, pname value, ptok end);
void pb_edition(pctx *ctx, ptok kw, pname value);
void pb_package(pctx *ctx, ptok kw, pname name, ptok end);
void pb_import(pctx *ctx, ptok kw, ptok *modifier, pname name, ptok end);
void pb_option(pctx *ctx, ir_option *o, ir_value *v, ptok end);
void pb_bracket_option(pctx *ctx, ir_option *o, ir_value *v);

void pb_message_begin(pctx *ctx, ptok name, ptok open);
void pb_block_end(pctx *ctx, ptok close);       /* '}' of any block */
void pb_enum_begin(pctx *ctx, ptok name, ptok open);
void pb_visibility(pctx *ctx, ptok kw);           /* export / local before the message or enum just begun */
void pb_enum_value(pctx *ctx, ptok name, pnum number);
void pb_enum_value_end(pctx *ctx, ptok end);
void pb_enum_validate(pctx *ctx, ir_loc next);  /* allow_alias, as protoc's parser checks it */
void pb_service_begin(pctx *ctx, ptok name, ptok open);
void pb_method(pctx *ctx, ptok name, ptok *in_stream, pname in, ptok *out_stream, pname out);
void pb_method_end(pctx *ctx, ptok end);        /* ';' */
void pb_method_body(pctx *ctx, ptok open);      /* '{' */
void pb_oneof_begin(pctx *ctx, ptok name, ptok open);
void pb_extend_begin(pctx *ctx, ptok kw, pname type, ptok open);

void pb_field(pctx *ctx, ptok *label, pname type, ptok name, ptok number);
void pb_map_field(pctx *ctx, ptok *label, ptok kw, pname key, pname value, ptok name, ptok number);
void pb_field_end(pctx *ctx, ptok end);
void pb_group(pctx *ctx, ptok *label, ptok kw, ptok name, ptok number);
void pb_group_begin(pctx *ctx, ptok open);

void pb_ranges_begin(pctx *ctx, bool reserved);
void pb_range(pctx *ctx, pnum lo, pnum hi);
void pb_ranges_end(pctx *ctx, ptok end);
void pb_reserved_name(pctx *ctx, pname name, bool first);    /* "name": proto2 and proto3 */
void pb_reserved_ident(pctx *ctx, ptok name, bool first);    /* name: editions */

#endif
