/* main.c: the command-line driver: flags, then the phases by name: resolve, options, plan (build and check), emit. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "context.h"
#include "descriptor.h"
#include "diag.h"
#include "emit.h"
#include "ir.h"
#include "options.h"
#include "plan.h"
#include "plugin.h"
#include "resolve.h"

#ifndef PBJC_VERSION
#define PBJC_VERSION "0.0.0"
#endif

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

typedef struct args {
    ir_program prog;
    ir_pool *pool;                        /* the run's (pbjc_context) */
    IR_VEC(const char *) inputs;
    IR_VEC(const char *) dep_targets;     /* -MT */
    const char *out_dir;                  /* -o */
    const char *descriptor_out;           /* --descriptor_set_out */
    const char *dep_file;                 /* -MF */
    unsigned set_flags;                   /* DESCRIPTOR_IMPORTS, DESCRIPTOR_SOURCE_INFO */
    bool check, explain, deps_only, deps_too;   /* -M, -MD */
} args;

static const char *const help_text =
    "usage: pbjc [OPTIONS] FILE.proto...\n"
    "Compile .proto files to C: FILE.pb.h and FILE.pb.c, for the header-only runtime pbj.h\n"
    "(compile them with `pkg-config --cflags pbj`).\n"
    "\n"
    "  -I DIR, -IDIR, --proto_path=DIR\n"
    "                          a root to find inputs and imports under (repeatable, searched\n"
    "                          in order; default \".\"; then the well-known types compiled\n"
    "                          into pbjc: google/protobuf/*.proto)\n"
    "  -o DIR, --out=DIR       write the generated .pb.h and .pb.c files under DIR\n"
    "  --check                 parse, resolve, check and plan as -o does (the same errors); write nothing\n"
    "  --descriptor_set_out=FILE\n"
    "                          write a google.protobuf.FileDescriptorSet of the inputs to FILE\n"
    "  --include_imports       with --descriptor_set_out: also every file the inputs import\n"
    "  --include_source_info   with --descriptor_set_out: also each file's SourceCodeInfo\n"

    "  -M                      print make dependencies of the outputs to stdout; write nothing else\n"
    "  -MD                     write make dependencies beside the outputs (OUTPUT.d) while compiling\n"
    "  -MF FILE                write the dependencies to FILE instead\n"
    "  -MT TARGET              name TARGET as the target of the dependencies (repeatable)\n"
    "  --explain-options       print each message's pbj options and where each value came from\n"
    "  --plugin-mode           be protoc's plugin (as protoc-gen-pbj is): a CodeGeneratorRequest on\n"
    "                          stdin, the CodeGeneratorResponse on stdout; no other argument\n"
    "  --version               print the version and exit\n"
    "  -h, --help              print this help and exit\n";

static void usage_error(const char *fmt, ...) DIAG_PRINTF(1, 2);
static void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pbjc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\n(pbjc --help lists the options)\n", stderr);
    va_end(ap);
    exit(EXIT_USAGE);
}

/* The value of a flag written "-X VALUE", "-XVALUE", "--flag=VALUE" or "--flag VALUE" (an empty one is
 * an error: -o "" would write at the file system's root); NULL when argv[*i] is not this flag. */
static const char *flag_value(int argc, char **argv, int *i, const char *flag, bool joined_ok)
{
    const char *a = argv[*i], *v = NULL;
    size_t n = strlen(flag);
    if (strncmp(a, flag, n) != 0) return NULL;
    if (a[n] == '\0') v = *i + 1 < argc ? argv[++*i] : "";
    else if (a[n] == '=' && flag[1] == '-') v = a + n + 1;
    else if (joined_ok) v = a + n;
    if (v && !*v) usage_error("%s needs a value", flag);
    return v;
}

