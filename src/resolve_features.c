/* resolve_features.c: an editions file's feature options read into ir_options.features and checked as buf does, then each element's features resolved through its scopes. */
#include <ctype.h>
#include <string.h>

#include "diag.h"
#include "featureset.h"
#include "optvalue.h"
#include "resolve.h"
#include "resolve_int.h"
#include "std_options.h"

/* Written as features.NAME = V, features.(pb.cpp).NAME = V, features = { NAME: V [pb.cpp] { NAME: V } }
 * or features.(pb.cpp) = { NAME: V }. Core features come from featureset.h's tables; a language's are
 * the fields of a FeatureSet extension's message, checked against that field's own options (targets,
 * feature_support) as a loaded descriptor.proto with FeatureSet spells them. */

typedef struct feature_site {
    resolver *r;
    std_scope scope;
    const char *name_scope;      /* where (pb.cpp) is looked up from */
    const ir_field *field;       /* the field the options are on, or NULL */
    ir_options *opts;
    IR_VEC(feature_setting) read;
} feature_site;

/* A feature's value as written: an option's value, or an aggregate entry's token. */
typedef struct feature_text {
    const char *text;
    bool ident;
    ir_loc at;
} feature_text;

/* ---- where a feature may be set, and what a field admits -------------------- */

static unsigned site_target(const feature_site *site)
{
    static const unsigned targets[] = {
        [SCOPE_FILE] = FEATURE_TARGET_FILE, [SCOPE_MESSAGE] = FEATURE_TARGET_MESSAGE, [SCOPE_FIELD] = FEATURE_TARGET_FIELD,
        [SCOPE_ONEOF] = FEATURE_TARGET_ONEOF, [SCOPE_ENUM] = FEATURE_TARGET_ENUM,
        [SCOPE_ENUM_VALUE] = FEATURE_TARGET_ENUM_VALUE, [SCOPE_SERVICE] = FEATURE_TARGET_SERVICE,
        [SCOPE_METHOD] = FEATURE_TARGET_METHOD, [SCOPE_EXTENSION_RANGE] = FEATURE_TARGET_EXTENSION_RANGE,
    };
    return targets[site->scope];
}

/* A field feature on a field it cannot apply to (protoc's ValidateFieldFeatures): the reason, else NULL. */
static const char *field_feature_misfit(const ir_field *fd, feature_id id, int value)
{
    bool repeated = fd->label == IR_LABEL_REPEATED || fd->is_map;
    bool message = !fd->is_map && (fd->type == IR_TYPE_MESSAGE || fd->type == IR_TYPE_GROUP || fd->message_type);
    switch (id) {
    case FEATURE_field_presence:
        if (repeated) return "repeated fields can't specify field presence";
        if (fd->oneof) return "oneof fields can't specify field presence";
        if (fd->extend) return "extensions can't specify field presence";
        if (message && value == FEATURE_field_presence_IMPLICIT) return "message fields can't specify implicit presence";
        return NULL;
    case FEATURE_repeated_field_encoding:          /* EXPANDED, the only encoding, may be said of any */
        if (!repeated || fd->is_map) return "only repeated fields can specify repeated_field_encoding";   /* buf: a map is not */
        return value == FEATURE_repeated_field_encoding_PACKED && !ir_type_is_packable(fd->type)
            ? "only repeated primitive fields can specify PACKED repeated_field_encoding" : NULL;
    case FEATURE_utf8_validation:
        return fd->type != IR_TYPE_STRING ? "only string fields can specify utf8_validation" : NULL;
    case FEATURE_message_encoding:
        return !message ? "only message fields can specify message_encoding" : NULL;
    default:
        return NULL;
    }
}

/* ---- a language feature's own options (descriptor.proto's targets and feature_support) ---- */

