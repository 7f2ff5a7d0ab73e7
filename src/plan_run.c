/* plan_run.c: which input's .pb.c holds the run's one copy of the runtime, and which inputs' .pb.c share it. */
#include "plan.h"

#include <stdint.h>
#include <string.h>

#include "symtab.h"

/* Walks over a program's import graph: each file's position in pp->files, and the files the current walk reached. */
typedef struct import_walk {
    const plan_program *pp;
    symtab position;             /* file name -> its position in pp->files, plus one */
    unsigned *reached;           /* per position: the number of the last walk that reached the file */
    unsigned walk;               /* the current walk's number (0: none yet) */
    size_t *stack;               /* the files reached whose imports are still to be walked */
} import_walk;

static size_t position_of(const import_walk *w, const ir_file *f)
{
    return (size_t)(uintptr_t)symtab_get(&w->position, f->name, strlen(f->name)) - 1;
}

/* Marks every file f imports, directly or through others, reached by a new walk. An import for options only
 * does not count (f's object references nothing of it); an unused one does: whether an import is used is known
 * from a .proto, not from a plugin's descriptors, and both must write the same files. */
static void reach_imports(import_walk *w, const ir_file *f)
{
    size_t top = 0;
    w->walk++;
    for (;;) {
        for (size_t i = 0; i < f->imports.n; i++) {
            const ir_import *imp = &f->imports.v[i];
            if (imp->kind == IR_IMPORT_OPTION || !imp->file) continue;
            size_t k = position_of(w, imp->file);
            if (k >= w->pp->files.n || w->reached[k] == w->walk) continue;
            w->reached[k] = w->walk;
            w->stack[top++] = k;     /* each file at most once a walk: the stack never exceeds the files */
        }
        if (!top) return;
        f = w->pp->files.v[w->stack[--top]]->f;
    }
}

/* The position of the input the most other inputs import, directly or not (a program linking them links it for
 * its tables), the first of those in command-line order; files.n when no input imports another. */
static size_t most_imported(import_walk *w, size_t *importers)
{
    const ir_program *prog = w->pp->prog;
    for (size_t i = 0; i < prog->inputs.n; i++) {
        reach_imports(w, prog->inputs.v[i]);
        for (size_t k = 0; k < w->pp->files.n; k++) importers[k] += w->reached[k] == w->walk;
    }
    size_t best = w->pp->files.n, most = 0;
    for (size_t i = 0; i < prog->inputs.n; i++) {
        size_t k = position_of(w, prog->inputs.v[i]);
        if (importers[k] > most) most = importers[k], best = k;
    }
    return best;
}

/* Gives every input run_home when one input imports another: the home, the input the most import, holds the run's
 * one copy of the runtime and every other input's .pb.c shares it, one reaching nothing of the home too: a static
 * copy each cost such files most of their compile (HAPI's 33 of 182: a third of the size tier's gcc time). A program
 * linking one without the home fails at the link naming it: it links the home, or compiles the file with
 * PBJ__RUN_SHARED 0. A run of one file (CMake's and Meson's rules run pbjc a file at a time), or of inputs none of
 * which imports another (no input is linked for another's tables), keeps static copies. */
void plan_run_home(plan_program *pp)
{
    const ir_program *prog = pp->prog;
    size_t n = pp->files.n;
    if (prog->inputs.n < 2) return;
    import_walk w = {.pp = pp, .reached = ir_pool_alloc(pp->pool, n * sizeof *w.reached),
                     .stack = ir_pool_take(pp->pool, n * sizeof *w.stack)};
    symtab_init_for(&w.position, n);
    for (size_t k = 0; k < n; k++) symtab_put(&w.position, pp->files.v[k]->f->name, strlen(pp->files.v[k]->f->name), (void *)(uintptr_t)(k + 1));
    size_t home = most_imported(&w, ir_pool_alloc(pp->pool, n * sizeof(size_t)));
    for (size_t i = 0; home < n && i < prog->inputs.n; i++) pp->files.v[position_of(&w, prog->inputs.v[i])]->run_home = pp->files.v[home];
    symtab_free(&w.position);
}
