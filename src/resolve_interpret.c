/* resolve_interpret.c: protoc's OptionInterpreter: each option list encoded as its options message, errors as protoc's. */
#include <stdlib.h>
#include <string.h>

#include "resolve.h"
#include "resolve_int.h"
#include "std_options.h"
#include "textformat.h"
#include "../rt/pbj_core.h"   /* wire type names */

/* Standard options become known fields of the options message, in field-number
 * order; custom ones unknown fields after them, in the order written. What
 * resolve let through and only encoding finds (aggregate values, "was already
 * set") is reported here. */

/* ---- standard options: descriptor.proto 3.21, from src/std_options.h ------ */

/* One standard option as its field of the options message. */
static void put_std_option(optenv *env, wbuf *b, const std_option *so, const ir_option *o)
{
    const ir_value *v = &o->value;
    if (so->kind == KIND_STRING) {
        if (v->kind != IR_VAL_STRING) {
            optenv_error(env, v->loc, "Value must be quoted string for string option \"google.protobuf.%s.%s\".",
                         std_scope_message(so->scope), so->name);
            return;
        }
        wb_bytes_field(b, so->number, v->str, v->str_len);
    } else if (so->kind == KIND_BOOL) {
        if (!optvalue_is_ident(v, "true") && !optvalue_is_ident(v, "false")) {
            optenv_error(env, v->loc, "Value must be \"true\" or \"false\" for boolean option \"google.protobuf.%s.%s\".",
                         std_scope_message(so->scope), so->name);
            return;
        }
        wb_varint_field(b, so->number, optvalue_is_ident(v, "true"));
    } else {
        const std_enum_value *ev;
        for (size_t i = 0; (ev = std_enum_value_at(i)); i++)
            if (ev->kind == so->kind && optvalue_is_ident(v, ev->name)) {
                wb_int32_field(b, so->number, ev->number);
                return;
            }
        optenv_error(env, v->loc, "Value must be identifier for enum-valued option \"google.protobuf.%s.%s\".",
                     std_scope_message(so->scope), so->name);
    }
}

/* ---- "was already set": protoc's ExamineIfOptionIsSet on what is written ---- */

/* Whether the fields [p, end) already set the field path nums[0..n) ends at, through
 * every message (or group) value of the fields before it, as protoc's ExamineIfOptionIsSet. */
static bool path_is_set(const uint8_t *p, const uint8_t *end, const uint32_t *nums, size_t n)
{
    uint32_t num;
    int wire_type;
    const uint8_t *val;
    size_t len;
    while (wire_next_field(&p, end, &num, &wire_type, &val, &len)) {
        if (num != nums[0] || wire_type == PBJ_WT_EGROUP)
            continue;
        if (n == 1)
            return true;
        if ((wire_type == PBJ_WT_LEN || wire_type == PBJ_WT_SGROUP) && path_is_set(val, val + len, nums + 1, n - 1))
            return true;
    }
    return false;
}

/* protoc's "was already set", for a singular option whose path is nums, against the options written so far. */
static bool option_unset(optenv *env, const wbuf *b, const ir_option *o, const uint32_t *nums)
{
    if (b->n == 0 || !path_is_set(b->p, b->p + b->n, nums, o->name.n))   /* b->p is NULL while empty */
        return true;
    optenv_error(env, o->loc, "Option \"%s\" was already set.", ir_option_name(env->prog->pool, o, o->name.n));
    return false;
}

/* ---- custom options: extension fields of the options message ----------- */

/* One value of extension or field f, tag included, as protoc's SetOptionValue. */
static void put_field_value(optenv *env, wbuf *b, const ir_field *f, const ir_value *v)
{
    if (f->type != IR_TYPE_MESSAGE && f->type != IR_TYPE_GROUP)
        optvalue_put_scalar(env, b, f, v);
    else if (v->kind == IR_VAL_AGGREGATE)
        textformat_put(env, b, f, v);
    else
        optenv_error(env, v->loc, "Option \"%s\" is a message. To set the entire message, use syntax like "
                     "\"%s = { <proto text format> }\". To set fields within it, use syntax like "
                     "\"%s.foo = value\".", f->name, f->name, f->name);
}

