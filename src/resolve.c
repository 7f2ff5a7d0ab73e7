/* resolve.c: loads every file from the -I roots, then binds names and runs protoc's checks. */
#include "resolve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "parser.h"
#include "resolve_int.h"
#include "wkt.h"

/* ---- paths ---------------------------------------------------------------- */

/* protoc's CanonicalizePath: drop empty and "." components; "." becomes "". */
static char *canonical_path(ir_pool *pool, const char *p)
{
    size_t n = strlen(p);
    char *out = ir_pool_alloc(pool, n + 2), *o = out;
    if (p[0] == '/') *o++ = '/';
    for (const char *s = p; *s;) {
        size_t len = strcspn(s, "/");
        bool skip = len == 0 || (len == 1 && s[0] == '.');
        if (!skip) {
            if (o > out && o[-1] != '/') *o++ = '/';
            memcpy(o, s, len);
            o += len;
        }
        s += len;
        if (*s == '/') s++;
    }
    *o = '\0';
    return out;
}

static bool is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The disk path of virtual name under root ("" is the current directory). */
static const char *on_root(ir_pool *pool, const char *root, const char *name)
{
    const char *c = canonical_path(pool, root);
    return *c ? ir_pool_printf(pool, "%s%s%s", c, c[strlen(c) - 1] == '/' ? "" : "/", name) : name;
}

/* The first root holding name, as protoc's DiskSourceTree; NULL when none. */
static const char *find_on_roots(const ir_program *prog, const char *name)
{
    for (size_t i = 0; i < prog->roots.n; i++) {
        const char *disk = on_root(prog->pool, prog->roots.v[i], name);
        if (is_regular_file(disk)) return disk;
    }
    return NULL;
}

/* Whether name can be loaded: from its first root (*disk), else from pbjc's own copy (*disk NULL). */
static bool locate(const ir_program *prog, const char *name, const char **disk)
{
    size_t len;
    *disk = find_on_roots(prog, name);
    return *disk || wkt_find(name, &len);
}

/* The virtual name of disk path under root, or NULL when root is not its prefix. */
static const char *virtual_name(ir_pool *pool, const char *root, const char *path)
{
    const char *c = canonical_path(pool, root), *p = canonical_path(pool, path);
    if (!*c) return p[0] == '/' ? NULL : p;
    size_t n = strlen(c);
    if (c[n - 1] == '/') return strncmp(p, c, n) == 0 && p[n] ? p + n : NULL;
    return strncmp(p, c, n) == 0 && p[n] == '/' && p[n + 1] ? p + n + 1 : NULL;
}

static const char *roots_list(const ir_program *prog)
{
    const char *s = "";
    for (size_t i = 0; i < prog->roots.n; i++)
        s = ir_pool_printf(prog->pool, "%s%s%s", s, i ? ", " : "", prog->roots.v[i]);
    return s;
}

/* ---- loading ---------------------------------------------------------------- */

typedef struct loader {
    resolver *r;
    IR_VEC(ir_file *) stack;     /* the files being loaded, outermost first */
} loader;

static char *read_whole_file(ir_pool *pool, const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    size_t cap = 1 << 14, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, fp)) > 0;) {
        n += got;
        if (cap - n - 1 == 0) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) { free(buf); buf = NULL; }
            buf = bigger;
        }
    }
    bool failed = ferror(fp) != 0;
    fclose(fp);
    if (!buf || failed) { free(buf); return NULL; }
    char *text = ir_pool_strndup(pool, buf, n);    /* the pool owns it; NUL-terminated */
    free(buf);
    *len = n;
    return text;
}

/* Reported as protoc does: at the import in the first file of the cycle. */
static void report_cycle(loader *ld, const ir_file *importer, ir_loc loc, const ir_file *again)
{
    size_t from = 0;
    while (from < ld->stack.n && ld->stack.v[from] != again) from++;
    const char *chain = "";
    for (size_t i = from; i < ld->stack.n; i++) chain = ir_pool_printf(ld->r->pool, "%s%s -> ", chain, ld->stack.v[i]->name);
    if (from + 1 < ld->stack.n) {
        importer = ld->stack.v[from];
        for (size_t i = 0; i < importer->imports.n; i++)
            if (strcmp(importer->imports.v[i].name, ld->stack.v[from + 1]->name) == 0) loc = importer->imports.v[i].loc;
    }
    diag_error(importer, loc, "File recursively imports itself: %s%s", chain, again->name);
}

static ir_file *load_file(loader *ld, const char *name, const char *disk);

/* Each import, found on the roots in order (first match wins), loaded once. */
static void load_imports(loader *ld, ir_file *f)
{
    for (size_t i = 0; i < f->imports.n; i++) {
        ir_import *imp = &f->imports.v[i];
        bool twice = false;
        for (size_t j = 0; j < i; j++) twice |= strcmp(f->imports.v[j].name, imp->name) == 0;
        if (twice) {
            diag_error(f, imp->loc, "Import \"%s\" was listed twice.", imp->name);
            continue;
        }
        rfile *state = symtab_get(&ld->r->files, imp->name, strlen(imp->name));
        ir_file *dep = state ? state->file : NULL;
        if (state && state->load_state == 1) {
            report_cycle(ld, f, imp->loc, dep);
            continue;
        }
        if (!dep) {
            const char *disk;
            if (!locate(ld->r->prog, imp->name, &disk)) {
                diag_error(f, imp->loc, "Import \"%s\" was not found under any -I root.", imp->name);
                continue;
            }
            dep = load_file(ld, imp->name, disk);
        }
        imp->file = dep;
    }
}

