/* featureset.c: the FeatureSet tables, and each element's features resolved through its scopes (protoc's FeatureResolver). */
#include "featureset.h"

#include <string.h>

#include "ir.h"

const feature_info *feature_at(feature_id id)
{
    static const feature_info all[] = {
#define X(name, num, since, targets) { #name, num, EDITION_##since, targets },
        FEATURE_FIELDS(X)
#undef X
    };
    return id < FEATURE_COUNT ? &all[id] : NULL;
}

const feature_info *feature_named(const char *name, feature_id *id)
{
    for (int i = 0; i < FEATURE_COUNT; i++)
        if (strcmp(feature_at((feature_id)i)->name, name) == 0) {
            *id = (feature_id)i;
            return feature_at((feature_id)i);
        }
    return NULL;
}

typedef struct feature_value {
    feature_id feature;
    const char *name;
    int number;
} feature_value;

static const feature_value *feature_value_at(size_t i)
{
    static const feature_value all[] = {
#define X(feature, value, num) { FEATURE_##feature, #value, num },
        FEATURE_VALUES(X)
#undef X
    };
    return i < sizeof all / sizeof *all ? &all[i] : NULL;
}

int feature_value_named(feature_id id, const char *value)
{
    const feature_value *fv;
    for (size_t i = 0; (fv = feature_value_at(i)); i++)
        if (fv->feature == id && strcmp(fv->name, value) == 0) return fv->number;
    return -1;
}

const char *feature_value_name(feature_id id, int value)
{
    const feature_value *fv;
    for (size_t i = 0; (fv = feature_value_at(i)); i++)
        if (fv->feature == id && fv->number == value) return fv->name;
    return NULL;
}

const char *feature_value_names(feature_id id)
{
    const char *s = "";
    const feature_value *fv;
    for (size_t i = 0; (fv = feature_value_at(i)); i++)
        if (fv->feature == id) s = ir_printf("%s%s%s", s, *s ? ", " : "", fv->name);
    return s;
}

unsigned feature_target_named(const char *name)
{
#define X(target, bit, written) if (strcmp(name, written) == 0) return FEATURE_TARGET_##target;
    FEATURE_TARGETS(X)
#undef X
    return 0;
}

