/* resolve_options.c: option names bound (standard ones known, custom ones resolved as extensions) and their values checked. */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "diag.h"
#include "featureset.h"
#include "numtext.h"
#include "optvalue.h"
#include "resolve_int.h"
#include "std_options.h"
#include "suggest.h"

/* Where an option list sits: its scope, the name its custom names are looked up from, the field it is on. */
typedef struct opt_site {
    resolver *r;
    std_scope scope;
    const char *name_scope;
    const ir_field *field;       /* for [packed], [lazy], [jstype] */
} opt_site;

/* ---- values --------------------------------------------------------------- */

static void check_std_value(const ir_file *f, const ir_value *v, std_kind kind, const char *full)
{
    if (kind == KIND_STRING) {
        if (v->kind != IR_VAL_STRING)
            diag_error(f, v->loc, "Value must be quoted string for string option \"%s\".", full);
        return;
    }
    if (kind == KIND_BOOL) {
        if (!optvalue_is_ident(v, "true") && !optvalue_is_ident(v, "false"))
            diag_error(f, v->loc, "Value must be \"true\" or \"false\" for boolean option \"%s\".", full);
        return;
    }
    if (v->kind != IR_VAL_IDENT || v->negative) {
        diag_error(f, v->loc, "Value must be identifier for enum-valued option \"%s\".", full);
        return;
    }
    const char *known = "";
    const std_enum_value *ev;
    for (size_t i = 0; (ev = std_enum_value_at(i)); i++) {
        if (ev->kind != kind) continue;
        if (strcmp(ev->name, v->text) == 0) return;
        known = ir_pool_printf(f->pool, "%s%s%s", known, *known ? ", " : "", ev->name);
    }
    diag_error(f, v->loc, "Enum value \"%s\" is not known for option \"%s\" (it takes %s).", v->text, full, known);
}

static void check_int_value(const ir_file *f, const ir_value *v, ir_type t, const char *full)
{
    int64_t min;
    uint64_t max;
    numtext_int_range(t, &min, &max);
    const char *type = ir_type_keyword(t);
    if (v->kind != IR_VAL_INT || (v->negative && min == 0))     /* -0 too, as protoc */
        diag_error(f, v->loc, "Value must be %sinteger for %s option \"%s\".", min == 0 ? "non-negative " : "", type, full);
    else if (!numtext_int_fits(v, min, max))
        diag_error(f, v->loc, "Value out of range for %s option \"%s\".", type, full);
}

/* A custom option's value against the type of the field it sets. */
static void check_field_value(const ir_file *f, const ir_field *fd, const ir_value *v, const char *full)
{
    const char *type = ir_type_keyword(fd->type);
    switch (fd->type) {
    case IR_TYPE_INT32: case IR_TYPE_SINT32: case IR_TYPE_SFIXED32: case IR_TYPE_INT64: case IR_TYPE_SINT64:
    case IR_TYPE_SFIXED64: case IR_TYPE_UINT32: case IR_TYPE_FIXED32: case IR_TYPE_UINT64: case IR_TYPE_FIXED64:
        check_int_value(f, v, fd->type, full);
        break;
    case IR_TYPE_FLOAT: case IR_TYPE_DOUBLE:
        if (v->kind != IR_VAL_INT && v->kind != IR_VAL_FLOAT)     /* inf and nan only as -inf, -nan */
            diag_error(f, v->loc, "Value must be number for %s option \"%s\".", type, full);
        break;
    case IR_TYPE_BOOL:
        check_std_value(f, v, KIND_BOOL, full);
        break;
    case IR_TYPE_STRING: case IR_TYPE_BYTES:
        check_std_value(f, v, KIND_STRING, full);
        break;
    case IR_TYPE_ENUM: {
        if (v->kind != IR_VAL_IDENT || v->negative) {
            diag_error(f, v->loc, "Value must be identifier for enum-valued option \"%s\".", full);
            break;
        }
        bool known = false;
        for (size_t i = 0; fd->enum_type && i < fd->enum_type->values.n; i++)
            known |= strcmp(fd->enum_type->values.v[i]->name, v->text) == 0;
        if (!known && fd->enum_type)
            diag_error(f, v->loc, "Enum type \"%s\" has no value named \"%s\" for option \"%s\".",
                       fd->enum_type->full_name, v->text, full);
        break;
    }
    case IR_TYPE_MESSAGE: case IR_TYPE_GROUP:
        if (v->kind != IR_VAL_AGGREGATE)
            diag_error(f, v->loc, "Option \"%s\" is a message. To set the entire message, use syntax like "
                                  "\"%s = { <proto text format> }\". To set fields within it, use syntax "
                                  "like \"%s.foo = value\".", full, full, full);
        break;
    case IR_TYPE_UNRESOLVED:
        break;
    }
}