static void parse_args(args *a, options_project *project, int argc, char **argv)
{
    bool inputs_only = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        if (inputs_only || arg[0] != '-' || arg[1] == '\0') { ir_pool_vec_push(a->pool, &a->inputs, arg); continue; }
        if (strcmp(arg, "--") == 0) inputs_only = true;
        else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(help_text, stdout);
            fputs("\npbj options for the whole project (see PBJ OPTIONS in pbjc(1)):\n", stdout);
            options_print_help(stdout);
            exit(0);
        } else if (strcmp(arg, "--version") == 0) {
            printf("pbjc %s\n", PBJC_VERSION);
            exit(0);
        } else if (strcmp(arg, "--check") == 0) a->check = true;
        else if (strcmp(arg, "--include_imports") == 0) a->set_flags |= DESCRIPTOR_IMPORTS;
        else if (strcmp(arg, "--include_source_info") == 0) {
            a->set_flags |= DESCRIPTOR_SOURCE_INFO;
            a->prog.keep_tokens = true;          /* what the SourceCodeInfo is made from */
        }
        else if (strcmp(arg, "--explain-options") == 0) a->explain = true;
        else if (strcmp(arg, "-M") == 0) a->deps_only = true;
        else if (strcmp(arg, "-MD") == 0) a->deps_too = true;
        else if ((v = flag_value(argc, argv, &i, "-MF", false))) a->dep_file = v;
        else if ((v = flag_value(argc, argv, &i, "-MT", false))) ir_pool_vec_push(a->pool, &a->dep_targets, v);
        else if ((v = flag_value(argc, argv, &i, "--proto_path", false)) ||
                 (v = flag_value(argc, argv, &i, "-I", true))) {
            if (access(v, F_OK) != 0)        /* protoc's words */
                fprintf(stderr, "%s: warning: directory does not exist.\n", v);
            ir_pool_vec_push(a->pool, &a->prog.roots, v);
        } else if ((v = flag_value(argc, argv, &i, "--out", false)) || (v = flag_value(argc, argv, &i, "-o", true)))
            a->out_dir = v;
        else if ((v = flag_value(argc, argv, &i, "--descriptor_set_out", false))) a->descriptor_out = v;
        else {
            int r = options_parse_arg(project, argc, argv, &i);
            if (r < 0) exit(EXIT_USAGE);
            if (r == 0) usage_error("unknown option '%s'%s", arg, options_flag_suggestion(a->pool, arg));
        }
    }
    if (a->inputs.n == 0) usage_error("%s", "no input files");
    if (!a->out_dir && !a->descriptor_out && !a->check && !a->explain)
        usage_error("%s", "nothing to do: give -o DIR, --descriptor_set_out=FILE, --check or --explain-options");
    if ((a->deps_only || a->deps_too || a->dep_file || a->dep_targets.n) && !a->out_dir && !a->descriptor_out)
        usage_error("%s", "-M, -MD, -MF and -MT need an output (-o DIR or --descriptor_set_out=FILE)");
    if (a->dep_targets.n && !a->deps_only && !a->deps_too && !a->dep_file)
        usage_error("%s", "-MT needs -M, -MD or -MF (the rules it names the target of)");
    if ((a->set_flags & DESCRIPTOR_IMPORTS) && !a->descriptor_out)
        usage_error("%s", "--include_imports needs --descriptor_set_out");
    if ((a->set_flags & DESCRIPTOR_SOURCE_INFO) && !a->descriptor_out)
        usage_error("%s", "--include_source_info needs --descriptor_set_out");
}

/* The roots: "." when none given (the well-known types come after them all: src/wkt.c). */
static void add_roots(ir_program *prog)
{
    if (prog->roots.n == 0) ir_pool_vec_push(prog->pool, &prog->roots, ".");
}

/* ---- make dependencies ---------------------------------------------------------- */

typedef IR_VEC(const ir_file *) file_list;

static void add_deps(ir_pool *pool, file_list *seen, const ir_file *f)
{
    for (size_t i = 0; i < seen->n; i++)
        if (seen->v[i] == f) return;
    ir_pool_vec_push(pool, seen, f);
    for (size_t i = 0; i < f->imports.n; i++)
        if (f->imports.v[i].file) add_deps(pool, seen, f->imports.v[i].file);
}

/* A path as make reads it: spaces escaped, '$' doubled. */
static void put_make_path(FILE *out, const char *p)
{
    for (; *p; p++) {
        if (*p == ' ' || *p == '#') fputc('\\', out);
        if (*p == '$') fputc('$', out);
        fputc(*p, out);
    }
}

/* "targets: deps" for the given inputs; targets from -MT when given. */
static void write_rule(FILE *out, const args *a, const char *const *targets, size_t ntargets,
                       const ir_file *const *inputs, size_t ninputs)
{
    file_list deps = { 0 };
    for (size_t i = 0; i < ninputs; i++) add_deps(a->pool, &deps, inputs[i]);
    if (a->dep_targets.n) { targets = a->dep_targets.v; ntargets = a->dep_targets.n; }
    for (size_t i = 0; i < ntargets; i++) {
        if (i) fputc(' ', out);
        put_make_path(out, targets[i]);
    }
    fputc(':', out);
    for (size_t i = 0; i < deps.n; i++) {
        if (!deps.v[i]->path) continue;             /* compiled into pbjc: nothing on disk to depend on */
        fputs(" \\\n  ", out);
        put_make_path(out, deps.v[i]->path);
    }
    fputc('\n', out);
}

/* The .d file beside an output: x.pb.c -> x.pb.d, FILE -> FILE.d. */
static const char *dep_file_for(ir_pool *pool, const char *output)
{
    size_t n = strlen(output);
    if (n > 2 && strcmp(output + n - 2, ".c") == 0) return ir_pool_printf(pool, "%.*s.d", (int)(n - 2), output);
    return ir_pool_strcat(pool, output, ".d");
}

