/* irbuild.c: the builder the grammar's actions call: IR nodes from tokens, syntax errors, full names at the end of a file. */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "irbuild.h"
#include "lex.h"
#include "parse.h"
#include "diag.h"
#include "../rt/pbj_core.h"   /* PBJ_MAX_FIELD_NUMBER */

static void build_error(pctx *ctx, ir_loc loc, const char *fmt, ...) DIAG_PRINTF(3, 4);
static void build_error(pctx *ctx, ir_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_verror(ctx->file, loc, fmt, ap);
    va_end(ap);
    ctx->errors++;
}

static scope *top(pctx *ctx)
{
    assert(ctx->scopes.n > 0);                   /* the file's scope is never closed */
    return &ctx->scopes.v[ctx->scopes.n - 1];
}

/* The node of the innermost scope, which the grammar guarantees is of kind k. */
static void *top_node(pctx *ctx, scope_kind k)
{
    assert(top(ctx)->kind == k);
    return top(ctx)->node;
}

static void push(pctx *ctx, scope_kind kind, void *node, ir_message *msg)
{
    scope s = { kind, node, msg };
    ir_pool_vec_push(ctx->file->pool, &ctx->scopes, s);
}

static void set_comments(ir_pool *pool, ir_comments *dst, const ptok *t)
{
    if (!t->c) return;
    dst->leading = t->c->leading;
    dst->trailing = t->c->trailing;
    dst->leading_loc = t->c->leading_loc;
    for (size_t i = 0; i < t->c->detached.n; i++) ir_pool_vec_push(pool, &dst->detached, t->c->detached.v[i]);
}

void pctx_init(pctx *ctx, ir_file *f)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->file = f;
    push(ctx, SC_FILE, f, NULL);
}

pname pb_name(pctx *ctx, ptok t)
{
    (void)ctx;
    return (pname){ ir_pool_strndup(ctx->file->pool, t.p, t.len), t.len, t.loc };
}

pname pb_name_dot(pctx *ctx, ptok dot, ptok t)
{
    (void)ctx;
    char *s = ir_pool_alloc(ctx->file->pool, t.len + 2);
    s[0] = '.';
    memcpy(s + 1, t.p, t.len);
    return (pname){ s, t.len + 1, dot.loc };
}

pname pb_name_append(pctx *ctx, pname a, ptok t)
{
    (void)ctx;
    char *s = ir_pool_alloc(ctx->file->pool, a.len + t.len + 2);
    memcpy(s, a.s, a.len);
    s[a.len] = '.';
    memcpy(s + a.len + 1, t.p, t.len);
    return (pname){ s, a.len + 1 + t.len, a.loc };
}

pname pb_string(pctx *ctx, ptok t)
{
    lex_buf b = { .pool = ctx->file->pool };
    lex_string_append(&b, t.p, t.len);
    return (pname){ b.p, b.n, t.loc };
}

pname pb_string_append(pctx *ctx, pname a, ptok t)
{
    lex_buf b = { (char *)(uintptr_t)a.s, a.len, a.len + 1, ctx->file->pool };
    lex_string_append(&b, t.p, t.len);
    return (pname){ b.p, b.n, a.loc };
}

ir_value *pb_value(pctx *ctx, ir_value_kind kind, ptok t, ptok *minus)
{
    ir_value *v = ir_pool_alloc(ctx->file->pool, sizeof *v);
    v->kind = kind;
    v->loc = minus ? minus->loc : t.loc;
    v->negative = minus != NULL;
    v->text = ir_pool_strndup(ctx->file->pool, t.p, t.len);
    v->tokens = t.tokens;
    v->n_tokens = t.n_tokens;
    switch (kind) {
    case IR_VAL_IDENT:
        if (!minus) break;
        v->kind = IR_VAL_FLOAT;
        if (strcmp(v->text, "inf") == 0) v->d = -INFINITY;
        else if (strcmp(v->text, "nan") == 0) v->d = NAN;
        else build_error(ctx, t.loc, "identifier after '-' must be inf or nan, not '%s'", v->text);
        break;
    case IR_VAL_INT:
        if (!lex_parse_int(t.p, t.len, &v->u) || (minus && v->u > (uint64_t)INT64_MAX + 1))
            build_error(ctx, t.loc, "integer out of range: %s%s", minus ? "-" : "", v->text);
        v->d = minus ? -(double)v->u : (double)v->u;
        break;
    case IR_VAL_FLOAT:
        v->d = strtod(v->text, NULL);
        if (minus) v->d = -v->d;
        break;
    default:
        break;
    }
    return v;
}

ir_value *pb_value_string(pctx *ctx, pname s)
{
    (void)ctx;
    ir_value *v = ir_pool_alloc(ctx->file->pool, sizeof *v);
    v->kind = IR_VAL_STRING;
    v->loc = s.loc;
    v->str = s.s;
    v->str_len = s.len;
    return v;
}

ir_option *pb_optname(pctx *ctx, ir_option *o, pname part, bool extension)
{
    (void)ctx;
    if (!o) {
        o = ir_pool_alloc(ctx->file->pool, sizeof *o);
        o->loc = part.loc;
    }
    ir_optname_part p = { part.s, extension, NULL };
    ir_pool_vec_push(ctx->file->pool, &o->name, p);
    return o;
}

