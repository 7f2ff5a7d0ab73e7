/* resolve_decl.c: extension declarations (ExtensionRangeOptions' declaration and verification) checked as protoc's. */
#include <stdio.h>
#include <string.h>

#include "resolve_int.h"
#include "wire.h"
#include "../rt/pbj_core.h"   /* PBJ_WT_*, pbj_get_varint */

/* protoc's ValidateExtensionRangeOptions on every extension range, then its check of each extension against the
 * declaration of its number; buf 1.75's stricter rules beside them (names made of identifiers, "enum" no type, a
 * DECLARATION range with no declaration), so that pbjc accepts nothing buf rejects. Errors are placed where buf
 * places them: at the value a declaration writes (its braces when it writes none), at the extension's name, type
 * or number. Read from the encoded options (after the interpreter), so every way of writing them counts. */

/* Field numbers of google.protobuf.ExtensionRangeOptions and its Declaration. */
enum { RANGE_DECLARATION = 2, RANGE_VERIFICATION = 3 };
enum { DECL_NUMBER = 1, DECL_FULL_NAME = 2, DECL_TYPE = 3, DECL_RESERVED = 5, DECL_REPEATED = 6 };
enum { VERIFY_DECLARATION = 0, VERIFY_UNVERIFIED = 1 };

/* One declaration as its bytes say, and the option that wrote it (NULL when unknown: not an aggregate, plugin mode). */
typedef struct decl {
    int32_t number;
    const char *full_name, *type;   /* NULL when not set */
    bool reserved, repeated;
    const ir_option *written;
} decl;

/* What one extension range's options declare. */
typedef struct range_decls {
    IR_VEC(decl) decls;
    bool verification_set;
    int64_t verification;
} range_decls;

static uint64_t varint_value(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    return pbj_get_varint(p, p + n, &v) ? v : 0;
}

static decl decode_decl(ir_pool *pool, const uint8_t *p, const uint8_t *end)
{
    decl d = { 0 };
    uint32_t num;
    int wt;
    const uint8_t *val;
    size_t len;
    while (wire_next_field(&p, end, &num, &wt, &val, &len)) {
        bool varint = wt == PBJ_WT_VARINT, bytes = wt == PBJ_WT_LEN;
        if (num == DECL_NUMBER && varint) d.number = (int32_t)varint_value(val, len);
        else if (num == DECL_FULL_NAME && bytes) d.full_name = ir_pool_strndup(pool, (const char *)val, len);
        else if (num == DECL_TYPE && bytes) d.type = ir_pool_strndup(pool, (const char *)val, len);
        else if (num == DECL_RESERVED && varint) d.reserved = varint_value(val, len) != 0;
        else if (num == DECL_REPEATED && varint) d.repeated = varint_value(val, len) != 0;
    }
    return d;
}

/* The option of opts written as name (one part, standard), the k-th of them; NULL when none. */
static const ir_option *written_option(const ir_options *opts, const char *name, size_t k)
{
    for (size_t i = 0; i < opts->n; i++) {
        const ir_option *o = &opts->v[i];
        if (o->name.n == 1 && !o->name.v[0].extension && strcmp(o->name.v[0].name, name) == 0 && k-- == 0) return o;
    }
    return NULL;
}

static range_decls decode_range(ir_pool *pool, const ir_options *opts)
{
    range_decls rd = { .verification = VERIFY_UNVERIFIED };     /* descriptor.proto's default */
    const uint8_t *p = opts->wire, *end = p ? p + opts->wire_len : NULL, *val;
    uint32_t num;
    int wt;
    size_t len;
    while (p && wire_next_field(&p, end, &num, &wt, &val, &len)) {
        if (num == RANGE_DECLARATION && wt == PBJ_WT_LEN) {
            ir_pool_vec_push(pool, &rd.decls, decode_decl(pool, val, val + len));
        } else if (num == RANGE_VERIFICATION && wt == PBJ_WT_VARINT) {
            rd.verification_set = true;
            rd.verification = (int64_t)varint_value(val, len);
        }
    }
    bool all_written = !written_option(opts, "declaration", rd.decls.n) &&
                       (rd.decls.n == 0 || written_option(opts, "declaration", rd.decls.n - 1));
    for (size_t i = 0; all_written && i < rd.decls.n; i++) {
        const ir_option *o = written_option(opts, "declaration", i);
        rd.decls.v[i].written = o->value.kind == IR_VAL_AGGREGATE ? o : NULL;
    }
    return rd;
}

/* ---- where a declaration is reported ---- */

/* Where the aggregate v writes key's value (at its own level), else where v starts. */
static ir_loc member_loc(const ir_value *v, const char *key)
{
    int depth = 0;
    for (size_t t = 0; t + 1 < v->n_tokens; t++) {
        const ir_token *k = &v->tokens[t];
        const char *text = v->text + k->offset;
        if (k->len == 1 && strchr("{<", *text)) depth++;
        if (k->len == 1 && strchr("}>", *text)) depth--;
        if (depth != 0 || k->len != strlen(key) || memcmp(text, key, k->len) != 0) continue;
        const ir_token *value = &v->tokens[t + 1];
        if (value->len == 1 && v->text[value->offset] == ':' && t + 2 < v->n_tokens) value++;
        return value->loc;
    }
    return v->loc;
}

