/* resolve_names.c: the symbol table and protobuf's name scoping, as protoc's DescriptorBuilder. */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "featureset.h"
#include "resolve_int.h"
#include "suggest.h"

/* ---- declaring ---------------------------------------------------------- */

/* protoc's AddSymbol: false (and an error) when full_name is taken. */
static bool add_symbol(resolver *r, ir_file *f, ir_loc loc, sym_kind kind, const char *full, void *obj)
{
    sym *s = ir_pool_alloc(r->pool, sizeof *s);
    s->kind = kind;
    s->full_name = full;
    s->file = f;
    s->home = rf(r, f);
    s->u.any = obj;
    sym *old = symtab_put(&r->syms, full, strlen(full), s);
    if (!old) return true;
    const char *dot = strrchr(full, '.');
    if (old->file != f)
        diag_error(f, loc, "\"%s\" is already defined in file \"%s\".", full, old->file->name);
    else if (!dot)
        diag_error(f, loc, "\"%s\" is already defined.", full);
    else
        diag_error(f, loc, "\"%s\" is already defined in \"%.*s\".", dot + 1, (int)(dot - full), full);
    return false;
}

/* protoc's AddPackage: "a.b.c" declares a.b.c, a.b and a, each a scope. */
static void add_package(resolver *r, ir_file *f, const char *name, size_t len)
{
    sym *old = symtab_get(&r->syms, name, len);
    if (old) {
        if (old->kind != SYM_PACKAGE)
            diag_error(f, f->package_loc,
                       "\"%.*s\" is already defined (as something other than a package) in file \"%s\".",
                       (int)len, name, old->file->name);
        return;
    }
    sym *s = ir_pool_alloc(r->pool, sizeof *s);
    s->kind = SYM_PACKAGE;
    s->full_name = ir_pool_strndup(r->pool, name, len);
    s->file = f;
    s->home = rf(r, f);
    symtab_put(&r->syms, s->full_name, len, s);
    size_t parent_len = len;
    while (parent_len > 0 && name[parent_len - 1] != '.') parent_len--;
    if (parent_len > 0) add_package(r, f, name, parent_len - 1);
}

static void declare_field(resolver *r, ir_file *f, ir_field *fd, const char *scope)
{
    if (!fd->name) return;
    if (!fd->full_name) fd->full_name = ir_join_name(r->pool, scope, fd->name);
    if (!fd->file) fd->file = f;
    add_symbol(r, f, fd->loc, SYM_FIELD, fd->full_name, fd);
}

static void declare_enum(resolver *r, ir_file *f, ir_enum *e, const char *scope)
{
    if (!e->name) return;
    if (!e->full_name) e->full_name = ir_join_name(r->pool, scope, e->name);
    if (!e->file) e->file = f;
    for (size_t i = 0; i < e->values.n; i++) {
        ir_enum_value *v = e->values.v[i];
        if (!v->name) continue;
        if (!v->full_name) v->full_name = ir_join_name(r->pool, scope, v->name);
        if (!v->parent) v->parent = e;
        if (add_symbol(r, f, v->loc, SYM_ENUM_VALUE, v->full_name, v)) continue;
        bool twice_in_enum = false;
        for (size_t j = 0; j < i; j++) twice_in_enum |= strcmp(e->values.v[j]->name, v->name) == 0;
        if (!twice_in_enum)
            diag_error(f, v->loc,
                       "Note that enum values use C++ scoping rules, meaning that enum values are "
                       "siblings of their type, not children of it. Therefore, \"%s\" must be "
                       "unique within %s%s%s, not just within \"%s\".",
                       v->name, *scope ? "\"" : "", *scope ? scope : "the global scope",
                       *scope ? "\"" : "", e->name);
    }
    add_symbol(r, f, e->loc, SYM_ENUM, e->full_name, e);
}

/* After m's name clashed: protoc's note when one of the two is a map field's entry (at that field). */
static void note_map_entry_clash(resolver *r, const ir_file *f, const ir_message *m)
{
    const sym *old = symtab_get(&r->syms, m->full_name, strlen(m->full_name));
    const ir_message *entry = m->map_entry ? m : old && old->kind == SYM_MESSAGE && old->u.message->map_entry ? old->u.message : NULL;
    if (entry) diag_note(f, entry->loc, "Expanded map entry type %s conflicts with an existing nested message type.", entry->name);
}

