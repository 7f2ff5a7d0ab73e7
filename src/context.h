/* context.h: one run of the compiler: the pool its IR lives in, what its diagnostics counted, the project's pbj options. */
#ifndef PBJC_CONTEXT_H
#define PBJC_CONTEXT_H

#include "diag.h"
#include "ir.h"
#include "options.h"

/* Made by main.c (or a test) and passed down: the phases reach the pool and
 * the counts through ir_alloc and diag_error, which use the ones of the
 * context begun last; project goes to options_parse_arg and options_resolve. */
typedef struct pbjc_context {
    ir_pool pool;
    diag_counts diag;
    options_project *project;
} pbjc_context;

/* Begin a run: an empty pool, no diagnostics, no project option set. */
void context_begin(pbjc_context *ctx);

/* End it: every IR node and string of the run freed; the defaults in use again. */
void context_end(pbjc_context *ctx);

#endif