/* ---- standard options ---------------------------------------------------- */

static bool is_64bit_int(ir_type t)
{
    return t == IR_TYPE_INT64 || t == IR_TYPE_UINT64 || t == IR_TYPE_SINT64 || t == IR_TYPE_FIXED64 ||
           t == IR_TYPE_SFIXED64;
}

/* protoc's ValidateFieldOptions for [packed], [lazy] and [jstype]. */
static void check_field_option(const ir_file *f, const ir_field *fd, const ir_option *o)
{
    const char *name = o->name.v[0].name;
    const ir_value *v = &o->value;
    if (strcmp(name, "packed") == 0 && optvalue_is_ident(v, "true") &&
        !(fd->label == IR_LABEL_REPEATED && ir_type_is_packable(fd->type)))
        diag_error(f, fd->type_loc, "[packed = true] can only be specified for repeated primitive fields.");
    if ((strcmp(name, "lazy") == 0 || strcmp(name, "unverified_lazy") == 0) && optvalue_is_ident(v, "true") &&
        fd->type != IR_TYPE_MESSAGE)
        diag_error(f, fd->type_loc, "[%s = true] can only be specified for submessage fields.", name);
    if (strcmp(name, "jstype") == 0 && v->kind == IR_VAL_IDENT && strcmp(v->text, "JS_NORMAL") != 0) {
        if (!is_64bit_int(fd->type))
            diag_error(f, fd->type_loc, "jstype is only allowed on int64, uint64, sint64, fixed64 or sfixed64 fields.");
    }
}

/* The standard option of scope within two edits of name, for "did you mean". */
static const char *closest_std_option(std_scope scope, const char *name)
{
    const char *names[64];                       /* more than any scope has */
    size_t n = 0;
    const std_option *so;
    for (size_t i = 0; (so = std_option_at(i)) && n < sizeof names / sizeof *names; i++)
        if (so->scope == scope) names[n++] = so->name;
    ptrdiff_t best = suggest_nearest(name, names, n, 2);
    return best < 0 ? NULL : names[best];
}

/* The name, then the value. */
static void check_std_option(const opt_site *site, const ir_option *o)
{
    const ir_file *f = site->r->cur;
    const char *name = o->name.v[0].name;
    const std_option *so = std_option_find(site->scope, name);
    if (so) {
        const char *full = ir_pool_printf(site->r->pool, "google.protobuf.%s.%s", std_scope_message(site->scope), name);
        if (o->name.n > 1) {
            diag_error(f, o->loc, "Option \"%s\" is an atomic type, not a message.", name);
            return;
        }
        check_std_value(f, &o->value, so->kind, full);
        if (site->field) check_field_option(f, site->field, o);
        return;
    }
    const char *close = closest_std_option(site->scope, name);
    if (close)
        diag_error(f, o->loc, "Option \"%s\" unknown. Did you mean \"%s\"?", ir_option_name(site->r->pool, o, o->name.n), close);
    else
        diag_error(f, o->loc, "Option \"%s\" unknown. Ensure that your proto definition file imports the "
                              "proto which defines the option.", ir_option_name(site->r->pool, o, o->name.n));
}

/* A standard option the built-in table (protobuf 3.21's) does not know, found in the options message
 * protoc would read it against (resolve_options_message: a descriptor.proto read from disk, else pbjc's
 * newer schema, whose features editions read apart and whose uninterpreted_option is no option). Binds
 * the first part to that field; false when there is none. */
static bool bind_newer_std_option(const opt_site *site, ir_optname_part *p)
{
    if (p->extension || std_option_find(site->scope, p->name)) return false;
    const ir_message *m = resolve_options_message(site->r, site->scope);
    if (m && !m->file->path && (strcmp(p->name, "features") == 0 || strcmp(p->name, "uninterpreted_option") == 0))
        return false;
    for (size_t k = 0; m && k < m->fields.n; k++)
        if (strcmp(m->fields.v[k]->name, p->name) == 0) {
            if (m->file->path) names_mark_used(site->r, m->file);
            p->ext = m->fields.v[k];
            return true;
        }
    return false;
}

/* ---- custom options ------------------------------------------------------- */

