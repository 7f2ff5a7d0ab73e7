/* emit.c: writes x.pb.h and x.pb.c for each input file from its plan, through the templates in gen-templates/. */
#include "emit.h"

#include <assert.h>
#include <errno.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "plan.h"
#include "symtab.h"
#include "textbuf.h"

#include "../rt/pbj.h"     /* PBJ_RUNTIME_VERSION: the runtime the generated code is made for */
#include "../rt/pbj_json.h"   /* PBJ_JSON_WKTS: the well-known types with a JSON form of their own */

/* ---- output text: lines indented to the column of the block being written ----------------------- */

typedef struct out_file out_file;

typedef struct tmpl_out {
    textbuf b;
    size_t indent;               /* spaces before each line */
    bool bol;                    /* at the beginning of a line */
    ir_pool *pool;               /* where finish keeps the text (the plan's) */
    out_file *file;              /* a whole output written as it grows (out_drain), or NULL: kept in b */
    size_t drained;              /* bytes already handed to file */
} tmpl_out;

/* An empty output whose text goes to pool. */
static tmpl_out out_in(ir_pool *pool) { return (tmpl_out){.bol = true, .pool = pool}; }

static void out_drain(tmpl_out *o);
#define OUT_DRAIN_AT ((size_t)1 << 20)   /* a file's output leaves memory a megabyte at a time */

/* s[0..n) with each line that begins in it and is not empty indented by o->indent spaces. */
static void put(tmpl_out *o, const char *s, size_t n)
{
    while (n) {
        const char *nl = memchr(s, '\n', n);
        size_t k = nl ? (size_t)(nl - s) + 1 : n, pad = o->bol && *s != '\n' ? o->indent : 0;
        char *at = textbuf_extend(&o->b, pad + k);
        if (pad) memset(at, ' ', pad);
        memcpy(at + pad, s, k);
        o->bol = nl != NULL;
        s += k;
        n -= k;
        if (o->file && o->b.len >= OUT_DRAIN_AT) out_drain(o);
    }
}

static void puts_(tmpl_out *o, const char *s) { put(o, s, strlen(s)); }

/* What templates.inc's functions call: literal text, a value in a line, a value as a block of lines. */
static void tmpl_text(tmpl_out *o, const char *s) { puts_(o, s); }

static void tmpl_str(tmpl_out *o, const char *s)
{
    assert(s && "a template variable plan or emit did not set");
    puts_(o, s);
}

static void tmpl_indent(tmpl_out *o, size_t n, int dir)
{
    if (dir > 0) o->indent += n;
    else o->indent -= n;
}

/* s as lines indented n more than the line the block stands on (nothing when s is empty). */
static void tmpl_block_text(tmpl_out *o, size_t n, const char *s)
{
    assert(s && "a template variable plan or emit did not set");
    size_t len = strlen(s);
    if (!len) return;
    tmpl_indent(o, n, +1);
    put(o, s, len);
    if (s[len - 1] != '\n') put(o, "\n", 1);
    tmpl_indent(o, n, -1);
}

typedef struct message_vars message_vars;
typedef struct fields fields;
typedef struct tmpl_lazy tmpl_lazy;
typedef void (*message_section)(tmpl_out *o, const message_vars *v);

/* A block written straight into the output when its template reaches it, instead of made into a string first (a
 * function's fields can be a hundred megabytes of text): each field's section of op (fs, op; or runs: s, ext,
 * reverse), or a message's section with v (then after, when given). */
struct tmpl_lazy {
    void (*write)(tmpl_out *o, const tmpl_lazy *l);
    const fields *fs;
    plan_op op;
    const char *s;                /* runs: "m" or "a" */
    message_section ext;          /* runs: the section of a run of extension ranges, or NULL */
    bool reverse;                 /* runs: last first */
    const message_vars *v;
    message_section section, after;
};

/* l's text as lines indented n more than the line the block stands on (nothing when it writes none, or is NULL). */
static void tmpl_block_lazy(tmpl_out *o, size_t n, const tmpl_lazy *l)
{
    if (!l) return;
    tmpl_indent(o, n, +1);
    size_t before = o->drained + o->b.len;
    l->write(o, l);
    if (o->drained + o->b.len != before && !o->bol) put(o, "\n", 1);
    tmpl_indent(o, n, -1);
}

/* A template's member path a.b reads tmpl_member(v->a).b (tmpl2c): a is a struct, or a pointer to one (the parts of a
 * field's variables that only some fields have). */
#define tmpl_member(a) \
    (*_Generic((a), const names_message *: (a), plan_view *: (a), plan_writer *: (a), plan_ext *: (a), default: &(a)))

/* A template's block variable: text, or a lazy block. */
#define tmpl_block(o, n, s) _Generic((s), const tmpl_lazy *: tmpl_block_lazy, default: tmpl_block_text)(o, n, s)
typedef struct file_vars file_vars;
typedef struct enum_vars enum_vars;

/* The variables of message.tmpl: a message's names and the blocks emit fills from field.tmpl. */
struct message_vars {
    const char *c, *full, *options, *doc, *typedefs, *arrays;
    names_message n;
    const char *oneof_cases, *members, *required, *accessors;                  /* header (members: a oneof's union) */
    const tmpl_lazy *field_members, *defines, *field_accessors;               /* header: the struct's, each field's */
    const char *defaults, *ext_size, *decode_other;   /* source */
    const tmpl_lazy *init_fields, *size, *decode, *decode_sort;   /* each field's */
    const char *api, *api_required;   /* PBJ_MESSAGE's variants (rt/pbj_table.h): "REQUIRED, TEXT_READ, JSON", ... */
    const char *api_functions;        /* PBJ_MESSAGE_FUNCTIONS, or its _REVERSE (fast_write) or _TABLE (the size tier) */
    const char *case_type, *none, *values, *name, *number, *oneof, *case_member, *s, *cases, *case_const, *body;
    const char *has, *lo, *hi, *numbers, *replace, *kind, *valid;   /* a known extension's kind and closed enum check (pbj__ext_field) */
    const char *reverse_decl, *rcheck, *margin, *rqual, *rname;   /* the reverse encoder (reverse.tmpl) */
    const tmpl_lazy *reverse, *rwrite, *rbody;
    const char *size_head, *size_enter, *size_decl;   /* M_size's head and first check (M__size's: types on a cycle) */
    const char *runknown;
    const char *unknown, *unknown_member, *unknown_len;   /* pbj_unknown, or none */
    const char *rparam, *rarg, *rtop, *renter, *rdeep;
    const char *rparams, *rmargin;   /* the reverse encoder's parameters after p, its margin */
    const tmpl_lazy *writer;         /* M__write, whole */
    names_view view;
    const char *ncases, *nslots, *scan, *scan_qual, *view_clear, *view_first, *view_depth, *view_check;
    const char *ext_member, *ext_note, *ext_in;                                /* views: the records of extension ranges */
    names_writer wn;                                                           /* writers */
    const char *wfields;
    const char *compare_fn;                                                    /* pbj.comparable (compare.tmpl) */
    const tmpl_lazy *hfields, *hsource;                                        /* building helpers */
    const char *wrequired, *wrequired_mask;
    const char *decode_protos, *decode_head, *decode_tail;                    /* decode: leaves inlined (max tier) */
    const char *decode_enter, *decode_leave;                                   /* decode: the depth count (none in a flat leaf) */
    const tmpl_lazy *size_fn, *decode_fn;                                      /* M_size, M__decode: code, or the table walked */
};

/* The variables of enum.tmpl and file.tmpl. */
struct enum_vars {
    const char *c, *full, *doc, *name_fn, *from_name_fn, *table, *first, *name, *number, *values;
};

struct file_vars {
    const char *proto, *version, *guard, *rtversion, *header, *title;
    const char *cxx_guard;     /* the include guard protoc's C++ header of the same .proto has */
    const char *shapes;        /* a size-tier file's PBJ_TW_SHAPES */
    const char *run, *home;    /* the run's one copy of the runtime: PBJ__RUN_SHARED, PBJ__RUN_HOME */
};

/* The variables of table.tmpl: a message's field table, one of its rows, the file's pool. */
typedef struct table_vars {
    plan_table t;
    plan_table_row r;
    plan_table_oneof o;
    plan_enum_table e;
    plan_enum_row v;
    const char *full;                                                   /* an enum's full name */
    const char *init, *init_fn, *fields, *oneofs, *rows, *oneof_rows, *ext_singular, *compare;   /* a table's pieces */
    const char *exts, *externs, *ext_rows, *ranges, *codec;             /* its extensions' rows, ranges, M__codec */
    const char *view, *view_raw;                                        /* its view's layout (PBJ_VIEW_LAYOUT) */
    const char *pool, *members, *lines, *line, *index, *size;         /* the pool, its pieces' members and text */
} table_vars;

#include "gen-templates/templates.inc"   /* $(B)/gen-templates, made by src/tools/tmpl2c */

typedef void (*field_section)(tmpl_out *o, const plan_code *v);

/* The text written to o, in its pool. */
static const char *finish(tmpl_out *o) { return textbuf_finish(&o->b, o->pool); }

static const char *expand_field(ir_pool *pool, field_section fn, const plan_code *v)
{
    tmpl_out o = out_in(pool);
    fn(&o, v);
    return finish(&o);
}

static const char *expand_message(ir_pool *pool, message_section fn, const message_vars *v)
{
    tmpl_out o = out_in(pool);
    fn(&o, v);
    return finish(&o);
}

/* gen of pm with a scratch pool for the text made on the way to its code (fields' variables, blocks filled in),
 * freed once that code is in o: what a run keeps is the plan and the output, not the steps. */
static void gen_scratch(tmpl_out *o, const plan_message *pm, void (*gen)(tmpl_out *o, const plan_message *pm))
{
    ir_pool *keep = o->pool;
    ir_pool scratch = {0};
    o->pool = &scratch;
    gen(o, pm);
    o->pool = keep;
    ir_pool_free(&scratch);
}