/* key's value in an aggregate option value { key: V ... } (its first at any depth, quotes kept), or NULL. */
static const char *aggregate_member(ir_pool *pool, const ir_value *v, const char *key)
{
    for (size_t t = 0; v->kind == IR_VAL_AGGREGATE && t + 1 < v->n_tokens; t++) {
        const ir_token *k = &v->tokens[t], *val = &v->tokens[t + 1];
        if (k->len != strlen(key) || memcmp(v->text + k->offset, key, k->len) != 0) continue;
        if (val->len == 1 && v->text[val->offset] == ':' && t + 2 < v->n_tokens) val++;
        return ir_pool_strndup(pool, v->text + val->offset, val->len);
    }
    return NULL;
}

/* The value key sets inside option name's aggregate value ({ key: V }), or as name.key = V; NULL if none. */
static const char *option_member(ir_pool *pool, const ir_options *opts, const char *name, const char *key)
{
    for (size_t i = 0; i < opts->n; i++) {
        const ir_option *o = &opts->v[i];
        if (o->name.v[0].extension || strcmp(o->name.v[0].name, name) != 0) continue;
        if (o->name.n == 2 && strcmp(o->name.v[1].name, key) == 0 && o->value.kind == IR_VAL_IDENT) return o->value.text;
        const char *v = o->name.n == 1 ? aggregate_member(pool, &o->value, key) : NULL;
        if (v) return v;
    }
    return NULL;
}

/* google.protobuf.Edition's number for name (EDITION_2024), 0 when unknown. */
static int32_t edition_number(resolver *r, const char *name)
{
    const sym *s = name ? symtab_get(&r->syms, "google.protobuf.Edition", strlen("google.protobuf.Edition")) : NULL;
    const ir_enum_value *v = s && s->kind == SYM_ENUM ? optvalue_enum_value(s->u.enumeration, name) : NULL;
    return v ? v->number : 0;
}

/* "2024" for 1001, the Edition value's name for one pbjc does not know. */
static const char *edition_name(resolver *r, const ir_options *opts, const char *key)
{
    const char *name = option_member(r->pool, opts, "feature_support", key);
    const char *text = feature_edition_text((feature_edition)edition_number(r, name));
    if (strcmp(text, "unknown") != 0 || !name) return text;
    return strncmp(name, "EDITION_", 8) == 0 ? name + 8 : name;     /* UNSTABLE */
}

/* What feature_support in opts forbids in edition ed: the message, else NULL. */
static const char *unsupported(resolver *r, const ir_options *opts, feature_edition ed, const char *what)
{
    int32_t introduced = edition_number(r, option_member(r->pool, opts, "feature_support", "edition_introduced"));
    int32_t removed = edition_number(r, option_member(r->pool, opts, "feature_support", "edition_removed"));
    if (introduced && (int32_t)ed < introduced)
        return ir_pool_printf(r->pool, "%s was introduced in edition %s and can't be used in edition %s.", what,
                         edition_name(r, opts, "edition_introduced"), feature_edition_text(ed));
    if (removed && (int32_t)ed >= removed)
        return ir_pool_printf(r->pool, "%s was removed in edition %s and can't be used in edition %s.", what,
                         edition_name(r, opts, "edition_removed"), feature_edition_text(ed));
    return NULL;
}

/* protoc's warning for a feature its feature_support deprecates in edition ed (buf says nothing). */
static void warn_deprecated(resolver *r, const ir_field *fd, feature_edition ed, ir_loc at)
{
    int32_t deprecated = edition_number(r, option_member(r->pool, &fd->options, "feature_support", "edition_deprecated"));
    if (!deprecated || (int32_t)ed < deprecated) return;
    const char *why = option_member(r->pool, &fd->options, "feature_support", "deprecation_warning");
    size_t n = why ? strlen(why) : 0;
    diag_warning(r->cur, at, "Feature %s has been deprecated in edition %s: %.*s", fd->full_name,
                 edition_name(r, &fd->options, "edition_deprecated"), n >= 2 ? (int)n - 2 : 0, n >= 2 ? why + 1 : "");
}