static void declare_message(resolver *r, ir_file *f, ir_message *m, const char *scope)
{
    if (!m->name) return;
    if (!m->full_name) m->full_name = ir_join_name(r->pool, scope, m->name);
    if (!m->file) m->file = f;
    for (size_t i = 0; i < m->oneofs.n; i++) {
        ir_oneof *o = m->oneofs.v[i];
        if (!o->parent) o->parent = m;
        if (o->name) add_symbol(r, f, o->loc, SYM_ONEOF, ir_join_name(r->pool, m->full_name, o->name), o);
    }
    for (size_t i = 0; i < m->fields.n; i++) {
        if (!m->fields.v[i]->parent) m->fields.v[i]->parent = m;
        declare_field(r, f, m->fields.v[i], m->full_name);
    }
    for (size_t i = 0; i < m->enums.n; i++) {
        if (!m->enums.v[i]->parent) m->enums.v[i]->parent = m;
        declare_enum(r, f, m->enums.v[i], m->full_name);
    }
    for (size_t i = 0; i < m->messages.n; i++) {
        if (!m->messages.v[i]->parent) m->messages.v[i]->parent = m;
        declare_message(r, f, m->messages.v[i], m->full_name);
    }
    for (size_t i = 0; i < m->extensions.n; i++) declare_field(r, f, m->extensions.v[i], m->full_name);
    if (!add_symbol(r, f, m->loc, SYM_MESSAGE, m->full_name, m)) note_map_entry_clash(r, f, m);   /* an entry: at its map field */
}

/* Every symbol of f into the global table in protoc's order (children before their parent); duplicates reported. */
void names_declare_file(resolver *r, ir_file *f)
{
    const char *pkg = f->package ? f->package : "";
    if (*pkg) add_package(r, f, pkg, strlen(pkg));
    for (size_t i = 0; i < f->messages.n; i++) declare_message(r, f, f->messages.v[i], pkg);
    for (size_t i = 0; i < f->enums.n; i++) declare_enum(r, f, f->enums.v[i], pkg);
    for (size_t i = 0; i < f->services.n; i++) {
        ir_service *s = f->services.v[i];
        if (!s->name) continue;
        if (!s->full_name) s->full_name = ir_join_name(r->pool, pkg, s->name);
        if (!s->file) s->file = f;
        for (size_t j = 0; j < s->methods.n; j++) {
            ir_method *m = s->methods.v[j];
            if (m->name) add_symbol(r, f, m->loc, SYM_METHOD, ir_join_name(r->pool, s->full_name, m->name), m);
        }
        add_symbol(r, f, s->loc, SYM_SERVICE, s->full_name, s);
    }
    for (size_t i = 0; i < f->extensions.n; i++) declare_field(r, f, f->extensions.v[i], pkg);
}

/* ---- lookup --------------------------------------------------------------- */

void names_begin_file(resolver *r, ir_file *f)
{
    r->cur = f;
    r->stamp++;
    rfile *state = rf(r, f);
    state->visible_stamp = r->stamp;
    for (size_t i = 0; i < state->deps.n; i++) rf(r, state->deps.v[i])->visible_stamp = r->stamp;
}

/* protoc's IsInPackage: file's package is name or lies inside it. */
static bool in_package(const ir_file *f, const char *name, size_t len)
{
    return f && f->package && strncmp(f->package, name, len) == 0 &&
           (f->package[len] == '\0' || f->package[len] == '.');
}

void names_mark_used(resolver *r, const ir_file *def)
{
    for (size_t i = 0; i < r->cur->imports.n; i++)
        if (r->cur->imports.v[i].file == def) r->cur->imports.v[i].used = true;
}

/* protoc's FindSymbol: the symbol when the current file may see it, else NULL. */
static sym *find_visible(resolver *r, const char *name, size_t len)
{
    sym *s = symtab_get(&r->syms, name, len);
    if (!s) return NULL;
    if (s->home->visible_stamp == r->stamp) {
        names_mark_used(r, s->file);
        return s;
    }
    if (s->kind == SYM_PACKAGE) {
        if (in_package(r->cur, name, len)) return s;
        const rfile *cur = rf(r, r->cur);
        for (size_t i = 0; i < cur->deps.n; i++)
            if (in_package(cur->deps.v[i], name, len)) return s;
    }
    r->undeclared_in = s->file;
    r->undeclared_name = ir_pool_strndup(r->pool, name, len);
    return NULL;
}

bool names_is_aggregate(const sym *s)
{
    return s->kind == SYM_MESSAGE || s->kind == SYM_PACKAGE || s->kind == SYM_ENUM ||
           s->kind == SYM_SERVICE;
}

