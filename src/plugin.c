/* plugin.c: protoc plugin mode: a CodeGeneratorRequest through irdesc, resolve, options and emit to a CodeGeneratorResponse. */
#include "featureset.h"
#include "plugin.h"

#include <stdlib.h>
#include <string.h>

#include "google/protobuf/compiler/plugin.pb.h"
#include "context.h"
#include "diag.h"
#include "emit.h"
#include "irdesc.h"
#include "options.h"
#include "resolve.h"

typedef google_protobuf_compiler_CodeGeneratorRequest request;
typedef google_protobuf_compiler_CodeGeneratorResponse response;

bool plugin_mode(int argc, char **argv)
{
    const char *name = argc > 0 && argv[0] ? argv[0] : "";
    const char *slash = strrchr(name, '/');
    return !strcmp(slash ? slash + 1 : name, "protoc-gen-pbj") || (argc > 1 && !strcmp(argv[1], "--plugin-mode"));
}

/* Everything the stream holds, in memory from malloc (*len bytes); NULL when it cannot be read. */
static uint8_t *read_all(FILE *in, size_t *len)
{
    size_t cap = 1 << 16, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, in)) > 0) {
        n += got;
        if (n < cap) continue;
        uint8_t *bigger = realloc(buf, cap *= 2);
        if (!bigger) free(buf);
        buf = bigger;
    }
    if (buf && ferror(in)) { free(buf); buf = NULL; }
    *len = n;
    return buf;
}

static const char *const parameter_help =
    "the parameter is pbjc's options without their leading --, separated by commas, "
    "e.g. --pbj_out=views,performance=max:DIR or --pbj_opt=pbj.writers=true";

/* The request's parameter, "views,no-json,performance=max,pbj.writers=true", as the command line's
 * --views --no-json --performance=max --pbj pbj.writers=true (an item may keep its "--"). */
static void read_parameter(pbjc_context *ctx, const char *param)
{
    for (const char *p = param; *p; p += *p == ',') {
        size_t n = strcspn(p, ",");
        const char *item = ir_pool_strndup(&ctx->pool, p, n);
        p += n;
        if (!strncmp(item, "--", 2)) item += 2;         /* the command line's spelling is fine too */
        if (!*item) continue;
        char *flag = !strncmp(item, "pbj.", 4) ? ir_pool_printf(&ctx->pool, "--pbj=%s", item) : ir_pool_printf(&ctx->pool, "--%s", item);
        char *argv[] = { flag, NULL };
        int i = 0, r = options_parse_arg(ctx->project, 1, argv, &i);
        if (r == 0) diag_error_in(&ctx->diag, NULL, (ir_loc){ 0, 0 }, "unknown option '%s' in the plugin parameter \"%s\"%s (%s)", item, param,
                                  options_flag_suggestion(&ctx->pool, item), parameter_help);
    }
}

/* Every proto_file as IR, in the request's order (each after its imports); file_to_generate's are the inputs. */
static void build_program(ir_program *prog, const request *req)
{
    for (size_t i = 0; i < req->proto_file.count; i++) ir_pool_vec_push(prog->pool, &prog->files, irdesc_file(prog, &req->proto_file.data[i]));
    for (size_t i = 0; i < req->file_to_generate.count; i++) {
        pbj_slice name = req->file_to_generate.data[i];
        ir_file *f = NULL;
        for (size_t k = 0; k < prog->files.n && !f; k++)
            if (strlen(prog->files.v[k]->name) == name.len && !memcmp(prog->files.v[k]->name, name.data, name.len)) f = prog->files.v[k];
        if (!f) diag_error_in(prog->diag, NULL, (ir_loc){ 0, 0 }, "file_to_generate names %.*s, which no proto_file of the request describes",
                              (int)name.len, (const char *)name.data);
        else if (!f->is_input) {
            f->is_input = true;
            ir_pool_vec_push(prog->pool, &prog->inputs, f);
        }
    }
    if (prog->inputs.n == 0 && prog->diag->errors == 0)
        diag_error_in(prog->diag, NULL, (ir_loc){ 0, 0 }, "the CodeGeneratorRequest names no file to generate");
}

typedef struct outputs {
    response *resp;
    pbj_arena *arena;
    diag_counts *diag;
} outputs;

/* What pbjc generates, for protoc and buf to check before they send a file: proto3's optional, and editions
 * 2023 to 2026. */
