/* resolve_style.c: what editions 2024 and 2026 enforce of names, sizes and exports (protoc's ValidateNamingStyle,
 * ValidateProtoLimits, SymbolChecker). */
#include <ctype.h>
#include <string.h>

#include "diag.h"
#include "featureset.h"
#include "resolve_int.h"
#include "../rt/pbj_core.h"   /* PBJ_MAX_FIELD_NUMBER */

/* ---- naming style: features.enforce_naming_style = STYLE2024 and later ------------------------- */

#define OPT_OUT " (features.enforce_naming_style = STYLE_LEGACY can be used to opt out of this check)"
#define OPT_OUT_COLLISIONS " (features.enforce_naming_style = STYLE2024 can be used to opt out of this check)"

/* protoc's ContainsBadUnderscores: at either end, or before anything but a letter. */
static bool bad_underscores(const char *name)
{
    size_t n = strlen(name);
    if (n == 0) return false;
    if (name[0] == '_' || name[n - 1] == '_') return true;
    for (size_t i = 1; i < n; i++)
        if (name[i - 1] == '_' && !isalpha((unsigned char)name[i])) return true;
    return false;
}

/* protoc's IsValidTitleCaseName (messages, enums, services, methods): what is wrong with name, or NULL. */
static const char *title_case_fault(const char *name)
{
    if (!*name) return "is empty";
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p)) return "should be TitleCase";
    return isupper((unsigned char)name[0]) ? NULL : "should begin with a capital letter";
}

/* protoc's IsValidLowerSnakeCaseName (packages, fields, oneofs); '.' is for packages. */
static const char *lower_snake_fault(const char *name)
{
    if (!*name) return "is empty";
    for (const char *p = name; *p; p++)
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_' && *p != '.')
            return "should be lower_snake_case";
    if (!islower((unsigned char)name[0])) return "should begin with a lower case letter";
    return bad_underscores(name) ? "contains style violating underscores" : NULL;
}

