/* plan_table.c: the plan of each message's field table (rt/pbj_table.h) and of its file's string pool. */
#include "plan.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "textbuf.h"
#include "../rt/pbj_table.h"   /* PBJ_WKTS: the well-known types, named in a table's wkt */

/* A file's string pool as it grows, in chunks (C's string literals may be kept under 4,095 bytes: -Wpedantic's
 * -Woverlength-strings): the text of the chunk under way, its bytes, the offset the next string gets. */
typedef struct table_pool {
    textbuf text;
    size_t chunk, size;
    plan_file *pf;
} table_pool;

#define POOL_CHUNK 4000

/* The chunk under way, closed: the implicit NUL of its literal ends its last string (so the text drops its own). */
static void pool_close(ir_pool *mem, table_pool *p)
{
    if (!p->chunk) return;
    const char *text = textbuf_finish(&p->text, p->pf->pool);
    plan_pool_chunk c = {ir_pool_strndup(mem, text, strlen(text) - 4), ir_pool_printf(mem, "%zu", p->chunk)};
    ir_pool_vec_push(mem, &p->pf->table_pool_chunks, c);
    p->chunk = 0;
}

/* s added to the pool: its offset, as C text. */
static const char *pool_add(ir_pool *mem, table_pool *p, const char *s)
{
    size_t n = strlen(s);
    if (p->chunk && p->chunk + n + 1 > POOL_CHUNK) pool_close(mem, p);
    const char *at = ir_pool_printf(mem, "%zu", p->size), *literal = plan_c_string_literal(mem, s, n);
    textbuf_put(&p->text, literal + 1, strlen(literal) - 2);   /* inside one literal: its quotes off */
    textbuf_puts(&p->text, "\\000");
    p->size += n + 1;
    p->chunk += n + 1;
    return at;
}

#define TYPE_NAME(N, kw, num, wt) [IR_TYPE_##N] = "PBJ_TYPE_" #N,
static const char *const type_names[] = {IR_FIELD_TYPES(TYPE_NAME)};
#undef TYPE_NAME

static const char *type_of(const plan_field *pf)
{
    return pf->group ? "PBJ_TYPE_GROUP" : type_names[pf->type];
}

static const char *mode_of(const plan_field *pf)
{
    return pf->kind == PLAN_MAP ? "PBJ_MODE_MAP" : pf->repeated ? "PBJ_MODE_REPEATED"
         : pf->kind == PLAN_WRAPPER ? "PBJ_MODE_WRAPPER" : pf->by_value ? "PBJ_MODE_BY_VALUE" : pf->oneof ? "PBJ_MODE_ONEOF"
         : pf->always ? "PBJ_MODE_ALWAYS" : pf->has_member ? "PBJ_MODE_OPTIONAL" : "PBJ_MODE_IMPLICIT";
}

static const char *flags_of(ir_pool *mem, const plan_field *pf)
{
    static const struct { const char *name; size_t at; } flags[] = {
        {"PBJ_F_PACKED", offsetof(plan_field, packed)}, {"PBJ_F_UTF8", offsetof(plan_field, utf8)},
        {"PBJ_F_CLOSED_ENUM", offsetof(plan_field, closed_enum)}, {"PBJ_F_CLOSED_ENUM", offsetof(plan_field, closed_map_value)},
        {"PBJ_F_REQUIRED", offsetof(plan_field, required)}, {"PBJ_F_SUB_MAY_MISS", offsetof(plan_field, sub_may_miss)},
    };
    const char *s = NULL;
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
        if (*(const bool *)((const char *)pf + flags[i].at)) s = s ? ir_pool_printf(mem, "%s | %s", s, flags[i].name) : flags[i].name;
    if (pf->f->proto3_optional) s = s ? ir_pool_printf(mem, "%s | PBJ_F_PROTO3_OPTIONAL", s) : "PBJ_F_PROTO3_OPTIONAL";
    return s ? s : "0";
}