/* The targets = TARGET_TYPE_... options of a language feature's field, as a mask. */
static unsigned field_targets(const ir_field *fd)
{
    unsigned mask = 0;
    for (size_t i = 0; i < fd->options.n; i++) {
        const ir_option *o = &fd->options.v[i];
        if (o->name.n == 1 && strcmp(o->name.v[0].name, "targets") == 0 && o->value.kind == IR_VAL_IDENT)
            mask |= feature_target_named(o->value.text);
    }
    return mask;
}

/* ---- one feature ------------------------------------------------------------- */

/* "features.NAME" or "features.(pb.cpp).NAME", for messages. */
static const char *display_name(ir_pool *pool, const char *ext_name, const char *name)
{
    return ext_name ? ir_pool_printf(pool, "features.(%s).%s", ext_name, name) : ir_pool_printf(pool, "features.%s", name);
}

static bool set_before(const feature_site *site, const feature_setting *s)
{
    for (size_t i = 0; i < site->read.n; i++) {
        const feature_setting *p = &site->read.v[i];
        if (p->ext == s->ext && (s->ext ? p->field == s->field : p->id == s->id)) return true;
    }
    return false;
}

/* The setting, unless it was set already in this list. */
static void keep(feature_site *site, feature_setting s, const char *full, ir_loc at)
{
    if (set_before(site, &s)) {
        diag_error(site->r->cur, at, "Option \"%s\" was already set.", full);
        return;
    }
    ir_pool_vec_push(site->r->pool, &site->read, s);
}

static void add_core(feature_site *site, const char *name, ir_loc at, feature_text v)
{
    const ir_file *f = site->r->cur;
    const char *full = display_name(site->r->pool, NULL, name);
    feature_id id;
    const feature_info *fi = feature_named(name, &id);
    if (!fi) {
        diag_error(f, at, "Option \"%s\" unknown: google.protobuf.FeatureSet has no such field.", full);
        return;
    }
    int value = v.ident ? feature_value_named(id, v.text) : -1;
    if (value < 0) {
        char names[128];
        diag_error(f, v.at, "Enum value \"%s\" is not known for option \"%s\" (it takes %s).", v.text, full,
                   feature_value_names(id, names, sizeof names));
        return;
    }
    if (f->edition < fi->since) {
        diag_error(f, at, "Feature \"%s\" was introduced in edition %s and can't be used in edition %s.",
                   fi->name, feature_edition_text(fi->since), feature_edition_text(f->edition));
        return;
    }
    if (!(site_target(site) & (fi->targets | FEATURE_TARGET_FILE))) {
        diag_error(f, at, "Option \"%s\" cannot be set here (in %s).", full, std_scope_message(site->scope));
        return;
    }
    const char *misfit = site->field ? field_feature_misfit(site->field, id, value) : NULL;
    if (misfit) {
        diag_error(f, site->field->type_loc, "Option \"%s\": %s.", full, misfit);   /* where buf reports */
        return;
    }
    keep(site, (feature_setting){ .id = id, .value = value }, full, at);
}

/* A language feature's value: true/false for a bool, a value's name for an enum; -1 after an error. */
static int32_t lang_value(const feature_site *site, const ir_field *fd, feature_text v, const char *full)
{
    const ir_file *f = site->r->cur;
    if (fd->type == IR_TYPE_BOOL && v.ident && (!strcmp(v.text, "true") || !strcmp(v.text, "false")))
        return strcmp(v.text, "true") == 0;
    if (fd->type == IR_TYPE_BOOL) {
        diag_error(f, v.at, "Value must be \"true\" or \"false\" for boolean option \"%s\".", full);
        return -1;
    }
    const ir_enum_value *ev = fd->type == IR_TYPE_ENUM && v.ident ? optvalue_enum_value(fd->enum_type, v.text) : NULL;
    if (!ev) {
        diag_error(f, v.at, fd->type == IR_TYPE_ENUM ? "Enum type \"%s\" has no value named \"%s\" for option \"%s\"."
                                                     : "Feature \"%s\" is not an enum or a bool (%s for option \"%s\").",
                   fd->type == IR_TYPE_ENUM && fd->enum_type ? fd->enum_type->full_name : fd->full_name, v.text, full);
        return -1;
    }
    const char *why = unsupported(site->r, &ev->options, f->edition, ir_pool_printf(site->r->pool, "Feature value \"%s\"", ev->name));
    if (why) {
        diag_error(f, v.at, "%s", why);
        return -1;
    }
    return ev->number;
}