/* The extension (name) of message m, resolved from the option's scope; NULL after an error. */
static ir_field *find_extension(const opt_site *site, const ir_option *o, size_t part, const char *m_full)
{
    const ir_file *f = site->r->cur;
    const ir_optname_part *p = &o->name.v[part];
    sym *s = names_lookup(site->r, p->name, site->name_scope, false);
    if (!s || s->kind != SYM_FIELD || !s->u.field->extend) {
        diag_error(f, o->loc, "Option \"%s\" unknown. Ensure that your proto definition file imports "
                              "the proto which defines the option.", ir_option_name(site->r->pool, o, part + 1));
        return NULL;
    }
    ir_field *ext = s->u.field;
    if (!ext->extend->extendee) return NULL;       /* its extendee error was reported */
    if (strcmp(ext->extend->extendee->full_name, m_full) != 0) {
        diag_error(f, o->loc, "Option field \"%s\" is not a field or extension of message \"%s\".",
                   ir_option_name(site->r->pool, o, part + 1), strrchr(m_full, '.') ? strrchr(m_full, '.') + 1 : m_full);
        return NULL;
    }
    return ext;
}

/* Binds each part of (a.b).c.d, then checks the value against the field it sets. */
static void check_custom_option(const opt_site *site, ir_option *o)
{
    const ir_file *f = site->r->cur;
    const char *m_full = ir_pool_printf(site->r->pool, "google.protobuf.%s", std_scope_message(site->scope));
    const ir_field *fd = NULL;
    for (size_t i = 0; i < o->name.n; i++) {
        ir_optname_part *p = &o->name.v[i];
        if (i > 0) {
            if (fd->type != IR_TYPE_MESSAGE && fd->type != IR_TYPE_GROUP) {
                diag_error(f, o->loc, "Option \"%s\" is an atomic type, not a message.", ir_option_name(site->r->pool, o, i));
                return;
            }
            if (fd->label == IR_LABEL_REPEATED) {
                diag_error(f, o->loc, "Option field \"%s\" is a repeated message. Repeated message options "
                                      "must be initialized using an aggregate value.", ir_option_name(site->r->pool, o, i));
                return;
            }
            if (!fd->message_type) return;
            m_full = fd->message_type->full_name;
        }
        if (p->extension) {
            if (!(p->ext = find_extension(site, o, i, m_full))) return;
            fd = p->ext;
            continue;
        }
        if (i == 0) {                                 /* bound by bind_newer_std_option */
            fd = p->ext;
            continue;
        }
        const ir_message *m = fd ? fd->message_type : NULL;
        const ir_field *sub = NULL;
        for (size_t k = 0; m && k < m->fields.n; k++)
            if (strcmp(m->fields.v[k]->name, p->name) == 0) sub = m->fields.v[k];
        if (!sub) {
            diag_error(f, o->loc, "Option \"%s\" unknown.", ir_option_name(site->r->pool, o, i + 1));
            return;
        }
        fd = sub;
    }
    check_field_value(f, fd, &o->value, ir_option_name(site->r->pool, o, o->name.n));
}

/* ---- editions: features.NAME = VALUE, and what editions took away ---------- */

/* The standard options editions replaced by features, with what to write instead; NULL if o is none. */
static const char *replaced_by_features(const ir_file *f, const ir_option *o)
{
    if (o->name.n != 1 || o->name.v[0].extension) return NULL;
    const char *name = o->name.v[0].name;
    if (strcmp(name, "packed") == 0) return "features.repeated_field_encoding";
    if (strcmp(name, "ctype") == 0 && f->edition >= EDITION_2024) return "features.(pb.cpp).string_type";
    return NULL;
}

/* X(option, edition removed in, what to do instead): descriptor.proto's feature_support.edition_removed. */
#define REMOVED_OPTIONS(X)                                                                                      \
    X("java_multiple_files", EDITION_2024, "it is on by default; set features.(pb.java).nest_in_file_class = YES " \
                                           "on a message, enum or service to nest it")                         \
    X("cc_enable_arenas", EDITION_2026, "arenas are always enabled")

/* A standard file option removed in f's edition: protoc's error, and true. */
static bool check_removed_option(const ir_file *f, const ir_option *o)
{
    if (o->name.n != 1 || o->name.v[0].extension) return false;
#define X(option, removed, advice)                                                                            \
    if (f->edition >= removed && strcmp(o->name.v[0].name, option) == 0) {                                    \
        diag_error(f, o->loc, "Option \"%s\" was removed in edition %s: %s.", option, feature_edition_text(removed), \
                   advice);                                                                                   \
        return true;                                                                                          \
    }
    REMOVED_OPTIONS(X)
#undef X
    return false;
}