/* gen of every message of pf, each in its scratch pool. */
static void each_message(tmpl_out *o, const plan_file *pf, void (*gen)(tmpl_out *o, const plan_message *pm))
{
    for (size_t i = 0; i < pf->messages.n; i++) gen_scratch(o, pf->messages.v[i], gen);
}

/* each_message, the messages other messages hold by value (pbj.by_value: they hold no messages) first: a struct
 * holding one by value needs its type complete. */
static void each_message_ordered(tmpl_out *o, const plan_file *pf, void (*gen)(tmpl_out *o, const plan_message *pm))
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < pf->messages.n; i++)
            if (pf->messages.v[i]->by_value == !pass) gen_scratch(o, pf->messages.v[i], gen);
}

/* ---- field code: one section of field.tmpl per operation and shape ------------------------------- */

#define SHAPE_SECTION(S, s, v, op) [PLAN_SHAPE_##S] = tmpl_field_##op##_##s,
#define OP_ROW(O, op) [PLAN_OP_##O] = {PLAN_SHAPES(SHAPE_SECTION, op)},
static const field_section field_sections[PLAN_OP_COUNT][PLAN_SHAPE_COUNT] = {PLAN_OPS(OP_ROW)};
#undef OP_ROW
#undef SHAPE_SECTION

#define READ_SECTION(E, s) [PLAN_READ_##E] = tmpl_value_read_##s,
static const field_section read_sections[] = {PLAN_READS(READ_SECTION)};
#undef READ_SECTION
#define COUNT_SECTION(E, s) [PLAN_READ_##E] = tmpl_value_count_##s,
static const field_section count_sections[] = {PLAN_READS(COUNT_SECTION)};
#undef COUNT_SECTION
#define WIDTH_SECTIONS(E, s) [PLAN_WIDTH_##E] = {tmpl_value_payload_##s, tmpl_value_sizes_##s},
static const field_section width_sections[][2] = {PLAN_WIDTHS(WIDTH_SECTIONS)};
#undef WIDTH_SECTIONS
#define FRAMING_SECTIONS(E, s) [PLAN_FRAMING_##E] = tmpl_value_read_msg_##s,
static const field_section framing_sections[] = {PLAN_FRAMINGS(FRAMING_SECTIONS)};
#undef FRAMING_SECTIONS
/* The reverse encoder's message (by whether its type has one: written by its M__write when not), the same in M__write
 * (no room checks), and an empty message. */
enum { RFRAMING_FORWARD, RFRAMING_REVERSE, RFRAMING_UNCHECKED, RFRAMING_EMPTY };
#define RFRAMING_SECTIONS(E, s) [PLAN_FRAMING_##E] = {tmpl_field_rwrite_msg_##s##_forward, tmpl_field_rwrite_msg_##s##_reverse, \
                                                      tmpl_field_rwrite_msg_##s##_unchecked, tmpl_field_rwrite_empty_##s},
static const field_section rframing_sections[][4] = {PLAN_FRAMINGS(RFRAMING_SECTIONS)};
#undef RFRAMING_SECTIONS

#define WRITER_SECTION(S, s, v, a) [PLAN_SHAPE_##S] = tmpl_wfield_##v,
static const field_section writer_sections[PLAN_SHAPE_COUNT] = {PLAN_SHAPES(WRITER_SECTION, 0)};
#undef WRITER_SECTION

#define EXT_SECTION(S, s, op) [PLAN_EXT_##S] = tmpl_ext_##op##_##s,
#define EXT_OP_ROW(O, op) [PLAN_EXT_OP_##O] = {PLAN_EXT_SHAPES(EXT_SECTION, op)},
static const field_section ext_sections[PLAN_EXT_OP_COUNT][PLAN_EXT_COUNT] = {PLAN_EXT_OPS(EXT_OP_ROW)};
#undef EXT_OP_ROW
#undef EXT_SECTION

/* How a pass writes its fields' sections: with the plan's variables as they are, or with each field's pieces filled
 * in as it is written (value.tmpl's for size, decode and writers; the reverse encoder's framing for rwrite), in a
 * scratch pool of the field's own freed right after: a message's pass keeps no copy of its fields' variables. */
typedef enum fields_fill {
    FILL_NONE,       /* declarations, JSON, text, helpers, compare: no piece read */
    FILL_PIECES,     /* the functions' bodies: size, decode and writers' sections get their pieces */
    FILL_REVERSE,    /* the reverse encoder (M__write_reverse): room checks, inlined callees */
    FILL_UNCHECKED   /* M__write: the reverse encoder's sections without room checks */
} fields_fill;

/* One message's fields for a pass (v[i]: field i's variables); the text made from them goes to pool. */
struct fields {
    const plan_message *pm;
    const plan_code **v;
    ir_pool *pool;
    fields_fill fill;
};

/* The size sections' pieces of field i: its elements' sizes, and the check of a type reaching a cycle. */
static void fill_size(ir_pool *pool, const plan_field *pf, plan_code *v)
{
    v->payload = expand_field(pool, width_sections[pf->width][0], v);
    v->sizes = expand_field(pool, width_sections[pf->width][1], v);
    v->size_deep = pf->sub_deep ? expand_field(pool, tmpl_field_size_deep, v) : "";
}

/* The decode sections' pieces of field i of pm: its reads (from end, and from pe inside a packed run), a message's
 * read, and the jump to the tag expected next (itself again, the next field). */
static void fill_decode(ir_pool *pool, const plan_message *pm, size_t i, plan_code *v)
{
    const plan_field *pf = &pm->fields.v[i];
    v->end = "end";
    v->read = expand_field(pool, read_sections[pf->read], v);
    bool packable = pf->shape == PLAN_SHAPE_PACKED || pf->shape == PLAN_SHAPE_REPEATED;   /* read_packed's pieces */
    v->end = "pe";
    v->read_pe = packable ? expand_field(pool, read_sections[pf->read], v) : "";
    v->packed_count = packable ? expand_field(pool, count_sections[pf->read], v) : "";
    v->read_msg = pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP ? expand_field(pool, framing_sections[pf->framing], v) : "";
    tmpl_out predict = out_in(pool);
    if (pf->predict_self) tmpl_field_predict(&predict, &pf->code);
    if (i + 1 < pm->fields.n) tmpl_field_predict(&predict, &pm->fields.v[i + 1].code);
    v->wire.predict = finish(&predict);
}

/* The reverse encoder's pieces of field pf of pm: a message's framing and callee (its type's reverse encoder, inlined
 * when plan says so; or, without fast_write, sized and written forward), an empty one, an element's room check, a
 * wrapper's unknown fields. */
static void fill_reverse(ir_pool *pool, const plan_field *pf, plan_code *v)
{
    v->reverse.callee = pf->sub_inlined ? v->subfn->write_reverse_inline : v->subfn->write_reverse_body;
    v->reverse.room_e = expand_field(pool, tmpl_field_rwrite_room_e, v);
    v->reverse.wrapper_unknown = pf->kind == PLAN_WRAPPER ? expand_field(pool, tmpl_field_rwrite_wrapper_unknown, v) : "";
    if (pf->kind != PLAN_MESSAGE && pf->kind != PLAN_MAP) return;
    v->reverse.forward = pf->sub_reverse ? "" : expand_field(pool, tmpl_field_rwrite_forward, v);
    v->reverse.rbound = ir_pool_printf(pool, "%d", pf->rbound);
    v->reverse.exact = "NULL";   /* an expression: the section's text but its newline */
    if (pf->sub_reverse && !pf->group && !pf->sub_recursive) {
        const char *e = expand_field(pool, pf->by_value ? tmpl_field_rwrite_exact_value : tmpl_field_rwrite_exact, v);
        v->reverse.exact = ir_pool_strndup(pool, e, strcspn(e, "\n"));
    }
    v->reverse.msg = expand_field(pool, rframing_sections[pf->framing][pf->sub_reverse ? RFRAMING_REVERSE : RFRAMING_FORWARD], v);
    v->reverse.empty = expand_field(pool, rframing_sections[pf->framing][RFRAMING_EMPTY], v);
}

/* The same for M__write (pm's): no room checks, the callee its type's M__write (inlined with the reverse encoder). */
static void fill_unchecked(ir_pool *pool, const plan_message *pm, const plan_field *pf, plan_code *v)
{
    v->reverse.room = v->reverse.room_e = "";
    v->reverse.wrapper_unknown = pf->kind == PLAN_WRAPPER ? expand_field(pool, tmpl_field_rwrite_wrapper_unknown_unchecked, v) : "";
    if (pf->kind != PLAN_MESSAGE && pf->kind != PLAN_MAP) return;
    v->reverse.forward = pf->sub_reverse ? "" : expand_field(pool, tmpl_field_rwrite_forward, v);
    v->reverse.empty = expand_field(pool, rframing_sections[pf->framing][RFRAMING_EMPTY], v);
    v->reverse.callee = pm->fast_write && pf->sub_inlined ? v->subfn->write_inline : v->subfn->write;
    v->reverse.msg = expand_field(pool, rframing_sections[pf->framing][RFRAMING_UNCHECKED], v);
}

/* Whether the size section of shape reads a piece (a packed run's payload, elements' sizes, a cycle's check). */
static bool size_pieces(plan_shape shape)
{
    return shape != PLAN_SHAPE_SCALAR && shape != PLAN_SHAPE_OPTIONAL && shape != PLAN_SHAPE_ALWAYS &&
           shape != PLAN_SHAPE_ONEOF && shape != PLAN_SHAPE_WRAPPER;
}

