/* replay_gen.c: writes C that replays a decoded struct through its generated writers, call by call, from pbjc's plan. */
#include <stdio.h>
#include <string.h>

#include "../../src/context.h"
#include "../../src/plan.h"
#include "../../src/resolve.h"

/*
 * usage: replay_gen [-I root]... OUT.c FILE.proto...
 *   Every message with writers (--writers: all of them) of the files gets
 *       static int replay_M(M_writer *w, M *m, replay_rng *r);
 *   which writes m field by field in number order, choosing at random (r) between equivalent calls
 *   (a child writer, _from or _raw for a message; add one by one or the whole array for packable
 *   fields; ending children explicitly or not). A message holding unknown fields or extensions goes
 *   whole through its parent's _from. With r->fault set, the fault-th call is followed by a probe call
 *   that must fail (a singular field again, or the field before): REPLAY_CAUGHT when it returned
 *   PBJ_ERR_ORDER and wrote nothing, REPLAY_MISSED otherwise. test/writers/replay.h declares the rest.
 * usage: replay_gen --produce [-I root]... OUT.c FILE.proto...
 *   Instead: static int produce_M(M_writer *w, const M *m), the plain sequence a producer writes (a child
 *   writer per message, ended explicitly; the whole array of a packable field; no choices, no probes), for
 *   structs without unknown fields or extensions (the bench's produce_writers).
 * usage: replay_gen --structs [-I root]... OUT.c FILE.proto...
 *   Instead: static void build_M(pbj_arena *arena, M *m, const M *b), which sets m field by field from b's
 *   values as a producer fills structs (arrays and messages from arena) for M_encode (produce_structs).
 */

static pbjc_context run;          /* this program's one run */
static FILE *out;
static bool plain;                /* --produce: produce_M, no choices */
static bool structs;              /* --structs: build_M */

/* The "zero" arguments of a call of pf's function f. */
static const char *zero_args(const plan_field *pf, const char *f)
{
    const plan_code *c = &pf->code;
    if (f == c->writer->raw) return "NULL, 0";
    if (f == c->writer->put) {
        const char *k = strcmp(c->writer->k_type, "pbj_slice") == 0 ? "pbj_slice_make(NULL, 0)" : "0";
        const char *v = strchr(c->writer->v_type, '*') ? "NULL" : strcmp(c->writer->v_type, "pbj_slice") == 0 ? "pbj_slice_make(NULL, 0)" : "0";
        return ir_pool_printf(&run.pool, "%s, %s", k, v);
    }
    return strchr(c->writer->params, ',') ? "NULL, 0" : "0";
}

/* A call of pf's function with "zero" arguments. */
static const char *zero_call(const plan_field *pf)
{
    const plan_code *c = &pf->code;
    const char *f = *c->writer->raw ? c->writer->raw : *c->writer->put ? c->writer->put : *c->writer->add ? c->writer->add : c->writer->set;
    return ir_pool_printf(&run.pool, "%s(w, %s)", f, zero_args(pf, f));
}

/* After a call of field pf: a call that cannot be valid, pf again when singular or the field before. */
static void probe(const plan_field *pf, const plan_field *before)
{
    bool again = !pf->repeated && pf->kind != PLAN_MAP;
    if (again && before) fprintf(out, "        PROBE(coin(r) ? %s : %s);\n", zero_call(pf), zero_call(before));
    else if (again || before) fprintf(out, "        PROBE(%s);\n", zero_call(again ? pf : before));
}

