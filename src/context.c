/* context.c: a run's pool, diagnostic counts and project options, begun and ended together. */
#include "context.h"

void context_begin(pbjc_context *ctx)
{
    *ctx = (pbjc_context){ 0 };
    ir_use_pool(&ctx->pool);        /* the globals, for what does not take the run yet (context.h) */
    diag_use(&ctx->diag);
    ctx->project = options_project_new(&ctx->pool, &ctx->diag);
}

void context_program(pbjc_context *ctx, ir_program *prog)
{
    prog->pool = &ctx->pool;
    prog->diag = &ctx->diag;
}

void context_end(pbjc_context *ctx)
{
    ir_pool_free(&ctx->pool);
    ir_use_pool(NULL);
    diag_use(NULL);
    ctx->project = NULL;
}