/* section (of op, or a writer's when op is PLAN_OP_COUNT) of field i, written to o with the pieces fs fills. */
static void put_section(tmpl_out *o, const fields *fs, plan_op op, field_section section, size_t i)
{
    bool sized = op != PLAN_OP_SIZE || size_pieces(fs->pm->fields.v[i].shape);
    bool pieces = fs->fill == FILL_PIECES && sized && (op == PLAN_OP_SIZE || op == PLAN_OP_DECODE || op == PLAN_OP_COUNT);
    bool reverse = (fs->fill == FILL_REVERSE || fs->fill == FILL_UNCHECKED) && op == PLAN_OP_RWRITE;
    if (!pieces && !reverse) {
        section(o, fs->v[i]);
        return;
    }
    const plan_field *pf = &fs->pm->fields.v[i];
    ir_pool scratch = {0};
    plan_code v = *fs->v[i];
    if (op == PLAN_OP_DECODE) fill_decode(&scratch, fs->pm, i, &v);
    else if (op == PLAN_OP_SIZE) fill_size(&scratch, pf, &v);
    else if (op == PLAN_OP_COUNT) v.payload = expand_field(&scratch, width_sections[pf->width][0], &v);
    else if (fs->fill == FILL_REVERSE) fill_reverse(&scratch, pf, &v);
    else fill_unchecked(&scratch, fs->pm, pf, &v);
    section(o, &v);
    ir_pool_free(&scratch);
}

/* A pass over pm's fields filling fill's pieces; its fields' text goes to pool. */
static fields *fields_for(ir_pool *pool, const plan_message *pm, fields_fill fill)
{
    fields *fs = ir_pool_alloc(pool, sizeof *fs);
    *fs = (fields){pm, ir_pool_alloc(pool, (pm->fields.n + 1) * sizeof *fs->v), pool, fill};
    for (size_t i = 0; i < pm->fields.n; i++) fs->v[i] = &pm->fields.v[i].code;
    return fs;
}

/* op of field i, written to o. */
static void put_field(tmpl_out *o, const fields *fs, plan_op op, size_t i)
{
    put_section(o, fs, op, field_sections[op][fs->pm->fields.v[i].shape], i);
}

static const char *field_code(const fields *fs, plan_op op, size_t i)
{
    tmpl_out o = out_in(fs->pool);
    put_field(&o, fs, op, i);
    return finish(&o);
}

/* ---- blocks written where the template reaches them (tmpl_lazy) ------------------------------------------ */

static void write_each_field(tmpl_out *o, const tmpl_lazy *l)
{
    for (size_t i = 0; i < l->fs->pm->fields.n; i++) put_field(o, l->fs, l->op, i);
}

/* op of every field, in number order, when the template reaches it. */
static const tmpl_lazy *lazy_each_field(const fields *fs, plan_op op)
{
    tmpl_lazy *l = ir_pool_alloc(fs->pool, sizeof *l);
    *l = (tmpl_lazy){.write = write_each_field, .fs = fs, .op = op};
    return l;
}

/* What write writes of fs's fields, when the template reaches it. */
static const tmpl_lazy *lazy_write(const fields *fs, void (*write)(tmpl_out *o, const tmpl_lazy *l))
{
    tmpl_lazy *l = ir_pool_alloc(fs->pool, sizeof *l);
    *l = (tmpl_lazy){.write = write, .fs = fs};
    return l;
}

/* A run of a message's code: a field (with the members of its oneof after it), or extension ranges [lo, hi]. */
typedef struct run {
    size_t i;
    bool ext;
    uint32_t lo, hi;
} run;

/* The extension ranges before number (from range r on) as one run at runs[*n] (when ext is given); returns the
 * next range. */
static size_t ext_before(const plan_message *pm, message_section ext, size_t r, int64_t number, run *runs, size_t *n)
{
    if (!ext || r >= pm->ext_ranges.n || pm->ext_ranges.v[r].start > number) return r;
    uint32_t lo = (uint32_t)pm->ext_ranges.v[r].start, hi = (uint32_t)pm->ext_ranges.v[r].end;
    for (r++; r < pm->ext_ranges.n && pm->ext_ranges.v[r].start < number; r++) hi = (uint32_t)pm->ext_ranges.v[r].end;
    runs[(*n)++] = (run){.ext = true, .lo = lo, .hi = hi};
    return r;
}

/* The members of one oneof from field i on as the cases of a switch on its case (s: "m" or "a"); returns the
 * field after them. */
static size_t oneof_run(tmpl_out *o, const fields *fs, plan_op op, message_vars *mv, size_t i)
{
    const plan_message *pm = fs->pm;
    const plan_oneof *po = pm->fields.v[i].oneof;
    tmpl_out cases = out_in(fs->pool);
    for (; i < pm->fields.n && pm->fields.v[i].oneof == po; i++) {
        message_vars cv = {.case_const = fs->v[i]->case_const, .body = field_code(fs, op, i)};
        tmpl_message_oneof_run_case(&cases, &cv);
    }
    mv->case_member = po->case_member;
    mv->cases = finish(&cases);
    tmpl_message_oneof_run(o, mv);
    return i;
}

static void write_run(tmpl_out *o, const tmpl_lazy *l, message_vars *mv, const run *ru)
{
    if (ru->ext) {
        mv->lo = ir_pool_printf(o->pool, "%u", ru->lo);
        mv->hi = ir_pool_printf(o->pool, "%u", ru->hi);
        l->ext(o, mv);
    } else if (l->fs->pm->fields.v[ru->i].oneof) oneof_run(o, l->fs, l->op, mv, ru->i);
    else put_field(o, l->fs, l->op, ru->i);
}

/* op of every field in number order (reverse: last field first); adjacent members of one oneof share a switch on
 * its case (s: "m" or "a"); ext, when given, writes each run of extension ranges at its place among the fields. */
static void write_runs(tmpl_out *o, const tmpl_lazy *l)
{
    const plan_message *pm = l->fs->pm;
    message_vars mv = {.s = l->s, .n = pm->fn};
    run *runs = malloc((pm->fields.n + pm->ext_ranges.n + 1) * sizeof *runs);
    if (!runs) abort();
    size_t n = 0, r = 0;
    for (size_t i = 0; i < pm->fields.n;) {
        const plan_oneof *po = pm->fields.v[i].oneof;
        r = ext_before(pm, l->ext, r, pm->fields.v[i].number, runs, &n);
        runs[n++] = (run){.i = i};
        for (i++; po && i < pm->fields.n && pm->fields.v[i].oneof == po;) i++;
    }
    ext_before(pm, l->ext, r, INT64_MAX, runs, &n);
    for (size_t k = 0; k < n; k++) write_run(o, l, &mv, &runs[l->reverse ? n - 1 - k : k]);
    free(runs);
}

static const tmpl_lazy *lazy_runs(const fields *fs, plan_op op, const char *s, message_section ext, bool reverse)
{
    tmpl_lazy *l = ir_pool_alloc(fs->pool, sizeof *l);
    *l = (tmpl_lazy){.write = write_runs, .fs = fs, .op = op, .s = s, .ext = ext, .reverse = reverse};
    return l;
}

/* v: extension x's variables, with its record (ext.tmpl's record section: a piece) made into e, a copy of its ext. */
static void ext_with_record(ir_pool *pool, const plan_field *x, plan_code *v, plan_ext *e)
{
    *v = x->code;
    *e = *x->code.ext;
    v->ext = e;
    e->record = expand_field(pool, ext_sections[PLAN_EXT_OP_RECORD][x->ext_shape], v);
}

/* ---- messages ------------------------------------------------------------------------------------- */

static message_vars message_vars_of(const plan_message *pm)
{
    return (message_vars){.c = pm->cname, .full = pm->m->full_name, .options = pm->options_text, .doc = pm->doc,
                          .n = pm->fn, .rparam = pm->recursive ? ", uint32_t depth" : "",
                          .rarg = pm->recursive ? ", depth" : "", .rtop = pm->recursive ? ", PBJ_MAX_ENCODE_DEPTH" : "",
                          .rparams = pm->recursive ? ", uintptr_t lim, uint32_t depth" : ", uintptr_t lim"};
}

/* The struct's members: has-bits, then the fields (a oneof's members in a union where its first is). */
static void write_struct_members(tmpl_out *o, const tmpl_lazy *l)
{
    const fields *fs = l->fs;
    const plan_message *pm = fs->pm;
    for (size_t i = 0; i < pm->fields.n; i++)
        if (pm->fields.v[i].has_member) tmpl_message_has_member(o, &(message_vars){.has = pm->fields.v[i].has_member});
    for (size_t i = 0; i < pm->fields.n; i++) {
        const plan_oneof *po = pm->fields.v[i].oneof;
        if (!po) {
            put_field(o, fs, PLAN_OP_MEMBER, i);
            continue;
        }
        if (po->fields.v[0] != &pm->fields.v[i]) continue;     /* the union sits where its first member is */
        tmpl_out members = out_in(fs->pool);
        for (size_t k = 0; k < po->fields.n; k++) put_field(&members, fs, PLAN_OP_MEMBER, (size_t)(po->fields.v[k] - pm->fields.v));
        tmpl_message_oneof_union(o, &(message_vars){.case_type = po->case_type, .case_member = po->case_member,
                                                    .oneof = po->member, .members = finish(&members)});
    }
    if (pm->ext_ranges.n) tmpl_message_ext_member(o, &(message_vars){0});
}

static const char *oneof_cases(ir_pool *pool, const plan_message *pm)
{
    tmpl_out o = out_in(pool);
    for (size_t i = 0; i < pm->oneofs.n; i++) {
        const plan_oneof *po = pm->oneofs.v[i];
        tmpl_out values = out_in(pool);
        for (size_t j = 0; j < po->fields.n; j++)
            tmpl_message_oneof_case_value(&values, &(message_vars){.name = po->fields.v[j]->code.case_const,
                                                                   .number = po->fields.v[j]->code.number});
        tmpl_message_oneof_case(&o, &(message_vars){.case_type = po->case_type, .none = po->none_const,
                                                    .values = finish(&values)});
    }
    return finish(&o);
}