/* Where d's key is reported: its value as written, else the declaration's value, else the range. */
static ir_loc decl_loc(const decl *d, const ir_range *rg, const char *key)
{
    return !d->written ? rg->loc : key ? member_loc(&d->written->value, key) : d->written->value.loc;
}

/* ---- the declarations of one range ---- */

/* A type a declaration names by keyword (protoc's IsNonMessageType; buf takes no "enum"). */
static bool scalar_type(const char *type)
{
    ir_type t = ir_type_from_keyword(type, strlen(type));
    return t != IR_TYPE_UNRESOLVED && t != IR_TYPE_GROUP;
}

/* What is wrong with a fully-qualified name a declaration writes (protoc's ValidateSymbolForDeclaration;
 * each part an identifier, as buf), NULL when nothing. */
static const char *symbol_problem(ir_pool *pool, const char *s)
{
    if (s[0] != '.')
        return ir_pool_printf(pool, "\"%s\" must have a leading dot to indicate the fully-qualified scope.", s);
    for (const char *part = s + 1;; part++) {
        if (!(*part == '_' || (*part >= 'a' && *part <= 'z') || (*part >= 'A' && *part <= 'Z')))
            return ir_pool_printf(pool, "\"%s\" contains invalid identifiers.", s);
        part += strspn(part, "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
        if (*part == '\0') return NULL;
        if (*part != '.') return ir_pool_printf(pool, "\"%s\" contains invalid identifiers.", s);
    }
}

static void check_symbol(const ir_file *f, ir_loc loc, const char *s)
{
    const char *problem = symbol_problem(f->pool, s);
    if (problem) diag_error(f, loc, "%s", problem);
}

/* The range's declarations as protoc's ValidateExtensionDeclaration; names are the message's declared names. */
static void check_decls(const ir_file *f, const ir_range *rg, const range_decls *rd, symtab *names)
{
    static char seen;                                   /* what the tables map a key to: it is there */
    symtab numbers;
    symtab_init(&numbers);
    for (size_t i = 0; i < rd->decls.n; i++) {
        const decl *d = &rd->decls.v[i];
        if (d->number < rg->start || d->number > rg->end)
            diag_error(f, decl_loc(d, rg, "number"), "Extension declaration number %d is not in the extension range.",
                       d->number);
        const char *number = ir_pool_printf(f->pool, "%d", d->number);
        if (symtab_put(&numbers, number, strlen(number), &seen))
            diag_error(f, decl_loc(d, rg, "number"), "Extension declaration number %d is declared multiple times.",
                       d->number);
        if (!d->full_name || !d->type) {
            if (!d->full_name != !d->type || !d->reserved)
                diag_error(f, decl_loc(d, rg, NULL), "Extension declaration #%d should have both \"full_name\" and "
                                                     "\"type\" set.", d->number);
            continue;
        }
        if (symtab_put(names, d->full_name, strlen(d->full_name), &seen)) {
            diag_error(f, decl_loc(d, rg, "full_name"), "Extension field name \"%s\" is declared multiple times.",
                       d->full_name);
            break;
        }
        check_symbol(f, decl_loc(d, rg, "full_name"), d->full_name);
        if (!scalar_type(d->type)) check_symbol(f, decl_loc(d, rg, "type"), d->type);
    }
    symtab_free(&numbers);
}

/* Where the range's options write verification's value, else the range. */
static ir_loc verification_loc(const ir_range *rg)
{
    const ir_option *o = written_option(&rg->options, "verification", 0);
    return o ? o->value.loc : rg->loc;
}

/* ---- every range, then every extension ---- */

/* What the run's extension ranges declare: "Message#i" (the i-th range) -> range_decls. */
typedef struct decl_index {
    symtab ranges;
    ir_pool *pool;
} decl_index;

static const char *range_key(ir_pool *pool, const ir_message *m, size_t i)
{
    return ir_pool_printf(pool, "%s#%zu", m->full_name, i);
}

/* protoc's ValidateExtensionRangeOptions (and buf's DECLARATION range with none); each range indexed. */
static void check_message_ranges(const ir_file *f, const ir_message *m, decl_index *ix)
{
    symtab names;
    symtab_init(&names);
    for (size_t i = 0; i < m->extension_ranges.n; i++) {
        const ir_range *rg = &m->extension_ranges.v[i];
        range_decls *rd = ir_pool_alloc(ix->pool, sizeof *rd);
        *rd = decode_range(ix->pool, &rg->options);
        const char *key = range_key(ix->pool, m, i);
        symtab_put(&ix->ranges, key, strlen(key), rd);
        if (rd->decls.n == 0 && rd->verification == VERIFY_DECLARATION)
            diag_error(f, verification_loc(rg), "Extension range %d to %d is marked DECLARATION but declares "
                                                       "no extension.", rg->start, rg->end);
        if (rd->decls.n == 0) continue;
        if (rd->verification_set && rd->verification == VERIFY_UNVERIFIED) {
            const ir_option *first = rd->decls.v[0].written;      /* buf points at the first declaration */
            diag_error(f, first ? first->loc : rg->loc,
                       "Cannot mark the extension range as UNVERIFIED when it has extension(s) declared.");
            break;
        }
        check_decls(f, rg, rd, &names);
    }
    symtab_free(&names);
    for (size_t i = 0; i < m->messages.n; i++) check_message_ranges(f, m->messages.v[i], ix);
}

/* The type a declaration names as protoc compares it: a keyword, else a full name with its dot. */
static const char *declared_type(ir_pool *pool, const char *type)
{
    return scalar_type(type) || type[0] == '.' ? type : ir_pool_strcat(pool, ".", type);
}

static const char *actual_type(ir_pool *pool, const ir_field *fd)
{
    if (fd->message_type) return ir_pool_strcat(pool, ".", fd->message_type->full_name);
    if (fd->enum_type) return ir_pool_strcat(pool, ".", fd->enum_type->full_name);
    return ir_type_keyword(fd->type);
}

/* protoc's CheckExtensionDeclaration: fd against the declaration of its number. */
static void check_declared(const ir_file *f, const ir_field *fd, const decl *d, bool type_too)
{
    const char *m = fd->extend->extendee->full_name;
    if (d->type && *d->type && type_too) {
        const char *want = declared_type(f->pool, d->type), *got = actual_type(f->pool, fd);
        if (strcmp(want, got) != 0)
            diag_error(f, fd->type_loc, "\"%s\" extension field %d is expected to be type \"%s\", not \"%s\".",
                       m, fd->number, want, got);
    }
    const char *name = ir_pool_strcat(f->pool, ".", fd->full_name);
    if (d->full_name && *d->full_name && strcmp(d->full_name, name) != 0)
        diag_error(f, fd->loc, "\"%s\" extension field %d is expected to have field name \"%s\", not \"%s\".",
                   m, fd->number, d->full_name, name);
    if (d->repeated != (fd->label == IR_LABEL_REPEATED))
        diag_error(f, fd->type_loc, "\"%s\" extension field %d is expected to be %s.", m, fd->number,
                   d->repeated ? "repeated" : "optional");
}

/* An extension against its range's declarations (protoc's, in ValidateOptions of a field). */
static void check_extension(const ir_file *f, const ir_field *fd, const decl_index *ix, bool type_too)
{
    const ir_message *m = fd->extend ? fd->extend->extendee : NULL;
    for (size_t i = 0; m && i < m->extension_ranges.n; i++) {
        const ir_range *rg = &m->extension_ranges.v[i];
        if (fd->number < rg->start || fd->number > rg->end) continue;
        const char *key = range_key(f->pool, m, i);
        const range_decls *rd = symtab_get(&ix->ranges, key, strlen(key));
        for (size_t j = 0; rd && j < rd->decls.n; j++) {
            const decl *d = &rd->decls.v[j];
            if (d->number != fd->number) continue;
            if (d->reserved)
                diag_error(f, fd->number_loc, "Cannot use number %d for extension field %s, as it is reserved in the "
                                              "extension declarations for message %s.", fd->number, fd->full_name,
                           m->full_name);
            else
                check_declared(f, fd, d, type_too);
            return;
        }
        if (rd && (rd->decls.n || rd->verification == VERIFY_DECLARATION))
            diag_error(f, fd->number_loc, "Missing extension declaration for field %s with number %d in extendee "
                                          "message %s. An extension range must declare for all extension fields if "
                                          "its verification state is DECLARATION or there's any declaration in the "
                                          "range already. Otherwise, consider splitting up the range.",
                       fd->full_name, fd->number, m->full_name);
        return;
    }
}

static void check_message_extensions(const ir_file *f, const ir_message *m, const decl_index *ix, int errors_before)
{
    for (size_t i = 0; i < m->extensions.n; i++)
        check_extension(f, m->extensions.v[i], ix, f->diag->errors == errors_before);
    for (size_t i = 0; i < m->messages.n; i++) check_message_extensions(f, m->messages.v[i], ix, errors_before);
}

int resolve_check_declarations(ir_program *prog)
{
    int errors_before = prog->diag->errors;
    decl_index ix = { .pool = prog->pool };
    symtab_init(&ix.ranges);
    for (size_t i = 0; i < prog->files.n; i++) {       /* each after its imports: extendees indexed first */
        const ir_file *f = prog->files.v[i];
        int file_errors = f->diag->errors;
        for (size_t j = 0; j < f->messages.n; j++) check_message_ranges(f, f->messages.v[j], &ix);
        for (size_t j = 0; j < f->messages.n; j++) check_message_extensions(f, f->messages.v[j], &ix, file_errors);
        for (size_t j = 0; j < f->extensions.n; j++)
            check_extension(f, f->extensions.v[j], &ix, f->diag->errors == file_errors);
    }
    symtab_free(&ix.ranges);
    return prog->diag->errors - errors_before;
}
