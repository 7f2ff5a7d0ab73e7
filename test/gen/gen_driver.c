/* gen_driver.c: resolve + options + emit without the command-line driver: gen_driver -o OUT_DIR [-I ROOT]... FILE... */
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "emit.h"
#include "options.h"
#include "resolve.h"

int main(int argc, char **argv)
{
    ir_program prog;
    const char *paths[4096];
    size_t n = 0;
    memset(&prog, 0, sizeof prog);
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-I") == 0 && i + 1 < argc) ir_vec_push(&prog.roots, (const char *)argv[++i]);
        else if (strncmp(argv[i], "-I", 2) == 0) ir_vec_push(&prog.roots, (const char *)argv[i] + 2);
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
        else if (n < sizeof paths / sizeof *paths) paths[n++] = argv[i];
    }
    if (!out || !n) {
        fprintf(stderr, "usage: gen_driver -o OUT_DIR [-I ROOT]... FILE...\n");
        return 2;
    }
    if (!prog.roots.n) ir_vec_push(&prog.roots, ".");
    if (resolve_program(&prog, paths, n) || options_resolve(&prog) || emit_program(&prog, out)) return 1;
    return diag_error_count() ? 1 : 0;
}