/* The member's offset and size: a oneof member's inside its union; a wrapper's through its unknown fields' slice. */
static const char *member_of(ir_pool *mem, const plan_message *pm, const plan_field *pf)
{
    const char *c = pm->cname;
    if (pf->oneof) return ir_pool_printf(mem, "PBJ_MEMBER(%s, %s.%s)", c, pf->oneof->member, pf->member);
    if (pf->kind == PLAN_WRAPPER)
        return ir_pool_printf(mem, "PBJ_WRAPPER_MEMBER(%s, %s, %s)", c, pf->member, pf->code.wrapper_unknown);
    return ir_pool_printf(mem, "PBJ_MEMBER(%s, %s)", c, pf->member);
}

static const char *presence_of(ir_pool *mem, const plan_message *pm, const plan_field *pf)
{
    if (pf->oneof)
        for (size_t k = 0; k < pm->oneofs.n; k++)
            if (pm->oneofs.v[k] == pf->oneof) return ir_pool_printf(mem, "%zu", k);
    if (pf->has_member && pf->kind != PLAN_MAP && !pf->repeated)
        return ir_pool_printf(mem, "PBJ_OFFSET(%s, %s)", pm->cname, pf->has_member);
    return "0";
}

static const char *sub_of(ir_pool *mem, const plan_field *pf)
{
    bool message = pf->kind == PLAN_MESSAGE || pf->kind == PLAN_MAP;
    return message ? ir_pool_printf(mem, "&%s", pf->code.subfn->table) : "NULL";
}

/* An enum field's type's table (a map's enum value is its entry's field). */
static const char *enum_of(ir_pool *mem, const plan_field *pf)
{
    const ir_enum *e = pf->type == IR_TYPE_ENUM ? pf->f->enum_type : NULL;
    if (!e || pf->kind == PLAN_MAP) return "NULL";
    return ir_pool_printf(mem, "&%s", names_enum_table(mem, NULL, names_enum_cname(mem, e), "__enum", e));
}

/* Field pf's row, its names added to the pool: a required field's full name first (M_missing's answer). */
static plan_table_row row_of(ir_pool *mem, const plan_message *pm, const plan_field *pf, table_pool *pool)
{
    plan_table_row r = {.number = pf->code.number, .type = type_of(pf), .mode = mode_of(pf), .flags = flags_of(mem, pf),
                        .member = member_of(mem, pm, pf), .presence = presence_of(mem, pm, pf), .sub = sub_of(mem, pf), .en = enum_of(mem, pf),
                        .what = pf->name};
    if (pf->required) pool_add(mem, pool, pf->f->full_name);
    r.name = pool_add(mem, pool, pf->name);
    const char *json = pf->f->json_name ? pf->f->json_name : pf->f->name;
    bool group = strcmp(type_of(pf), "PBJ_TYPE_GROUP") == 0;
    r.json_name = strcmp(json, pf->name) == 0 && !group ? r.name : pool_add(mem, pool, json);
    if (group) pool_add(mem, pool, pf->f->name);   /* JSON's proto_names key, just after its JSON name */
    return r;
}

static bool sets_defaults(const plan_message *pm)
{
    for (size_t i = 0; i < pm->fields.n; i++)
        if (pm->fields.v[i].default_c) return true;
    return false;
}

static size_t dense_of(const plan_message *pm)
{
    size_t n = 0;
    while (n < pm->fields.n && pm->fields.v[n].number == (int32_t)n + 1) n++;
    return n;
}

/* The numbers of the extensions whose later record replaces the earlier (merge). */
static const char *ext_numbers_of(ir_pool *mem, const plan_message *pm)
{
    const char *s = "";
    for (size_t i = 0; i < pm->ext_replace.n; i++) s = ir_pool_printf(mem, "%s%s, ", s, pm->ext_replace.v[i]->code.number);
    return s;
}