/* The field a name part denotes inside message m (NULL for the options message). */
static const ir_field *option_part_field(optenv *env, const ir_option *o, size_t i, const ir_message *m)
{
    const ir_optname_part *p = &o->name.v[i];
    if (p->extension || p->ext) {                    /* p->ext of a plain name: a newer descriptor.proto's field */
        if (!p->ext)
            optenv_error(env, o->loc, "Option \"(%s)\" unknown.", p->name);
        return p->ext;
    }
    if (m)
        for (size_t k = 0; k < m->fields.n; k++)
            if (strcmp(m->fields.v[k]->name, p->name) == 0)
                return m->fields.v[k];
    optenv_error(env, o->loc, "Option field \"%s\" is not a field or extension of \"%s\".",
                 p->name, m ? m->full_name : "the options message");
    return NULL;
}

/* The value of path[n - 1], nested in one message value per part before it. */
static void put_option_path(optenv *env, wbuf *b, const ir_field *const *path, size_t n, const ir_value *value)
{
    wbuf inner = { 0 };
    put_field_value(env, &inner, path[n - 1], value);
    for (size_t i = n - 1; i-- > 0;) {
        wbuf outer = { 0 };
        wb_message_field(&outer, (uint32_t)path[i]->number, path[i]->type == IR_TYPE_GROUP, inner.p, inner.n);
        free(inner.p);
        inner = outer;
    }
    wb_put(b, inner.p, inner.n);
    free(inner.p);
}

/* (a).b.c = v: the leaf's value wrapped in one submessage per intermediate part. */
static void put_custom_option(optenv *env, wbuf *b, const ir_option *o)
{
    size_t n = o->name.n;
    const ir_field **path = malloc(n * sizeof *path);
    uint32_t *nums = malloc(n * sizeof *nums);
    if (!path || !nums)
        abort();
    const ir_message *m = NULL;
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        path[i] = option_part_field(env, o, i, m);
        ok = path[i] != NULL;
        if (!ok)
            break;
        nums[i] = (uint32_t)path[i]->number;
        m = path[i]->message_type;
        if (i + 1 < n && !m) {
            optenv_error(env, o->loc, "Option \"%s\" is an atomic type, not a message.", o->name.v[i].name);
            ok = false;
        }
    }
    bool repeated = ok && (path[n - 1]->label == IR_LABEL_REPEATED || path[n - 1]->is_map);
    if (ok && (repeated || option_unset(env, b, o, nums)))
        put_option_path(env, b, path, n, &o->value);
    free(nums);
    free(path);
}

/* ---- editions' features: one FeatureSet of what resolve read, as buf writes it ---- */

static bool has_features(const ir_options *opts)
{
    for (size_t i = 0; i < opts->n; i++)
        if (ir_option_is_feature(&opts->v[i])) return true;
    return false;
}

/* The setting of opts->features with the least key above after (an extension's number, or a
 * field's number inside the extension ext), or NULL. */
static const feature_setting *next_setting(const ir_options *opts, const ir_field *ext, int32_t after)
{
    const feature_setting *best = NULL;
    for (size_t i = 0; i < opts->n_features; i++) {
        const feature_setting *s = &opts->features[i];
        if (!s->ext || (ext && s->ext != ext)) continue;
        int32_t key = ext ? s->field->number : s->ext->number;
        int32_t best_key = !best ? 0 : ext ? best->field->number : best->ext->number;
        if (key > after && (!best || key < best_key)) best = s;
    }
    return best;
}