sym *names_lookup(resolver *r, const char *name, const char *relative_to, bool types_only)
{
    r->undeclared_in = NULL;
    r->resolved_as = NULL;
    if (name[0] == '.') return find_visible(r, name + 1, strlen(name + 1));
    size_t name_len = strlen(name), first_len = strcspn(name, ".");
    size_t scope_len = strlen(relative_to);
    char *buf = ir_pool_alloc(r->pool, scope_len + name_len + 2);
    memcpy(buf, relative_to, scope_len);
    for (;;) {
        while (scope_len > 0 && buf[scope_len - 1] != '.') scope_len--;
        if (scope_len == 0) return find_visible(r, name, name_len);
        scope_len--;                              /* chop ".last" off the scope */
        memcpy(buf + scope_len + 1, name, name_len);
        buf[scope_len] = '.';
        sym *s = find_visible(r, buf, scope_len + 1 + first_len);
        if (!s) continue;
        if (first_len < name_len) {
            if (!names_is_aggregate(s)) continue;    /* protoc keeps searching outward */
            s = find_visible(r, buf, scope_len + 1 + name_len);
            if (!s) r->resolved_as = ir_pool_strndup(r->pool, buf, scope_len + 1 + name_len);
            return s;
        }
        if (!types_only || s->kind == SYM_MESSAGE || s->kind == SYM_ENUM) return s;
    }
}

/* The last n dot-separated components of full_name. */
static const char *last_components(const char *full_name, size_t n)
{
    const char *p = full_name + strlen(full_name);
    while (p > full_name && n > 0)
        if (*--p == '.') n--;
    return n == 0 ? p + 1 : full_name;
}

static int by_full_name(const void *a, const void *b)
{
    return strcmp((*(const sym *const *)a)->full_name, (*(const sym *const *)b)->full_name);
}

/* A visible message or enum whose name is within two edits of name (as written, same depth), or NULL;
 * of equally near ones the first by full name. */
static const char *closest_type(resolver *r, const char *name)
{
    size_t depth = 1;
    for (const char *p = name; *p; p++) depth += *p == '.';
    const sym **types = ir_pool_alloc(r->pool, r->syms.count * sizeof *types + 1);
    size_t n = 0;
    for (size_t i = 0; i < r->syms.cap; i++) {
        const sym *s = r->syms.slots[i].value;
        if (s && (s->kind == SYM_MESSAGE || s->kind == SYM_ENUM) && s->home->visible_stamp == r->stamp)
            types[n++] = s;
    }
    if (n) qsort(types, n, sizeof *types, by_full_name);
    const char **words = ir_pool_alloc(r->pool, n * sizeof *words + 1);
    for (size_t i = 0; i < n; i++) words[i] = last_components(types[i]->full_name, depth);
    ptrdiff_t best = suggest_nearest(name, words, n, strlen(name) >= 6 ? 2 : 1);   /* short names are near everything */
    return best < 0 ? NULL : types[best]->full_name;
}

void names_not_defined(resolver *r, ir_loc loc, const char *name)
{
    if (!r->undeclared_in && !r->resolved_as) {
        const char *close = closest_type(r, name[0] == '.' ? name + 1 : name);
        if (close)
            diag_error(r->cur, loc, "\"%s\" is not defined. Did you mean \"%s\"?", name, close);
        else
            diag_error(r->cur, loc, "\"%s\" is not defined.", name);
        return;
    }
    if (r->undeclared_in)
        diag_error(r->cur, loc,
                   "\"%s\" seems to be defined in \"%s\", which is not imported by \"%s\". "
                   "To use it here, please add the necessary import.",
                   r->undeclared_name, r->undeclared_in->name, r->cur->name);
    if (r->resolved_as)
        diag_error(r->cur, loc,
                   "\"%s\" is resolved to \"%s\", which is not defined. The innermost scope is "
                   "searched first in name resolution. Consider using a leading '.'(i.e., \".%s\") "
                   "to start from the outermost scope.",
                   name, r->resolved_as, name);
}

/* ---- binding -------------------------------------------------------------- */

/* A message's or enum's visibility: as written (2024's export / local), else its file's
 * features.default_symbol_visibility (EXPORT_TOP_LEVEL: nested types are local). */
static bool exported(const sym *s)
{
    bool nested = s->kind == SYM_MESSAGE ? s->u.message->parent != NULL : s->u.enumeration->parent != NULL;
    ir_visibility v = s->kind == SYM_MESSAGE ? s->u.message->visibility : s->u.enumeration->visibility;
    return v != IR_VISIBILITY_UNSET ? v == IR_VISIBILITY_EXPORT : features_export_by_default(&s->file->features, nested);
}

