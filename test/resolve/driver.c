/* driver.c: resolve_check, a stand-in for `pbjc --check` in the resolver's tests: -I roots, files, exit 1 on errors. */
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "ir.h"
#include "resolve.h"

int main(int argc, char **argv)
{
    ir_program prog = {0};
    IR_VEC(const char *) paths = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--check") == 0) continue;
        if (strcmp(a, "-I") == 0 && i + 1 < argc) ir_vec_push(&prog.roots, argv[++i]);
        else if (strncmp(a, "-I", 2) == 0) ir_vec_push(&prog.roots, a + 2);
        else if (strncmp(a, "--proto_path=", 13) == 0) ir_vec_push(&prog.roots, a + 13);
        else ir_vec_push(&paths, a);
    }
    if (prog.roots.n == 0) ir_vec_push(&prog.roots, ".");
    int errors = resolve_program(&prog, paths.v, paths.n);
    ir_free_all();
    return errors ? 1 : 0;
}