/* Language features first, one message per extension in number order, then the core ones by number. */
static void put_features(wbuf *b, std_scope scope, const ir_options *opts)
{
    wbuf inner = { 0 };
    for (const feature_setting *e = next_setting(opts, NULL, 0); e; e = next_setting(opts, NULL, e->ext->number)) {
        wbuf lang = { 0 };
        for (const feature_setting *s = next_setting(opts, e->ext, 0); s; s = next_setting(opts, e->ext, s->field->number))
            wb_varint_field(&lang, (uint32_t)s->field->number, (uint64_t)(int64_t)s->value);
        wb_bytes_field(&inner, (uint32_t)e->ext->number, lang.p ? (const char *)lang.p : "", lang.n);
        free(lang.p);
    }
    ir_features core = { { 0 }, NULL, 0 };
    for (size_t i = 0; i < opts->n_features; i++)
        if (!opts->features[i].ext) core.v[opts->features[i].id] = (uint8_t)opts->features[i].value;
    for (int i = 0; i < FEATURE_COUNT; i++)
        if (core.v[i]) wb_varint_field(&inner, feature_at((feature_id)i)->number, core.v[i]);
    wb_bytes_field(b, std_features_number(scope), inner.p ? (const char *)inner.p : "", inner.n);
    free(inner.p);
}

static const std_option *std_option_of(std_scope scope, const ir_option *o)
{
    return o->name.v[0].extension ? NULL : std_option_find(scope, o->name.v[0].name);
}

/* A standard option only a newer descriptor.proto knows (resolve_options_message): its field there, else NULL. */
static const ir_field *newer_std_field(const ir_option *o)
{
    return o->name.v[0].extension ? NULL : o->name.v[0].ext;
}

/* The standard options numbered next, in the order written. */
static void put_std_options_numbered(optenv *env, wbuf *b, std_scope scope, const ir_options *opts, uint32_t next)
{
    for (size_t i = 0; i < opts->n; i++) {
        const ir_option *o = &opts->v[i];
        const std_option *so = std_option_of(scope, o);
        const ir_field *newer = newer_std_field(o);
        if (newer && (uint32_t)newer->number == next)
            put_custom_option(env, b, o);
        if (!so || so->number != next)
            continue;
        if (o->name.n > 1)
            optenv_error(env, o->loc, "Option \"%s\" is an atomic type, not a message.", so->name);
        else if (option_unset(env, b, o, &so->number))
            put_std_option(env, b, so, o);
    }
}

/* The least custom option's extension number above after, -1 when none: an editions file's
 * custom options go in number order, as buf writes them. */
static int32_t next_extension(const ir_options *opts, int32_t after)
{
    int32_t next = -1;
    for (size_t i = 0; i < opts->n; i++) {
        const ir_field *e = opts->v[i].name.v[0].extension ? opts->v[i].name.v[0].ext : NULL;
        if (e && e->number > after && (next < 0 || e->number < next)) next = e->number;
    }
    return next;
}

/* The options message of one element: standard options by number (with map_entry, the
 * map_entry = true protoc adds to a map's entry), then custom ones as written. */