/* ---- field tables (table.tmpl): the file's pool, then one table each ---------------------------------- */

static const char *expand_table(ir_pool *pool, void (*fn)(tmpl_out *, const table_vars *), const table_vars *v)
{
    tmpl_out o = out_in(pool);
    fn(&o, v);
    return finish(&o);
}

static void gen_table(tmpl_out *o, const plan_message *pm)
{
    ir_pool *pool = o->pool;
    table_vars v = {.t = pm->table, .init = pm->fn.init};
    tmpl_out rows = out_in(pool), oneofs = out_in(pool);
    for (size_t i = 0; i < v.t.rows.n; i++) tmpl_table_row(&rows, &(table_vars){.r = v.t.rows.v[i]});
    for (size_t k = 0; k < v.t.oneof_rows.n; k++) tmpl_table_oneof_row(&oneofs, &(table_vars){.t = v.t, .o = v.t.oneof_rows.v[k]});
    v.rows = finish(&rows);
    v.oneof_rows = finish(&oneofs);
    v.init_fn = *v.t.init_fn ? expand_table(pool, tmpl_table_init_fn, &v) : "";
    v.fields = v.t.rows.n ? expand_table(pool, tmpl_table_fields, &v) : "";
    v.oneofs = v.t.oneof_rows.n ? expand_table(pool, tmpl_table_oneofs, &v) : "";
    v.ext_singular = *v.t.ext_numbers ? expand_table(pool, tmpl_table_ext_singular, &v) : "";
    v.compare = *v.t.compare_keys ? expand_table(pool, tmpl_table_compare, &v) : "";
    tmpl_out exts = out_in(pool), externs = out_in(pool);
    for (size_t i = 0; i < v.t.ext_rows.n; i++) tmpl_table_row(&exts, &(table_vars){.r = v.t.ext_rows.v[i]});
    for (size_t i = 0; i < v.t.ext_externs.n; i++) puts_(&externs, ir_pool_printf(pool, "%s\n", v.t.ext_externs.v[i]));
    v.ext_rows = finish(&exts);
    v.externs = finish(&externs);
    v.exts = v.t.ext_rows.n ? expand_table(pool, tmpl_table_exts, &v) : "";
    v.ranges = *v.t.ranges ? expand_table(pool, tmpl_table_ranges, &v) : "";
    v.codec = pm->fn.codec;
    v.view_raw = *v.t.view_raw_tags ? expand_table(pool, tmpl_table_view_raw, &v) : "";
    v.view = *v.t.view_layout ? expand_table(pool, tmpl_table_view, &v) : "";
    tmpl_table_source(o, &v);
}

static void gen_enum_table(tmpl_out *o, const plan_enum *pe)
{
    tmpl_out rows = out_in(o->pool);
    for (size_t i = 0; i < pe->table.rows.n; i++) tmpl_table_enum_row(&rows, &(table_vars){.v = pe->table.rows.v[i]});
    tmpl_table_enum_source(o, &(table_vars){.e = pe->table, .full = pe->e->full_name, .rows = finish(&rows)});
}

static void gen_tables(tmpl_out *o, const plan_file *pf)
{
    if (!pf->messages.n && !pf->enums.n) return;
    tmpl_out members = out_in(o->pool), lines = out_in(o->pool);
    for (size_t i = 0; i < pf->table_pool_chunks.n; i++) {
        const plan_pool_chunk *c = &pf->table_pool_chunks.v[i];
        tmpl_table_pool_member(&members, &(table_vars){.index = ir_pool_printf(o->pool, "%zu", i), .size = c->size});
        tmpl_table_pool_line(&lines, &(table_vars){.line = c->text});
    }
    tmpl_table_pool(o, &(table_vars){.pool = pf->table_pool, .members = finish(&members), .lines = finish(&lines)});
    for (size_t i = 0; i < pf->enums.n; i++) gen_enum_table(o, pf->enums.v[i]);
    each_message(o, pf, gen_table);
}

/* Whether a has the text "%s%s%s" of b, c and d. */
static bool spelled(const char *a, const char *b, const char *c, const char *d)
{
    size_t nb = strlen(b), nc = strlen(c);
    return strncmp(a, b, nb) == 0 && strncmp(a + nb, c, nc) == 0 && strcmp(a + nb + nc, d) == 0;
}

/* Whether field c's member is spelled as rt/pbj_build.h's PBJ_FIELD_* macros spell it (m->f, m->o.f with case member
 * o_case and constants M_o_f, M_o_NOT_SET, has-bit has_f): the plan made names otherwise to avoid a clash. */
static bool macro_names(ir_pool *pool, const plan_code *c)
{
    if (!*c->oneof) return spelled(c->x, "m->", c->member, "") && (!*c->has_member || spelled(c->has_member, "has_", c->member, ""));
    return spelled(c->x, "m->", c->oneof, ir_pool_printf(pool, ".%s", c->member)) && spelled(c->case_member, c->oneof, "_case", "") &&
           spelled(c->case_const, c->c, "_", ir_pool_printf(pool, "%s_%s", c->oneof, c->member)) &&
           spelled(c->none_const, c->c, "_", ir_pool_printf(pool, "%s_NOT_SET", c->oneof));
}

/* The section of a field's has and clear accessors as one PBJ_FIELD_* line, or NULL: field.tmpl's own section. */
static field_section accessors_macro(ir_pool *pool, const plan_field *pf)
{
    const plan_code *c = &pf->code;
    if (!*c->has_fn || !macro_names(pool, c)) return NULL;
    switch (pf->shape) {
    case PLAN_SHAPE_MESSAGE: return tmpl_field_accessors_macro_message;
    case PLAN_SHAPE_OPTIONAL: return *c->set_default || *c->clear_wrapper_unknown ? NULL : tmpl_field_accessors_macro_optional;
    case PLAN_SHAPE_MESSAGE_VALUE: return tmpl_field_accessors_macro_optional;
    case PLAN_SHAPE_ONEOF: case PLAN_SHAPE_MESSAGE_ONEOF: return tmpl_field_accessors_macro_oneof;
    default: return NULL;
    }
}

static void write_accessors(tmpl_out *o, const tmpl_lazy *l)
{
    const fields *fs = l->fs;
    for (size_t i = 0; i < fs->pm->fields.n; i++) {
        field_section macro = accessors_macro(o->pool, &fs->pm->fields.v[i]);
        if (macro) macro(o, fs->v[i]);
        else put_field(o, fs, PLAN_OP_ACCESSORS, i);
    }
}

/* The section of a field's setter or mutable as one PBJ_FIELD_* line, or NULL: field_helpers.tmpl's own section. */
static field_section helpers_macro(ir_pool *pool, const plan_field *pf)
{
    const plan_code *c = &pf->code;
    if (!macro_names(pool, c)) return NULL;
    if (*c->helpers.mutable_ && (pf->shape == PLAN_SHAPE_MESSAGE || pf->shape == PLAN_SHAPE_MESSAGE_ONEOF))
        return spelled(c->subfn->init, c->sub, "_init", "") && spelled(c->helpers.mutable_, c->c, "_mutable_", c->member)
            ? pf->shape == PLAN_SHAPE_MESSAGE ? tmpl_field_helpers_macro_mutable : tmpl_field_helpers_macro_mutable_oneof : NULL;
    if (!*c->helpers.set || *c->helpers.value || strcmp(c->helpers.ret, "void") != 0 || !spelled(c->helpers.params, c->ctype, " v", "") ||
        !spelled(c->helpers.set, c->c, "_set_", c->member))
        return NULL;
    switch (pf->shape) {
    case PLAN_SHAPE_SCALAR: return tmpl_field_helpers_macro_set;
    case PLAN_SHAPE_OPTIONAL: return tmpl_field_helpers_macro_set_optional;
    case PLAN_SHAPE_ONEOF: return tmpl_field_helpers_macro_set_oneof;
    default: return NULL;
    }
}

/* PBJ_MESSAGE's first variant: whether M reaches a required field (M_missing, M_encode_partial). */
static const char *api_required(const plan_message *pm) { return pm->may_miss ? "REQUIRED" : "NO_REQUIRED"; }

static void gen_message_header(tmpl_out *o, const plan_message *pm)
{
    ir_pool *pool = o->pool;
    const fields *fs = fields_for(pool, pm, FILL_NONE);
    message_vars v = message_vars_of(pm);
    v.oneof_cases = oneof_cases(pool, pm);
    v.field_members = lazy_write(fs, write_struct_members);
    v.unknown_member = expand_message(pool, pm->unknown ? tmpl_message_unknown_member : tmpl_message_no_unknown_member, &v);
    v.defines = lazy_each_field(fs, PLAN_OP_DEFINE);
    v.api = ir_pool_printf(pool, "%s, %s, %s", api_required(pm), pm->text_read ? "TEXT_READ" : "NO_TEXT_READ",
                           pm->json && !pm->map_entry ? "JSON" : "NO_JSON");
    v.field_accessors = lazy_write(fs, write_accessors);
    v.reverse_decl = pm->fast_write ? expand_message(pool, tmpl_reverse_decl, &v) : "";
    tmpl_message_header(o, &v);
    if (pm->compare_fn) tmpl_compare_decl(o, &(message_vars){.c = pm->cname, .n = pm->fn, .compare_fn = pm->compare_fn});
}

/* The decoder's cases of known extensions x, one each with its kind (the records it keeps) and closed enum
 * check: replace says whether a later record replaces an earlier one. */
static void ext_cases(tmpl_out *o, const plan_fields *x, const char *replace, bool msgset)
{
    for (size_t i = 0; i < x->n; i++) {
        const plan_code *c = &x->v[i]->code;
        const char *number = expand_message(o->pool, tmpl_message_decode_number, &(message_vars){.number = c->number});
        tmpl_message_decode_ext_cases(o, &(message_vars){.numbers = number, .kind = msgset ? "PBJ__EXT_ITEM" : c->ext->wt,
                                                         .valid = c->ext->valid, .replace = replace});
    }
}

