/* emit.c: PLACEHOLDER until code generation lands (owner: codegen helper). */
#include "emit.h"
int emit_program(const ir_program *prog, const char *out_dir) { (void)prog; (void)out_dir; return 1; }
char *emit_header_path(const ir_file *f, const char *out_dir) { return ir_printf("%s/%s.h", out_dir, f->name); }
char *emit_source_path(const ir_file *f, const char *out_dir) { return ir_printf("%s/%s.c", out_dir, f->name); }