static void add_lang(feature_site *site, const ir_field *ext, const char *ext_name, const char *name, ir_loc at,
                     feature_text v)
{
    const ir_file *f = site->r->cur;
    const char *full = display_name(site->r->pool, ext_name, name);
    const ir_message *m = ext->message_type;
    const ir_field *fd = NULL;
    for (size_t i = 0; m && i < m->fields.n; i++)
        if (strcmp(m->fields.v[i]->name, name) == 0) fd = m->fields.v[i];
    if (!fd) {
        diag_error(f, at, "Option \"%s\" unknown: %s has no such field.", full, m ? m->full_name : ext->full_name);
        return;
    }
    const char *why = unsupported(site->r, &fd->options, f->edition, ir_pool_printf(site->r->pool, "Feature \"%s\"", fd->full_name));
    if (why) {
        diag_error(f, at, "%s", why);
        return;
    }
    int32_t value = lang_value(site, fd, v, full);
    if (value < 0) return;
    if (!(site_target(site) & field_targets(fd))) {
        diag_error(f, at, "Option \"%s\" cannot be set here (in %s).", full, std_scope_message(site->scope));
        return;
    }
    warn_deprecated(site->r, fd, f->edition, at);
    keep(site, (feature_setting){ .ext = ext, .field = fd, .value = value }, full, at);
}

/* (pb.cpp): an extension of google.protobuf.FeatureSet with a message type; NULL after an error. */
static ir_field *bind_extension(feature_site *site, const char *name, ir_loc at)
{
    const ir_file *f = site->r->cur;
    sym *s = names_lookup(site->r, name, site->name_scope, false);
    if (!s || s->kind != SYM_FIELD || !s->u.field->extend) {
        diag_error(f, at, "Option \"features.(%s)\" unknown. Ensure that your proto definition file imports "
                          "the proto which defines the option.", name);
        return NULL;
    }
    ir_field *ext = s->u.field;
    names_mark_used(site->r, s->file);
    const ir_message *target = ext->extend->extendee;
    if (!target) return NULL;                        /* its extendee error was reported */
    if (strcmp(target->full_name, "google.protobuf.FeatureSet") != 0 || !ext->message_type) {
        diag_error(f, at, "Option field \"features.(%s)\" is not a language feature set: features are extensions "
                          "of google.protobuf.FeatureSet with a message type.", name);
        return NULL;
    }
    return ext;
}

/* ---- aggregate values: features = { ... }, features.(pb.cpp) = { ... } ---------- */

typedef struct agg_reader {
    feature_site *site;
    const ir_value *v;
    size_t i;
    bool failed;
} agg_reader;

static bool agg_end(const agg_reader *a) { return a->i >= a->v->n_tokens; }

static const char *agg_text(const agg_reader *a)
{
    return agg_end(a) ? "end" : ir_pool_strndup(a->site->r->pool, a->v->text + a->v->tokens[a->i].offset, a->v->tokens[a->i].len);
}

static ir_loc agg_loc(const agg_reader *a)
{
    return agg_end(a) ? a->v->loc : a->v->tokens[a->i].loc;
}

static bool agg_is(const agg_reader *a, const char *s)
{
    return !agg_end(a) && strcmp(agg_text(a), s) == 0;
}

static bool agg_accept(agg_reader *a, const char *s)
{
    if (!agg_is(a, s)) return false;
    a->i++;
    return true;
}

static void agg_fail(agg_reader *a, const char *what)
{
    if (!a->failed)
        diag_error(a->site->r->cur, agg_loc(a), "Error while parsing option value for \"features\": Expected %s, "
                                                "found \"%s\".", what, agg_text(a));
    a->failed = true;
}