pnum pb_num(pctx *ctx, ptok t, ptok *minus)
{
    uint64_t u = 0;
    pnum n = { 0, minus ? minus->loc : t.loc, false };
    if (!lex_parse_int(t.p, t.len, &u) || u > (uint64_t)INT32_MAX + (minus != NULL)) {
        build_error(ctx, t.loc, "integer out of range: %s%.*s", minus ? "-" : "", (int)t.len, t.p);
        return n;
    }
    n.v = minus ? -(int64_t)u : (int64_t)u;
    return n;
}

pnum pb_max(pctx *ctx, ptok t)
{
    (void)ctx;
    return (pnum){ 0, t.loc, true };
}

/* syntax ::= "syntax" "=" string ";" */
void pb_syntax(pctx *ctx, ptok kw, pname value, ptok end)
{
    (void)kw;
    (void)end;
    ctx->file->syntax_explicit = true;
    if (strcmp(value.s, "proto2") == 0) ctx->file->syntax = IR_PROTO2;
    else if (strcmp(value.s, "proto3") == 0) ctx->file->syntax = IR_PROTO3;
    else build_error(ctx, value.loc, "unrecognized syntax identifier \"%s\"; pbjc recognizes only \"proto2\" and \"proto3\"", value.s);
}

/* syntax ::= "edition" "=" string ";" */
void pb_edition(pctx *ctx, ptok kw, pname value)
{
    (void)kw;
    ctx->file->syntax_explicit = true;
    ctx->file->syntax = IR_EDITIONS;
    ctx->file->edition = feature_edition_named(value.s);
    if (ctx->file->edition) return;
    build_error(ctx, value.loc, "unrecognized edition \"%s\"; pbjc recognizes \"2023\", \"2024\" and \"2026\"", value.s);
    ctx->stop = true;                        /* the rest would only be read by the wrong rules */
}

/* What an edition before 2024 does not have (export, local, import option): an error at kw. */
static void need_2024(pctx *ctx, ptok kw)
{
    if (ctx->file->edition < EDITION_2024)
        build_error(ctx, kw.loc, "\"%.*s\" is not supported before edition 2024", (int)kw.len, kw.p);
}

void pb_visibility(pctx *ctx, ptok kw)
{
    need_2024(ctx, kw);
    ir_visibility v = kw.kind == TK_EXPORT ? IR_VISIBILITY_EXPORT : IR_VISIBILITY_LOCAL;
    scope *s = top(ctx);
    if (s->kind == SC_MESSAGE) ((ir_message *)s->node)->visibility = v, ((ir_message *)s->node)->visibility_loc = kw.loc;
    else ((ir_enum *)s->node)->visibility = v, ((ir_enum *)s->node)->visibility_loc = kw.loc;
}

/* package ::= "package" dotted ";" */
void pb_package(pctx *ctx, ptok kw, pname name, ptok end)
{
    (void)end;
    if (ctx->file->package) build_error(ctx, kw.loc, "multiple package definitions");
    ctx->file->package = name.s;
    ctx->file->package_loc = name.loc;
}

/* import ::= "import" ["public" | "weak"] string ";" */
void pb_import(pctx *ctx, ptok kw, ptok *modifier, pname name, ptok end)
{
    (void)end;
    ir_import im = { kw.loc, name.s, IR_IMPORT_PLAIN, NULL, false };   /* at "import", where protoc reports */
    if (modifier) im.kind = modifier->kind == TK_PUBLIC ? IR_IMPORT_PUBLIC
                          : modifier->kind == TK_OPTION ? IR_IMPORT_OPTION : IR_IMPORT_WEAK;
    if (modifier && modifier->kind == TK_OPTION) need_2024(ctx, *modifier);
    ir_pool_vec_push(ctx->file->pool, &ctx->file->imports, im);
}

static ir_options *scope_options(scope *s)
{
    switch (s->kind) {
    case SC_FILE: return &((ir_file *)s->node)->options;
    case SC_MESSAGE: return &((ir_message *)s->node)->options;
    case SC_ENUM: return &((ir_enum *)s->node)->options;
    case SC_SERVICE: return &((ir_service *)s->node)->options;
    case SC_METHOD: return &((ir_method *)s->node)->options;
    case SC_ONEOF: return &((ir_oneof *)s->node)->options;
    default: return NULL;
    }
}

/* option ::= "option" optname "=" value ";" */
void pb_option(pctx *ctx, ir_option *o, ir_value *v, ptok end)
{
    (void)end;
    scope *s = top(ctx);
    ir_options *opts = scope_options(s);
    o->value = *v;
    if (!opts) return;
    ir_pool_vec_push(ctx->file->pool, opts, *o);
    if (s->kind == SC_ENUM && ir_option_get(opts, "allow_alias") == &opts->v[opts->n - 1])
        ((ir_enum *)s->node)->allow_alias = v->kind == IR_VAL_IDENT && strcmp(v->text, "true") == 0;
    const char *mset = s->kind == SC_MESSAGE ? ir_option_find(opts, "message_set_wire_format") : NULL;
    if (mset)                                    /* the ranges' "max" depends on it */
        ((ir_message *)s->node)->message_set_wire_format = strcmp(mset, "true") == 0;
}

static bool is_simple(const ir_option *o, const char *name)
{
    return o->name.n == 1 && !o->name.v[0].extension && strcmp(o->name.v[0].name, name) == 0;
}