/* The statements writing message value e (an expression of type Sub *) of field pf: open, from or raw. */
static void message_call(const plan_field *pf, const char *e)
{
    const plan_code *c = &pf->code;
    if (plain) {
        fprintf(out, "        %s *c = %s(w);\n        CALL(produce_%s(c, %s));\n        CALL(%s_end(c));\n", c->writer->sub_type,
                c->writer->open, c->sub, e, c->writer->sub_type);
        return;
    }
    fprintf(out, "        %s *v = %s;\n", c->sub, e);
    fprintf(out, "        switch (pick(r, v == NULL, v && whole_%s(v))) {\n", c->sub);
    fprintf(out, "        case 0: {\n            %s *c = %s(w);\n", c->writer->sub_type, c->writer->open);
    fprintf(out, "            if (v && (st = replay_%s(c, v, r)) != 0) return st;\n", c->sub);
    fprintf(out, "            if (coin(r) || r->fault) CALL(%s_end(c));\n            break;\n        }\n", c->writer->sub_type);
    fprintf(out, "        case 1:\n            CALL(%s(w, v));\n            break;\n", c->writer->from);
    fprintf(out, "        default: {\n            size_t n = v ? %s(v) : 0;\n", c->subfn->size);
    fprintf(out, "            uint8_t *b = (uint8_t *)malloc(n + 1);\n            if (n) %s(v, b + n);\n", c->subfn->write);
    fprintf(out, "            st = %s(w, b, n);\n            free(b);\n            if (st) return st;\n", c->writer->raw);
    fprintf(out, "            break;\n        }\n        }\n");
}

/* The head of a field's statement: "if", or in a producer "else if" after another member of its oneof (one
 * case at most is written: as a producer writes a switch). */
static const char *field_if(const plan_message *pm, size_t i)
{
    const plan_field *pf = &pm->fields.v[i];
    return plain && pf->oneof && i && pm->fields.v[i - 1].oneof == pf->oneof ? "else if" : "if";
}

static void field_calls(const plan_message *pm, size_t i)
{
    const plan_field *pf = &pm->fields.v[i];
    const plan_code *c = &pf->code;
    const char *x = c->x;
    bool slice = strchr(c->writer->params, ',') != NULL;
    const char *one = slice ? ir_pool_printf(&run.pool, "%s.data, %s.len", x, x) : x;
    const char *e = ir_pool_printf(&run.pool, "%s.data[i]", x);
    const char *one_e = slice ? ir_pool_printf(&run.pool, "%s.data, %s.len", e, e) : e;
    switch (pf->shape) {
    case PLAN_SHAPE_SCALAR:
        fprintf(out, "    if (%s%s) {\n        CALL(%s(w, %s));\n", c->nonzero, plain ? "" : " || coin(r)", c->writer->set, one);
        break;
    case PLAN_SHAPE_OPTIONAL:
    case PLAN_SHAPE_WRAPPER:
        fprintf(out, "    if (m->%s) {\n        CALL(%s(w, %s));\n", c->has_member, c->writer->set, one);
        break;
    case PLAN_SHAPE_ONEOF:
        fprintf(out, "    %s (m->%s == %s) {\n        CALL(%s(w, %s));\n", field_if(pm, i), c->case_member, c->case_const, c->writer->set, one);
        break;
    case PLAN_SHAPE_PACKED:
    case PLAN_SHAPE_REPEATED:
        fprintf(out, "    if (%s.count) {\n        %sCALL(%s(w, %s.data, %s.count));\n", x, plain ? "" : "if (coin(r)) ", c->writer->set, x, x);
        if (!plain) fprintf(out, "        else for (size_t i = 0; i < %s.count; i++) CALL(%s(w, %s));\n", x, c->writer->add, e);
        break;
    case PLAN_SHAPE_SLICES:
        fprintf(out, "    if (%s.count) {\n        for (size_t i = 0; i < %s.count; i++) CALL(%s(w, %s));\n", x, x, c->writer->add, one_e);
        break;
    case PLAN_SHAPE_MESSAGE:
        fprintf(out, "    if (%s) {\n", x);
        message_call(pf, x);
        break;
    case PLAN_SHAPE_MESSAGE_ONEOF:
        fprintf(out, "    %s (m->%s == %s) {\n", field_if(pm, i), c->case_member, c->case_const);
        message_call(pf, x);
        break;
    case PLAN_SHAPE_MESSAGE_VALUE:   /* held by value (pbj.by_value) */
        fprintf(out, "    if (m->%s) {\n", c->has_member);
        message_call(pf, ir_pool_printf(&run.pool, "&%s", x));
        break;
    case PLAN_SHAPE_MESSAGES:
        if (plain) {                              /* the array read once, as a producer walks its own */
            fprintf(out, "    if (%s.count) {\n        const %s *a = %s.data;\n", x, c->sub, x);
            fprintf(out, "        for (size_t i = 0, n = %s.count; i < n; i++) {\n", x);
            e = "a[i]";
        } else {
            fprintf(out, "    if (%s.count) {\n        for (size_t i = 0; i < %s.count; i++) {\n", x, x);
        }
        message_call(pf, ir_pool_printf(&run.pool, "&%s", e));
        fprintf(out, "        }\n");
        break;
    case PLAN_SHAPE_MAP:
    case PLAN_SHAPE_MAP_MESSAGE:
    case PLAN_SHAPE_MAP_CLOSED:
        fprintf(out, "    if (%s.count) {\n        for (size_t i = 0; i < %s.count; i++) CALL(%s(w, %s.%s, %s.%s));\n",
                x, x, c->writer->put, e, c->writer->k_member, e, c->writer->v_member);
        break;
    default:
        return;
    }
    if (!plain) probe(pf, i ? &pm->fields.v[i - 1] : NULL);
    fprintf(out, "    }\n");
}