/* protoc's IsVisibleFrom: a type of another file used here must be exported; else its error at loc, false. */
static bool visible_here(resolver *r, const sym *s, ir_loc loc, const char *usage)
{
    if ((s->kind != SYM_MESSAGE && s->kind != SYM_ENUM) || s->file == r->cur || exported(s)) return true;
    ir_visibility v = s->kind == SYM_MESSAGE ? s->u.message->visibility : s->u.enumeration->visibility;
    const char *why = v == IR_VISIBILITY_LOCAL ? "It is explicitly marked 'local'"
        : ir_pool_printf(r->pool, "It defaulted to local from file-level 'option features.default_symbol_visibility = %s';",
                         feature_value_name(FEATURE_default_symbol_visibility,
                                            s->file->features.v[FEATURE_default_symbol_visibility]));
    diag_error(r->cur, loc, "Symbol \"%s\", defined in \"%s\"%s is not visible from \"%s\". %s and cannot be accessed "
               "outside its own file", s->full_name, s->file->name, usage, r->cur->name, why);
    return false;
}

static void link_field_type(resolver *r, ir_field *fd)
{
    if (!fd->type_name || (fd->type == IR_TYPE_GROUP && fd->message_type)) return;
    sym *s = names_lookup(r, fd->type_name, fd->full_name, true);
    if (!s) {
        names_not_defined(r, fd->type_loc, fd->type_name);
    } else if (!visible_here(r, s, fd->type_loc, "")) {
        return;
    } else if (s->kind == SYM_MESSAGE) {
        if (fd->type != IR_TYPE_GROUP) fd->type = IR_TYPE_MESSAGE;
        fd->message_type = s->u.message;
    } else if (s->kind == SYM_ENUM && fd->type != IR_TYPE_GROUP) {
        fd->type = IR_TYPE_ENUM;
        fd->enum_type = s->u.enumeration;
    } else {
        diag_error(r->cur, fd->type_loc, "\"%s\" is not a %s.", fd->type_name,
                   fd->type == IR_TYPE_GROUP ? "message type" : "type");
    }
}

static void link_extend(resolver *r, ir_extend *e)
{
    if (e->fields.n == 0 || !e->extendee_name) return;   /* protoc looks extendees up per field */
    for (size_t i = 0; i < e->fields.n; i++) e->fields.v[i]->extend = e;
    sym *s = names_lookup(r, e->extendee_name, e->fields.v[0]->full_name, false);
    if (!s)
        names_not_defined(r, e->extendee_loc, e->extendee_name);
    else if (s->kind != SYM_MESSAGE)
        diag_error(r->cur, e->extendee_loc, "\"%s\" is not a message type.", e->extendee_name);
    else if (visible_here(r, s, e->extendee_loc, " target of extend"))
        e->extendee = s->u.message;
}

/* protoc's CrossLinkMessage order: nested messages, then fields, then extensions. */
static void link_message(resolver *r, ir_message *m)
{
    for (size_t i = 0; i < m->messages.n; i++) link_message(r, m->messages.v[i]);
    for (size_t i = 0; i < m->fields.n; i++) link_field_type(r, m->fields.v[i]);
    for (size_t i = 0; i < m->extends.n; i++) link_extend(r, m->extends.v[i]);
    for (size_t i = 0; i < m->extensions.n; i++) link_field_type(r, m->extensions.v[i]);
}

static ir_message *link_rpc_type(resolver *r, const char *name, ir_loc loc, const char *method)
{
    if (!name) return NULL;
    sym *s = names_lookup(r, name, method, false);
    if (!s) {
        names_not_defined(r, loc, name);
        return NULL;
    }
    if (s->kind != SYM_MESSAGE) {
        diag_error(r->cur, loc, "\"%s\" is not a message type.", name);
        return NULL;
    }
    return visible_here(r, s, loc, "") ? s->u.message : NULL;
}

/* Binds every type name of f: field types, extendees, rpc input and output. */
void names_link_file(resolver *r, ir_file *f)
{
    for (size_t i = 0; i < f->messages.n; i++) link_message(r, f->messages.v[i]);
    for (size_t i = 0; i < f->extends.n; i++) link_extend(r, f->extends.v[i]);
    for (size_t i = 0; i < f->extensions.n; i++) link_field_type(r, f->extensions.v[i]);
    for (size_t i = 0; i < f->services.n; i++) {
        ir_service *s = f->services.v[i];
        for (size_t j = 0; j < s->methods.n; j++) {
            ir_method *m = s->methods.v[j];
            const char *full = ir_join_name(r->pool, s->full_name, m->name);
            m->input = link_rpc_type(r, m->input_name, m->input_loc, full);
            m->output = link_rpc_type(r, m->output_name, m->output_loc, full);
        }
    }
}
