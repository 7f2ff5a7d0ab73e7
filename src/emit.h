/* emit.h: write x.pb.h and x.pb.c for every input file (plan + templates). */
#ifndef PBJC_EMIT_H
#define PBJC_EMIT_H

#include "ir.h"
#include "plan.h"

/* The emit phase: for each of the plan's program's inputs, write OUT_DIR/<name without .proto>.pb.h and .pb.c,
 * keeping the directory structure below its root, creating directories, and leaving a file untouched when its
 * bytes did not change. The plan is the only input (plan_build, then plan_check without errors). Returns the
 * number of errors reported. */
int emit_program(const plan_program *pp, const char *out_dir);

/* emit_program's outputs handed to sink instead of written: name is the output's path below the
 * output directory ("a/b.pb.h"), text its bytes; sink returns the errors it reported. */
typedef int (*emit_sink)(void *ctx, const char *name, const char *text, size_t len);
int emit_program_to(const plan_program *pp, emit_sink sink, void *ctx);

/* The output paths emit_program writes for one input (for -M dependency output). */
char *emit_header_path(ir_pool *pool, const ir_file *f, const char *out_dir);
char *emit_source_path(ir_pool *pool, const ir_file *f, const char *out_dir);

#endif