/* The statements setting field pf of m from b (build_M). */
static void build_field(const plan_field *pf)
{
    const plan_code *c = &pf->code;
    const char *x = c->x;
    char xb[512];   /* the member in b: x is "m->..." */
    snprintf(xb, sizeof xb, "b->%s", strncmp(x, "m->", 3) == 0 ? x + 3 : x);
    switch (pf->shape) {
    case PLAN_SHAPE_SCALAR:
        fprintf(out, "    %s = %s;\n", x, xb);
        break;
    case PLAN_SHAPE_OPTIONAL:
    case PLAN_SHAPE_WRAPPER:
        fprintf(out, "    if (b->%s) m->%s = 1, %s = %s;\n", c->has_member, c->has_member, x, xb);
        break;
    case PLAN_SHAPE_ONEOF:
        fprintf(out, "    if (b->%s == %s) m->%s = %s, %s = %s;\n", c->case_member, c->case_const, c->case_member, c->case_const, x, xb);
        break;
    case PLAN_SHAPE_MESSAGE_ONEOF:
    case PLAN_SHAPE_MESSAGE:
        if (pf->shape == PLAN_SHAPE_MESSAGE_ONEOF)
            fprintf(out, "    if (b->%s == %s) m->%s = %s;\n    if (b->%s == %s && %s) {\n", c->case_member, c->case_const,
                    c->case_member, c->case_const, c->case_member, c->case_const, xb);
        else
            fprintf(out, "    if (%s) {\n", xb);
        fprintf(out, "        %s = (%s *)pbj_arena_alloc(arena, sizeof *%s);\n", x, c->sub, x);
        fprintf(out, "        build_%s(arena, %s, %s);\n    }\n", c->sub, x, xb);
        break;
    case PLAN_SHAPE_MESSAGE_VALUE:
        fprintf(out, "    if (b->%s) m->%s = 1, build_%s(arena, &%s, &%s);\n", c->has_member, c->has_member, c->sub, x, xb);
        break;
    case PLAN_SHAPE_PACKED:
    case PLAN_SHAPE_REPEATED:
    case PLAN_SHAPE_SLICES:
    case PLAN_SHAPE_MESSAGES:
    case PLAN_SHAPE_MAP:
    case PLAN_SHAPE_MAP_MESSAGE:
    case PLAN_SHAPE_MAP_CLOSED:
        fprintf(out, "    if ((%s.count = %s.count) != 0) {\n", x, xb);
        fprintf(out, "        %s.data = pbj_arena_alloc(arena, %s.count * sizeof *%s.data);\n", x, x, x);
        if (pf->shape == PLAN_SHAPE_MESSAGES)
            fprintf(out, "        for (size_t i = 0; i < %s.count; i++) build_%s(arena, &%s.data[i], &%s.data[i]);\n", x, c->sub, x, xb);
        else
            fprintf(out, "        for (size_t i = 0; i < %s.count; i++) %s.data[i] = %s.data[i];\n", x, x, xb);
        fprintf(out, "    }\n");
        break;
    default:
        break;
    }
}