/* The decoder's default case: known extensions, then unknown fields (a known number with another wire
 * type among them, as protobuf's C++ runtime keeps it). */
static const char *decode_other(ir_pool *pool, const plan_message *pm, bool flat)
{
    tmpl_out o = out_in(pool);
    message_vars v = {.unknown = pm->unknown ? "&m->pbj_unknown" : "NULL"};
    if (pm->known_ext.n || pm->msgset) {              /* known extensions: kept in pbj_ext, in number order */
        tmpl_out cases = out_in(pool);
        if (pm->msgset) tmpl_message_decode_msgset_items(&cases, &v);
        ext_cases(&cases, &pm->ext_append, "false", pm->msgset);
        ext_cases(&cases, &pm->ext_replace, "true", pm->msgset);
        tmpl_message_decode_ext(&o, &(message_vars){.cases = finish(&cases)});
    }
    if (pm->msgset) tmpl_message_decode_msgset_other(&o, &v);
    else if (pm->map_entry && pm->fields.n) tmpl_message_decode_skip(&o, &v);
    else if (flat) tmpl_message_decode_unknown_flat(&o, &v);
    else tmpl_message_decode_unknown(&o, &v);
    return finish(&o);
}

static void write_sections(tmpl_out *o, const tmpl_lazy *l)
{
    l->section(o, l->v);
    if (l->after) l->after(o, l->v);
}

/* section with v (then after, when given), when the template reaches it. */
static const tmpl_lazy *lazy_section(ir_pool *pool, message_section section, message_section after, const message_vars *v)
{
    tmpl_lazy *l = ir_pool_alloc(pool, sizeof *l);
    *l = (tmpl_lazy){.write = write_sections, .v = v, .section = section, .after = after};
    return l;
}

/* The reverse encoder of pm: its body, and the extern one calling it when it is inlined (v: the message's variables,
 * which it completes). */
static const tmpl_lazy *reverse_source(ir_pool *pool, const plan_message *pm, message_vars *v)
{
    const fields *fs = fields_for(pool, pm, FILL_REVERSE);
    v->rwrite = lazy_runs(fs, PLAN_OP_RWRITE, "m", pm->msgset ? tmpl_reverse_msgset : tmpl_reverse_ext, true);
    v->runknown = expand_message(pool, pm->msgset || !pm->unknown ? tmpl_reverse_room : tmpl_reverse_unknown, v);
    v->rcheck = pm->may_miss ? expand_message(pool, tmpl_reverse_required, v) : "";
    v->renter = pm->recursive ? expand_message(pool, tmpl_reverse_enter_depth, v) : "";
    v->rdeep = pm->deep ? expand_message(pool, tmpl_reverse_deep, v) : "";
    int margin = 0;
    for (size_t i = 0; i < pm->fields.n; i++) margin += pm->fields.v[i].rbound;
    v->margin = ir_pool_printf(pool, "%d", margin);
    v->rmargin = expand_message(pool, tmpl_reverse_margin, v);
    bool inlined = pm->reverse_inlined;
    v->rqual = inlined ? "PBJ__HOT " : "";
    v->rname = inlined ? pm->fn.write_reverse_inline : pm->fn.write_reverse_body;
    return lazy_section(pool, tmpl_reverse_body, inlined ? tmpl_reverse_body_extern : NULL, v);
}

/* M__write: the reverse encoder's body without room checks (it runs after M_size, into exactly the bytes counted).
 * With fast_write, a message's M__write is inlined into its parent's where its reverse encoder is (M__write_inline). */
static const tmpl_lazy *writer_source(ir_pool *pool, const plan_message *pm, const message_vars *mv)
{
    message_vars *v = ir_pool_alloc(pool, sizeof *v);
    *v = *mv;
    const fields *fs = fields_for(pool, pm, FILL_UNCHECKED);
    v->rwrite = lazy_runs(fs, PLAN_OP_RWRITE, "m", pm->msgset ? tmpl_reverse_msgset_unchecked : tmpl_reverse_ext_unchecked, true);
    v->runknown = pm->msgset || !pm->unknown ? "" : expand_message(pool, tmpl_reverse_unknown_unchecked, v);
    v->rmargin = v->renter = v->rparams = "";
    bool inlined = pm->reverse_inlined;
    v->rqual = inlined ? "PBJ__HOT " : "";
    v->rname = inlined ? pm->fn.write_inline : pm->fn.write;
    return lazy_section(pool, tmpl_reverse_body, inlined ? tmpl_reverse_writer_extern : NULL, v);
}

/* The inlined decoders (M__decode_leaf) the message's decoder calls, each declared once; sets *calls when it
 * calls any decoder. */
static const char *decode_protos(const fields *fs, bool *calls)
{
    tmpl_out o = out_in(fs->pool);
    symtab seen;
    symtab_init(&seen);
    for (size_t i = 0; i < fs->pm->fields.n; i++) {
        const plan_code *c = &fs->pm->fields.v[i].code;
        if (*c->decode_fn) *calls = true;
        if (*c->decode_fn && strcmp(c->decode_fn, c->subfn->decode_leaf) == 0 &&
            !symtab_put(&seen, c->decode_fn, strlen(c->decode_fn), (void *)(uintptr_t)(i + 1)))
            tmpl_field_decode_proto(&o, c);
    }
    symtab_free(&seen);
    return finish(&o);
}

/* Whether m's decoder keeps no depth count (its check only): no message of any kind inside (groups, maps and
 * wrappers included), no extensions, not a map entry; an unknown group is counted around its skip (decode_unknown_flat). */
static bool decode_flat(const plan_message *pm, bool calls)
{
    if (calls || pm->msgset || pm->map_entry || pm->ext_ranges.n || pm->known_ext.n) return false;   /* an entry skips with its count */
    for (size_t i = 0; i < pm->fields.n; i++)
        if (pm->fields.v[i].f->message_type) return false;
    return true;
}

/* M_size (M__size_depth), M__write and M__decode as straight-line code, field by field. */
static void wire_by_code(const plan_message *pm, const fields *fs, message_vars *v)
{
    ir_pool *pool = fs->pool;
    v->size = lazy_runs(fs, PLAN_OP_SIZE, "m", NULL, false);
    v->size_head = expand_message(pool, pm->recursive ? tmpl_message_size_head_depth : tmpl_message_size_head, v);
    v->size_enter = pm->recursive ? expand_message(pool, tmpl_message_size_enter_depth, v) : "";
    v->size_fn = lazy_section(pool, tmpl_message_size_fn, NULL, v);
    v->writer = writer_source(pool, pm, v);
    v->decode = lazy_each_field(fs, PLAN_OP_DECODE);
    bool calls = false;
    v->decode_protos = decode_protos(fs, &calls);
    bool flat = decode_flat(pm, calls);
    v->decode_other = decode_other(pool, pm, flat);
    /* an out-of-line decoder keeps its count's entry value in a register; an inlined leaf's parent has none to spare */
    v->decode_enter = expand_message(pool, flat ? tmpl_message_decode_enter_flat
                                     : pm->decode_leaf ? tmpl_message_decode_enter : tmpl_message_decode_enter_kept, v);
    v->decode_leave = flat ? "" : expand_message(pool, pm->decode_leaf ? tmpl_message_decode_leave : tmpl_message_decode_leave_kept, v);
    v->decode_head = expand_message(pool, pm->decode_leaf ? tmpl_message_decode_head_leaf : tmpl_message_decode_head, v);
    v->decode_tail = pm->decode_leaf ? expand_message(pool, tmpl_message_decode_tail_leaf, v) : "";
    v->decode_sort = lazy_each_field(fs, PLAN_OP_SORT);
    v->decode_fn = lazy_section(pool, tmpl_message_decode_fn, NULL, v);
}

/* The size tier: the same three as one-line wrappers over the table walker (rt/pbj_table_wire.h). */
static void wire_by_table(ir_pool *pool, const plan_message *pm, message_vars *v)
{
    v->size_fn = lazy_section(pool, pm->recursive ? tmpl_message_size_table_depth : tmpl_message_size_table, NULL, v);
    v->writer = lazy_section(pool, tmpl_message_write_table, NULL, v);
    v->decode_fn = lazy_section(pool, tmpl_message_decode_table, NULL, v);
}

/* Whether pm holds a message, map or repeated field: where M_encode's one walk (fast_write) saves a second walk over
 * them; a flat message's size pass costs less than moving its bytes. */
static bool holds_nested(const plan_message *pm)
{
    for (size_t i = 0; i < pm->fields.n; i++) {
        const plan_field *f = &pm->fields.v[i];
        if (f->repeated || f->kind == PLAN_MESSAGE || f->kind == PLAN_MAP) return true;
    }
    return false;
}

static void gen_message_source(tmpl_out *o, const plan_message *pm)
{
    ir_pool *pool = o->pool;
    fields *fs = fields_for(pool, pm, FILL_PIECES);
    message_vars v = message_vars_of(pm);
    v.init_fields = lazy_each_field(fs, PLAN_OP_INIT);
    v.ext_size = pm->msgset ? expand_message(pool, tmpl_message_msgset_size, &v)
                 : pm->ext_ranges.n ? expand_message(pool, tmpl_message_ext_size, &v) : "";
    v.unknown_len = pm->unknown ? "pbj_unknown_bytes(m->pbj_unknown).len" : "0";
    v.api_required = api_required(pm);
    bool one_walk = pm->fast_write && holds_nested(pm);
    v.api_functions = one_walk ? "PBJ_MESSAGE_FUNCTIONS_REVERSE"
                      : pm->table_wire ? "PBJ_MESSAGE_FUNCTIONS_TABLE" : "PBJ_MESSAGE_FUNCTIONS";   /* size: calls only */
    if (pm->table_wire) wire_by_table(pool, pm, &v);
    else wire_by_code(pm, fs, &v);
    v.reverse = NULL;
    if (pm->fast_write) {
        v.rbody = reverse_source(pool, pm, &v);
        v.reverse = lazy_section(pool, tmpl_reverse_source, pm->by_value ? tmpl_reverse_exact_value : NULL, &v);
    }
    tmpl_message_source(o, &v);
}