/* NAME [:] VALUE, or [ext] [:] { entries } at the top. */
static void agg_entry(agg_reader *a, const ir_field *ext, const char *ext_name);

static void agg_entries(agg_reader *a, const ir_field *ext, const char *ext_name, const char *close)
{
    while (!a->failed && !agg_end(a) && !agg_is(a, close)) {
        agg_entry(a, ext, ext_name);
        if (!agg_accept(a, ";")) agg_accept(a, ",");
    }
    if (*close && !a->failed && !agg_accept(a, close)) agg_fail(a, ir_pool_printf(a->site->r->pool, "\"%s\"", close));
}

/* [ext] [:] { entries }, at the top only; false after an error. */
static bool agg_extension(agg_reader *a)
{
    ir_loc at = agg_loc(a);
    const char *name = "";
    for (; !agg_end(a) && !agg_is(a, "]"); a->i++) name = ir_pool_printf(a->site->r->pool, "%s%s", name, agg_text(a));
    if (!agg_accept(a, "]")) return agg_fail(a, "\"]\""), false;
    const ir_field *inner = bind_extension(a->site, name, at);
    agg_accept(a, ":");
    const char *close = agg_accept(a, "{") ? "}" : agg_accept(a, "<") ? ">" : NULL;
    if (!close) return agg_fail(a, "\"{\""), false;
    if (!inner) return a->failed = true, false;          /* reported */
    agg_entries(a, inner, name, close);
    return !a->failed;
}

static void agg_entry(agg_reader *a, const ir_field *ext, const char *ext_name)
{
    ir_loc at = agg_loc(a);
    if (!ext && agg_accept(a, "[")) {
        agg_extension(a);
        return;
    }
    const char *name = agg_text(a);
    if (agg_end(a) || !(isalpha((unsigned char)name[0]) || name[0] == '_')) {
        agg_fail(a, "a feature name");
        return;
    }
    a->i++;
    if (!agg_accept(a, ":") || agg_end(a)) {
        agg_fail(a, agg_end(a) ? "a value" : "\":\"");
        return;
    }
    const char *text = agg_text(a);
    feature_text v = { text, isalpha((unsigned char)text[0]) || text[0] == '_', agg_loc(a) };
    a->i++;
    if (ext) add_lang(a->site, ext, ext_name, name, at, v);
    else add_core(a->site, name, at, v);
}

static void read_aggregate(feature_site *site, const ir_option *o, const ir_field *ext, const char *ext_name)
{
    if (o->value.kind != IR_VAL_AGGREGATE) {
        const char *full = ext ? ir_pool_printf(site->r->pool, "features.(%s)", ext_name) : "features";
        diag_error(site->r->cur, o->value.loc, "Option \"%s\" is a message. To set the entire message, use syntax like "
                   "\"%s = { <proto text format> }\". To set fields within it, use syntax like \"%s.foo = value\".",
                   full, full, full);
        return;
    }
    agg_reader a = { site, &o->value, 0, false };
    agg_entries(&a, ext, ext_name, "");
}

/* ---- one option ------------------------------------------------------------------ */

/* An aggregate sets its whole message: after an earlier option set some of it, it was set already. */
static bool aggregate_again(feature_site *site, const ir_option *o, const ir_field *ext, bool after_features)
{
    bool again = !ext && after_features;
    for (size_t i = 0; ext && i < site->read.n; i++) again |= site->read.v[i].ext == ext;
    if (again)
        diag_error(site->r->cur, o->loc, "Option \"%s\" was already set.", ir_option_name(site->r->pool, o, o->name.n));
    return again;
}