/* The head of m's function: replay_M, or produce_M (--produce), or build_M (--structs). */
static void fn_head(const plan_message *pm, const char *end)
{
    if (structs) fprintf(out, "static inline void build_%s(pbj_arena *arena, %s *m, const %s *b)%s", pm->cname, pm->cname, pm->cname, end);
    else if (plain) fprintf(out, "PBJ_WINLINE int produce_%s(%s *w, const %s *m)%s", pm->cname, pm->wn.type, pm->cname, end);
    else fprintf(out, "static inline int replay_%s(%s *w, %s *m, replay_rng *r)%s", pm->cname, pm->wn.type, pm->cname, end);
}

static void replay_fn(const plan_message *pm)
{
    if (structs) {
        fn_head(pm, ir_pool_printf(&run.pool, "\n{\n    (void)arena, (void)b;\n    %s(m);\n", pm->fn.init));
        for (size_t i = 0; i < pm->fields.n; i++) build_field(&pm->fields.v[i]);
        fprintf(out, "}\n\n");
        return;
    }
    fn_head(pm, "\n{\n    int st = 0;\n    (void)st, (void)w, (void)m;\n");
    if (!plain) fprintf(out, "    (void)r;\n");
    for (size_t i = 0; i < pm->fields.n; i++) field_calls(pm, i);
    fprintf(out, "    return 0;\n}\n\n");
}

/* Whether m must go whole (unknown fields or extensions: no field calls write them). */
static void whole_fn(const plan_message *pm)
{
    fprintf(out, "static inline bool whole_%s(const %s *m) { return m->pbj_unknown != NULL%s; }\n", pm->cname, pm->cname,
            pm->ext_ranges.n ? " || m->pbj_ext.len" : "");
}

int main(int argc, char **argv)
{
    context_begin(&run);
    ir_program prog = {0};
    context_program(&run, &prog);
    int i = 1;
    plain = argc > 1 && strcmp(argv[1], "--produce") == 0;
    structs = argc > 1 && strcmp(argv[1], "--structs") == 0;
    i += plain || structs;
    for (; i + 1 < argc && strcmp(argv[i], "-I") == 0; i += 2) ir_pool_vec_push(&run.pool, &prog.roots, argv[i + 1]);
    if (argc - i < 2) {
        fputs("usage: replay_gen [--produce | --structs] [-I root]... OUT.c FILE.proto...\n", stderr);
        return 2;
    }
    char name[] = "replay_gen", flag[] = "--writers";
    char *writers[] = {name, flag};
    int k = 1;
    options_parse_arg(run.project, 2, writers, &k);
    const char *path = argv[i++];
    IR_VEC(const char *) files = {0};
    for (int j = i; j < argc; j++) ir_pool_vec_push(&run.pool, &files, argv[j]);
    if (resolve_program(&prog, files.v, files.n) != 0 || options_resolve(run.project, &prog) != 0)
        return 1;
    plan_program *pp = plan_build(&prog, &run.pool);
    out = fopen(path, "w");
    if (!out) return 1;
    fprintf(out, "/* made by test/writers/replay_gen.c */\n");
    for (size_t f = 0; f < prog.inputs.n; f++) {
        const char *proto = prog.inputs.v[f]->name;
        fprintf(out, "#include \"%.*s.pb.h\"\n", (int)(strlen(proto) - 6), proto);
    }
    for (size_t f = 0; f < pp->files.n; f++)
        for (size_t j = 0; f < pp->files.n && pp->files.v[f]->f->is_input && j < pp->files.v[f]->messages.n; j++) {
            const plan_message *pm = pp->files.v[f]->messages.v[j];
            if (!pm->writers) continue;
            fn_head(pm, ";\n");
            if (!plain && !structs) whole_fn(pm);
        }
    for (size_t f = 0; f < pp->files.n; f++)
        for (size_t j = 0; pp->files.v[f]->f->is_input && j < pp->files.v[f]->messages.n; j++)
            if (pp->files.v[f]->messages.v[j]->writers) replay_fn(pp->files.v[f]->messages.v[j]);
    int err = fclose(out) != 0;
    context_end(&run);
    return err;
}