/* bracket_option ::= optname "=" value   (of a field, an enum value or an extension range) */
void pb_bracket_option(pctx *ctx, ir_option *o, ir_value *v)
{
    o->value = *v;
    if (ctx->in_ranges) { ir_pool_vec_push(ctx->file->pool, &ctx->range_options, *o); return; }
    if (ctx->value) { ir_pool_vec_push(ctx->file->pool, &ctx->value->options, *o); return; }
    ir_field *f = ctx->field;
    if (!f) return;
    if (is_simple(o, "default")) {
        if (f->default_raw) build_error(ctx, o->loc, "option \"default\" is already set");
        if (f->label == IR_LABEL_REPEATED) build_error(ctx, o->loc, "repeated fields can't have default values");
        f->default_raw = ir_pool_alloc(ctx->file->pool, sizeof *v);
        *f->default_raw = *v;
    } else if (is_simple(o, "json_name")) {
        if (f->json_name_explicit) build_error(ctx, o->loc, "option \"json_name\" is already set");
        if (v->kind != IR_VAL_STRING) build_error(ctx, v->loc, "expected a string for json_name");
        else f->json_name = v->str;
        f->json_name_explicit = true;
    } else {
        ir_pool_vec_push(ctx->file->pool, &f->options, *o);
    }
}

/* The message new declarations go to, or NULL at file level. */
static ir_message *scope_message(pctx *ctx) { return top(ctx)->msg; }

/* protoc stops nesting messages (groups included) at 31 levels. */
#define MAX_MESSAGE_DEPTH 31
static void check_depth(pctx *ctx, ir_message *m)
{
    int depth = 1;
    for (ir_message *p = m->parent; p; p = p->parent) depth++;
    if (depth > MAX_MESSAGE_DEPTH && !ctx->depth_error) {
        build_error(ctx, m->loc, "messages are nested too deeply (more than %d levels)", MAX_MESSAGE_DEPTH);
        ctx->depth_error = true;
    }
}

static void body_open(pctx *ctx, ir_message *m, ptok open)
{
    check_depth(ctx, m);
    body_span b = { m, (size_t)(open.p - ctx->file->source), ctx->file->source_len };
    ir_pool_vec_push(ctx->file->pool, &ctx->bodies, b);
}

/* Mark the raw comments that form a message's leading comment. */
static void mark_before(pctx *ctx, ir_message *m, const ptok *open)
{
    if (!open->c) return;
    for (size_t i = 0; i < open->c->leading_raw_n; i++)
        ctx->file->comments.v[open->c->leading_raw + i].before = m;
}

static ir_message *new_message(pctx *ctx, ptok name)
{
    ir_message *m = ir_pool_alloc(ctx->file->pool, sizeof *m);
    m->loc = name.loc;
    m->name = ir_pool_strndup(ctx->file->pool, name.p, name.len);
    m->parent = scope_message(ctx);
    m->file = ctx->file;
    if (m->parent) ir_pool_vec_push(ctx->file->pool, &m->parent->messages, m);
    else ir_pool_vec_push(ctx->file->pool, &ctx->file->messages, m);
    return m;
}

/* message_head ::= "message" ident "{" */
void pb_message_begin(pctx *ctx, ptok name, ptok open)
{
    ir_message *m = new_message(ctx, name);
    set_comments(ctx->file->pool, &m->comments, &open);
    mark_before(ctx, m, &open);
    body_open(ctx, m, open);
    push(ctx, SC_MESSAGE, m, m);
}

/* protoc's synthetic oneof for each proto3 optional field, named "_" + field, after the real ones. */
static void add_synthetic_oneofs(ir_message *m)
{
    for (size_t i = 0; i < m->fields.n; i++) {
        ir_field *f = m->fields.v[i];
        if (!f->proto3_optional) continue;
        const char *name = f->name[0] == '_' ? f->name : ir_pool_printf(m->file->pool, "_%s", f->name);
        for (bool clash = true; clash;) {
            clash = false;
            for (size_t j = 0; j < m->fields.n && !clash; j++) clash = strcmp(m->fields.v[j]->name, name) == 0;
            for (size_t j = 0; j < m->oneofs.n && !clash; j++) clash = strcmp(m->oneofs.v[j]->name, name) == 0;
            if (clash) name = ir_pool_printf(m->file->pool, "X%s", name);
        }
        ir_oneof *o = ir_pool_alloc(m->file->pool, sizeof *o);
        o->loc = f->loc;
        o->name = name;
        o->synthetic = true;
        o->parent = m;
        o->index = (int)m->oneofs.n;
        ir_pool_vec_push(m->file->pool, &o->fields, f);
        ir_pool_vec_push(m->file->pool, &m->oneofs, o);
        f->oneof = o;
    }
}

/* "to max" ends at the largest field number, or for a message set at INT32_MAX - 1. */
#define RANGE_MAX_SENTINEL INT32_MIN
static void fix_max_ranges(ir_message *m)
{
    int32_t max = m->message_set_wire_format ? INT32_MAX - 1 : PBJ_MAX_FIELD_NUMBER;
    for (size_t i = 0; i < m->extension_ranges.n; i++)
        if (m->extension_ranges.v[i].end == RANGE_MAX_SENTINEL) m->extension_ranges.v[i].end = max;
    for (size_t i = 0; i < m->reserved_ranges.n; i++)
        if (m->reserved_ranges.v[i].end == RANGE_MAX_SENTINEL) m->reserved_ranges.v[i].end = max;
}

/* message ::= message_head message_statement* "}"  (and the '}' of every other block) */
void pb_block_end(pctx *ctx, ptok close)
{
    if (ctx->scopes.n <= 1) return;
    scope s = *top(ctx);
    ctx->scopes.n--;
    if (s.kind == SC_ENUM) {
        ctx->closed_enum = s.node;
        ctx->closed_enum_end = close.p;
    }
    if (s.kind != SC_MESSAGE) return;
    ir_message *m = s.node;
    if (ctx->file->syntax == IR_PROTO3 && !m->is_group) add_synthetic_oneofs(m);
    fix_max_ranges(m);
    for (size_t i = ctx->bodies.n; i-- > 0;)
        if (ctx->bodies.v[i].m == m) { ctx->bodies.v[i].close = (size_t)(close.p - ctx->file->source); break; }
}