/* ---- pbj.json: M_to_json and M_from_json, PBJ_MESSAGE's wrappers over the table walks (json.tmpl) ---------- */

static bool file_has_json(const plan_file *pf)
{
    for (size_t i = 0; i < pf->messages.n; i++)
        if (pf->messages.v[i]->json) return true;
    return false;
}

/* ---- writers (pbj.writers): types first, then each message's functions, after every struct ---- */

static bool has_writers(const plan_file *pf)
{
    for (size_t i = 0; i < pf->messages.n; i++)
        if (pf->messages.v[i]->writers) return true;
    return false;
}

static void gen_writer_functions(tmpl_out *o, const plan_message *pm)
{
    if (!pm->writers) return;
    const fields *fs = fields_for(o->pool, pm, FILL_PIECES);
    message_vars v = message_vars_of(pm);
    v.wn = pm->wn;
    v.wrequired_mask = pm->wrequired_mask;
    tmpl_out wfields = out_in(o->pool);
    for (size_t j = 0; j < pm->fields.n; j++) put_section(&wfields, fs, PLAN_OP_COUNT, writer_sections[pm->fields.v[j].shape], j);
    v.wfields = finish(&wfields);
    tmpl_writer_functions(o, &v);
}

static void gen_writers_header(tmpl_out *o, const plan_file *pf)
{
    tmpl_writer_intro(o, &(message_vars){0});
    for (size_t i = 0; i < pf->messages.n; i++)
        if (pf->messages.v[i]->writers) tmpl_writer_type(o, &(message_vars){.wn = pf->messages.v[i]->wn});
    each_message(o, pf, gen_writer_functions);
}

/* ---- extensions: typed accessors over the extendee's pbj_ext records ------------------------ */

static void gen_ext(tmpl_out *o, const plan_field *pf, plan_ext_op op)
{
    plan_code v;
    plan_ext e;
    ext_with_record(o->pool, pf, &v, &e);
    ext_sections[op][pf->ext_shape](o, &v);
}

/* ---- enums ------------------------------------------------------------------------------------ */

static char *int_literal(ir_pool *pool, int32_t v)
{
    return v == INT32_MIN ? ir_pool_strdup(pool, "(-2147483647 - 1)") : ir_pool_printf(pool, "%d", v);
}

static void gen_enum_header(tmpl_out *o, const plan_enum *pe)
{
    tmpl_out values = out_in(o->pool);
    for (size_t i = 0; i < pe->e->values.n; i++)
        tmpl_enum_value(&values, &(enum_vars){.name = pe->value_cnames.v[i], .doc = pe->value_docs.v[i],
                                              .number = int_literal(o->pool, pe->e->values.v[i]->number)});
    tmpl_enum_header(o, &(enum_vars){.c = pe->cname, .full = pe->e->full_name, .doc = pe->doc, .name_fn = pe->name_fn,
                                      .from_name_fn = pe->from_name_fn, .table = pe->table.table, .values = finish(&values),
                                      .first = pe->e->values.n ? pe->e->values.v[0]->name : ""});
}

/* ---- files ------------------------------------------------------------------------------------ */

static char *strip_proto(ir_pool *pool, const char *name)
{
    size_t n = strlen(name);
    if (n > 6 && strcmp(name + n - 6, ".proto") == 0) n -= 6;
    return ir_pool_strndup(pool, name, n);
}

char *emit_header_path(ir_pool *pool, const ir_file *f, const char *out_dir)
{
    return ir_pool_printf(pool, "%s/%s.pb.h", out_dir, strip_proto(pool, f->name));
}

char *emit_source_path(ir_pool *pool, const ir_file *f, const char *out_dir)
{
    return ir_pool_printf(pool, "%s/%s.pb.c", out_dir, strip_proto(pool, f->name));
}

static char *guard_of(ir_pool *pool, const char *name)
{
    char *g = ir_pool_printf(pool, "PBJ_GEN_%s_PB_H", strip_proto(pool, name));
    for (char *p = g; *p; p++) {
        if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
        else if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) *p = '_';
    }
    return g;
}