/* An option of an editions file that editions treat apart: true when checked here. */
static bool check_editions_option(const opt_site *site, const ir_option *o)
{
    const ir_file *f = site->r->cur;
    if (f->syntax != IR_EDITIONS) return false;
    if (ir_option_is_feature(o)) return true;             /* read by features_read_options */
    if (check_removed_option(f, o)) return true;
    const char *instead = replaced_by_features(f, o);
    if (!instead) return false;
    diag_error(f, o->loc, "Option \"%s\" is not allowed in edition %s; use %s.", o->name.v[0].name,
               feature_edition_text(f->edition), instead);
    return true;
}

/* Names and values; "was already set" is decided on the encoded options (resolve_interpret.c). */
static void check_options(const opt_site *site, ir_options *opts)
{
    for (size_t i = 0; i < opts->n; i++) {
        ir_option *o = &opts->v[i];
        if (o->name.n == 0) continue;
        if (check_editions_option(site, o)) continue;
        if (o->value.kind == IR_VAL_FLOAT && o->value.text && isalpha((unsigned char)o->value.text[0])) {
            diag_error(site->r->cur, o->value.loc, "Invalid '-' symbol before identifier.");   /* -inf, -nan */
            continue;
        }
        if (o->name.v[0].extension || bind_newer_std_option(site, &o->name.v[0])) check_custom_option(site, o);
        else check_std_option(site, o);
    }
}

/* ---- typed facts: what later phases ask of the standard options ------------ */

/* A standard bool option's first setting is "true". */
static bool option_true(const ir_options *opts, const char *name)
{
    const char *v = ir_option_find(opts, name);
    return v && strcmp(v, "true") == 0;
}

/* ---- walking the file ----------------------------------------------------- */

static void site_options(resolver *r, std_scope scope, const char *name_scope, const ir_field *fd, ir_options *opts)
{
    opt_site site = {r, scope, name_scope, fd};
    check_options(&site, opts);
    if (r->cur->syntax == IR_EDITIONS) features_read_options(r, scope, name_scope, fd, opts);
}

static void field_options(resolver *r, ir_field *fd)
{
    site_options(r, SCOPE_FIELD, fd->full_name, fd, &fd->options);
    fd->deprecated = option_true(&fd->options, "deprecated");
}

static void enum_options(resolver *r, ir_enum *e)
{
    site_options(r, SCOPE_ENUM, e->full_name, NULL, &e->options);
    e->deprecated = option_true(&e->options, "deprecated");
    for (size_t i = 0; i < e->values.n; i++) {
        ir_enum_value *v = e->values.v[i];
        site_options(r, SCOPE_ENUM_VALUE, v->full_name, NULL, &v->options);
        v->deprecated = option_true(&v->options, "deprecated");
    }
}

static void message_options(resolver *r, ir_message *m)
{
    site_options(r, SCOPE_MESSAGE, m->full_name, NULL, &m->options);
    m->deprecated = option_true(&m->options, "deprecated");
    for (size_t i = 0; i < m->fields.n; i++) field_options(r, m->fields.v[i]);
    for (size_t i = 0; i < m->oneofs.n; i++)
        site_options(r, SCOPE_ONEOF, ir_join_name(r->pool, m->full_name, m->oneofs.v[i]->name), NULL, &m->oneofs.v[i]->options);
    for (size_t i = 0; i < m->extension_ranges.n; i++)
        site_options(r, SCOPE_EXTENSION_RANGE, m->full_name, NULL, &m->extension_ranges.v[i].options);
    for (size_t i = 0; i < m->messages.n; i++) message_options(r, m->messages.v[i]);
    for (size_t i = 0; i < m->enums.n; i++) enum_options(r, m->enums.v[i]);
    for (size_t i = 0; i < m->extensions.n; i++) field_options(r, m->extensions.v[i]);
}

void options_file(resolver *r, ir_file *f)
{
    site_options(r, SCOPE_FILE, ir_join_name(r->pool, f->package, "dummy"), NULL, &f->options);
    for (size_t i = 0; i < f->messages.n; i++) message_options(r, f->messages.v[i]);
    for (size_t i = 0; i < f->enums.n; i++) enum_options(r, f->enums.v[i]);
    for (size_t i = 0; i < f->extensions.n; i++) field_options(r, f->extensions.v[i]);
    for (size_t i = 0; i < f->services.n; i++) {
        ir_service *s = f->services.v[i];
        site_options(r, SCOPE_SERVICE, s->full_name, NULL, &s->options);
        for (size_t j = 0; j < s->methods.n; j++)
            site_options(r, SCOPE_METHOD, ir_join_name(r->pool, s->full_name, s->methods.v[j]->name), NULL,
                         &s->methods.v[j]->options);
    }
}