/* Reads (from disk, or pbjc's own copy when disk is NULL) and parses one file, then its imports;
 * appends it to prog->files after them. */
static ir_file *load_file(loader *ld, const char *name, const char *disk)
{
    size_t len = 0;
    const char *text = disk ? read_whole_file(ld->r->pool, disk, &len) : wkt_find(name, &len);
    if (!text) {
        diag_error_at_in(ld->r->diag, disk, NULL, (ir_loc){0, 0}, "%s", strerror(errno ? errno : EIO));
        return NULL;
    }
    ir_file *f = parser_parse(ld->r->prog, name, disk, text, len);
    if (!f) return NULL;
    rfile *state = ir_pool_alloc(ld->r->pool, sizeof *state);
    state->file = f;
    state->load_state = 1;
    symtab_put(&ld->r->files, f->name, strlen(f->name), state);
    ir_pool_vec_push(ld->r->pool, &ld->stack, f);
    load_imports(ld, f);
    ld->stack.n--;
    state->load_state = 2;
    ir_pool_vec_push(ld->r->pool, &ld->r->prog->files, f);
    return f;
}

/* protoc's MakeProtoPathRelative: the virtual name of a command-line path, or NULL;
 * *disk is where it is read from (path itself, or the file a virtual name names). */
static const char *input_name(const ir_program *prog, const char *path, const char **disk)
{
    *disk = path;
    bool may_be_virtual = path[0] != '/' && !strstr(path, "..");   /* as protoc's ApplyMapping */
    if (!is_regular_file(path)) {
        if (may_be_virtual && locate(prog, canonical_path(prog->pool, path), disk)) return canonical_path(prog->pool, path);
        diag_error_at_in(prog->diag, path, NULL, (ir_loc){0, 0}, "No such file or directory");
        return NULL;
    }
    for (size_t i = 0; i < prog->roots.n; i++) {
        const char *name = virtual_name(prog->pool, prog->roots.v[i], path);
        if (!name) continue;
        for (size_t j = 0; j < i; j++) {
            if (is_regular_file(on_root(prog->pool, prog->roots.v[j], name))) {
                diag_error_at_in(prog->diag, path, NULL, (ir_loc){0, 0},
                              "Input is shadowed in the -I roots by \"%s\". Either use the "
                              "latter file as your input or reorder the roots so that the "
                              "former file's location comes first.",
                              on_root(prog->pool, prog->roots.v[j], name));
                return NULL;
            }
        }
        return name;
    }
    if (may_be_virtual && locate(prog, canonical_path(prog->pool, path), disk)) return canonical_path(prog->pool, path);
    diag_error_at_in(prog->diag, path, NULL, (ir_loc){0, 0},
                  "File does not reside within any path specified using -I/--proto_path. "
                  "The root must be an exact prefix of the file's path (roots: %s).",
                  roots_list(prog));
    return NULL;
}

static void load_inputs(resolver *r, const char *const *paths, size_t npaths)
{
    loader ld = {.r = r};
    for (size_t i = 0; i < npaths; i++) {
        const char *disk;
        const char *name = input_name(r->prog, paths[i], &disk);
        if (!name) continue;
        rfile *state = symtab_get(&r->files, name, strlen(name));
        ir_file *f = state ? state->file : load_file(&ld, name, disk);
        if (!f || f->is_input) continue;
        f->is_input = true;
        ir_pool_vec_push(r->pool, &r->prog->inputs, f);
    }
}

/* ---- visibility ------------------------------------------------------------ */

/* protoc's RecordPublicDependencies: dep and, transitively, what it imports publicly. */
static void add_dep(ir_pool *pool, rfile *state, ir_file *dep)
{
    if (!dep) return;
    for (size_t i = 0; i < state->deps.n; i++)
        if (state->deps.v[i] == dep) return;
    ir_pool_vec_push(pool, &state->deps, dep);
    for (size_t i = 0; i < dep->imports.n; i++)
        if (dep->imports.v[i].kind == IR_IMPORT_PUBLIC) add_dep(pool, state, dep->imports.v[i].file);
}

static bool has_public_import(const ir_file *f)
{
    for (size_t i = 0; i < f->imports.n; i++)
        if (f->imports.v[i].kind == IR_IMPORT_PUBLIC) return true;
    return false;
}

/* protoc's warning, for input files only, and not for public imports. */
static void warn_unused_imports(const ir_file *f)
{
    for (size_t i = 0; i < f->imports.n; i++) {
        const ir_import *imp = &f->imports.v[i];
        if (imp->used || !imp->file || imp->kind == IR_IMPORT_PUBLIC || has_public_import(imp->file))
            continue;
        diag_warning(f, imp->loc, "Import %s is unused.", imp->name);
    }
}