ir_features feature_defaults(feature_edition edition)
{
    ir_features d = { { 0 }, NULL, 0 };
    int column = edition == EDITION_PROTO2 ? 0 : edition == EDITION_PROTO3 ? 1 : edition == EDITION_2023 ? 2 : 3;
#define X(feature, p2, p3, e2023, e2024)                                                                  \
    {                                                                                                     \
        const int by_edition[] = { FEATURE_##feature##_##p2, FEATURE_##feature##_##p3,                    \
                                   FEATURE_##feature##_##e2023, FEATURE_##feature##_##e2024 };           \
        d.v[FEATURE_##feature] = (uint8_t)by_edition[column];                                             \
    }
    FEATURE_DEFAULTS(X)
#undef X
    return d;
}

feature_edition feature_edition_named(const char *text)
{
#define X(name, num, written) if (num >= EDITION_2023 && strcmp(text, written) == 0) return EDITION_##name;
    FEATURE_EDITIONS(X)
#undef X
    return (feature_edition)0;
}

const char *feature_edition_text(feature_edition edition)
{
#define X(name, num, written) if (edition == EDITION_##name) return written;
    FEATURE_EDITIONS(X)
#undef X
    return "unknown";
}

ir_features features_merge(ir_features base, ir_features overlay)
{
    for (int i = 0; i < FEATURE_COUNT; i++)
        if (overlay.v[i]) base.v[i] = overlay.v[i];
    return base;
}

/* ---- resolution over the IR -------------------------------------------------- */

bool features_option(const ir_option *o)
{
    return o->name.n > 0 && !o->name.v[0].extension && strcmp(o->name.v[0].name, "features") == 0;
}

/* The core features opts sets (resolve read them into opts->features), unset ones 0. */
static ir_features written(const ir_options *opts)
{
    ir_features w = { { 0 }, NULL, 0 };
    for (size_t i = 0; i < opts->n_features; i++)
        if (!opts->features[i].ext) w.v[opts->features[i].id] = (uint8_t)opts->features[i].value;
    return w;
}

/* parent's features under those opts sets: its language ones first, then the enclosing scopes'. */
static ir_features scoped(ir_features parent, const ir_options *opts)
{
    ir_features fs = features_merge(parent, written(opts));
    size_t own = 0;
    for (size_t i = 0; i < opts->n_features; i++) own += opts->features[i].ext != NULL;
    if (own == 0) return fs;
    feature_setting *lang = ir_alloc((own + parent.n_lang) * sizeof *lang);
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
    f->features = legacy_field(f, scoped(parent, &f->options));
    f->packed = f->label == IR_LABEL_REPEATED && ir_type_is_packable(f->type) &&
                f->features.v[FEATURE_repeated_field_encoding] == FEATURE_repeated_field_encoding_PACKED;
}

static void resolve_enum(ir_enum *e, ir_features parent)
{
    e->features = scoped(parent, &e->options);
    for (size_t i = 0; i < e->values.n; i++)
        e->values.v[i]->features = scoped(e->features, &e->values.v[i]->options);
}

static void resolve_message(ir_message *m, ir_features parent)
{
    m->features = scoped(parent, &m->options);
    for (size_t i = 0; i < m->oneofs.n; i++)
        m->oneofs.v[i]->features = scoped(m->features, &m->oneofs.v[i]->options);
    for (size_t i = 0; i < m->fields.n; i++) resolve_field(m->fields.v[i], m->features);
    for (size_t i = 0; i < m->extensions.n; i++) resolve_field(m->extensions.v[i], m->features);
    for (size_t i = 0; i < m->messages.n; i++) resolve_message(m->messages.v[i], m->features);
    for (size_t i = 0; i < m->enums.n; i++) resolve_enum(m->enums.v[i], m->features);
}

feature_edition features_edition(const ir_file *f)
{
    return f->edition ? f->edition : f->syntax == IR_PROTO3 ? EDITION_PROTO3 : EDITION_PROTO2;
}

void features_resolve_file(ir_file *f)
{
    f->features = scoped(feature_defaults(features_edition(f)), &f->options);
    for (size_t i = 0; i < f->messages.n; i++) resolve_message(f->messages.v[i], f->features);
    for (size_t i = 0; i < f->enums.n; i++) resolve_enum(f->enums.v[i], f->features);
    for (size_t i = 0; i < f->extensions.n; i++) resolve_field(f->extensions.v[i], f->features);
}

/* ---- language features: the innermost setting, else the edition's default ------------- */

const char *features_aggregate_member(const ir_value *v, const char *key)
{
    for (size_t t = 0; v->kind == IR_VAL_AGGREGATE && t + 1 < v->n_tokens; t++) {
        const ir_token *k = &v->tokens[t], *val = &v->tokens[t + 1];
        if (k->len != strlen(key) || memcmp(v->text + k->offset, key, k->len) != 0) continue;
        if (val->len == 1 && v->text[val->offset] == ':' && t + 2 < v->n_tokens) val++;
        return ir_strndup(v->text + val->offset, val->len);
    }
    return NULL;
}

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
        const char *edition = m ? features_aggregate_member(&o->value, "edition") : NULL;
        const char *text = m ? features_aggregate_member(&o->value, "value") : NULL;
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

/* ---- what code generation asks ------------------------------------------------ */

bool features_explicit_presence(const ir_field *f)
{
    return f->features.v[FEATURE_field_presence] != FEATURE_field_presence_IMPLICIT;
}

bool features_required(const ir_field *f)
{
    return f->features.v[FEATURE_field_presence] == FEATURE_field_presence_LEGACY_REQUIRED;
}

bool features_closed_enum(const ir_enum *e)
{
    return e->features.v[FEATURE_enum_type] == FEATURE_enum_type_CLOSED;
}

bool features_utf8_checked(const ir_field *f)
{
    return f->type == IR_TYPE_STRING && f->features.v[FEATURE_utf8_validation] == FEATURE_utf8_validation_VERIFY;
}

/* Group framing: a group, or a message field encoded DELIMITED (never a map or a map entry's value, as protoc). */
bool features_delimited(const ir_field *f)
{
    if (f->type == IR_TYPE_GROUP) return true;
    return f->type == IR_TYPE_MESSAGE && !f->is_map && f->message_type && !f->message_type->map_entry &&
           !(f->parent && f->parent->map_entry && !f->extend) &&
           f->features.v[FEATURE_message_encoding] == FEATURE_message_encoding_DELIMITED;
}

bool features_group_like(const ir_field *f)
{
    if (!features_delimited(f) || !f->message_type) return false;
    if (f->type == IR_TYPE_GROUP) return true;
    const ir_message *t = f->message_type;
    const ir_message *scope = f->extend ? f->extend->scope : f->parent;
    if (t->file != f->file || t->parent != scope || strlen(t->name) != strlen(f->name)) return false;
    for (size_t i = 0; f->name[i]; i++)
        if (f->name[i] != (t->name[i] >= 'A' && t->name[i] <= 'Z' ? t->name[i] - 'A' + 'a' : t->name[i])) return false;
    return true;
}