/* pbj.comparable's keys: a field's number, or PBJ_COMPARE_ONEOF | a oneof's index. */
static const char *compare_keys_of(ir_pool *mem, const plan_message *pm)
{
    const char *s = "";
    for (size_t k = 0; k < pm->compare_keys.n; k++) {
        const plan_compare_key *key = &pm->compare_keys.v[k];
        size_t o = 0;
        while (key->oneof && pm->oneofs.v[o] != key->oneof) o++;
        s = key->field ? ir_pool_printf(mem, "%s%s, ", s, key->field->code.number)
                       : ir_pool_printf(mem, "%sPBJ_COMPARE_ONEOF | %zu, ", s, o);
    }
    return s;
}

/* flags with one more (flags "0": none yet). */
static const char *flag_add(ir_pool *mem, const char *flags, const char *flag)
{
    return strcmp(flags, "0") == 0 ? flag : ir_pool_printf(mem, "%s | %s", flags, flag);
}

/* Extension x's row: no member; its text name ("[pkg.ext]", an item's "[pkg.Item]") and JSON's "[pkg.ext]". A type
 * the extendee's source cannot name (typed false): no sub, PBJ_F_UNTYPED. */
static plan_table_row ext_row_of(ir_pool *mem, const plan_field *x, bool typed, table_pool *pool)
{
    const char *flags = flags_of(mem, x);
    if (x->msgset) flags = flag_add(mem, flags, "PBJ_F_ITEM");
    if (!typed) flags = flag_add(mem, flags, "PBJ_F_UNTYPED");
    plan_table_row r = {.number = x->code.number, .type = type_of(x), .mode = x->repeated ? "PBJ_MODE_REPEATED" : "PBJ_MODE_OPTIONAL",
                        .flags = flags, .member = "0, 0", .presence = "0", .sub = typed ? sub_of(mem, x) : "NULL",
                        .en = enum_of(mem, x), .what = x->f->full_name};
    r.name = pool_add(mem, pool, x->name);
    const char *json = ir_pool_printf(mem, "[%s]", x->f->full_name);
    r.json_name = strcmp(json, x->name) == 0 ? r.name : pool_add(mem, pool, json);
    return r;
}

/* pm's extensions (those printed by name, and those whose types are not in scope) and its extension ranges (a
 * message with none: "NULL", 0). */
static void plan_table_exts(ir_pool *mem, plan_message *pm, table_pool *pool)
{
    plan_table *t = &pm->table;
    textbuf ranges = {0};
    for (size_t i = 0, k = 0; i < pm->ext_listed.n; i++) {   /* ext_printed: a subsequence of ext_listed */
        const plan_field *x = pm->ext_listed.v[i];
        bool typed = k < pm->ext_printed.n && pm->ext_printed.v[k] == x;
        k += typed;
        ir_pool_vec_push(mem, &t->ext_rows, ext_row_of(mem, x, typed, pool));
        if (!x->foreign || !typed) continue;
        const plan_table_row *r = &t->ext_rows.v[t->ext_rows.n - 1];
        if (strcmp(r->sub, "NULL") != 0) ir_pool_vec_push(mem, &t->ext_externs, ir_pool_printf(mem, "extern const pbj_table %s;", r->sub + 1));
        if (strcmp(r->en, "NULL") != 0) ir_pool_vec_push(mem, &t->ext_externs, ir_pool_printf(mem, "extern const pbj_enum %s;", r->en + 1));
    }
    for (size_t i = 0; i < pm->ext_ranges.n; i++)
        textbuf_printf(&ranges, "%s%" PRId32 ", %" PRId32, i ? ", " : "", pm->ext_ranges.v[i].start, pm->ext_ranges.v[i].end);
    t->exts = t->ext_rows.n ? pm->fn.table_exts : "NULL";
    t->ext_count = ir_pool_printf(mem, "%zu", t->ext_rows.n);
    t->ext_ranges = pm->ext_ranges.n ? pm->fn.table_ext_ranges : "NULL";
    t->ext_range_count = ir_pool_printf(mem, "%zu", pm->ext_ranges.n);
    t->ranges = textbuf_finish(&ranges, mem);
}

/* The tags of the extensions decode keeps (known_ext: ext_append and ext_replace) that pm's table does not list
 * (ext_printed): a view prints their records as unknown fields, and no record of a number the run did not know. */