/* protoc's C++ include guard of name: each character not a letter or digit as _ and its hex code. */
static char *cxx_guard_of(ir_pool *pool, const char *name)
{
    char *g = ir_pool_alloc(pool, sizeof "GOOGLE_PROTOBUF_INCLUDED_" + 3 * strlen(name)), *o = g;
    o += sprintf(o, "GOOGLE_PROTOBUF_INCLUDED_");
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        o += (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')
                 ? sprintf(o, "%c", *p) : sprintf(o, "_%x", *p);
    return g;
}

/* The include of the header of an imported .proto (its name), checked to be pbjc's. */
static void header_import(tmpl_out *o, const char *name)
{
    ir_pool *pool = o->pool;
    tmpl_file_header_import(o, &(file_vars){.header = ir_pool_printf(pool, "%s.pb.h", strip_proto(pool, name)), .proto = name,
                                             .guard = guard_of(pool, name), .cxx_guard = cxx_guard_of(pool, name)});
}

/* Every message's struct type, then the array types of repeated fields (which point to them). */
static void gen_message_types(tmpl_out *o, const plan_file *pf)
{
    tmpl_out typedefs = out_in(o->pool), arrays = out_in(o->pool);
    for (size_t i = 0; i < pf->messages.n; i++) {
        const plan_message *pm = pf->messages.v[i];
        tmpl_message_typedef(&typedefs, &(message_vars){.c = pm->cname});
        for (size_t j = 0; j < pm->fields.n; j++) field_sections[PLAN_OP_TYPES][pm->fields.v[j].shape](&arrays, &pm->fields.v[j].code);
    }
    message_vars v = {.typedefs = finish(&typedefs), .arrays = finish(&arrays)};
    tmpl_message_types(o, &v);
    if (*v.arrays) tmpl_message_arrays(o, &v);
    for (size_t i = 0; i < pf->messages.n; i++) tmpl_table_decl(o, &(table_vars){.t = pf->messages.v[i]->table});
}

static void section(tmpl_out *o, const char *title) { tmpl_file_section(o, &(file_vars){.title = title}); }

/* ---- building helpers and services: after every struct, as writers ---------------------------- */

/* Each field's building helpers: its shape's, then the C-string and array forms plan named for it. */
static void write_helper_fields(tmpl_out *o, const tmpl_lazy *l)
{
    const fields *fs = l->fs;
    for (size_t i = 0; i < fs->pm->fields.n; i++) {
        const plan_code *c = fs->v[i];
        field_section macro = helpers_macro(o->pool, &fs->pm->fields.v[i]);
        if (macro) macro(o, c);
        else put_field(o, fs, PLAN_OP_HELPERS, i);
        if (*c->helpers.set_str) tmpl_field_helpers_set_str(o, c);
        if (*c->helpers.add_str) tmpl_field_helpers_add_str(o, c);
        if (*c->helpers.add_many) tmpl_field_helpers_add_many(o, c);
    }
}

static message_vars helper_vars(ir_pool *pool, const plan_message *pm)
{
    const fields *fs = fields_for(pool, pm, FILL_NONE);
    message_vars v = message_vars_of(pm);
    v.hfields = lazy_write(fs, write_helper_fields);
    v.hsource = lazy_each_field(fs, PLAN_OP_HELPERS_SOURCE);
    return v;
}

static message_vars service_vars(ir_pool *pool, const plan_service *ps)
{
    size_t n = ps->s->methods.n;
    return (message_vars){.c = ps->table, .body = ps->methods, .name = ps->s->name, .full = ps->s->full_name,
                          .values = n ? ps->rows : "{0},", .number = ir_pool_printf(pool, "%zu", n)};
}

static void gen_helpers_header(tmpl_out *o, const plan_message *pm)
{
    tmpl_helpers_header(o, (message_vars[]){helper_vars(o->pool, pm)});
}

/* Whether a field of m has building helpers defined in the .pb.c (add of messages, a map's put, get, mutable). */
static bool has_helper_source(const plan_message *pm)
{
    for (size_t i = 0; i < pm->fields.n; i++)
        switch (pm->fields.v[i].shape) {
        case PLAN_SHAPE_MESSAGES: case PLAN_SHAPE_MAP: case PLAN_SHAPE_MAP_MESSAGE: case PLAN_SHAPE_MAP_CLOSED: return true;
        default: break;
        }
    return false;
}

static void gen_helpers_source(tmpl_out *o, const plan_message *pm)
{
    if (!has_helper_source(pm)) return;
    tmpl_helpers_source(o, (message_vars[]){helper_vars(o->pool, pm)});
}

static void gen_helpers(tmpl_out *o, const plan_file *pf, bool header, message_section service_fn)
{
    each_message(o, pf, header ? gen_helpers_header : gen_helpers_source);
    if (pf->services.n) section(o, "services");
    for (size_t i = 0; i < pf->services.n; i++) {
        message_vars v = service_vars(o->pool, pf->services.v[i]);
        service_fn(o, &v);
    }
}

/* ---- views (pbj.views): view.tmpl's frame around viewfield.tmpl's sections ---------------------- */

#define VIEW_SECTION(S, s, v, op) [PLAN_SHAPE_##S] = tmpl_viewfield_##op##_##v,
static const field_section view_accessors[PLAN_SHAPE_COUNT] = {PLAN_SHAPES(VIEW_SECTION, accessors)};
static const field_section view_scans[PLAN_SHAPE_COUNT] = {PLAN_SHAPES(VIEW_SECTION, scan)};
#undef VIEW_SECTION
#define VIEW_READ_SECTIONS(E, s) [PLAN_READ_##E] = {tmpl_viewfield_vread_##s, tmpl_viewfield_vstore_##s},
static const field_section view_reads[][2] = {PLAN_READS(VIEW_READ_SECTIONS)};
#undef VIEW_READ_SECTIONS
#define VIEW_FRAME_SECTION(E, s) [PLAN_FRAMING_##E] = tmpl_viewfield_vframe_##s,
static const field_section view_frames[] = {PLAN_FRAMINGS(VIEW_FRAME_SECTION)};
#undef VIEW_FRAME_SECTION

/* Field i's case of the view's scan: its read, and the jump to the tag expected next (itself again, the next field). */
static void view_scan(tmpl_out *o, const plan_message *pm, size_t i)
{
    const plan_field *pf = &pm->fields.v[i];
    plan_code v = pf->code;
    plan_view view = *pf->code.view;
    v.view = &view;
    view.read = expand_field(o->pool, view_reads[pf->read][0], &v);
    view.store = expand_field(o->pool, view_reads[pf->read][1], &v);
    view.frame = expand_field(o->pool, view_frames[pf->framing], &v);
    tmpl_out predict = out_in(o->pool);
    if (*pf->code.view->self) tmpl_viewfield_predict(&predict, &pf->code);
    if (i + 1 < pm->fields.n) tmpl_viewfield_predict(&predict, &pm->fields.v[i + 1].code);
    view.predict = finish(&predict);
    view_scans[pf->shape](o, &v);
}

/* An extension's accessors on its extendee's view (viewext.tmpl), when it has them. */
#define VIEW_EXT_SECTION(S, s, op) [PLAN_EXT_##S] = tmpl_viewext_##op##_##s,
static const field_section view_ext_headers[PLAN_EXT_COUNT] = {PLAN_EXT_SHAPES(VIEW_EXT_SECTION, header)};
static const field_section view_ext_sources[PLAN_EXT_COUNT] = {PLAN_EXT_SHAPES(VIEW_EXT_SECTION, source)};
#undef VIEW_EXT_SECTION

static void gen_view_ext(tmpl_out *o, const plan_field *pf, const field_section *sections)
{
    if (pf->code.view) sections[pf->ext_shape](o, &pf->code);
}

static bool file_has_views(const plan_file *pf)
{
    for (size_t i = 0; i < pf->messages.n; i++)
        if (pf->messages.v[i]->views) return true;
    return false;
}

static message_vars view_vars(ir_pool *pool, const plan_message *pm)
{
    message_vars v = message_vars_of(pm);
    v.view = pm->view;
    v.ncases = ir_pool_printf(pool, "%zu", pm->oneofs.n ? pm->oneofs.n : 1);
    size_t plain = 0;   /* the slots of fields outside oneofs (then one per oneof) */
    for (size_t i = 0; i < pm->fields.n; i++) plain += !pm->fields.v[i].oneof;
    v.scan_qual = pm->view_qual;
    v.nslots = ir_pool_printf(pool, "%zu", plain + pm->oneofs.n ? plain + pm->oneofs.n : 1);
    v.ext_in = pm->view_ext_in;
    v.ext_member = *v.ext_in ? expand_message(pool, tmpl_view_ext_member, &v) : "";
    v.ext_note = *v.ext_in ? expand_message(pool, tmpl_view_ext_note, &v) : "";
    bool whole = pm->view_leaf || *v.ext_in;   /* a leaf's (always inline) zeroed whole stays in registers */
    v.view_clear = expand_message(pool, whole ? tmpl_view_clear_all : tmpl_view_clear_slots, &v);
    v.view_check = ir_pool_printf(pool, "%u", pm->view_check);
    v.view_depth = pm->view_check ? expand_message(pool, tmpl_view_depth, &v) : "";   /* a flat type's: its creator checked */
    tmpl_out accessors = out_in(pool), scan = out_in(pool), cases = out_in(pool);
    for (size_t i = 0; i < pm->fields.n; i++) {
        view_accessors[pm->fields.v[i].shape](&accessors, &pm->fields.v[i].code);
        view_scan(&scan, pm, i);
    }
    for (size_t k = 0; k < pm->oneofs.n; k++) {
        const plan_oneof *po = pm->oneofs.v[k];
        tmpl_view_case_fn(&cases, &(message_vars){.case_type = po->case_type, .case_member = po->view_case_fn,
                                                  .c = pm->view.type, .number = ir_pool_printf(pool, "%d", po->view_index)});
    }
    tmpl_out first = out_in(pool);   /* the first field's tag tested before the loop, when it has a label (plan.c) */
    if (pm->fields.n && *pm->fields.v[0].code.view->label) tmpl_viewfield_predict(&first, &pm->fields.v[0].code);
    v.view_first = finish(&first);
    v.accessors = finish(&accessors);
    v.scan = finish(&scan);
    v.cases = finish(&cases);
    return v;
}

static void gen_view_header(tmpl_out *o, const plan_message *pm)
{
    if (pm->views) tmpl_view_header(o, (message_vars[]){view_vars(o->pool, pm)});
}

static void gen_view_source(tmpl_out *o, const plan_message *pm)
{
    if (pm->views) tmpl_view_source(o, (message_vars[]){view_vars(o->pool, pm)});
}

static void gen_views_header(tmpl_out *o, const plan_file *pf)
{
    if (!file_has_views(pf)) return;
    section(o, "views");
    tmpl_out typedefs = out_in(o->pool);
    for (size_t i = 0; i < pf->messages.n; i++)
        if (pf->messages.v[i]->views) tmpl_view_typedef(&typedefs, &(message_vars){.view = pf->messages.v[i]->view});
    tmpl_view_types(o, &(message_vars){.typedefs = finish(&typedefs)});
    each_message(o, pf, gen_view_header);
}

static void gen_views_source(tmpl_out *o, const plan_file *pf)
{
    if (file_has_views(pf)) section(o, "views");
    each_message(o, pf, gen_view_source);
}

/* ---- the M__ functions: the header's section for generated code only ---------------------------- */

/* A message's M__ functions that every build has. */
static bool has_internal(const plan_message *pm) { return pm->recursive || pm->fast_write; }

static void gen_internal_header(tmpl_out *o, const plan_message *pm)
{
    if (!has_internal(pm)) return;
    message_vars v = message_vars_of(pm);
    v.size_decl = pm->recursive ? expand_message(o->pool, tmpl_message_size_decl_depth, &v) : "";
    tmpl_internal_message(o, &v);
    if (pm->fast_write) tmpl_internal_reverse(o, &v);
    if (pm->fast_write && pm->by_value) tmpl_internal_reverse_value(o, &v);
}

/* Before the inline code of views, extensions and writers, which calls them. */
static void gen_internal(tmpl_out *o, const plan_file *pf)
{
    bool any = false;
    for (size_t i = 0; i < pf->messages.n; i++) any |= has_internal(pf->messages.v[i]);
    if (!any) return;
    section(o, "for generated code only: not part of the API");
    tmpl_internal_intro(o, &(message_vars){0});
    each_message(o, pf, gen_internal_header);
}

static void gen_header(tmpl_out *o, const plan_file *pf)
{
    const ir_file *f = pf->f;
    file_vars v = {.proto = f->name, .version = PBJC_VERSION, .guard = guard_of(o->pool, f->name),
                   .rtversion = ir_pool_printf(o->pool, "%d", PBJ_RUNTIME_VERSION)};
    tmpl_file_header_top(o, &v);
    for (size_t i = 0; i < pf->header_imports.n; i++) header_import(o, pf->header_imports.v[i]);
    if (file_has_views(pf)) tmpl_view_include(o, &(message_vars){0});
    if (file_has_json(pf)) tmpl_json_include(o, &(message_vars){0});
    tmpl_file_header_open(o, &v);
    if (pf->enums.n) section(o, "enums");
    for (size_t i = 0; i < pf->enums.n; i++) gen_enum_header(o, pf->enums.v[i]);
    if (pf->messages.n) {
        section(o, "message types");
        gen_message_types(o, pf);
    }
    each_message_ordered(o, pf, gen_message_header);
    gen_internal(o, pf);
    gen_views_header(o, pf);
    if (pf->extensions.n) section(o, "extensions");
    for (size_t i = 0; i < pf->extensions.n; i++) gen_ext(o, pf->extensions.v[i], PLAN_EXT_OP_HEADER);
    for (size_t i = 0; i < pf->extensions.n; i++) gen_view_ext(o, pf->extensions.v[i], view_ext_headers);
    if (has_writers(pf)) {
        section(o, "writers");
        gen_writers_header(o, pf);
    }
    if (pf->messages.n) {
        section(o, "building messages");
        tmpl_helpers_intro(o, &(message_vars){0});
    }
    gen_helpers(o, pf, true, tmpl_service_header);
    tmpl_file_header_bottom(o, &v);
}

/* ---- the size tier: the shapes of the tables a file's walks reach (PBJ_TW_SHAPES, rt/pbj_table.h) ---------- */

typedef struct shape_walk {
    ir_pool *pool;
    IR_VEC(const ir_message *) seen;
    unsigned shapes;
} shape_walk;

static unsigned field_shapes(const ir_field *f)
{
    unsigned s = f->is_map ? PBJ_TW_MAP : 0;
    if (f->type == IR_TYPE_GROUP) s |= PBJ_TW_GROUP;
    if (f->type == IR_TYPE_ENUM && f->enum_type && features_closed_enum(f->enum_type)) s |= PBJ_TW_CLOSED;
    if (f->message_type && ir_wrapper_type(f->message_type) != IR_TYPE_UNRESOLVED) s |= PBJ_TW_WRAPPER;
    return s;
}

/* m's shapes and those of every message it reaches through its fields, into w. */
static void reach_shapes(shape_walk *w, const ir_message *m)
{
    for (size_t i = 0; i < w->seen.n; i++)
        if (w->seen.v[i] == m) return;
    ir_pool_vec_push(w->pool, &w->seen, m);
    if (m->extension_ranges.n || m->message_set_wire_format) w->shapes |= PBJ_TW_EXT;
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_field *f = m->fields.v[i];
        w->shapes |= field_shapes(f);
        if (f->type != IR_TYPE_ENUM && f->message_type) reach_shapes(w, f->message_type);
    }
}