static void announce_features(response *resp)
{
    google_protobuf_compiler_CodeGeneratorResponse_set_supported_features(
        resp, google_protobuf_compiler_CodeGeneratorResponse_Feature_FEATURE_PROTO3_OPTIONAL |
              google_protobuf_compiler_CodeGeneratorResponse_Feature_FEATURE_SUPPORTS_EDITIONS);
    google_protobuf_compiler_CodeGeneratorResponse_set_minimum_edition(resp, EDITION_2023);
    google_protobuf_compiler_CodeGeneratorResponse_set_maximum_edition(resp, EDITION_2026);
}

/* emit's sink: one more file of the response. */
static int add_file(void *ctx, const char *name, const char *text, size_t len)
{
    outputs *o = ctx;
    google_protobuf_compiler_CodeGeneratorResponse_File f;
    google_protobuf_compiler_CodeGeneratorResponse_File_init(&f);
    if (google_protobuf_compiler_CodeGeneratorResponse_File_set_name(&f, name, strlen(name), o->arena) == PBJ_OK &&
        google_protobuf_compiler_CodeGeneratorResponse_File_set_content(&f, text, len, o->arena) == PBJ_OK &&
        google_protobuf_compiler_CodeGeneratorResponse_add_file(o->resp, &f, o->arena) == PBJ_OK)
        return 0;
    diag_error_in(o->diag, NULL, (ir_loc){ 0, 0 }, "out of memory for %s", name);
    return 1;
}

/* The request on in, generated into resp; what goes wrong is reported through diag. */
static void generate(response *resp, FILE *in, pbjc_context *ctx, pbj_arena *arena)
{
    size_t len = 0;
    uint8_t *data = read_all(in, &len);
    request req;
    pbj_status st = data ? google_protobuf_compiler_CodeGeneratorRequest_decode(&req, data, len, arena, NULL) : PBJ_ERR_NOMEM;
    free(data);
    if (st != PBJ_OK) {
        diag_error_in(&ctx->diag, NULL, (ir_loc){ 0, 0 }, "standard input holds no CodeGeneratorRequest (%zu bytes: %s); "
                      "protoc-gen-pbj and pbjc --plugin-mode are run by protoc (--plugin=protoc-gen-pbj=PATH --pbj_out=DIR)",
                   len, pbj_status_str(st));
        return;
    }
    read_parameter(ctx, req.has_parameter ? ir_pool_strndup(&ctx->pool, (const char *)req.parameter.data, req.parameter.len) : "");
    ir_program prog = { 0 };
    context_program(ctx, &prog);
    if (ctx->diag.errors == 0) build_program(&prog, &req);
    if (ctx->diag.errors || resolve_loaded(&prog) != 0 || options_resolve(ctx->project, &prog) != 0) return;
    const plan_program *pp = plan_build(&prog, &ctx->pool);
    if (plan_check(pp) != 0) return;
    outputs o = { resp, arena, &ctx->diag };
    emit_program_to(pp, add_file, &o);
}

static int write_response(const response *resp, FILE *out)
{
    size_t need = google_protobuf_compiler_CodeGeneratorResponse_size(resp), len = 0;
    uint8_t *buf = malloc(need ? need : 1);
    bool ok = buf && google_protobuf_compiler_CodeGeneratorResponse_encode(resp, buf, need, &len) == PBJ_OK &&
              fwrite(buf, 1, len, out) == len && fflush(out) == 0;
    free(buf);
    if (!ok) fputs("pbjc: error: writing the CodeGeneratorResponse to standard output failed\n", stderr);
    return ok ? 0 : 1;
}

int plugin_run(FILE *in, FILE *out)
{
    pbjc_context ctx;
    context_begin(&ctx);
    char *said = NULL;                       /* the diagnostics: the response's error, or warnings for stderr */
    size_t said_len = 0;
    FILE *diag = open_memstream(&said, &said_len);
    diag_output(diag);
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    response resp;
    google_protobuf_compiler_CodeGeneratorResponse_init(&resp);
    generate(&resp, in, &ctx, &arena);
    diag_output(NULL);
    if (diag) fclose(diag);
    while (said_len && said[said_len - 1] == '\n') said_len--;
    if (ctx.diag.errors) {
        resp.file.count = 0;
        if (google_protobuf_compiler_CodeGeneratorResponse_set_error(&resp, said_len ? said : "pbjc failed", said_len ? said_len : 11, &arena) != PBJ_OK)
            fputs("pbjc: error: out of memory\n", stderr);
    } else if (said_len) {
        fprintf(stderr, "%.*s\n", (int)said_len, said);
    }
    announce_features(&resp);
    int status = write_response(&resp, out);
    free(said);
    pbj_arena_free(&arena);
    context_end(&ctx);
    return status;
}