/* after_features: an option before o in the list set features. */
static void read_option(feature_site *site, ir_option *o, bool after_features)
{
    ir_optname_part *p = o->name.v;
    size_t n = o->name.n;
    feature_text v = { o->value.text ? o->value.text : "", o->value.kind == IR_VAL_IDENT && !o->value.negative,
                       o->value.loc };
    if (n == 1) {
        if (!aggregate_again(site, o, NULL, after_features)) read_aggregate(site, o, NULL, NULL);
    } else if (n == 2 && !p[1].extension) {
        add_core(site, p[1].name, o->loc, v);
    } else if (!p[1].extension || n > 3 || (n == 3 && p[2].extension)) {
        diag_error(site->r->cur, o->loc, "Option \"%s\" unknown: features are features.NAME or "
                   "features.(extension).NAME.", ir_option_name(site->r->pool, o, n));
    } else {
        const ir_field *ext = p[1].ext = bind_extension(site, p[1].name, o->loc);   /* srcinfo's path follows it */
        if (ext && n == 3) add_lang(site, ext, p[1].name, p[2].name, o->loc, v);
        else if (ext && !aggregate_again(site, o, ext, after_features)) read_aggregate(site, o, ext, p[1].name);
    }
}

void features_read_options(resolver *r, std_scope scope, const char *name_scope, const ir_field *fd, ir_options *opts)
{
    feature_site site = { r, scope, name_scope, fd, opts, { 0 } };
    bool seen = false;
    for (size_t i = 0; i < opts->n; i++)
        if (ir_option_is_feature(&opts->v[i])) {
            read_option(&site, &opts->v[i], seen);
            seen = true;
        }
    opts->features = site.read.v;
    opts->n_features = site.read.n;
}

/* ---- each element's features resolved through its scopes (protoc's FeatureResolver) ---- */

/* The core features opts sets (resolve read them into opts->features), unset ones 0. */
static ir_features written(const ir_options *opts)
{
    ir_features w = { { 0 }, NULL, 0 };
    for (size_t i = 0; i < opts->n_features; i++)
        if (!opts->features[i].ext) w.v[opts->features[i].id] = (uint8_t)opts->features[i].value;
    return w;
}

/* parent's features under those opts sets: its language ones first, then the enclosing scopes'. */
static ir_features scoped(ir_pool *pool, ir_features parent, const ir_options *opts)
{
    ir_features fs = features_merge(parent, written(opts));
    size_t own = 0;
    for (size_t i = 0; i < opts->n_features; i++) own += opts->features[i].ext != NULL;
    if (own == 0) return fs;
    feature_setting *lang = ir_pool_alloc(pool, (own + parent.n_lang) * sizeof *lang);
    size_t n = 0;
    for (size_t i = 0; i < opts->n_features; i++)
        if (opts->features[i].ext) lang[n++] = opts->features[i];
    if (parent.n_lang) memcpy(lang + n, parent.lang, parent.n_lang * sizeof *lang);
    fs.lang = lang;
    fs.n_lang = own + parent.n_lang;
    return fs;
}

/* proto2 and proto3 say with labels, types and [packed] what editions say with features. */
static ir_features legacy_field(const ir_field *f, ir_features fs)
{
    if (f->file->edition >= EDITION_2023) return fs;
    if (f->label == IR_LABEL_REQUIRED) fs.v[FEATURE_field_presence] = FEATURE_field_presence_LEGACY_REQUIRED;
    if (f->proto3_optional) fs.v[FEATURE_field_presence] = FEATURE_field_presence_EXPLICIT;
    if (f->type == IR_TYPE_GROUP) fs.v[FEATURE_message_encoding] = FEATURE_message_encoding_DELIMITED;
    const char *packed = ir_option_find(&f->options, "packed");
    if (packed)
        fs.v[FEATURE_repeated_field_encoding] = strcmp(packed, "true") == 0 ? FEATURE_repeated_field_encoding_PACKED
                                                                            : FEATURE_repeated_field_encoding_EXPANDED;
    return fs;
}