static const char *view_raw_tags_of(ir_pool *mem, const plan_message *pm)
{
    const char *s = "";
    for (size_t i = 0; i < pm->ext_append.n; i++) {
        const plan_field *x = pm->ext_append.v[i];
        bool listed = false;
        for (size_t k = 0; k < pm->ext_printed.n && !listed; k++) listed = pm->ext_printed.v[k] == x;
        if (!listed) s = ir_pool_printf(mem, "%s0x%x, ", s, (unsigned)PBJ_TAG(x->number, x->group ? PBJ_WT_SGROUP : PBJ_WT_LEN));
    }
    return s;
}

/* Where pm's view keeps what its scan notes (PBJ_VIEW_LAYOUT, rt/pbj_table.h), when pm has views. */
static void plan_table_view(ir_pool *mem, plan_message *pm)
{
    plan_table *t = &pm->table;
    t->view = t->view_layout = t->view_raw = t->view_raw_tags = "";
    if (!pm->views) {
        t->view = "NULL";
        return;
    }
    t->view = ir_pool_printf(mem, "&%s", pm->view.layout);
    t->view_raw_tags = view_raw_tags_of(mem, pm);
    t->view_raw = *t->view_raw_tags ? pm->view.ext_raw : "NULL";
    t->view_layout = ir_pool_printf(mem, "%s, %s, %s, %s", pm->view.type, pm->view.scan,
                                    *pm->view_ext_in ? ir_pool_printf(mem, "PBJ_OFFSET(%s, ext)", pm->view.type) : "PBJ_TABLE_NONE",
                                    t->view_raw);
}

static void plan_table_message(ir_pool *mem, plan_message *pm, const char *pool_name, table_pool *pool)
{
    plan_table *t = &pm->table;
    const char *c = pm->cname;
    t->table = pm->fn.table;
    t->fields = pm->fields.n ? pm->fn.table_fields : "NULL";
    t->oneofs = pm->oneofs.n ? pm->fn.table_oneofs : "NULL";
    t->init_fn = sets_defaults(pm) ? pm->fn.init_table : "";
    t->init = *t->init_fn ? t->init_fn : "NULL";
    t->c = c;
    t->full = pm->m->full_name;
    t->pool = pool_name;
    t->name = pool_add(mem, pool, pm->m->full_name);
    t->size = ir_pool_printf(mem, "sizeof(%s)", c);
    t->count = ir_pool_printf(mem, "%zu", pm->fields.n);
    t->dense = ir_pool_printf(mem, "%zu", dense_of(pm));
    t->oneof_count = ir_pool_printf(mem, "%zu", pm->oneofs.n);
    t->unknown = pm->unknown ? ir_pool_printf(mem, "PBJ_OFFSET(%s, pbj_unknown)", c) : "PBJ_TABLE_NONE";
    t->ext = pm->ext_ranges.n ? ir_pool_printf(mem, "PBJ_OFFSET(%s, pbj_ext)", c) : "PBJ_TABLE_NONE";
    t->flags = pm->map_entry && pm->msgset ? "PBJ_T_MAP_ENTRY | PBJ_T_MSGSET"
             : pm->map_entry ? "PBJ_T_MAP_ENTRY" : pm->msgset ? "PBJ_T_MSGSET" : "0";
    t->ext_numbers = ext_numbers_of(mem, pm);
    t->ext_singular = *t->ext_numbers ? pm->fn.table_ext : "NULL";
    t->compare_keys = compare_keys_of(mem, pm);
    t->compare = *t->compare_keys ? pm->fn.table_compare : "NULL";
    const char *full = pm->m->full_name;
    t->wkt = "PBJ_WKT_NONE";
#define WKT_OF(kind, name) if (strcmp(full, name) == 0) t->wkt = "PBJ_WKT_" #kind;
    PBJ_WKTS(WKT_OF)
#undef WKT_OF
    for (size_t i = 0; i < pm->fields.n; i++) ir_pool_vec_push(mem, &t->rows, row_of(mem, pm, &pm->fields.v[i], pool));
    for (size_t k = 0; k < pm->oneofs.n; k++) {
        const plan_oneof *po = pm->oneofs.v[k];
        plan_table_oneof o = {.case_member = po->case_member, .member = po->member, .name = pool_add(mem, pool, po->o->name)};
        ir_pool_vec_push(mem, &t->oneof_rows, o);
    }
    plan_table_exts(mem, pm, pool);
    plan_table_view(mem, pm);
    const names_message *n = &pm->fn;
    t->codec = pm->fast_write ? ir_pool_printf(mem, "PBJ_CODEC_REVERSE(%s, %s, %s, %s, %s, %s)", c, n->decode_body, n->size,
                                               n->encode_partial, n->write_reverse_body, pm->recursive ? "DEPTH" : "NO_DEPTH")
               : ir_pool_printf(mem, "PBJ_CODEC(%s, %s, %s, %s)", c, n->decode_body, n->size, n->encode_partial);
}