/* protoc's Parser::ValidateEnum on an enum just closed, reported at the next token (at). */
void pb_enum_validate(pctx *ctx, ir_loc at)
{
    const ir_enum *e = ctx->closed_enum;
    ctx->closed_enum = NULL;
    const ir_option *o = ir_option_get(&e->options, "allow_alias");
    if (!o) return;
    if (o->value.kind != IR_VAL_IDENT || strcmp(o->value.text, "true") != 0) {
        build_error(ctx, at, "\"%s\" declares 'option allow_alias = false;' which has no effect. "
                             "Please remove the declaration.", e->name);
        return;
    }
    for (size_t i = 0; i < e->values.n; i++)
        for (size_t j = 0; j < i; j++)
            if (e->values.v[i]->number == e->values.v[j]->number) return;
    build_error(ctx, at, "\"%s\" declares support for enum aliases but no enum values share field numbers. "
                         "Please remove the unnecessary 'option allow_alias = true;' declaration.", e->name);
}

/* enum_head ::= "enum" ident "{" */
void pb_enum_begin(pctx *ctx, ptok name, ptok open)
{
    ir_enum *e = ir_pool_alloc(ctx->file->pool, sizeof *e);
    e->loc = name.loc;
    e->name = ir_pool_strndup(ctx->file->pool, name.p, name.len);
    e->parent = scope_message(ctx);
    e->file = ctx->file;
    set_comments(ctx->file->pool, &e->comments, &open);
    if (e->parent) ir_pool_vec_push(ctx->file->pool, &e->parent->enums, e);
    else ir_pool_vec_push(ctx->file->pool, &ctx->file->enums, e);
    push(ctx, SC_ENUM, e, e->parent);
}

/* enum_value ::= ident "=" ["-"] int */
void pb_enum_value(pctx *ctx, ptok name, pnum number)
{
    ir_enum *e = top_node(ctx, SC_ENUM);
    ir_enum_value *v = ir_pool_alloc(ctx->file->pool, sizeof *v);
    v->loc = name.loc;
    v->name = ir_pool_strndup(ctx->file->pool, name.p, name.len);
    v->number = (int32_t)number.v;
    v->number_loc = number.loc;
    v->parent = e;
    ir_pool_vec_push(ctx->file->pool, &e->values, v);
    ctx->value = v;
}

/* enum_stmt ::= enum_value [options] ";" */
void pb_enum_value_end(pctx *ctx, ptok end)
{
    if (ctx->value) set_comments(ctx->file->pool, &ctx->value->comments, &end);
    ctx->value = NULL;
}

/* service_head ::= "service" ident "{" */
void pb_service_begin(pctx *ctx, ptok name, ptok open)
{
    ir_service *s = ir_pool_alloc(ctx->file->pool, sizeof *s);
    s->loc = name.loc;
    s->name = ir_pool_strndup(ctx->file->pool, name.p, name.len);
    s->file = ctx->file;
    set_comments(ctx->file->pool, &s->comments, &open);
    ir_pool_vec_push(ctx->file->pool, &ctx->file->services, s);
    push(ctx, SC_SERVICE, s, NULL);
}

static void check_message_type(pctx *ctx, pname t)
{
    if (ir_type_from_keyword(t.s, t.len) != IR_TYPE_UNRESOLVED)
        build_error(ctx, t.loc, "expected a message type, found '%s'", t.s);
}

/* rpc_head ::= "rpc" ident "(" ["stream"] type ")" "returns" "(" ["stream"] type ")" */
void pb_method(pctx *ctx, ptok name, ptok *in_stream, pname in, ptok *out_stream, pname out)
{
    ir_service *s = top_node(ctx, SC_SERVICE);
    ir_method *m = ir_pool_alloc(ctx->file->pool, sizeof *m);
    m->loc = name.loc;
    m->name = ir_pool_strndup(ctx->file->pool, name.p, name.len);
    m->input_name = in.s;
    m->input_loc = in.loc;
    m->output_name = out.s;
    m->output_loc = out.loc;
    m->client_streaming = in_stream != NULL;
    m->server_streaming = out_stream != NULL;
    check_message_type(ctx, in);
    check_message_type(ctx, out);
    ir_pool_vec_push(ctx->file->pool, &s->methods, m);
}

static ir_method *last_method(pctx *ctx)
{
    ir_service *s = top_node(ctx, SC_SERVICE);
    return s->methods.v[s->methods.n - 1];
}

/* rpc ::= rpc_head ";" */
void pb_method_end(pctx *ctx, ptok end) { set_comments(ctx->file->pool, &last_method(ctx)->comments, &end); }

/* rpc_open ::= "{" */
void pb_method_body(pctx *ctx, ptok open)
{
    ir_method *m = last_method(ctx);
    set_comments(ctx->file->pool, &m->comments, &open);
    m->has_body = true;
    push(ctx, SC_METHOD, m, NULL);
}