static void interpret(optenv *env, std_scope scope, ir_options *opts, bool map_entry)
{
    if (opts->n == 0 && !map_entry)
        return;
    wbuf b = { 0 };
    const std_option *map_entry_opt = std_option_find(SCOPE_MESSAGE, "map_entry");
    uint32_t features = env->file->syntax == IR_EDITIONS && has_features(opts) ? std_features_number(scope) : 0;
    for (uint32_t last = 0;;) {                      /* standard ones, ascending field number */
        uint32_t next = features > last ? features : UINT32_MAX;
        for (size_t i = 0; i < opts->n; i++) {
            const std_option *so = std_option_of(scope, &opts->v[i]);
            const ir_field *newer = newer_std_field(&opts->v[i]);
            uint32_t number = so ? so->number : newer ? (uint32_t)newer->number : 0;
            if (number > last && number < next)
                next = number;
        }
        if (map_entry && map_entry_opt->number > last && map_entry_opt->number < next)
            next = map_entry_opt->number;
        if (next == UINT32_MAX)
            break;
        put_std_options_numbered(env, &b, scope, opts, next);
        if (next == features)
            put_features(&b, scope, opts);
        if (map_entry && next == map_entry_opt->number)
            wb_varint_field(&b, next, 1);
        last = next;
    }
    bool editions = env->file->syntax == IR_EDITIONS;
    wbuf ext = { 0 };
    for (int32_t number = 0; number >= 0; number = editions ? next_extension(opts, number) : -1) {
        for (size_t i = 0; i < opts->n; i++) {
            const ir_option *o = &opts->v[i];
            if (o->name.v[0].extension && (!editions || (o->name.v[0].ext && o->name.v[0].ext->number == number)))
                put_custom_option(env, &ext, o);
            else if (o->name.v[0].extension || number > 0 || (features && ir_option_is_feature(o)))
                continue;
            else if (!std_option_find(scope, o->name.v[0].name) && !newer_std_field(o))
                optenv_error(env, o->loc, "Option \"%s\" unknown.", o->name.v[0].name);
        }
    }
    wbuf all = { 0 };                                /* buf (Go) writes extensions first, protoc after */
    wb_put(&all, editions ? ext.p : b.p, editions ? ext.n : b.n);
    wb_put(&all, editions ? b.p : ext.p, editions ? b.n : ext.n);
    opts->wire = all.n ? (const uint8_t *)ir_pool_strndup(env->prog->pool, (const char *)all.p, all.n) : (const uint8_t *)"";
    opts->wire_len = all.n;
    free(all.p);
    free(ext.p);
    free(b.p);
}

/* ---- every option list, in the order protoc's descriptor lists them -------- */

static void interpret_field(optenv *env, ir_field *f) { interpret(env, SCOPE_FIELD, &f->options, false); }

static void interpret_enum(optenv *env, ir_enum *e)
{
    for (size_t i = 0; i < e->values.n; i++)
        interpret(env, SCOPE_ENUM_VALUE, &e->values.v[i]->options, false);
    interpret(env, SCOPE_ENUM, &e->options, false);
}

static void interpret_message(optenv *env, ir_message *m)
{
    for (size_t i = 0; i < m->fields.n; i++)
        interpret_field(env, m->fields.v[i]);
    for (size_t i = 0; i < m->messages.n; i++)
        interpret_message(env, m->messages.v[i]);
    for (size_t i = 0; i < m->enums.n; i++)
        interpret_enum(env, m->enums.v[i]);
    for (size_t i = 0; i < m->extension_ranges.n; i++)
        interpret(env, SCOPE_EXTENSION_RANGE, &m->extension_ranges.v[i].options, false);
    for (size_t i = 0; i < m->extensions.n; i++)
        interpret_field(env, m->extensions.v[i]);
    interpret(env, SCOPE_MESSAGE, &m->options, m->map_entry && !ir_option_get(&m->options, "map_entry"));
    for (size_t i = 0; i < m->oneofs.n; i++)
        interpret(env, SCOPE_ONEOF, &m->oneofs.v[i]->options, false);
}

static void interpret_file(optenv *env, ir_file *f)
{
    env->file = f;
    for (size_t i = 0; i < f->messages.n; i++)
        interpret_message(env, f->messages.v[i]);
    for (size_t i = 0; i < f->enums.n; i++)
        interpret_enum(env, f->enums.v[i]);
    for (size_t i = 0; i < f->services.n; i++) {
        ir_service *s = f->services.v[i];
        for (size_t j = 0; j < s->methods.n; j++)
            interpret(env, SCOPE_METHOD, &s->methods.v[j]->options, false);
        interpret(env, SCOPE_SERVICE, &s->options, false);
    }
    for (size_t i = 0; i < f->extensions.n; i++)
        interpret_field(env, f->extensions.v[i]);
    interpret(env, SCOPE_FILE, &f->options, false);
}

int resolve_interpret_options(ir_program *prog)
{
    optenv env = { .prog = prog };
    for (size_t i = 0; i < prog->files.n; i++)      /* each after its imports, as protoc builds them */
        interpret_file(&env, prog->files.v[i]);
    return env.errors;
}
