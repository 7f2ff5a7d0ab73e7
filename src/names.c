/* names.c: the C names of generated declarations (every suffix spelled here), and the check that no two share one. */
#include "names.h"

#include "diag.h"
#include "symtab.h"

#include <stdlib.h>
#include <string.h>

/* C keywords, C11 reserved words and names the C library may define as macros, in strcmp order (bsearch). */
static const char *const reserved_names[] = {
    "EOF", "NULL", "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
    "_Static_assert", "_Thread_local", "alignas", "alignof", "assert", "auto", "bool", "break", "case", "char",
    "complex", "const", "continue", "default", "do", "double", "else", "enum", "errno", "extern", "false", "float",
    "for", "goto", "if", "imaginary", "inline", "int", "linux", "long", "noreturn", "offsetof", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "static_assert", "stderr", "stdin", "stdout",
    "struct", "switch", "thread_local", "true", "typedef", "union", "unix", "unsigned", "void", "volatile", "while",
};

static int name_cmp(const void *key, const void *item) { return strcmp(key, *(const char *const *)item); }

const char *names_sanitize(ir_pool *pool, const char *name)
{
    bool reserved = bsearch(name, reserved_names, sizeof reserved_names / sizeof *reserved_names, sizeof *reserved_names, name_cmp);
    return reserved ? ir_pool_strcat(pool, name, "_") : name;
}

const char *names_of_full_name(ir_pool *pool, const char *full_name)
{
    char *s = ir_pool_strdup(pool, full_name);
    for (char *p = s; *p; p++)
        if (*p == '.') *p = '_';
    return names_sanitize(pool, s);
}

const char *names_message_cname(ir_pool *pool, const ir_message *m) { return names_of_full_name(pool, m->full_name); }
const char *names_enum_cname(ir_pool *pool, const ir_enum *e) { return names_of_full_name(pool, e->full_name); }

const char *names_has_member(ir_pool *pool, const char *member) { return ir_pool_strcat(pool, "has_", member); }
const char *names_case_member(ir_pool *pool, const char *oneof) { return ir_pool_strcat(pool, oneof, "_case"); }
const char *names_wrapper_unknown(ir_pool *pool, const char *member) { return ir_pool_printf(pool, "pbj__%s_unknown", member); }
const char *names_helper_entry(ir_pool *pool, const char *cname, const char *member)
{
    return ir_pool_printf(pool, "pbj__%s_entry_%s", cname, member);
}

const char *names_table_pool(ir_pool *pool, const ir_file *f)
{
    char *s = ir_pool_strcat(pool, "pbj__pool_", f->name);
    for (char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) *p = '_';
    return s;
}

/* Each piece's prefix and suffix (names.h's NAMES_FIELD_PIECES). */
#define PIECE_ROW(ID, prefix, suffix) [NAMES_##ID] = {prefix, suffix},
static const struct { const char *prefix, *suffix; } pieces[] = {NAMES_FIELD_PIECES(PIECE_ROW)};
#undef PIECE_ROW

static const char *declare(ir_pool *pool, names_list *l, const char *cname, const char *what, const char *full_name,
                           const ir_file *f, ir_loc loc)
{
    if (l) ir_pool_vec_push(pool, l, ((names_decl){cname, what, full_name, f, loc}));
    return cname;
}

/* n->member = cname + suffix for each X(member, suffix) of a set, declared as what of decl (a message or field). */
#define NAME_EACH(member, suffix) n->member = declare(pool, l, ir_pool_strcat(pool, cname, suffix), what, decl->full_name, decl->file, decl->loc);

void names_message_functions(ir_pool *pool, names_list *l, names_message *n, const char *cname, const ir_message *m)
{
    const char *what = "a function of message";
    const ir_message *decl = m;
    NAMES_MESSAGE_FUNCTIONS(NAME_EACH)
}

void names_extension_functions(ir_pool *pool, names_list *l, names_extension *n, const char *cname, const ir_field *f)
{
    const char *what = "an accessor of extension";
    const ir_field *decl = f;
    NAMES_EXTENSION_FUNCTIONS(NAME_EACH)
}