static void resolve_field(ir_field *f, ir_features parent)
{
    if (f->oneof && !f->extend) parent = f->oneof->features;
    f->features = legacy_field(f, scoped(f->file->pool, parent, &f->options));
    f->packed = f->label == IR_LABEL_REPEATED && ir_type_is_packable(f->type) &&
                f->features.v[FEATURE_repeated_field_encoding] == FEATURE_repeated_field_encoding_PACKED;
}

static void resolve_enum(ir_enum *e, ir_features parent)
{
    e->features = scoped(e->file->pool, parent, &e->options);
    for (size_t i = 0; i < e->values.n; i++)
        e->values.v[i]->features = scoped(e->file->pool, e->features, &e->values.v[i]->options);
}

static void resolve_message(ir_message *m, ir_features parent)
{
    m->features = scoped(m->file->pool, parent, &m->options);
    for (size_t i = 0; i < m->oneofs.n; i++)
        m->oneofs.v[i]->features = scoped(m->file->pool, m->features, &m->oneofs.v[i]->options);
    for (size_t i = 0; i < m->fields.n; i++) resolve_field(m->fields.v[i], m->features);
    for (size_t i = 0; i < m->extensions.n; i++) resolve_field(m->extensions.v[i], m->features);
    for (size_t i = 0; i < m->messages.n; i++) resolve_message(m->messages.v[i], m->features);
    for (size_t i = 0; i < m->enums.n; i++) resolve_enum(m->enums.v[i], m->features);
}

void features_resolve_file(ir_file *f)
{
    f->features = scoped(f->pool, feature_defaults(features_edition(f)), &f->options);
    for (size_t i = 0; i < f->messages.n; i++) resolve_message(f->messages.v[i], f->features);
    for (size_t i = 0; i < f->enums.n; i++) resolve_enum(f->enums.v[i], f->features);
    for (size_t i = 0; i < f->extensions.n; i++) resolve_field(f->extensions.v[i], f->features);
}


/* ---- language features: the innermost setting, else the edition's default ------------- */

/* The number of e's value named name (a quoted name too), -1 if none. */
static int32_t enum_value_number(const ir_enum *e, const char *name)
{
    size_t n = strlen(name);
    bool quoted = n >= 2 && name[0] == '"';
    for (size_t i = 0; e && i < e->values.n; i++) {
        const char *v = e->values.v[i]->name;
        if (quoted ? strlen(v) == n - 2 && memcmp(v, name + 1, n - 2) == 0 : strcmp(v, name) == 0)
            return e->values.v[i]->number;
    }
    return -1;
}

/* What field's edition_defaults = { edition: E, value: "V" } give for ed: the last edition not after it. */
static int32_t edition_default(const ir_field *field, feature_edition ed)
{
    int32_t best_edition = -1, value = -1;
    for (size_t i = 0; i < field->options.n; i++) {
        const ir_option *o = &field->options.v[i];
        const ir_message *m = o->name.n == 1 && strcmp(o->name.v[0].name, "edition_defaults") == 0 && o->name.v[0].ext
                            ? o->name.v[0].ext->message_type : NULL;
        const char *edition = m ? aggregate_member(field->file->pool, &o->value, "edition") : NULL;
        const char *text = m ? aggregate_member(field->file->pool, &o->value, "value") : NULL;
        const ir_enum *editions = NULL;
        for (size_t k = 0; m && k < m->fields.n; k++)
            if (strcmp(m->fields.v[k]->name, "edition") == 0) editions = m->fields.v[k]->enum_type;
        int32_t at = edition && text ? enum_value_number(editions, edition) : -1;
        if (at < 0 || at > (int32_t)ed || at < best_edition) continue;
        best_edition = at;
        value = field->type == IR_TYPE_BOOL ? strcmp(text, "\"true\"") == 0 : enum_value_number(field->enum_type, text);
    }
    return value;
}

int32_t features_language(const ir_features *fs, feature_edition ed, const ir_field *ext, const ir_field *field)
{
    for (size_t i = 0; i < fs->n_lang; i++)
        if (fs->lang[i].ext == ext && fs->lang[i].field == field) return fs->lang[i].value;
    return edition_default(field, ed);
}
