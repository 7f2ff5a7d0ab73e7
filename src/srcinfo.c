/* srcinfo.c: protoc 3.21's SourceCodeInfo: a file's tokens walked again in the order protoc's parser records locations. */
#include "srcinfo.h"

#include <stdlib.h>
#include <string.h>

#include "std_options.h"    /* before irbuild.h, whose type "scope" its parameters would shadow */
#include "irbuild.h"
#include "parse.h"
#include "google/protobuf/descriptor.pb.h"   /* field numbers: google_protobuf_M_f_tag */

/* Each Parser::LocationRecorder of protoc's parser.cc adds a location when it is made
 * (starting at the current token) and ends it at the token before the current one
 * when it goes away, unless told otherwise. The walk below makes them in that order;
 * an option the interpreter resolved gets its field-number path and loses the
 * locations inside it, as DescriptorBuilder::OptionInterpreter::UpdateSourceCodeInfo. */

/* ---- tokens: kept by the parser, columns counted as protoc's tokenizer does ---- */

typedef struct stoken {
    int kind;
    const char *p;               /* text (an aggregate's is not the source's) */
    uint32_t len;
    ir_loc loc, end;             /* first byte; one past the last */
    const pcomments *c;          /* ';' '{' '}': the comments protoc attaches there */
    int32_t line, col, end_line, end_col;    /* protoc's: 0-based, tabs to the next multiple of 8 */
} stoken;

struct srcinfo_tokens {
    IR_VEC(stoken) v;
};

void srcinfo_token(ir_file *f, const ptok *t, ir_loc end)
{
    if (!f->tokens) f->tokens = ir_pool_alloc(f->pool, sizeof *f->tokens);
    stoken s = { t->kind, t->p, t->len, t->loc, end, t->c, 0, 0, 0, 0 };
    ir_pool_vec_push(f->pool, &f->tokens->v, s);
}

/* A cursor over the source that turns byte positions into protoc's line and column. */
typedef struct cursor {
    uint32_t line, col;          /* ir_loc of the byte at p */
    const char *p, *end;
    int32_t pcol;                /* protoc's column there */
} cursor;

static void advance(cursor *c, ir_loc to, int32_t *line, int32_t *col)
{
    for (const char *nl; c->line < to.line && (nl = memchr(c->p, '\n', (size_t)(c->end - c->p))); c->line++) {
        c->p = nl + 1;                               /* whole lines at once */
        c->col = 1;
        c->pcol = 0;
    }
    for (; c->line == to.line && c->col < to.col && c->p < c->end; c->p++, c->col++)
        c->pcol += *c->p == '\t' ? 8 - c->pcol % 8 : 1;
    *line = (int32_t)to.line - 1;
    *col = c->pcol;
}