void names_view_functions(ir_pool *pool, names_list *l, names_view *n, const char *cname, const ir_message *m)
{
    const char *what = "a view function of message";
    const ir_message *decl = m;
    NAMES_VIEW_FUNCTIONS(NAME_EACH)
}

const char *names_view_accessor(ir_pool *pool, names_list *l, const char *cname, names_piece piece, const char *member,
                                const char *full_name, const ir_file *f, ir_loc loc)
{
    const char *name = ir_pool_printf(pool, "%s_view_%s%s%s", cname, pieces[piece].prefix, member, pieces[piece].suffix);
    return declare(pool, l, name, "a view accessor", full_name, f, loc);
}

const char *names_extension_view(ir_pool *pool, names_list *l, const char *cname, names_piece piece, const ir_field *f)
{
    const char *name = ir_pool_printf(pool, "%s%s%s", cname, pieces[piece].prefix, pieces[piece].suffix);
    return declare(pool, l, name, "a view accessor of extension", f->full_name, f->file, f->loc);
}

void names_writer_functions(ir_pool *pool, names_list *l, names_writer *n, const char *cname, const ir_message *m)
{
    const char *what = "a writer function of message";
    const ir_message *decl = m;
    NAMES_WRITER_FUNCTIONS(NAME_EACH)
}

const char *names_writer_field(ir_pool *pool, names_list *l, const char *cname, names_piece piece, const char *member, const ir_field *f)
{
    static const char *const own[] = {"start", "end", "from", "unknown"};   /* M_writer_start, ... */
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        if (strcmp(member, own[i]) == 0) member = ir_pool_strcat(pool, member, "_");
    const char *name = ir_pool_printf(pool, "%s_writer_%s%s%s", cname, pieces[piece].prefix, member, pieces[piece].suffix);
    return declare(pool, l, name, "a writer function of field", f->full_name, f->file, f->loc);
}

#undef NAME_EACH

const char *names_message_type(ir_pool *pool, names_list *l, const char *cname, const ir_message *m)
{
    return declare(pool, l, cname, "message", m->full_name, m->file, m->loc);
}

static const char *oneof_full_name(ir_pool *pool, const ir_message *m, const ir_oneof *o) { return ir_pool_printf(pool, "%s.%s", m->full_name, o->name); }

const char *names_oneof_case_type(ir_pool *pool, names_list *l, const char *cname, const char *oneof, const ir_message *m, const ir_oneof *o)
{
    return declare(pool, l, ir_pool_printf(pool, "%s_%s_case", cname, oneof), "the case type of oneof", oneof_full_name(pool, m, o), m->file, o->loc);
}

const char *names_oneof_none(ir_pool *pool, names_list *l, const char *cname, const char *oneof, const ir_message *m, const ir_oneof *o)
{
    return declare(pool, l, ir_pool_printf(pool, "%s_%s_NOT_SET", cname, oneof), "a case constant of oneof", oneof_full_name(pool, m, o), m->file, o->loc);
}

const char *names_case_const(ir_pool *pool, names_list *l, const char *cname, const char *oneof, const char *member, const ir_field *f)
{
    return declare(pool, l, ir_pool_printf(pool, "%s_%s_%s", cname, oneof, member), "the case constant of field", f->full_name, f->file, f->loc);
}

const char *names_has_fn(ir_pool *pool, names_list *l, const char *cname, const char *member, const ir_field *f)
{
    return declare(pool, l, ir_pool_printf(pool, "%s_has_%s", cname, member), "an accessor of field", f->full_name, f->file, f->loc);
}

const char *names_clear_fn(ir_pool *pool, names_list *l, const char *cname, const char *member, const ir_field *f)
{
    return declare(pool, l, ir_pool_printf(pool, "%s_clear_%s", cname, member), "an accessor of field", f->full_name, f->file, f->loc);
}

const char *names_array_type(ir_pool *pool, names_list *l, const char *cname, const char *member, const ir_field *f)
{
    return declare(pool, l, ir_pool_printf(pool, "%s_%s_array", cname, member), "the array type of field", f->full_name, f->file, f->loc);
}

const char *names_tag_define(ir_pool *pool, names_list *l, const char *cname, const char *member, const ir_field *f)
{
    return declare(pool, l, ir_pool_printf(pool, "%s_%s_tag", cname, member), "the number macro of field", f->full_name, f->file, f->loc);
}