/* ---- enums ---------------------------------------------------------------------------------------- */

/* An enum value and its place in the declaration (ties of number keep it). */
typedef struct enum_item {
    const ir_enum_value *v;
    size_t at;
} enum_item;

static int by_number(const void *a, const void *b)
{
    const enum_item *x = a, *y = b;
    if (x->v->number != y->v->number) return x->v->number < y->v->number ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const enum_item *)a)->v->name, ((const enum_item *)b)->v->name);
}

static size_t enum_dense(const enum_item *v, size_t n)
{
    size_t k = n ? 1 : 0;
    while (k < n && (int64_t)v[k].v->number == (int64_t)v[0].v->number + (int64_t)k) k++;
    return k;
}

/* Enum pe's table: its values by number (at becomes a value's row), then the rows in the order of their names. */
static void plan_table_enum(ir_pool *mem, plan_enum *pe, const char *pool_name, table_pool *pool)
{
    plan_enum_table *t = &pe->table;
    const ir_enum *e = pe->e;
    size_t n = e->values.n;
    enum_item *items = ir_pool_alloc(mem, (n + 1) * sizeof *items);
    for (size_t i = 0; i < n; i++) items[i] = (enum_item){e->values.v[i], i};
    qsort(items, n, sizeof *items, by_number);
    t->pool = pool_name;
    t->name = pool_add(mem, pool, e->full_name);
    for (size_t i = 0; i < n; i++) {
        plan_enum_row r = {ir_pool_printf(mem, "%" PRId32, items[i].v->number), pool_add(mem, pool, items[i].v->name), items[i].v->name};
        if (items[i].v->number == INT32_MIN) r.number = "(-2147483647 - 1)";
        ir_pool_vec_push(mem, &t->rows, r);
        items[i].at = i;
    }
    t->count = ir_pool_printf(mem, "%zu", n);
    t->dense = ir_pool_printf(mem, "%zu", enum_dense(items, n));
    t->flags = features_closed_enum(e) ? "PBJ_E_CLOSED" : strcmp(e->full_name, "google.protobuf.NullValue") == 0 ? "PBJ_E_NULL_VALUE" : "0";
    qsort(items, n, sizeof *items, by_name);
    textbuf index = {0};
    for (size_t i = 0; i < n; i++) textbuf_printf(&index, "%s%zu", i ? ", " : "", items[i].at);
    t->index = textbuf_finish(&index, mem);
}

void plan_table_file(ir_pool *mem, plan_file *pf)
{
    table_pool pool = {.pf = pf};
    pf->table_pool = names_table_pool(mem, pf->f);
    const char *start = ir_pool_printf(mem, "(const char *)&%s", pf->table_pool);   /* the chunks as one array of bytes */
    for (size_t i = 0; i < pf->enums.n; i++) plan_table_enum(mem, pf->enums.v[i], start, &pool);
    for (size_t i = 0; i < pf->messages.n; i++) plan_table_message(mem, pf->messages.v[i], start, &pool);
    pool_close(mem, &pool);
}