/* oneof_head ::= "oneof" ident "{" */
void pb_oneof_begin(pctx *ctx, ptok name, ptok open)
{
    ir_message *m = scope_message(ctx);
    ir_oneof *o = ir_pool_alloc(ctx->file->pool, sizeof *o);
    o->loc = name.loc;
    o->name = ir_pool_strndup(ctx->file->pool, name.p, name.len);
    o->parent = m;
    o->index = (int)m->oneofs.n;
    set_comments(ctx->file->pool, &o->comments, &open);
    ir_pool_vec_push(ctx->file->pool, &m->oneofs, o);
    push(ctx, SC_ONEOF, o, m);
}

/* extend_head ::= "extend" type "{" */
void pb_extend_begin(pctx *ctx, ptok kw, pname type, ptok open)
{
    ir_extend *x = ir_pool_alloc(ctx->file->pool, sizeof *x);
    x->loc = kw.loc;
    x->extendee_name = type.s;
    x->extendee_loc = type.loc;
    x->scope = scope_message(ctx);
    set_comments(ctx->file->pool, &x->comments, &open);
    check_message_type(ctx, type);
    if (x->scope) ir_pool_vec_push(ctx->file->pool, &x->scope->extends, x);
    else ir_pool_vec_push(ctx->file->pool, &ctx->file->extends, x);
    push(ctx, SC_EXTEND, x, x->scope);
}

/* name without its '_'s, each letter after one capitalized (and the first when cap_first), + suffix. */
static const char *camel_case(ir_pool *pool, const char *name, bool cap_first, const char *suffix)
{
    char *out = ir_pool_alloc(pool, strlen(name) + strlen(suffix) + 1), *o = out;
    bool up = cap_first;
    for (const char *p = name; *p; p++) {
        if (*p == '_') { up = true; continue; }
        *o++ = up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
        up = false;
    }
    strcpy(o, suffix);
    return out;
}

/* protoc's default JSON name (ToJsonName): "foo_bar_baz" -> "fooBarBaz". */
static const char *json_name(ir_pool *pool, const char *name) { return camel_case(pool, name, false, ""); }
const char *irbuild_json_name(ir_pool *pool, const char *name) { return json_name(pool, name); }

static ir_label label_of(const ptok *t)
{
    if (!t) return IR_LABEL_NONE;
    return t->kind == TK_OPTIONAL ? IR_LABEL_OPTIONAL
         : t->kind == TK_REQUIRED ? IR_LABEL_REQUIRED : IR_LABEL_REPEATED;
}

/* A new field in the current message, oneof or extend block. */
static ir_field *new_field(pctx *ctx, ptok *label, ptok name, ptok number, bool is_map)
{
    scope *s = top(ctx);
    ir_field *f = ir_pool_alloc(ctx->file->pool, sizeof *f);
    uint64_t n = 0;
    f->loc = name.loc;
    f->number_loc = number.loc;
    f->name = ir_pool_strndup(ctx->file->pool, name.p, name.len);
    f->file = ctx->file;
    f->parent = s->msg;
    if (!lex_parse_int(number.p, number.len, &n) || n > INT32_MAX)
        build_error(ctx, number.loc, "field number out of range: %.*s", (int)number.len, number.p);
    f->number = (int32_t)n;
    f->label = label_of(label);
    if (label && label->kind != TK_REPEATED && ctx->file->syntax == IR_EDITIONS) {
        build_error(ctx, label->loc, "label \"%.*s\" is not allowed in editions; use option features.field_presence = %s",
                    (int)label->len, label->p, label->kind == TK_REQUIRED ? "LEGACY_REQUIRED" : "EXPLICIT (the default)");
        f->label = IR_LABEL_NONE;
    } else if (s->kind == SC_ONEOF && label) {
        build_error(ctx, label->loc, "fields in oneofs must not have labels (required / optional / repeated)");
        f->label = IR_LABEL_NONE;
    } else if (!label && !is_map && s->kind != SC_ONEOF && ctx->file->syntax == IR_PROTO2) {
        build_error(ctx, name.loc, "expected \"required\", \"optional\", or \"repeated\" (proto2 fields need a label)");
    }
    if (f->label == IR_LABEL_OPTIONAL && ctx->file->syntax == IR_PROTO3) f->proto3_optional = true;
    if (s->kind == SC_EXTEND) {
        ir_extend *x = s->node;
        f->extend = x;
        ir_pool_vec_push(ctx->file->pool, &x->fields, f);
        if (x->scope) { f->index = (int)x->scope->extensions.n; ir_pool_vec_push(ctx->file->pool, &x->scope->extensions, f); }
        else { f->index = (int)ctx->file->extensions.n; ir_pool_vec_push(ctx->file->pool, &ctx->file->extensions, f); }
    } else {
        f->index = (int)s->msg->fields.n;
        ir_pool_vec_push(ctx->file->pool, &s->msg->fields, f);
        if (s->kind == SC_ONEOF) {
            f->oneof = s->node;
            ir_pool_vec_push(ctx->file->pool, &f->oneof->fields, f);
        }
    }
    ctx->field = f;
    return f;
}

static void set_type(ir_field *f, pname t)
{
    f->type_loc = t.loc;
    f->type = ir_type_from_keyword(t.s, t.len);
    if (f->type == IR_TYPE_UNRESOLVED || f->type == IR_TYPE_GROUP) {
        f->type = IR_TYPE_UNRESOLVED;
        f->type_name = t.s;
    }
}

/* field_head ::= [label] type ident "=" int */
void pb_field(pctx *ctx, ptok *label, pname type, ptok name, ptok number)
{
    ir_field *f = new_field(ctx, label, name, number, false);
    set_type(f, type);
    f->json_name = json_name(ctx->file->pool, f->name);
}