const char *names_enum_type(ir_pool *pool, names_list *l, const char *cname, const ir_enum *e)
{
    return declare(pool, l, cname, "enum", e->full_name, e->file, e->loc);
}

const char *names_enum_name_fn(ir_pool *pool, names_list *l, const char *cname, const ir_enum *e)
{
    return declare(pool, l, ir_pool_strcat(pool, cname, "_name"), "a function of enum", e->full_name, e->file, e->loc);
}

const char *names_enum_value(ir_pool *pool, names_list *l, const char *cname, const ir_enum_value *v, const ir_enum *e)
{
    return declare(pool, l, names_sanitize(pool, ir_pool_printf(pool, "%s_%s", cname, v->name)), "enum value", v->full_name, e->file, v->loc);
}

const char *names_enum_table(ir_pool *pool, names_list *l, const char *cname, const char *suffix, const ir_enum *e)
{
    return declare(pool, l, ir_pool_strcat(pool, cname, suffix), "the table of enum", e->full_name, e->file, e->loc);
}

const char *names_helper_field(ir_pool *pool, names_list *l, const char *cname, names_piece piece, const char *member, const ir_field *f)
{
    const char *name = ir_pool_printf(pool, "%s_%s%s%s", cname, pieces[piece].prefix, member, pieces[piece].suffix);
    return declare(pool, l, name, "a building helper of field", f->full_name, f->file, f->loc);
}

static const char *names_service(ir_pool *pool, names_list *l, const ir_service *s, const char *suffix)
{
    return declare(pool, l, ir_pool_strcat(pool, names_of_full_name(pool, s->full_name), suffix), "the table of service", s->full_name, s->file, s->loc);
}

const char *names_service_table(ir_pool *pool, names_list *l, const ir_service *s) { return names_service(pool, l, s, "_service"); }
const char *names_service_methods(ir_pool *pool, names_list *l, const ir_service *s) { return names_service(pool, l, s, "__methods"); }

/* ---- the check: one table for the run ---------------------------------------------------------- */

typedef struct check {
    symtab names;                /* C name -> names_decl */
    int clashes;
    const names_decl *last[2];   /* the two declarations last reported: their other names are not repeated */
} check;

static bool loc_before(ir_loc a, ir_loc b) { return a.line < b.line || (a.line == b.line && a.col < b.col); }

/* A name already taken by another declaration is reported at the later of the two. */
static void claim(check *t, const names_decl *o)
{
    const names_decl *first = symtab_put(&t->names, o->cname, strlen(o->cname), (void *)(uintptr_t)o);
    if (!first || (first->file == o->file && strcmp(first->full_name, o->full_name) == 0)) return;
    if (first->file == o->file && loc_before(o->loc, first->loc)) {     /* report where the later one is declared */
        const names_decl *later = first;
        first = o;
        o = later;
    }
    if (t->last[0] && strcmp(t->last[0]->full_name, first->full_name) == 0 && strcmp(t->last[1]->full_name, o->full_name) == 0)
        return;
    t->last[0] = first;
    t->last[1] = o;
    diag_error(o->file, o->loc, "C name \"%s\" of %s \"%s\" is also the C name of %s \"%s\" (declared at %s:%u:%u)",
               o->cname, o->what, o->full_name, first->what, first->full_name,
               first->file ? first->file->path : "?", first->loc.line, first->loc.col);
    t->clashes++;
}

int names_check(const names_list *const *lists, size_t n)
{
    check t = {0};
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += lists[i]->n;
    symtab_init_for(&t.names, total);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < lists[i]->n; j++) claim(&t, &lists[i]->v[j]);
    symtab_free(&t.names);
    return t.clashes;
}

const char *names_compare_fn(ir_pool *pool, names_list *l, const char *cname, const ir_message *m)
{
    return declare(pool, l, ir_pool_strcat(pool, cname, "_compare"), "a function of message", m->full_name, m->file, m->loc);
}

const char *names_enum_from_name_fn(ir_pool *pool, names_list *l, const char *cname, const ir_enum *e)
{
    return declare(pool, l, ir_pool_strcat(pool, cname, "_from_name"), "a function of enum", e->full_name, e->file, e->loc);
}
