/* context.h: one run of the compiler: the pool its IR lives in, what its diagnostics counted, the project's pbj options. */
#ifndef PBJC_CONTEXT_H
#define PBJC_CONTEXT_H

#include "diag.h"
#include "ir.h"
#include "options.h"

/* Made by main.c (or a test) and passed down: an ir_program of the run carries its pool
 * and counts (context_program), and so does every ir_file made for it (ir_file_new);
 * project (which holds them too) goes to options_parse_arg and options_resolve;
 * the plan (plan_build) and emit take them from the program. No phase reaches
 * them any other way: there are no globals. */
typedef struct pbjc_context {
    ir_pool pool;
    diag_counts diag;
    options_project *project;
} pbjc_context;

/* Begin a run: an empty pool, no diagnostics, no project option set. */
void context_begin(pbjc_context *ctx);

/* prog's nodes and strings go to ctx's pool, its diagnostics to ctx's counts. */
void context_program(pbjc_context *ctx, ir_program *prog);

/* End it: every IR node and string of the run freed. */
void context_end(pbjc_context *ctx);

#endif