/* The map entry's name, as protoc's MapEntryName: "my_map" -> "MyMapEntry". */
static const char *map_entry_name(ir_pool *pool, const char *field) { return camel_case(pool, field, true, "Entry"); }

/* field_head ::= "map" "<" type "," type ">" ident "=" int */
void pb_map_field(pctx *ctx, ptok *label, ptok kw, pname key, pname value, ptok name, ptok number)
{
    scope_kind k = top(ctx)->kind;
    if (k == SC_ONEOF) build_error(ctx, kw.loc, "map fields are not allowed in oneofs");
    else if (label) build_error(ctx, label->loc, "field labels (required/optional/repeated) are not allowed on map fields");
    else if (k == SC_EXTEND) build_error(ctx, kw.loc, "map fields are not allowed to be extensions");
    ir_field *f = new_field(ctx, NULL, name, number, true);
    f->label = IR_LABEL_REPEATED;
    f->proto3_optional = false;
    f->is_map = true;
    f->type_loc = kw.loc;
    f->type_name = map_entry_name(ctx->file->pool, f->name);
    f->json_name = json_name(ctx->file->pool, f->name);
    ctx->map_key = key;
    ctx->map_value = value;
}

static ir_field *entry_field(ir_message *entry, const char *name, int number, pname type)
{
    ir_field *f = ir_pool_alloc(entry->file->pool, sizeof *f);
    f->loc = entry->loc;
    f->name = name;
    f->json_name = name;
    f->number = number;
    f->number_loc = entry->loc;
    f->label = IR_LABEL_OPTIONAL;
    set_type(f, type);
    f->parent = entry;
    f->file = entry->file;
    f->index = (int)entry->fields.n;
    ir_pool_vec_push(entry->file->pool, &entry->fields, f);
    return f;
}

/* The nested <Name>Entry message of a map field, with key = 1 and value = 2. */
static void add_map_entry(pctx *ctx, ir_field *f)
{
    ir_message *m = ir_pool_alloc(ctx->file->pool, sizeof *m);
    m->loc = f->loc;
    m->name = f->type_name;
    m->map_entry = true;
    m->parent = f->parent;
    m->file = ctx->file;
    if (m->parent) ir_pool_vec_push(ctx->file->pool, &m->parent->messages, m);
    else ir_pool_vec_push(ctx->file->pool, &ctx->file->messages, m);
    ir_field *k = entry_field(m, "key", IR_MAP_KEY_NUMBER, ctx->map_key);
    ir_field *v = entry_field(m, "value", IR_MAP_VALUE_NUMBER, ctx->map_value);
    /* protoc copies enforce_utf8 to string keys and values */
    for (size_t i = 0; i < f->options.n; i++) {
        if (!is_simple(&f->options.v[i], "enforce_utf8")) continue;
        if (k->type == IR_TYPE_STRING) ir_pool_vec_push(ctx->file->pool, &k->options, f->options.v[i]);
        if (v->type == IR_TYPE_STRING) ir_pool_vec_push(ctx->file->pool, &v->options, f->options.v[i]);
    }
}

/* field ::= field_head [options] ";" */
void pb_field_end(pctx *ctx, ptok end)
{
    ir_field *f = ctx->field;
    if (!f) return;
    set_comments(ctx->file->pool, &f->comments, &end);
    if (f->is_map) add_map_entry(ctx, f);
    ctx->field = NULL;
}