/* protoc's IsValidUpperSnakeCaseName (enum values). */
static const char *upper_snake_fault(const char *name)
{
    if (!*name) return "is empty";
    for (const char *p = name; *p; p++)
        if (!isupper((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_') return "should be UPPER_SNAKE_CASE";
    if (!isupper((unsigned char)name[0])) return "should begin with an upper case letter";
    return bad_underscores(name) ? "contains style violating underscores" : NULL;
}

static bool style_at_least(const ir_features *fs, int style)
{
    int s = fs->v[FEATURE_enforce_naming_style];
    return s != FEATURE_enforce_naming_style_STYLE_LEGACY && s >= style;   /* STYLE2024 = 1, STYLE2026 = 3 */
}

/* A field or oneof of m named name, as protoc's FindFieldByName / FindOneofByName. */
static bool member_named(resolver *r, const ir_message *m, const char *name, size_t len)
{
    const char *full = ir_pool_printf(r->pool, "%s.%.*s", m->full_name, (int)len, name);
    const sym *s = symtab_get(&r->syms, full, strlen(full));
    return s && (s->kind == SYM_FIELD || s->kind == SYM_ONEOF) &&
           (s->kind == SYM_FIELD ? s->u.field->parent == m && !s->u.field->extend : s->u.oneof->parent == m);
}

/* STYLE2026's IsValidFieldNonCollisionName: a name the generated code of m would collide on, why, or NULL. */
static const char *collision_fault(resolver *r, const ir_message *m, const char *name)
{
    static const char *const prefixes[] = { "has_", "get_", "set_", "clear_" };
    size_t n = strlen(name);
    for (size_t i = 0; m && i < sizeof prefixes / sizeof *prefixes; i++) {
        size_t p = strlen(prefixes[i]);
        if (n > p && strncmp(name, prefixes[i], p) == 0 && member_named(r, m, name + p, n - p))
            return ir_pool_printf(r->pool, "should not begin with %s if a field named %s exists. This can cause "
                                  "collisions in generated code.", prefixes[i], name + p);
    }
    if (m && n > 6 && strcmp(name + n - 6, "_value") == 0 && member_named(r, m, name, n - 6))
        return ir_pool_printf(r->pool, "should not end with _value if a field named %.*s exists. This can cause "
                              "collisions in generated code.", (int)(n - 6), name);
    if (strcmp(name, "descriptor") == 0) return "should not be named descriptor. This can cause collisions in generated code.";
    return NULL;
}

static void style_error(const ir_file *f, ir_loc loc, const char *what, const char *name, const char *fault, const char *opt_out)
{
    if (fault) diag_error(f, loc, "%s name %s %s%s", what, name, fault, opt_out);
}

/* A field or oneof: lower_snake_case, and (STYLE2026) no name the generated code collides on. */
static void style_member(resolver *r, const ir_file *f, const ir_message *m, const ir_features *fs, ir_loc loc,
                         const char *what, const char *name)
{
    if (!style_at_least(fs, FEATURE_enforce_naming_style_STYLE2024)) return;
    style_error(f, loc, what, name, lower_snake_fault(name), OPT_OUT);
    if (style_at_least(fs, FEATURE_enforce_naming_style_STYLE2026))
        style_error(f, loc, what, name, collision_fault(r, m, name), OPT_OUT_COLLISIONS);
}

static void style_enum(const ir_file *f, const ir_enum *e)
{
    if (style_at_least(&e->features, FEATURE_enforce_naming_style_STYLE2024))
        style_error(f, e->loc, "Enum", e->name, title_case_fault(e->name), OPT_OUT);
    for (size_t i = 0; i < e->values.n; i++) {
        const ir_enum_value *v = e->values.v[i];
        if (style_at_least(&v->features, FEATURE_enforce_naming_style_STYLE2024))
            style_error(f, v->loc, "Enum value", v->name, upper_snake_fault(v->name), OPT_OUT);
    }
}

/* ---- proto limits: features.enforce_proto_limits = PROTO_LIMITS2026 ----------------------------- */

/* protobuf's kLimit2026* */
enum { LIMIT_FIELDS_PER_MESSAGE = 1500, LIMIT_ONEOFS_PER_MESSAGE = 1000, LIMIT_FIELDS_PER_ONEOF = 1200,
       LIMIT_VALUES_PER_ENUM = 1700 };

#define LIMITS_OPT_OUT " (features.enforce_proto_limits = LEGACY_NO_EXPLICIT_LIMITS can be used to opt out of this check)"

static bool limits_on(const ir_features *fs)
{
    int v = fs->v[FEATURE_enforce_proto_limits];
    return v && v != FEATURE_enforce_proto_limits_LEGACY_NO_EXPLICIT_LIMITS;
}

static void limit_error(const ir_file *f, ir_loc loc, const char *what, const char *name, size_t count, int limit,
                        const char *items)
{
    if (count > (size_t)limit)
        diag_error(f, loc, "%s name %s should not contain more than %d %s%s", what, name, limit, items, LIMITS_OPT_OUT);
}

static size_t real_oneofs(const ir_message *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->oneofs.n; i++) n += !m->oneofs.v[i]->synthetic;
    return n;
}

/* ---- STRICT visibility: no nested type exported (but an enum in a local "namespace" message) ---- */

static bool strict(const ir_file *f)
{
    return f->features.v[FEATURE_default_symbol_visibility] == FEATURE_default_symbol_visibility_STRICT;
}

/* protoc's IsEnumNamespaceMessage: a local top-level message whose one reserved range is 1 to max. */
static bool enum_namespace(const ir_file *f, const ir_message *m)
{
    bool local = m->visibility == IR_VISIBILITY_LOCAL ||
                 (m->visibility == IR_VISIBILITY_UNSET && !features_export_by_default(&f->features, m->parent != NULL));
    return !m->parent && local && m->reserved_ranges.n == 1 && m->reserved_ranges.v[0].start == 1 &&
           m->reserved_ranges.v[0].end == PBJ_MAX_FIELD_NUMBER;
}

static void strict_nested(const ir_file *f, const ir_message *m)
{
    for (size_t i = 0; i < m->messages.n; i++) {
        const ir_message *n = m->messages.v[i];
        if (n->visibility == IR_VISIBILITY_EXPORT)
            diag_error(f, n->visibility_loc, "\"%s\" is a nested message and cannot be `export` with STRICT "
                       "default_symbol_visibility. It must be moved to top-level, ideally in its own file in order to "
                       "be `export`.", n->full_name);
        strict_nested(f, n);
    }
    for (size_t i = 0; i < m->enums.n; i++) {
        const ir_enum *e = m->enums.v[i];
        if (e->visibility == IR_VISIBILITY_EXPORT && !enum_namespace(f, m))
            diag_error(f, e->visibility_loc, "\"%s\" is a nested enum and cannot be marked `export` with STRICT "
                       "default_symbol_visibility. It must be moved to top-level, ideally in its own file in order to "
                       "be `export`. For C++ namespacing of enums in a messages use: `local message <OuterNamespace> "
                       "{ export enum %s {...} reserved 1 to max; }`", e->full_name, e->full_name);
    }
}

/* ---- the walks, in protoc's VisitDescriptors order ---------------------------------------------- */

static void style_message(resolver *r, const ir_file *f, const ir_message *m)
{
    if (style_at_least(&m->features, FEATURE_enforce_naming_style_STYLE2024))
        style_error(f, m->loc, "Message", m->name, title_case_fault(m->name), OPT_OUT);
    for (size_t i = 0; i < m->enums.n; i++) style_enum(f, m->enums.v[i]);
    for (size_t i = 0; i < m->oneofs.n; i++)
        style_member(r, f, m, &m->oneofs.v[i]->features, m->oneofs.v[i]->loc, "Oneof", m->oneofs.v[i]->name);
    for (size_t i = 0; i < m->fields.n; i++)
        style_member(r, f, m, &m->fields.v[i]->features, m->fields.v[i]->loc, "Field", m->fields.v[i]->name);
    for (size_t i = 0; i < m->messages.n; i++) style_message(r, f, m->messages.v[i]);
    for (size_t i = 0; i < m->extensions.n; i++)
        style_member(r, f, NULL, &m->extensions.v[i]->features, m->extensions.v[i]->loc, "Field", m->extensions.v[i]->name);
}

static void style_file(resolver *r, const ir_file *f)
{
    if (f->package && style_at_least(&f->features, FEATURE_enforce_naming_style_STYLE2024))
        style_error(f, f->package_loc, "Package", f->package, lower_snake_fault(f->package), OPT_OUT);
    for (size_t i = 0; i < f->messages.n; i++) style_message(r, f, f->messages.v[i]);
    for (size_t i = 0; i < f->enums.n; i++) style_enum(f, f->enums.v[i]);
    for (size_t i = 0; i < f->extensions.n; i++)
        style_member(r, f, NULL, &f->extensions.v[i]->features, f->extensions.v[i]->loc, "Field", f->extensions.v[i]->name);
    if (!style_at_least(&f->features, FEATURE_enforce_naming_style_STYLE2024)) return;
    for (size_t i = 0; i < f->services.n; i++) {      /* a service's features are its file's here */
        const ir_service *s = f->services.v[i];
        style_error(f, s->loc, "Service", s->name, title_case_fault(s->name), OPT_OUT);
        for (size_t j = 0; j < s->methods.n; j++)
            style_error(f, s->methods.v[j]->loc, "Method", s->methods.v[j]->name, title_case_fault(s->methods.v[j]->name), OPT_OUT);
    }
}

static void limits_enum(const ir_file *f, const ir_enum *e)
{
    if (limits_on(&e->features)) limit_error(f, e->loc, "Enum", e->name, e->values.n, LIMIT_VALUES_PER_ENUM, "values");
}

static void limits_message(const ir_file *f, const ir_message *m)
{
    if (limits_on(&m->features)) {
        limit_error(f, m->loc, "Message", m->name, m->fields.n, LIMIT_FIELDS_PER_MESSAGE, "fields");
        limit_error(f, m->loc, "Message", m->name, real_oneofs(m), LIMIT_ONEOFS_PER_MESSAGE, "oneofs");
    }
    for (size_t i = 0; i < m->enums.n; i++) limits_enum(f, m->enums.v[i]);
    for (size_t i = 0; i < m->oneofs.n; i++) {
        const ir_oneof *o = m->oneofs.v[i];
        if (limits_on(&o->features)) limit_error(f, o->loc, "Oneof", o->name, o->fields.n, LIMIT_FIELDS_PER_ONEOF, "fields");
    }
    for (size_t i = 0; i < m->messages.n; i++) limits_message(f, m->messages.v[i]);
}

/* As protoc: sizes checked once the names are good, exports once the sizes are (and names once the file has
 * no other error: resolve.c). */
void style_check_file(resolver *r, ir_file *f)
{
    int before = r->diag->errors;
    if (f->syntax != IR_EDITIONS) return;
    style_file(r, f);
    if (r->diag->errors != before) return;
    for (size_t i = 0; i < f->messages.n; i++) limits_message(f, f->messages.v[i]);
    for (size_t i = 0; i < f->enums.n; i++) limits_enum(f, f->enums.v[i]);
    if (r->diag->errors != before || !strict(f)) return;
    for (size_t i = 0; i < f->messages.n; i++) strict_nested(f, f->messages.v[i]);
}