/* Everything after loading: visibility, then file by file names, defaults, options, features, checks. */
static int resolve_files(resolver *r, int errors_before)
{
    ir_program *prog = r->prog;
    for (size_t i = 0; i < prog->files.n; i++) {
        ir_file *f = prog->files.v[i];
        for (size_t j = 0; j < f->imports.n; j++) add_dep(r->pool, rf(r, f), f->imports.v[j].file);
    }
    for (size_t i = 0; i < prog->files.n; i++) {          /* file by file, as protoc builds them */
        ir_file *f = prog->files.v[i];
        int file_errors = r->diag->errors;
        names_declare_file(r, f);
        if (!f->parsed_ok) continue;
        names_begin_file(r, f);
        names_link_file(r, f);
        defaults_file(r, f);
        options_file(r, f);
        features_resolve_file(f);              /* and each field's packed */
        check_file(r, f);
        if (r->diag->errors == file_errors) style_check_file(r, f);   /* as protoc: only a file with no other error */
        if (f->is_input && r->diag->errors == 0) warn_unused_imports(f);
    }
    if (r->diag->errors == errors_before) resolve_interpret_options(prog);
    if (r->diag->errors == errors_before) resolve_check_declarations(prog);
    return r->diag->errors - errors_before;
}

static void resolver_init(resolver *r, ir_program *prog)
{
    *r = (resolver){.prog = prog, .pool = prog->pool, .diag = prog->diag};
    symtab_init(&r->files);
    symtab_init(&r->syms);
    symtab_init(&r->ext_numbers);
}

static int resolver_end(resolver *r, int errors)
{
    symtab_free(&r->files);
    symtab_free(&r->syms);
    symtab_free(&r->ext_numbers);
    return errors;
}

/* ---- the options schema -------------------------------------------------------- */

static int resolve_given(ir_program *prog, ir_program *schema);

/* src/proto's descriptor.proto, parsed and resolved on its own (its own options read against itself). */
static ir_program *options_schema(const resolver *r)
{
    ir_program *schema = ir_pool_alloc(r->pool, sizeof *schema);
    schema->pool = r->pool;
    schema->diag = r->diag;
    const char *name;
    size_t len;
    const char *text = wkt_options_schema(&name, &len);
    ir_file *f = parser_parse(schema, name, NULL, text, len);
    if (f) ir_pool_vec_push(r->pool, &schema->files, f);
    resolve_given(schema, schema);
    return schema;
}

const ir_message *resolve_options_message(resolver *r, std_scope scope)
{
    const char *full = ir_pool_printf(r->pool, "google.protobuf.%s", std_scope_message(scope));
    const sym *s = symtab_get(&r->syms, full, strlen(full));
    bool own = s && s->kind == SYM_MESSAGE && (s->file->path || r->schema == r->prog);
    if (own) return s->u.message;
    if (!r->schema) r->schema = options_schema(r);
    for (size_t i = 0; r->schema->files.n && i < r->schema->files.v[0]->messages.n; i++)
        if (strcmp(r->schema->files.v[0]->messages.v[i]->full_name, full) == 0) return r->schema->files.v[0]->messages.v[i];
    return NULL;
}

int resolve_program(ir_program *prog, const char *const *paths, size_t npaths)
{
    int errors_before = prog->diag->errors;
    resolver r;
    resolver_init(&r, prog);
    load_inputs(&r, paths, npaths);
    return resolver_end(&r, resolve_files(&r, errors_before));
}

/* resolve_loaded's work; standard options read against schema's options messages when it is not NULL. */
static int resolve_given(ir_program *prog, ir_program *schema)
{
    int errors_before = prog->diag->errors;
    resolver r;
    resolver_init(&r, prog);
    r.schema = schema;
    for (size_t i = 0; i < prog->files.n; i++) {
        ir_file *f = prog->files.v[i];
        if (symtab_get(&r.files, f->name, strlen(f->name))) {
            diag_error(f, (ir_loc){0, 0}, "the file is given twice");
            continue;
        }
        for (size_t j = 0; j < f->imports.n; j++) {       /* each import given before it */
            ir_import *imp = &f->imports.v[j];
            rfile *dep = symtab_get(&r.files, imp->name, strlen(imp->name));
            imp->used = true;                              /* protoc warned of unused imports already */
            if (dep) imp->file = dep->file;
            else diag_error(f, imp->loc, "Import \"%s\" was not given before the file that imports it.", imp->name);
        }
        rfile *state = ir_pool_alloc(r.pool, sizeof *state);
        state->file = f;
        state->load_state = 2;
        symtab_put(&r.files, f->name, strlen(f->name), state);
    }
    if (r.diag->errors != errors_before) return resolver_end(&r, r.diag->errors - errors_before);
    return resolver_end(&r, resolve_files(&r, errors_before));
}

int resolve_loaded(ir_program *prog)
{
    return resolve_given(prog, NULL);
}