/* group_field ::= [label] "group" ident "=" int */
void pb_group(pctx *ctx, ptok *label, ptok kw, ptok name, ptok number)
{
    if (ctx->file->syntax == IR_EDITIONS)
        build_error(ctx, kw.loc, "group syntax is not supported in editions; use a message field with "
                                 "features.message_encoding = DELIMITED");
    ir_field *f = new_field(ctx, label, name, number, false);
    f->type = IR_TYPE_GROUP;
    f->type_loc = kw.loc;
    f->type_name = f->name;
    if (name.p[0] < 'A' || name.p[0] > 'Z') build_error(ctx, name.loc, "group names must start with a capital letter");
    char *lower = ir_pool_strdup(ctx->file->pool, f->name);
    for (char *p = lower; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    f->name = lower;
    f->json_name = json_name(ctx->file->pool, lower);
    ir_message *m = ir_pool_alloc(ctx->file->pool, sizeof *m);
    m->loc = name.loc;
    m->name = f->type_name;
    m->is_group = true;
    m->parent = top(ctx)->msg;
    m->file = ctx->file;
    if (m->parent) ir_pool_vec_push(ctx->file->pool, &m->parent->messages, m);
    else ir_pool_vec_push(ctx->file->pool, &ctx->file->messages, m);
    ctx->group = m;
}

/* group_head ::= group_field [options] "{" */
void pb_group_begin(pctx *ctx, ptok open)
{
    ir_message *m = ctx->group;
    assert(m);                                   /* pb_group made it */
    set_comments(ctx->file->pool, &m->comments, &open);
    mark_before(ctx, m, &open);
    body_open(ctx, m, open);
    ctx->field = NULL;
    push(ctx, SC_MESSAGE, m, m);
}

/* extensions_kw ::= "extensions"    reserved_kw ::= "reserved" */
void pb_ranges_begin(pctx *ctx, bool reserved)
{
    ctx->ranges.n = 0;
    memset(&ctx->range_options, 0, sizeof ctx->range_options);
    ctx->in_ranges = !reserved;
    ctx->ranges_are_reserved = reserved;
}

/* range ::= number ["to" (number | "max")] */
void pb_range(pctx *ctx, pnum lo, pnum hi)
{
    bool in_enum = top(ctx)->kind == SC_ENUM;
    ir_range r = { lo.loc, (int32_t)lo.v, (int32_t)hi.v, { 0 } };
    if (!in_enum && (lo.v < 0 || (!hi.max && hi.v < 0))) {
        build_error(ctx, lo.v < 0 ? lo.loc : hi.loc, "expected a field number, found a negative number");
        return;
    }
    if (hi.max) r.end = in_enum ? INT32_MAX : RANGE_MAX_SENTINEL;
    ir_pool_vec_push(ctx->file->pool, &ctx->ranges, r);
}

/* extensions ::= extensions_kw ranges [options] ";"    reserved ::= reserved_kw ... ";" */
void pb_ranges_end(pctx *ctx, ptok end)
{
    (void)end;
    scope *s = top(ctx);
    for (size_t i = 0; i < ctx->ranges.n; i++) {
        ir_range r = ctx->ranges.v[i];
        if (s->kind == SC_ENUM) {
            ir_pool_vec_push(ctx->file->pool, &((ir_enum *)s->node)->reserved_ranges, r);
        } else if (ctx->ranges_are_reserved) {
            ir_pool_vec_push(ctx->file->pool, &s->msg->reserved_ranges, r);
        } else {
            r.options = ctx->range_options;
            ir_pool_vec_push(ctx->file->pool, &s->msg->extension_ranges, r);
        }
    }
    ctx->ranges.n = 0;
    ctx->in_ranges = false;
}

/* A reserved name, of a message or an enum. */
static void add_reserved_name(pctx *ctx, pname name)
{
    scope *s = top(ctx);
    if (s->kind == SC_ENUM) ir_pool_vec_push(ctx->file->pool, &((ir_enum *)s->node)->reserved_names, name.s);
    else ir_pool_vec_push(ctx->file->pool, &s->msg->reserved_names, name.s);
}

/* reserved_names ::= string ("," string)*: not in editions (protoc's error, once, at the first) */
void pb_reserved_name(pctx *ctx, pname name, bool first)
{
    if (first && ctx->file->syntax == IR_EDITIONS)
        build_error(ctx, name.loc, "Reserved names must be identifiers in editions, not string literals.");
    add_reserved_name(ctx, name);
}

/* reserved_idents ::= ident ("," ident)*: editions only */
void pb_reserved_ident(pctx *ctx, ptok name, bool first)
{
    if (first && ctx->file->syntax != IR_EDITIONS)
        build_error(ctx, name.loc, "Reserved names must be string literals. (Only editions supports identifiers.)");
    add_reserved_name(ctx, pb_name(ctx, name));
}

/* ---- syntax errors ------------------------------------------------------------------- */

static const char *token_name(int k)
{
    switch (k) {
    case TK_SEMI: return "';'";
    case TK_LBRACE: return "'{'";
    case TK_RBRACE: return "'}'";
    case TK_LPAREN: return "'('";
    case TK_RPAREN: return "')'";
    case TK_LBRACKET: return "'['";
    case TK_RBRACKET: return "']'";
    case TK_LT: return "'<'";
    case TK_GT: return "'>'";
    case TK_EQ: return "'='";
    case TK_COMMA: return "','";
    case TK_DOT: return "'.'";
    case TK_MINUS: return "'-'";
    case TK_INT: return "an integer";
    case TK_FLOAT: return "a number";
    case TK_STRING: return "a string";
    case TK_AGGREGATE: return "'{'";
    case TK_IDENT: return "an identifier";
    case TK_SYNTAX: return "\"syntax\"";
    case TK_EDITION: return "\"edition\"";
    case TK_IMPORT: return "\"import\"";
    case TK_WEAK: return "\"weak\"";
    case TK_PUBLIC: return "\"public\"";
    case TK_PACKAGE: return "\"package\"";
    case TK_OPTION: return "\"option\"";
    case TK_MESSAGE: return "\"message\"";
    case TK_ENUM: return "\"enum\"";
    case TK_SERVICE: return "\"service\"";
    case TK_RPC: return "\"rpc\"";
    case TK_RETURNS: return "\"returns\"";
    case TK_STREAM: return "\"stream\"";
    case TK_EXTEND: return "\"extend\"";
    case TK_EXTENSIONS: return "\"extensions\"";
    case TK_RESERVED: return "\"reserved\"";
    case TK_TO: return "\"to\"";
    case TK_MAX: return "\"max\"";
    case TK_ONEOF: return "\"oneof\"";
    case TK_MAP: return "\"map\"";
    case TK_OPTIONAL: return "\"optional\"";
    case TK_REQUIRED: return "\"required\"";
    case TK_REPEATED: return "\"repeated\"";
    case TK_GROUP: return "\"group\"";
    case TK_EXPORT: return "\"export\"";
    case TK_LOCAL: return "\"local\"";
    default: return "a symbol";
    }
}

static bool has(const int *v, int n, int k)
{
    for (int i = 0; i < n; i++)
        if (v[i] == k) return true;
    return false;
}

/* The end of the file inside a block: name the innermost one left open and where it starts. */
static bool report_open_block(pctx *ctx, ir_loc at)
{
    const scope *s = top(ctx);
    const char *kind = NULL, *name = NULL;
    ir_loc from = { 0, 0 };
    switch (s->kind) {
    case SC_MESSAGE: kind = "message"; name = ((ir_message *)s->node)->name; from = ((ir_message *)s->node)->loc; break;
    case SC_ENUM: kind = "enum"; name = ((ir_enum *)s->node)->name; from = ((ir_enum *)s->node)->loc; break;
    case SC_SERVICE: kind = "service"; name = ((ir_service *)s->node)->name; from = ((ir_service *)s->node)->loc; break;
    case SC_ONEOF: kind = "oneof"; name = ((ir_oneof *)s->node)->name; from = ((ir_oneof *)s->node)->loc; break;
    case SC_EXTEND: kind = "extend"; name = ((ir_extend *)s->node)->extendee_name; from = ((ir_extend *)s->node)->loc; break;
    case SC_METHOD: kind = "rpc"; name = ((ir_method *)s->node)->name; from = ((ir_method *)s->node)->loc; break;
    case SC_FILE: return false;
    }
    diag_error(ctx->file, at, "end of file inside %s \"%s\" (opened at line %u, column %u): missing '}'",
               kind, name, (unsigned)from.line, (unsigned)from.col);
    ctx->errors++;
    return true;
}

void pctx_syntax_error(pctx *ctx, const ptok *found, const int *expected, int nexpected)
{
    char what[96], want[256];
    ctx->syntax_errors++;
    if (found->loc.line == ctx->last_error.line && found->loc.col == ctx->last_error.col) return;   /* said already */
    ctx->last_error = found->loc;
    if (found->kind == 0) {
        if (ctx->eof_error) return;
        ctx->eof_error = true;
        if (report_open_block(ctx, found->loc)) return;
        snprintf(what, sizeof what, "end of file");
    } else if (found->kind == TK_AGGREGATE) {
        snprintf(what, sizeof what, "'{'");
    } else {
        snprintf(what, sizeof what, "'%.*s'", found->len > 40 ? 40 : (int)found->len, found->p);
    }
    if (has(expected, nexpected, TK_SERVICE)) {
        snprintf(want, sizeof want, "a top-level statement (message, enum, service, extend, import, package or option)");
    } else if (has(expected, nexpected, TK_GROUP) && !has(expected, nexpected, TK_RBRACE)) {
        snprintf(want, sizeof want, has(expected, nexpected, TK_OPTION) ? "a field or an option" : "a field");
    } else if (has(expected, nexpected, TK_RBRACE) && nexpected > 5) {
        snprintf(want, sizeof want, "a declaration or '}'");
    } else if (nexpected == 0 || nexpected > 6) {
        diag_error(ctx->file, found->loc, "unexpected %s", what);
        ctx->errors++;
        return;
    } else {
        size_t n = 0;
        want[0] = '\0';
        for (int i = 0; i < nexpected; i++)
            n += (size_t)snprintf(want + n, sizeof want - n, "%s%s", i == 0 ? "" : i == nexpected - 1 ? " or " : ", ",
                                  token_name(expected[i]));
    }
    diag_error(ctx->file, found->loc, "expected %s, found %s", want, what);
    ctx->errors++;
}

/* ---- end of file: full names, comments' enclosing messages ------------------ */

static void name_enum(ir_enum *e, const char *prefix)
{
    e->full_name = ir_join_name(e->file->pool, prefix, e->name);
    for (size_t i = 0; i < e->values.n; i++) e->values.v[i]->full_name = ir_join_name(e->file->pool, prefix, e->values.v[i]->name);
}

static void name_extensions(ir_pool *pool, ir_field **exts, size_t n, const char *prefix)
{
    for (size_t i = 0; i < n; i++) exts[i]->full_name = ir_join_name(pool, prefix, exts[i]->name);
}

static void name_message(ir_message *m, const char *prefix)
{
    m->full_name = ir_join_name(m->file->pool, prefix, m->name);
    for (size_t i = 0; i < m->fields.n; i++) m->fields.v[i]->full_name = ir_join_name(m->file->pool, m->full_name, m->fields.v[i]->name);
    for (size_t i = 0; i < m->messages.n; i++) name_message(m->messages.v[i], m->full_name);
    for (size_t i = 0; i < m->enums.n; i++) name_enum(m->enums.v[i], m->full_name);
    name_extensions(m->file->pool, m->extensions.v, m->extensions.n, m->full_name);
}

void irbuild_full_names(ir_file *f)
{
    const char *pkg = f->package;
    for (size_t i = 0; i < f->messages.n; i++) name_message(f->messages.v[i], pkg);
    for (size_t i = 0; i < f->enums.n; i++) name_enum(f->enums.v[i], pkg);
    for (size_t i = 0; i < f->services.n; i++) f->services.v[i]->full_name = ir_join_name(f->pool, pkg, f->services.v[i]->name);
    name_extensions(f->pool, f->extensions.v, f->extensions.n, pkg);
}

void pctx_finish(pctx *ctx)
{
    ir_file *f = ctx->file;
    irbuild_full_names(f);
    /* the innermost body around each comment, in one sweep: comments and bodies are in source order; a
     * stack holds the bodies opened before the comment, the last opened on top; a body that ends before
     * a comment holds no later comment either */
    size_t *stack = ir_pool_alloc(ctx->file->pool, (ctx->bodies.n + 1) * sizeof *stack), depth = 0, next = 0;
    for (size_t i = 0; i < f->comments.n; i++) {
        size_t off = ctx->comment_offsets.v[i];
        for (; next < ctx->bodies.n && ctx->bodies.v[next].open < off; next++) stack[depth++] = next;
        while (depth && ctx->bodies.v[stack[depth - 1]].close <= off) depth--;
        if (depth) f->comments.v[i].inside = ctx->bodies.v[stack[depth - 1]].m;
    }
}