static void number_columns(const ir_file *f, struct srcinfo_tokens *t)
{
    int bom = f->source_len >= 3 && memcmp(f->source, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;   /* the lexer's column 1 is after it; protoc counts its bytes */
    cursor c = { 1, 1, f->source + bom, f->source + f->source_len, bom };
    for (size_t i = 0; i < t->v.n; i++) {
        stoken *s = &t->v.v[i];
        advance(&c, s->loc, &s->line, &s->col);
        advance(&c, s->end, &s->end_line, &s->end_col);
    }
}

/* ---- locations ------------------------------------------------------------------ */

typedef struct sloc {
    int32_t *path;
    size_t npath;
    int32_t span[4];
    int nspan;                   /* 2 while its end is open */
    const pcomments *c;
} sloc;

typedef struct walker {
    const ir_file *f;
    const stoken *t;
    size_t n, i;                 /* tokens, the current one */
    const stoken *eof;           /* the current one past the last */
    IR_VEC(sloc) locs;
} walker;

#define NO_PARENT ((size_t)-1)

static const stoken *cur(const walker *w) { return w->i < w->n ? &w->t[w->i] : w->eof; }
static bool at(const walker *w, int kind) { return w->i < w->n && w->t[w->i].kind == kind; }
static bool at_text(const walker *w, const char *s)
{
    return w->i < w->n && w->t[w->i].len == strlen(s) && memcmp(w->t[w->i].p, s, w->t[w->i].len) == 0;
}
static void next(walker *w) { if (w->i < w->n) w->i++; }
static bool skip(walker *w, int kind) { if (!at(w, kind)) return false; next(w); return true; }

static void add_path(walker *w, size_t loc, int32_t comp)
{
    sloc *l = &w->locs.v[loc];
    int32_t *p = ir_pool_alloc(w->f->pool, (l->npath + 1) * sizeof *p);
    if (l->npath) memcpy(p, l->path, l->npath * sizeof *p);
    p[l->npath++] = comp;
    l->path = p;
}

/* A new location: the parent's path, starting at the current token. */
static size_t open_at(walker *w, size_t parent)
{
    sloc l = { NULL, 0, { cur(w)->line, cur(w)->col, 0, 0 }, 2, NULL };
    if (parent != NO_PARENT) {
        l.npath = w->locs.v[parent].npath;
        l.path = ir_pool_alloc(w->f->pool, (l.npath + 1) * sizeof *l.path);
        if (l.npath) memcpy(l.path, w->locs.v[parent].path, l.npath * sizeof *l.path);
    }
    ir_pool_vec_push(w->f->pool, &w->locs, l);
    return w->locs.n - 1;
}

static size_t open1(walker *w, size_t parent, int32_t a)
{
    size_t l = open_at(w, parent);
    add_path(w, l, a);
    return l;
}

static size_t open2(walker *w, size_t parent, int32_t a, int32_t b)
{
    size_t l = open1(w, parent, a);
    add_path(w, l, b);
    return l;
}

static void start_at(walker *w, size_t loc, size_t tok)
{
    w->locs.v[loc].span[0] = w->t[tok].line;
    w->locs.v[loc].span[1] = w->t[tok].col;
}

static void end_at_token(walker *w, size_t loc, const stoken *t)
{
    sloc *l = &w->locs.v[loc];
    if (t->end_line != l->span[0]) l->span[l->nspan++] = t->end_line;
    l->span[l->nspan++] = t->end_col;
}

static void end_at(walker *w, size_t loc, size_t tok) { end_at_token(w, loc, &w->t[tok]); }

/* The recorder goes away: the location ends at the token before the current one
 * (before the first, protoc's start token, at line 0, column 0). */
static void close_loc(walker *w, size_t loc)
{
    static const stoken start;
    if (w->locs.v[loc].nspan == 2) end_at_token(w, loc, w->i > 0 ? &w->t[w->i - 1] : &start);
}

/* A location over just the current token. */
static void token_loc(walker *w, size_t loc)
{
    next(w);
    close_loc(w, loc);
}

/* protoc's ConsumeEndOfDeclaration: the ';' or '{' hands its comments to loc. */
static void end_declaration(walker *w, size_t loc)
{
    if (w->i < w->n) w->locs.v[loc].c = w->t[w->i].c;
    next(w);
}

/* ---- values and names ------------------------------------------------------------ */

static void skip_strings(walker *w) { while (skip(w, TK_STRING)) {} }

static void skip_type(walker *w)
{
    skip(w, TK_DOT);
    next(w);
    while (skip(w, TK_DOT)) next(w);
}

/* ["-"] value, strings concatenated */
static void skip_value(walker *w)
{
    skip(w, TK_MINUS);
    if (at(w, TK_STRING)) skip_strings(w);
    else next(w);
}

/* The field numbers of descriptor.proto that paths are made of, from the code pbjc generates for it
 * (src/pbgen). Every range message numbers start, end (and options) as ExtensionRange; every *Options
 * message numbers uninterpreted_option as FileOptions. */
#define F(message, field) google_protobuf_##message##_##field##_tag
enum {
    F_PACKAGE = F(FileDescriptorProto, package),
    F_DEPENDENCY = F(FileDescriptorProto, dependency),
    F_MESSAGE = F(FileDescriptorProto, message_type),
    F_ENUM = F(FileDescriptorProto, enum_type),
    F_SERVICE = F(FileDescriptorProto, service),
    F_EXTENSION = F(FileDescriptorProto, extension),
    F_OPTIONS = F(FileDescriptorProto, options),
    F_PUBLIC = F(FileDescriptorProto, public_dependency),
    F_WEAK = F(FileDescriptorProto, weak_dependency),
    F_SYNTAX = F(FileDescriptorProto, syntax),
    F_OPTION_DEPENDENCY = F(FileDescriptorProto, option_dependency),
    M_NAME = F(DescriptorProto, name),
    M_FIELD = F(DescriptorProto, field),
    M_NESTED = F(DescriptorProto, nested_type),
    M_ENUM = F(DescriptorProto, enum_type),
    M_EXT_RANGE = F(DescriptorProto, extension_range),
    M_EXTENSION = F(DescriptorProto, extension),
    M_OPTIONS = F(DescriptorProto, options),
    M_ONEOF = F(DescriptorProto, oneof_decl),
    M_RESERVED_RANGE = F(DescriptorProto, reserved_range),
    M_RESERVED_NAME = F(DescriptorProto, reserved_name),
    FD_NAME = F(FieldDescriptorProto, name),
    FD_EXTENDEE = F(FieldDescriptorProto, extendee),
    FD_NUMBER = F(FieldDescriptorProto, number),
    FD_LABEL = F(FieldDescriptorProto, label),
    FD_TYPE = F(FieldDescriptorProto, type),
    FD_TYPE_NAME = F(FieldDescriptorProto, type_name),
    FD_DEFAULT = F(FieldDescriptorProto, default_value),
    FD_OPTIONS = F(FieldDescriptorProto, options),
    FD_JSON_NAME = F(FieldDescriptorProto, json_name),
    R_START = F(DescriptorProto_ExtensionRange, start),
    R_END = F(DescriptorProto_ExtensionRange, end),
    R_OPTIONS = F(DescriptorProto_ExtensionRange, options),
    O_NAME = F(OneofDescriptorProto, name),
    O_OPTIONS = F(OneofDescriptorProto, options),
    E_NAME = F(EnumDescriptorProto, name),
    E_VALUE = F(EnumDescriptorProto, value),
    E_OPTIONS = F(EnumDescriptorProto, options),
    E_RESERVED_RANGE = F(EnumDescriptorProto, reserved_range),
    E_RESERVED_NAME = F(EnumDescriptorProto, reserved_name),
    EV_NAME = F(EnumValueDescriptorProto, name),
    EV_NUMBER = F(EnumValueDescriptorProto, number),
    EV_OPTIONS = F(EnumValueDescriptorProto, options),
    S_NAME = F(ServiceDescriptorProto, name),
    S_METHOD = F(ServiceDescriptorProto, method),
    S_OPTIONS = F(ServiceDescriptorProto, options),
    MD_NAME = F(MethodDescriptorProto, name),
    MD_INPUT = F(MethodDescriptorProto, input_type),
    MD_OUTPUT = F(MethodDescriptorProto, output_type),
    MD_OPTIONS = F(MethodDescriptorProto, options),
    MD_CLIENT_STREAMING = F(MethodDescriptorProto, client_streaming),
    MD_SERVER_STREAMING = F(MethodDescriptorProto, server_streaming),
    UNINTERPRETED = F(FileOptions, uninterpreted_option),
    U_NAME = F(UninterpretedOption, name),
    U_IDENT = F(UninterpretedOption, identifier_value),
    U_POSITIVE = F(UninterpretedOption, positive_int_value),
    U_NEGATIVE = F(UninterpretedOption, negative_int_value),
    U_DOUBLE = F(UninterpretedOption, double_value),
    U_STRING = F(UninterpretedOption, string_value),
    U_AGGREGATE = F(UninterpretedOption, aggregate_value),
    U_NAME_PART = F(UninterpretedOption_NamePart, name_part)
};
#undef F

/* ---- options: the interpreter's path for each -------------------------------- */

/* The field a name part denotes: its extension (or a newer descriptor.proto's field the
 * resolver bound), else the field of that name in the message of the part before. */
static const ir_field *part_field(const ir_field *before, const ir_optname_part *p)
{
    const ir_message *m = before ? before->message_type : NULL;
    if (p->ext || !m) return p->ext;
    for (size_t j = 0; j < m->fields.n; j++)
        if (strcmp(m->fields.v[j]->name, p->name) == 0) return m->fields.v[j];
    return NULL;
}

/* An editions feature's numbers: features (the options message's FeatureSet), then a core feature's; 0 else. */
static int32_t feature_number(const ir_option *o, size_t k, std_scope kind)
{
    feature_id id;
    if (!ir_option_is_feature(o) || k > 1) return 0;
    if (k == 0) return (int32_t)std_features_number(kind);
    return !o->name.v[1].extension && feature_named(o->name.v[1].name, &id) ? (int32_t)feature_at(id)->number : 0;
}

/* The field numbers an option's name resolves to, from the options message down (0 where
 * unknown); true when the last is a repeated field. */
static bool option_numbers(const ir_option *o, std_scope kind, int32_t *out)
{
    const ir_field *fd = NULL;
    for (size_t k = 0; k < o->name.n; k++) {
        fd = part_field(fd, &o->name.v[k]);
        const std_option *so = k == 0 && !fd ? std_option_find(kind, o->name.v[k].name) : NULL;
        out[k] = fd ? fd->number : so ? (int32_t)so->number : feature_number(o, k, kind);
    }
    return fd && (fd->label == IR_LABEL_REPEATED || fd->is_map);
}

/* The options an option statement or [...] list adds to. */
typedef struct optsite {
    const ir_options *opts;      /* NULL when the IR does not line up (then paths stay uninterpreted) */
    std_scope scope;
    int next;                    /* index of the next uninterpreted_option */
    int32_t *repeat;             /* per option: how many before it have the same numbers (made when needed) */
} optsite;

typedef struct numbered {
    const int32_t *nums;
    size_t n, j;
} numbered;

static int by_numbers(const void *pa, const void *pb)
{
    const numbered *a = pa, *b = pb;
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (size_t k = 0; k < a->n; k++)
        if (a->nums[k] != b->nums[k]) return a->nums[k] < b->nums[k] ? -1 : 1;
    return a->j < b->j ? -1 : a->j > b->j;
}

/* protoc's repeated_option_counts_: each option's index among the element's options that set
 * the same field, by sorting on (numbers, position) rather than comparing every pair. */
static void count_repeats(ir_pool *pool, optsite *s)
{
    size_t n = s->opts->n;
    numbered *v = ir_pool_alloc(pool, n * sizeof *v);
    for (size_t j = 0; j < n; j++) {
        int32_t *nums = ir_pool_alloc(pool, (s->opts->v[j].name.n + 1) * sizeof *nums);
        option_numbers(&s->opts->v[j], s->scope, nums);
        v[j] = (numbered){ nums, s->opts->v[j].name.n, j };
    }
    qsort(v, n, sizeof *v, by_numbers);
    s->repeat = ir_pool_alloc(pool, n * sizeof *s->repeat);
    for (size_t i = 1; i < n; i++)
        if (v[i].n == v[i - 1].n && memcmp(v[i].nums, v[i - 1].nums, v[i].n * sizeof *v[i].nums) == 0)
            s->repeat[v[i].j] = s->repeat[v[i - 1].j] + 1;
}

/* The location of option j, now interpreted: the element's options path, the option's
 * field numbers, and for a repeated field its index among the element's; nothing inside. */
static void interpret_path(walker *w, size_t loc, size_t opts_path_len, optsite *s, int j)
{
    if (!s->opts || (size_t)j >= s->opts->n) return;
    const ir_option *o = &s->opts->v[j];
    sloc *l = &w->locs.v[loc];
    int32_t *p = ir_pool_alloc(w->f->pool, (opts_path_len + o->name.n + 1) * sizeof *p);
    memcpy(p, l->path, opts_path_len * sizeof *p);
    size_t n = opts_path_len + o->name.n;
    if (option_numbers(o, s->scope, p + opts_path_len)) {
        if (!s->repeat) count_repeats(w->f->pool, s);
        p[n++] = s->repeat[j];
    }
    l->path = p;
    l->npath = n;
    w->locs.n = loc + 1;
}

enum { STATEMENT, ASSIGNMENT };

/* protoc's ParseOption: uninterpreted_option (999) j of the options at opts_loc. */
static void option(walker *w, size_t opts_loc, optsite *s, int style)
{
    int j = s->next++;
    size_t loc = open2(w, opts_loc, UNINTERPRETED, j);
    if (style == STATEMENT) next(w);                 /* "option" */
    size_t name = open1(w, loc, U_NAME);
    for (int32_t part = 0;; part++) {
        size_t pl = open1(w, name, part);
        bool ext = skip(w, TK_LPAREN);
        size_t np = open1(w, pl, U_NAME_PART);
        if (ext) skip_type(w);
        else next(w);
        close_loc(w, np);
        if (ext) next(w);                            /* ")" */
        close_loc(w, pl);
        if (!skip(w, TK_DOT)) break;
    }
    close_loc(w, name);
    next(w);                                         /* "=" */
    size_t value = open_at(w, loc);
    bool negative = skip(w, TK_MINUS);
    add_path(w, value, at(w, TK_STRING) ? U_STRING : at(w, TK_AGGREGATE) ? U_AGGREGATE : at(w, TK_FLOAT) ? U_DOUBLE
                       : at(w, TK_INT) ? (negative ? U_NEGATIVE : U_POSITIVE) : U_IDENT);
    if (at(w, TK_STRING)) skip_strings(w);
    else next(w);
    close_loc(w, value);
    if (style == STATEMENT) end_declaration(w, loc);
    close_loc(w, loc);
    interpret_path(w, loc, w->locs.v[opts_loc].npath, s, j);
}

/* An option statement whose location has the options path (field) under parent. */
static void option_statement(walker *w, size_t parent, int32_t field, optsite *s)
{
    size_t loc = open1(w, parent, field);
    option(w, loc, s, STATEMENT);
    close_loc(w, loc);
}

/* "[" option ("," option)* "]" of an enum value or an extension range, at path (field) under parent. */
static void bracket_options(walker *w, size_t parent, int32_t field, optsite *s)
{
    size_t loc = open1(w, parent, field);
    next(w);                                         /* "[" */
    do option(w, loc, s, ASSIGNMENT); while (skip(w, TK_COMMA));
    next(w);                                         /* "]" */
    close_loc(w, loc);
}

static optsite site(const ir_options *opts, std_scope kind) { return (optsite){ opts, kind, 0, NULL }; }

/* ---- declarations, as parser.cc parses them --------------------------------------- */

/* The messages a group or map entry goes to, and how many there are so far. */
typedef struct nest {
    ir_message *const *v;
    size_t n;
    size_t parent;               /* location of their container */
    int32_t field;               /* its nested-type field number */
    int count;
} nest;

static ir_message *nth_message(const nest *ns, int k) { return (size_t)k < ns->n ? ns->v[k] : NULL; }

static void message_block(walker *w, size_t loc, ir_message *m);

static void default_value(walker *w, size_t field_loc)
{
    next(w);                                         /* "default" */
    next(w);                                         /* "=" */
    size_t loc = open1(w, field_loc, FD_DEFAULT);
    skip_value(w);
    close_loc(w, loc);
}

static void json_name(walker *w, size_t field_loc)
{
    size_t loc = open1(w, field_loc, FD_JSON_NAME);
    next(w);                                         /* "json_name" */
    next(w);                                         /* "=" */
    size_t value = open_at(w, loc);
    skip_strings(w);
    close_loc(w, value);
    close_loc(w, loc);
}

static void field_options(walker *w, size_t field_loc, const ir_field *f)
{
    if (!at(w, TK_LBRACKET)) return;
    optsite s = site(f ? &f->options : NULL, SCOPE_FIELD);
    size_t loc = open1(w, field_loc, FD_OPTIONS);
    next(w);
    do {
        if (at_text(w, "default")) default_value(w, field_loc);
        else if (at_text(w, "json_name")) json_name(w, field_loc);
        else option(w, loc, &s, ASSIGNMENT);
    } while (skip(w, TK_COMMA));
    next(w);                                         /* "]" */
    close_loc(w, loc);
}

static bool is_scalar(const stoken *t) { return ir_type_from_keyword(t->p, t->len) != IR_TYPE_UNRESOLVED; }

/* protoc's ParseMessageField (labels allowed) or ParseMessageFieldNoLabel. */
static void field(walker *w, size_t loc, const ir_field *f, nest *ns, bool label)
{
    if (label && (at(w, TK_OPTIONAL) || at(w, TK_REQUIRED) || at(w, TK_REPEATED))) token_loc(w, open1(w, loc, FD_LABEL));
    size_t type = open_at(w, loc);
    bool map = at(w, TK_MAP) && w->i + 1 < w->n && w->t[w->i + 1].kind == TK_LT;
    bool group = at(w, TK_GROUP);
    bool scalar = !at(w, TK_MAP) && is_scalar(cur(w));
    if (map) {
        next(w), next(w), skip_type(w), next(w), skip_type(w), next(w);    /* map < K , V > */
    } else if (scalar || at(w, TK_MAP)) {
        next(w);
    } else {
        skip_type(w);
    }
    add_path(w, type, scalar ? FD_TYPE : FD_TYPE_NAME);
    close_loc(w, type);
    size_t name_tok = w->i;
    token_loc(w, open1(w, loc, FD_NAME));
    next(w);                                         /* "=" */
    token_loc(w, open1(w, loc, FD_NUMBER));
    field_options(w, loc, f);
    if (group) {
        ir_message *g = nth_message(ns, ns->count);
        size_t gl = open2(w, ns->parent, ns->field, ns->count++);
        w->locs.v[gl].span[0] = w->locs.v[loc].span[0];
        w->locs.v[gl].span[1] = w->locs.v[loc].span[1];
        size_t gname = open1(w, gl, M_NAME);
        start_at(w, gname, name_tok);
        end_at(w, gname, name_tok);
        size_t tname = open1(w, loc, FD_TYPE_NAME);
        start_at(w, tname, name_tok);
        end_at(w, tname, name_tok);
        message_block(w, gl, g);
        close_loc(w, gl);
    } else {
        end_declaration(w, loc);
    }
    if (map) ns->count++;                            /* its entry message */
}

/* "extend" type "{" field+ "}": extensions[*count...] under loc's parent. */
static void extend(walker *w, size_t loc, ir_field *const *exts, size_t nexts, int *count, nest *ns)
{
    next(w);                                         /* "extend" */
    size_t from = w->i;
    skip_type(w);
    size_t to = w->i - 1;
    end_declaration(w, loc);
    do {
        int k = (*count)++;
        size_t fl = open1(w, loc, k);
        size_t extendee = open1(w, fl, FD_EXTENDEE);
        start_at(w, extendee, from);
        end_at(w, extendee, to);
        field(w, fl, (size_t)k < nexts ? exts[k] : NULL, ns, true);
        close_loc(w, fl);
    } while (w->i < w->n && !skip(w, TK_RBRACE));
}

/* range ("," range)*: start (1) and end (2) of each, the end at the start when not written. */
static void ranges(walker *w, size_t loc, int *count)
{
    do {
        size_t rl = open1(w, loc, (*count)++);
        size_t start_tok = w->i;
        size_t start = open1(w, rl, R_START);
        skip(w, TK_MINUS);
        next(w);
        close_loc(w, start);
        if (skip(w, TK_TO)) {
            size_t end = open1(w, rl, R_END);
            skip(w, TK_MINUS);
            next(w);
            close_loc(w, end);
        } else {
            size_t end = open1(w, rl, R_END);
            start_at(w, end, start_tok);
            end_at(w, end, start_tok);
        }
        close_loc(w, rl);
    } while (skip(w, TK_COMMA));
}

/* "reserved" (ranges | names) ";" of a message or an enum (range_field, name_field under parent). */
static void reserved(walker *w, size_t parent, int32_t range_field, int32_t name_field, int *nranges, int *nnames)
{
    size_t start = w->i;
    next(w);
    bool names = !at(w, TK_INT) && !at(w, TK_MINUS);     /* strings, or identifiers in editions */
    size_t loc = open1(w, parent, names ? name_field : range_field);
    start_at(w, loc, start);
    if (names) {
        do {
            size_t nl = open1(w, loc, (*nnames)++);
            if (at(w, TK_STRING)) skip_strings(w);
            else next(w);
            close_loc(w, nl);
        } while (skip(w, TK_COMMA));
    } else {
        ranges(w, loc, nranges);
    }
    end_declaration(w, loc);
    close_loc(w, loc);
}

/* "extensions" ranges [options] ";": the options' locations once for each range of the statement. */
static void extensions(walker *w, size_t loc, ir_message *m, int *count)
{
    next(w);
    int first = *count;
    ranges(w, loc, count);
    if (at(w, TK_LBRACKET)) {
        size_t index_pos = w->locs.v[loc].npath, mark = w->locs.n;
        size_t index = open1(w, loc, first);
        optsite s = site(m && (size_t)first < m->extension_ranges.n ? &m->extension_ranges.v[first].options : NULL,
                         SCOPE_EXTENSION_RANGE);
        bracket_options(w, index, R_OPTIONS, &s);
        size_t n = w->locs.n - mark - 1;
        sloc *copy = ir_pool_alloc(w->f->pool, (n + 1) * sizeof *copy);
        memcpy(copy, &w->locs.v[mark + 1], n * sizeof *copy);
        w->locs.n = mark;
        for (int r = first; r < *count; r++)
            for (size_t k = 0; k < n; k++) {
                sloc l = copy[k];
                l.path = ir_pool_alloc(w->f->pool, l.npath * sizeof *l.path);
                memcpy(l.path, copy[k].path, l.npath * sizeof *l.path);
                l.path[index_pos] = r;
                ir_pool_vec_push(w->f->pool, &w->locs, l);
            }
    }
    end_declaration(w, loc);
}

static void enum_block(walker *w, size_t loc, ir_enum *e)
{
    next(w);                                         /* "enum" */
    token_loc(w, open1(w, loc, E_NAME));
    end_declaration(w, loc);
    optsite s = site(e ? &e->options : NULL, SCOPE_ENUM);
    int values = 0, nranges = 0, nnames = 0;
    while (w->i < w->n && !skip(w, TK_RBRACE)) {
        if (skip(w, TK_SEMI)) continue;
        if (at(w, TK_OPTION)) { option_statement(w, loc, E_OPTIONS, &s); continue; }
        if (at(w, TK_RESERVED)) { reserved(w, loc, E_RESERVED_RANGE, E_RESERVED_NAME, &nranges, &nnames); continue; }
        const ir_enum_value *v = e && (size_t)values < e->values.n ? e->values.v[values] : NULL;
        size_t vl = open2(w, loc, E_VALUE, values++);
        token_loc(w, open1(w, vl, EV_NAME));
        next(w);                                     /* "=" */
        size_t num = open1(w, vl, EV_NUMBER);
        skip(w, TK_MINUS);
        token_loc(w, num);
        optsite vs = site(v ? &v->options : NULL, SCOPE_ENUM_VALUE);
        if (at(w, TK_LBRACKET)) bracket_options(w, vl, EV_OPTIONS, &vs);
        end_declaration(w, vl);
        close_loc(w, vl);
    }
}

static void oneof(walker *w, size_t loc, size_t message_loc, ir_message *m, const ir_oneof *o, int *fields, nest *ns)
{
    next(w);                                         /* "oneof" */
    token_loc(w, open1(w, loc, O_NAME));
    end_declaration(w, loc);
    optsite s = site(o ? &o->options : NULL, SCOPE_ONEOF);
    do {
        if (at(w, TK_OPTION)) { option_statement(w, loc, O_OPTIONS, &s); continue; }
        int k = (*fields)++;
        size_t fl = open2(w, message_loc, M_FIELD, k);
        field(w, fl, m && (size_t)k < m->fields.n ? m->fields.v[k] : NULL, ns, false);
        close_loc(w, fl);
    } while (w->i < w->n && !skip(w, TK_RBRACE));
}

static void message(walker *w, size_t loc, ir_message *m)
{
    next(w);                                         /* "message" */
    token_loc(w, open1(w, loc, M_NAME));
    message_block(w, loc, m);
}

#define NTH(vec, k) ((vec) && (size_t)(k) < (vec)->n ? (vec)->v[k] : NULL)

/* What a file and a message body have alike: messages, enums, extend blocks and options,
 * each at its own field number. */
typedef struct body {
    size_t loc;
    nest ns;
    int32_t enum_field, extend_field, options_field;
    ir_enum *const *enums;
    size_t nenums;
    int enum_count;
    ir_field *const *exts;
    size_t nexts;
    int ext_count;
    optsite opts;
} body;

/* A message, enum, extend or option statement of b; false at any other. */
static bool common_statement(walker *w, body *b)
{
    size_t l;
    if ((at(w, TK_EXPORT) || at(w, TK_LOCAL)) && w->i + 1 < w->n &&
        (w->t[w->i + 1].kind == TK_MESSAGE || w->t[w->i + 1].kind == TK_ENUM))
        next(w);                                 /* edition 2024's visibility: the location starts after it */
    if (at(w, TK_MESSAGE)) {
        int k = b->ns.count++;
        l = open2(w, b->loc, b->ns.field, k);
        message(w, l, nth_message(&b->ns, k));
    } else if (at(w, TK_ENUM)) {
        int k = b->enum_count++;
        l = open2(w, b->loc, b->enum_field, k);
        enum_block(w, l, (size_t)k < b->nenums ? b->enums[k] : NULL);
    } else if (at(w, TK_EXTEND)) {
        l = open1(w, b->loc, b->extend_field);
        extend(w, l, b->exts, b->nexts, &b->ext_count, &b->ns);
    } else if (at(w, TK_OPTION)) {
        l = open1(w, b->loc, b->options_field);
        option(w, l, &b->opts, STATEMENT);
    } else {
        return false;
    }
    close_loc(w, l);
    return true;
}

static void message_block(walker *w, size_t loc, ir_message *m)
{
    end_declaration(w, loc);
    body b = { loc, { m ? m->messages.v : NULL, m ? m->messages.n : 0, loc, M_NESTED, 0 }, M_ENUM, M_EXTENSION,
               M_OPTIONS, m ? m->enums.v : NULL, m ? m->enums.n : 0, 0, m ? m->extensions.v : NULL,
               m ? m->extensions.n : 0, 0, site(m ? &m->options : NULL, SCOPE_MESSAGE) };
    int fields = 0, nranges = 0, oneofs = 0, reserved_ranges = 0, reserved_names = 0;
    while (w->i < w->n && !skip(w, TK_RBRACE)) {
        if (skip(w, TK_SEMI) || common_statement(w, &b)) continue;
        if (at(w, TK_RESERVED)) {
            reserved(w, loc, M_RESERVED_RANGE, M_RESERVED_NAME, &reserved_ranges, &reserved_names);
            continue;
        }
        size_t l;
        if (at(w, TK_EXTENSIONS)) {
            l = open1(w, loc, M_EXT_RANGE);
            extensions(w, l, m, &nranges);
        } else if (at(w, TK_ONEOF)) {
            l = open2(w, loc, M_ONEOF, oneofs);
            oneof(w, l, loc, m, NTH(m ? &m->oneofs : NULL, oneofs), &fields, &b.ns);
            oneofs++;
        } else {
            int k = fields++;
            l = open2(w, loc, M_FIELD, k);
            field(w, l, NTH(m ? &m->fields : NULL, k), &b.ns, true);
        }
        close_loc(w, l);
    }
}

static void service(walker *w, size_t loc, const ir_service *sv)
{
    next(w);                                         /* "service" */
    token_loc(w, open1(w, loc, S_NAME));
    end_declaration(w, loc);
    optsite s = site(sv ? &sv->options : NULL, SCOPE_SERVICE);
    int methods = 0;
    while (w->i < w->n && !skip(w, TK_RBRACE)) {
        if (skip(w, TK_SEMI)) continue;
        if (at(w, TK_OPTION)) { option_statement(w, loc, S_OPTIONS, &s); continue; }
        const ir_method *md = sv && (size_t)methods < sv->methods.n ? sv->methods.v[methods] : NULL;
        size_t ml = open2(w, loc, S_METHOD, methods++);
        next(w);                                     /* "rpc" */
        token_loc(w, open1(w, ml, MD_NAME));
        for (int32_t dir = 0; dir < 2; dir++) {      /* ( [stream] In ) returns ( [stream] Out ) */
            if (dir == 1) next(w);                   /* "returns" */
            next(w);                                 /* "(" */
            if (at(w, TK_STREAM)) token_loc(w, open1(w, ml, dir ? MD_SERVER_STREAMING : MD_CLIENT_STREAMING));
            size_t type = open1(w, ml, dir ? MD_OUTPUT : MD_INPUT);
            skip_type(w);
            close_loc(w, type);
            next(w);                                 /* ")" */
        }
        bool has_body = at(w, TK_LBRACE);
        end_declaration(w, ml);                      /* ";" or "{" */
        optsite ms = site(md ? &md->options : NULL, SCOPE_METHOD);
        while (has_body && w->i < w->n && !skip(w, TK_RBRACE))
            if (!skip(w, TK_SEMI)) option_statement(w, ml, MD_OPTIONS, &ms);
        close_loc(w, ml);
    }
}

/* A statement up to and with its ';', its comments to loc (syntax, package). */
static void simple_statement(walker *w, size_t loc)
{
    while (w->i < w->n && !at(w, TK_SEMI)) next(w);
    end_declaration(w, loc);
    close_loc(w, loc);
}

/* "import" ["public" | "weak"] string ";"  (or "import option" string ";": edition 2024's option_dependency) */
static void import(walker *w, size_t root, int *deps, int *publics, int *weaks, int *option_deps)
{
    if (w->i + 1 < w->n && w->t[w->i + 1].kind == TK_OPTION) {
        size_t loc = open2(w, root, F_OPTION_DEPENDENCY, (*option_deps)++);
        simple_statement(w, loc);
        return;
    }
    size_t loc = open2(w, root, F_DEPENDENCY, (*deps)++);
    next(w);
    if (at(w, TK_PUBLIC)) token_loc(w, open2(w, root, F_PUBLIC, (*publics)++));
    else if (at(w, TK_WEAK)) token_loc(w, open2(w, root, F_WEAK, (*weaks)++));
    skip_strings(w);
    end_declaration(w, loc);
    close_loc(w, loc);
}


static void file(walker *w)
{
    const ir_file *f = w->f;
    size_t root = open_at(w, NO_PARENT);
    if (at(w, TK_SYNTAX) || at(w, TK_EDITION))     /* protoc records the edition statement at syntax's path */
        simple_statement(w, open1(w, root, F_SYNTAX));
    body b = { root, { f->messages.v, f->messages.n, root, F_MESSAGE, 0 }, F_ENUM, F_EXTENSION, F_OPTIONS,
               f->enums.v, f->enums.n, 0, f->extensions.v, f->extensions.n, 0, site(&f->options, SCOPE_FILE) };
    int services = 0, deps = 0, publics = 0, weaks = 0, option_deps = 0;
    while (w->i < w->n) {
        if (skip(w, TK_SEMI) || common_statement(w, &b)) continue;
        if (at(w, TK_SERVICE)) {
            size_t l = open2(w, root, F_SERVICE, services);
            service(w, l, NTH(&f->services, services));
            services++;
            close_loc(w, l);
        } else if (at(w, TK_IMPORT)) {
            import(w, root, &deps, &publics, &weaks, &option_deps);
        } else if (at(w, TK_PACKAGE)) {
            simple_statement(w, open1(w, root, F_PACKAGE));
        } else {
            next(w);                                 /* not reached on a file that parsed */
        }
    }
    close_loc(w, root);
}

/* ---- the message ----------------------------------------------------------------- */

enum {
    SCI_LOCATION = google_protobuf_SourceCodeInfo_location_tag,
    LOC_PATH = google_protobuf_SourceCodeInfo_Location_path_tag,
    LOC_SPAN = google_protobuf_SourceCodeInfo_Location_span_tag,
    LOC_LEADING = google_protobuf_SourceCodeInfo_Location_leading_comments_tag,
    LOC_TRAILING = google_protobuf_SourceCodeInfo_Location_trailing_comments_tag,
    LOC_DETACHED = google_protobuf_SourceCodeInfo_Location_leading_detached_comments_tag
};

static void put_packed(wbuf *b, uint32_t field, const int32_t *v, size_t n)
{
    if (!n) return;
    size_t start = wb_open(b, field);
    for (size_t i = 0; i < n; i++) wb_varint(b, (uint64_t)(int64_t)v[i]);
    wb_close(b, start);
}

static void put_comment(wbuf *b, uint32_t field, const char *text)
{
    if (text && *text) wb_string_field(b, field, text);
}

static void put_location(wbuf *b, const sloc *l)
{
    size_t start = wb_open(b, SCI_LOCATION);
    put_packed(b, LOC_PATH, l->path, l->npath);
    put_packed(b, LOC_SPAN, l->span, (size_t)l->nspan);
    if (l->c) {
        put_comment(b, LOC_LEADING, l->c->leading);
        put_comment(b, LOC_TRAILING, l->c->trailing);
        for (size_t i = 0; i < l->c->detached.n; i++)
            wb_bytes_field(b, LOC_DETACHED, l->c->detached.v[i], strlen(l->c->detached.v[i]));
    }
    wb_close(b, start);
}

void srcinfo_put(wbuf *b, uint32_t field, const ir_file *f)
{
    if (!f->parsed_ok || !f->tokens || !f->tokens->v.n) return;     /* the walk follows a parse that worked */
    number_columns(f, f->tokens);
    walker w = { f, f->tokens->v.v, f->tokens->v.n - 1, 0, &f->tokens->v.v[f->tokens->v.n - 1], { 0 } };
    file(&w);
    size_t start = wb_open(b, field);
    for (size_t i = 0; i < w.locs.n; i++) put_location(b, &w.locs.v[i]);
    wb_close(b, start);
}