/* A file with size-tier messages: its walker's shapes (every message's of the file: sort_maps walks them too), as
 * the #define its source starts with; else "". */
static const char *walker_shapes(ir_pool *pool, const plan_file *pf)
{
    static const struct { unsigned bit; const char *name; } names[] = {
        {PBJ_TW_EXT, "PBJ_TW_EXT"}, {PBJ_TW_MAP, "PBJ_TW_MAP"}, {PBJ_TW_WRAPPER, "PBJ_TW_WRAPPER"},
        {PBJ_TW_CLOSED, "PBJ_TW_CLOSED"}, {PBJ_TW_GROUP, "PBJ_TW_GROUP"}};
    shape_walk w = {.pool = pool};
    bool walked = false;
    for (size_t i = 0; i < pf->messages.n; i++) walked |= pf->messages.v[i]->table_wire;
    if (!walked) return "";
    for (size_t i = 0; i < pf->messages.n; i++) reach_shapes(&w, pf->messages.v[i]->m);
    const char *list = "";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (w.shapes & names[i].bit) list = *list ? ir_pool_printf(pool, "%s | %s", list, names[i].name) : names[i].name;
    tmpl_out o = out_in(pool);
    tmpl_file_walker_shapes(&o, &(file_vars){.shapes = *list ? list : "0"});
    return finish(&o);
}

/* ---- the run's one copy of the runtime (PBJ__RUN_SHARED, rt/pbj_core.h) ---------------------------------- */

/* f's .pb.c: its lines naming home, the .pb.c holding the run's copy of the runtime (f's own, or another). */
static void run_shared(ir_pool *pool, const ir_file *f, const ir_file *home, const char **run_lines, const char **home_lines)
{
    char *symbol = ir_pool_printf(pool, "pbj_runtime_of_this_run_is_in_%s_pb_c", strip_proto(pool, home->name));
    for (char *c = symbol; *c; c++)
        if (!isalnum((unsigned char)*c)) *c = '_';
    tmpl_out o = out_in(pool);
    (f == home ? tmpl_file_run_here : tmpl_file_run_there)(&o, &(file_vars){.header = ir_pool_printf(pool, "%s.pb.c", strip_proto(pool, home->name))});
    *run_lines = finish(&o);
    o = out_in(pool);
    (f == home ? tmpl_file_home_here : tmpl_file_home_there)(&o, &(file_vars){.home = symbol});
    *home_lines = finish(&o);
}

static void gen_source(tmpl_out *o, const plan_file *pf)
{
    const ir_file *f = pf->f;
    ir_pool *pool = o->pool;
    const char *base = strrchr(strip_proto(pool, f->name), '/');
    base = base ? base + 1 : strip_proto(pool, f->name);
    const char *run_lines = "", *home_lines = "";
    if (pf->run_home) run_shared(pool, f, pf->run_home->f, &run_lines, &home_lines);
    tmpl_file_source_top(o, &(file_vars){.proto = f->name, .version = PBJC_VERSION, .header = ir_pool_printf(pool, "%s.pb.h", base),
                                          .rtversion = ir_pool_printf(pool, "%d", PBJ_RUNTIME_VERSION),
                                          .shapes = walker_shapes(pool, pf), .run = run_lines, .home = home_lines});
    for (size_t i = 0; i < pf->source_imports.n; i++) header_import(o, pf->source_imports.v[i]);
    gen_tables(o, pf);
    each_message(o, pf, gen_message_source);
    gen_views_source(o, pf);
    if (pf->extensions.n) section(o, "extensions");
    for (size_t i = 0; i < pf->extensions.n; i++) gen_ext(o, pf->extensions.v[i], PLAN_EXT_OP_SOURCE);
    for (size_t i = 0; i < pf->extensions.n; i++) gen_view_ext(o, pf->extensions.v[i], view_ext_sources);
    if (has_writers(pf)) section(o, "writers");
    for (size_t i = 0; i < pf->messages.n; i++) {
        const plan_message *pm = pf->messages.v[i];
        if (pm->writers) tmpl_writer_wtype(o, &(message_vars){.wn = pm->wn, .full = pm->m->full_name, .wrequired = pm->wrequired});
    }
    gen_helpers(o, pf, false, tmpl_service_source);
}

/* mkdir -p of the directory part of path. */
static int make_dirs(ir_pool *pool, const char *path)
{
    char *p = ir_pool_strdup(pool, path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) return -1;
        *s = '/';
    }
    return 0;
}

static mode_t current_umask(void)
{
    mode_t m = umask(0);
    umask(m);
    return m;
}

/* An output file written as its text is made: into a new file beside path, renamed over it once complete (a failed
 * write never leaves a truncated target), unless the old file holds exactly these bytes (compared as they come):
 * then it is left untouched. */
struct out_file {
    const char *path;
    char *tmp;                   /* the new file's path */
    FILE *out, *old;             /* the new file; the old one while its bytes match so far, else NULL */
    bool failed;                 /* a write failed (errno kept in err) */
    int err;
};

static void out_file_open(out_file *f, ir_pool *pool, diag_counts *diag, const char *path)
{
    *f = (out_file){.path = path, .old = fopen(path, "rb")};
    if (make_dirs(pool, path) != 0) {
        diag_error_in(diag, NULL, (ir_loc){0, 0}, "cannot create the directory of %s: %s", path, strerror(errno));
        f->failed = true;
        return;
    }
    f->tmp = ir_pool_printf(pool, "%s.XXXXXX", path);
    int fd = mkstemp(f->tmp);
    f->out = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!f->out) {
        f->err = errno;
        f->failed = true;
        if (fd >= 0) close(fd), remove(f->tmp);
        f->tmp = NULL;
    }
}

/* Whether the old file's next n bytes are text's (it is dropped at the first difference). */
static void out_file_compare(out_file *f, const char *text, size_t n)
{
    char buf[65536];
    while (f->old && n) {
        size_t k = n < sizeof buf ? n : sizeof buf;
        if (fread(buf, 1, k, f->old) != k || memcmp(buf, text, k) != 0) {
            fclose(f->old);
            f->old = NULL;
        }
        text += k;
        n -= k;
    }
}

static void out_file_write(out_file *f, const char *text, size_t n)
{
    out_file_compare(f, text, n);
    if (f->out && !f->failed && fwrite(text, 1, n, f->out) != n) f->err = errno, f->failed = true;
}

/* The file complete: kept (the old one when it matched to its end), or an error reported. */
static int out_file_close(out_file *f, diag_counts *diag)
{
    bool same = f->old && fgetc(f->old) == EOF;
    if (f->old) fclose(f->old);
    bool ok = !f->failed;
    if (f->out) ok = fclose(f->out) == 0 && ok;
    if (ok && !same) ok = chmod(f->tmp, 0666 & ~current_umask()) == 0 && rename(f->tmp, f->path) == 0;
    if (f->tmp && (same || !ok)) remove(f->tmp);
    if (ok) return 0;
    if (f->tmp) diag_error_in(diag, NULL, (ir_loc){0, 0}, "cannot write %s: %s", f->path, strerror(f->err ? f->err : errno));
    return 1;
}

static void out_drain(tmpl_out *o)
{
    out_file_write(o->file, o->b.s, o->b.len);
    o->drained += o->b.len;
    o->b.len = 0;
}

/* The header (or source) of pf, made by gen: handed to sink whole, or (sink NULL) written to the file under dir as
 * it grows. Returns the errors reported. */
static int emit_one(const plan_program *pp, const plan_file *pf, void (*gen)(tmpl_out *, const plan_file *), const char *name,
                    emit_sink sink, void *ctx, const char *dir)
{
    tmpl_out o = out_in(pp->pool);
    out_file file;
    if (!sink) {
        out_file_open(&file, pp->pool, pp->prog->diag, ir_pool_printf(pp->pool, "%s/%s", dir, name));
        o.file = &file;
    }
    gen(&o, pf);
    int errors;
    if (sink) errors = sink(ctx, name, o.b.s ? o.b.s : "", o.b.len);
    else {
        out_drain(&o);
        errors = out_file_close(&file, pp->prog->diag);
    }
    free(o.b.s);
    return errors;
}

/* Every input's header and source, to sink or (sink NULL) under dir. */
static int emit_all(const plan_program *pp, emit_sink sink, void *ctx, const char *dir)
{
    const ir_program *prog = pp->prog;
    int errors = 0;
    for (size_t i = 0; i < prog->inputs.n; i++) {
        const ir_file *f = prog->inputs.v[i];
        const plan_file *pf = plan_of(pp, f);
        const char *name = strip_proto(pp->pool, f->name);
        errors += emit_one(pp, pf, gen_header, ir_pool_printf(pp->pool, "%s.pb.h", name), sink, ctx, dir);
        errors += emit_one(pp, pf, gen_source, ir_pool_printf(pp->pool, "%s.pb.c", name), sink, ctx, dir);
    }
    return errors;
}

int emit_program(const plan_program *pp, const char *out_dir_path)
{
    return emit_all(pp, NULL, NULL, out_dir_path);
}

int emit_program_to(const plan_program *pp, emit_sink sink, void *ctx)
{
    return emit_all(pp, sink, ctx, NULL);
}