/* One rule for outputs made from inputs, to out (or, when out is NULL, to the .d beside the last output). */
static int emit_rule(FILE *out, const args *a, const char *const *outputs, size_t noutputs,
                     const ir_file *const *inputs, size_t ninputs)
{
    FILE *f = out ? out : fopen(dep_file_for(a->pool, outputs[noutputs - 1]), "w");
    if (!f) {
        diag_error_in(a->prog.diag, NULL, (ir_loc){ 0, 0 }, "cannot write %s", dep_file_for(a->pool, outputs[noutputs - 1]));
        return 1;
    }
    write_rule(f, a, outputs, noutputs, inputs, ninputs);
    if (!out) fclose(f);
    return 0;
}

/* -M, -MD, -MF: with -o one rule per input (its .pb.h and .pb.c), else one for the descriptor set.
 * They go to stdout (-M), to -MF's file, or each beside its output (-MD). */
static int write_deps(const args *a)
{
    const ir_program *prog = &a->prog;
    FILE *out = a->dep_file ? fopen(a->dep_file, "w") : a->deps_only ? stdout : NULL;
    int err = 0;
    if (a->dep_file && !out) {
        diag_error_in(a->prog.diag, NULL, (ir_loc){ 0, 0 }, "cannot write %s", a->dep_file);
        return 1;
    }
    if (a->out_dir) {
        for (size_t i = 0; i < prog->inputs.n && !err; i++) {
            const ir_file *f = prog->inputs.v[i];
            const char *outs[2] = { emit_header_path(a->pool, f, a->out_dir), emit_source_path(a->pool, f, a->out_dir) };
            const ir_file *in[1] = { f };
            err = emit_rule(out, a, outs, 2, in, 1);
        }
    } else {
        err = emit_rule(out, a, &a->descriptor_out, 1, (const ir_file *const *)prog->inputs.v, prog->inputs.n);
    }
    if (out && out != stdout && fclose(out) != 0) err = 1;
    return err;
}

/* ---- the phases, in order; each returns the errors it reported -------------------------------- */

static int phase_resolve(args *a)
{
    return resolve_program(&a->prog, a->inputs.v, a->inputs.n) != 0 || a->prog.diag->errors ? 1 : 0;
}

static int phase_options(args *a, const pbjc_context *ctx)
{
    int errors = options_resolve(ctx->project, &a->prog);
    if (errors == 0 && a->explain) options_explain(&a->prog, stdout);
    return errors;
}

/* The plan, built and checked (NULL after errors): what -o generates, and what --check checks. */
static const plan_program *phase_plan(const args *a, pbjc_context *ctx)
{
    const plan_program *pp = plan_build(&a->prog, &ctx->pool);
    return plan_check(pp) == 0 ? pp : NULL;
}

/* The outputs asked for: the generated code, the descriptor set, the dependencies beside them. */
static int phase_emit(const args *a, const plan_program *pp)
{
    int errors = 0;
    if (a->out_dir && emit_program(pp, a->out_dir) != 0) errors++;
    if (a->descriptor_out && descriptor_write_set(&a->prog, a->set_flags, a->descriptor_out) != 0) errors++;
    if (errors == 0 && (a->deps_too || a->dep_file) && write_deps(a)) errors++;
    return errors;
}

/* resolve, options, then -M's dependencies only, or plan (when code is generated or checked) and emit (unless
 * --check, which writes nothing whatever else is asked). */
static int run_phases(args *a, pbjc_context *ctx)
{
    if (phase_resolve(a) || phase_options(a, ctx)) return EXIT_INPUT;
    if (a->deps_only) return write_deps(a) ? EXIT_INPUT : 0;
    const plan_program *pp = NULL;
    if ((a->out_dir || a->check) && !(pp = phase_plan(a, ctx))) return EXIT_INPUT;
    if (a->check) return 0;
    return phase_emit(a, pp) ? EXIT_INPUT : 0;
}

int main(int argc, char **argv)
{
    if (plugin_mode(argc, argv)) {
        if (argc > 2 || (argc == 2 && strcmp(argv[1], "--plugin-mode") != 0))
            usage_error("%s", "plugin mode takes no other argument: protoc passes the options (--pbj_out=OPTIONS:DIR)");
        return plugin_run(stdin, stdout);
    }
    pbjc_context ctx;
    context_begin(&ctx);
    args a = { .pool = &ctx.pool };
    context_program(&ctx, &a.prog);
    parse_args(&a, ctx.project, argc, argv);
    add_roots(&a.prog);
    int status = run_phases(&a, &ctx);
    fflush(stdout);
    if (ferror(stdout)) { fputs("pbjc: error: writing to standard output failed\n", stderr); status = EXIT_INPUT; }
    context_end(&ctx);
    return status;
}
