/* context.c: a run's pool, diagnostic counts and project options, begun and ended together. */
#include "context.h"

void context_begin(pbjc_context *ctx)
{
    *ctx = (pbjc_context){ 0 };
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
    ctx->project = NULL;
}
