/* gen.c: seeded random messages of a schema, walking pbjc's IR: canonical wire bytes, with unknown fields, or non-canonical. */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <math.h>

#include "../../src/ir.h"
#include "../../src/resolve.h"
#include "../../src/context.h"
#include "wire.h"

static pbjc_context the_run;             /* this program's one run */

/*
 * usage: gen [-I root]... [-d DEPTH] [-m MESSAGES] FILE.proto BATCH MODE COUNT SEED OUT
 *   DEPTH (5) bounds the nesting, MESSAGES (100) the messages in one item.
 *   BATCH is a message whose field 1 is `repeated Item items`; OUT.bin gets
 *   a BATCH of COUNT random Items.
 *   MODE canonical: bytes exactly as protoc --encode --deterministic_output
 *        writes them (fields in number order, packed scalars, map keys
 *        ascending with key and value always written, no default values).
 *   MODE unknown: canonical, plus unknown fields of every wire type after the
 *        known fields of any message; OUT.known.bin: the same without them.
 *   MODE noncanonical: the same messages written as a parser must accept
 *        them: fields interleaved out of order, packed and unpacked runs
 *        mixed, singular fields written more than once (the last wins,
 *        messages merge), explicit defaults, over-long varints, tags and
 *        lengths, 32-bit and bool varints with high bits set, map entries
 *        shuffled with value before key or either left out, unknown fields
 *        between the item's fields. OUT.known.bin is OUT.bin without the
 *        unknown fields, OUT.unk.bin holds each item's unknown fields (a
 *        field 1 record per item).
 * gen splice A.bin UNK.bin OUT.bin: each item of batch A with the unknown
 *   fields of the same item in UNK appended (what protoc re-encodes).
 * gen wrap ITEM.bin OUT.bin: a batch of the one item in ITEM.bin.
 */

/* ---- a bump allocator, emptied after each item ------------------------- */

typedef struct pool_block {
    struct pool_block *next;
    size_t used, size;
    max_align_t data[];
} pool_block;

static pool_block *pool;

static void *palloc(size_t n) {
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!pool || pool->size - pool->used < n) {
        size_t size = n > (1u << 20) ? n : (1u << 20);
        pool_block *b = malloc(sizeof *b + size);
        if (!b) { perror("malloc"); exit(2); }
        b->next = pool, b->used = 0, b->size = size;
        pool = b;
    }
    void *p = (char *)pool->data + pool->used;
    pool->used += n;
    memset(p, 0, n);
    return p;
}

static void pool_free(void) {
    while (pool) {
        pool_block *next = pool->next;
        free(pool);
        pool = next;
    }
}

/* ---- a schema's messages, fields sorted by number ------------------------ */

typedef struct minfo {
    size_t n;
    ir_field **fields;          /* by number */
} minfo;

static int by_number(const void *a, const void *b) {
    const ir_field *x = *(ir_field *const *)a, *y = *(ir_field *const *)b;
    return (x->number > y->number) - (x->number < y->number);
}

/* Each message's minfo, found by address (open addressing, grown at half full). */
typedef struct info_slot_t { const ir_message *m; minfo *mi; } info_slot_t;
static info_slot_t *infos;
static size_t infos_cap, infos_n;

static size_t info_slot(const ir_message *m) {
    size_t i = ((uintptr_t)m >> 4) & (infos_cap - 1);
    while (infos[i].m && infos[i].m != m) i = (i + 1) & (infos_cap - 1);
    return i;
}

static void infos_grow(void) {
    size_t old_cap = infos_cap;
    info_slot_t *old = infos;
    infos_cap = infos_cap ? infos_cap * 2 : 256;
    infos = ir_pool_alloc(&the_run.pool, infos_cap * sizeof *infos);  /* zeroed, freed with the IR's pool */
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].m) infos[info_slot(old[i].m)] = old[i];
}

static minfo *info(ir_message *m) {
    if (2 * (infos_n + 1) > infos_cap) infos_grow();
    size_t slot = info_slot(m);
    if (infos[slot].m) return infos[slot].mi;
    minfo *mi = ir_pool_alloc(&the_run.pool, sizeof *mi);            /* the IR's pool: freed with it */
    mi->n = m->fields.n;
    mi->fields = ir_pool_alloc(&the_run.pool, (mi->n + 1) * sizeof *mi->fields);
    memcpy(mi->fields, m->fields.v, mi->n * sizeof *mi->fields);
    if (mi->n) qsort(mi->fields, mi->n, sizeof *mi->fields, by_number);
    infos[slot].m = m;
    infos[slot].mi = mi;
    infos_n++;
    return mi;
}

/* A number the message uses: a field's, or one in an extension range (a record there may be a known
 * extension's, which decode checks against its type, as protobuf does). */
static bool known_number(ir_message *m, uint64_t number) {
    minfo *mi = info(m);
    for (size_t i = 0; i < mi->n; i++)
        if ((uint64_t)mi->fields[i]->number == number) return true;
    for (size_t i = 0; !m->message_set_wire_format && i < m->extension_ranges.n; i++)
        if (number >= (uint64_t)m->extension_ranges.v[i].start && number <= (uint64_t)m->extension_ranges.v[i].end)
            return true;
    return false;
}

static bool in_real_oneof(const ir_field *f) { return f->oneof && !f->oneof->synthetic; }
static bool is_map(const ir_field *f) { return f->is_map; }
static bool is_repeated(const ir_field *f) { return f->label == IR_LABEL_REPEATED && !f->is_map; }

static bool is_message(const ir_field *f) { return f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP; }

/* Singular fields written whenever set, even to their default (proto2, proto3 optional, messages):
 * asked of the resolved features, so editions schemas are generated for too. */
static bool has_presence(const ir_field *f) {
    return features_explicit_presence(f) || is_message(f);
}

static bool is_packed(const ir_field *f) {
    return is_repeated(f) && f->packed;       /* resolve's one rule, from the features */
}

static ir_field *entry_field(const ir_field *map, int number) {
    minfo *mi = info(map->message_type);
    return mi->fields[number - 1];
}

/* ---- random values -------------------------------------------------------- */

typedef struct dmsg dmsg;

/* One value: u holds the wire form of varint and fixed types (zigzag applied,
 * float bits); s/n strings and bytes; m messages. */
typedef struct dval {
    uint64_t u;
    const uint8_t *s;
    size_t n;
    dmsg *m;
} dval;

/* A field that is written: count values (maps: key, value pairs). */
typedef struct dfield {
    ir_field *f;
    size_t count;
    dval *v;
} dfield;

struct dmsg {
    ir_message *type;
    size_t n;
    dfield *fields;             /* by number */
    const uint8_t *unknown;     /* written after the known fields */
    size_t unknown_len;
};

typedef struct gen {
    rng r;
    int max_depth;
    bool unknowns;              /* unknown fields in any message */
    bool noncanonical;
    bool drop_unknown;          /* write messages without their unknown fields */
    size_t messages;            /* made for the current item */
    size_t max_messages;        /* per item: no more nested messages past it */
} gen;

static int64_t some_int(gen *g, int bits) {
    static const int64_t edge[] = {0, 1, -1, 2, 127, 128, -128, 300, 16383, 16384, 65535,
                                   INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, UINT32_MAX};
    int64_t v;
    if (rng_one_in(&g->r, 3)) v = edge[rng_below(&g->r, sizeof edge / sizeof *edge)];
    else v = (int64_t)(rng_next(&g->r) >> rng_below(&g->r, 64));
    if (rng_one_in(&g->r, 4)) v = (int64_t)(0 - (uint64_t)v);
    if (bits == 32) v = (int32_t)(uint32_t)v;
    return v;
}

static uint64_t some_float(gen *g) {
    static const float edge[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.1f, 0.5f, 3.14159265f, 1e-10f, 1e10f,
                                 FLT_MAX, -FLT_MAX, FLT_MIN, FLT_EPSILON, 1.4e-45f, 16777216.0f,
                                 16777217.0f, 123456.789f, 1e38f};
    float f;
    uint32_t bits = (uint32_t)rng_next(&g->r);
    switch (rng_below(&g->r, 6)) {
    case 0: f = edge[rng_below(&g->r, sizeof edge / sizeof *edge)]; break;
    case 1: f = rng_below(&g->r, 3) == 0 ? NAN : rng_below(&g->r, 2) ? INFINITY : -INFINITY; break;
    case 2: f = (float)some_int(g, 32) / (float)pow(10, (double)rng_below(&g->r, 10)); break;
    default: memcpy(&f, &bits, 4); break;
    }
    if (isnan(f)) return 0x7fc00000u;                    /* the NaN protoc's text parser makes */
    memcpy(&bits, &f, 4);
    return bits;
}

static uint64_t some_double(gen *g) {
    static const double edge[] = {0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1e15, 1e16, 1e17, 1e-300,
                                  DBL_MAX, -DBL_MAX, DBL_MIN, DBL_EPSILON, 4.9406564584124654e-324,
                                  9007199254740993.0, 123456789.123456789};
    double d;
    uint64_t bits = rng_next(&g->r);
    switch (rng_below(&g->r, 6)) {
    case 0: d = edge[rng_below(&g->r, sizeof edge / sizeof *edge)]; break;
    case 1: d = rng_below(&g->r, 3) == 0 ? NAN : rng_below(&g->r, 2) ? INFINITY : -INFINITY; break;
    case 2: d = (double)some_int(g, 64) / pow(10, (double)rng_below(&g->r, 20)); break;
    default: memcpy(&d, &bits, 8); break;
    }
    if (isnan(d)) return 0x7ff8000000000000u;
    memcpy(&bits, &d, 8);
    return bits;
}

static size_t some_length(gen *g) {
    switch (rng_below(&g->r, 20)) {
    case 0: case 1: case 2: case 3: case 4: return 0;
    case 5: return 100 + rng_below(&g->r, rng_one_in(&g->r, 10) ? 5000 : 300);
    default: return 1 + rng_below(&g->r, 24);
    }
}

/* Valid UTF-8 (no surrogates), every ASCII character likely. */
static void some_text(gen *g, dval *v) {
    size_t want = some_length(g), n = 0;
    uint8_t *s = palloc(want + 4);
    while (n < want) {
        uint32_t c;
        switch (rng_below(&g->r, 8)) {
        case 0: c = 0x80 + (uint32_t)rng_below(&g->r, 0x780); break;
        case 1: c = 0x800 + (uint32_t)rng_below(&g->r, 0xd800 - 0x800); break;
        case 2: c = 0xe000 + (uint32_t)rng_below(&g->r, 0x2000); break;
        case 3: c = 0x10000 + (uint32_t)rng_below(&g->r, 0x100000); break;
        default: c = (uint32_t)rng_below(&g->r, 0x80); break;
        }
        if (c < 0x80) s[n++] = (uint8_t)c;
        else if (c < 0x800) s[n++] = (uint8_t)(0xc0 | c >> 6), s[n++] = (uint8_t)(0x80 | (c & 0x3f));
        else if (c < 0x10000)
            s[n++] = (uint8_t)(0xe0 | c >> 12), s[n++] = (uint8_t)(0x80 | ((c >> 6) & 0x3f)),
            s[n++] = (uint8_t)(0x80 | (c & 0x3f));
        else
            s[n++] = (uint8_t)(0xf0 | c >> 18), s[n++] = (uint8_t)(0x80 | ((c >> 12) & 0x3f)),
            s[n++] = (uint8_t)(0x80 | ((c >> 6) & 0x3f)), s[n++] = (uint8_t)(0x80 | (c & 0x3f));
    }
    v->s = s, v->n = n;
}

static void some_bytes(gen *g, dval *v) {
    size_t n = some_length(g);
    uint8_t *s = palloc(n + 1);
    for (size_t i = 0; i < n; i++) s[i] = (uint8_t)rng_next(&g->r);
    v->s = s, v->n = n;
}

/* Open (proto3) enums take any value; closed (proto2) ones only theirs. */
static int32_t some_enum(gen *g, const ir_enum *e) {
    bool closed = features_closed_enum(e);
    if (e->values.n && (closed || !rng_one_in(&g->r, 5))) return e->values.v[rng_below(&g->r, e->values.n)]->number;
    return (int32_t)some_int(g, 32);                     /* open enum: any value, mostly unknown */
}

static dmsg *some_message(gen *g, ir_message *m, int depth);

static dval some_value(gen *g, const ir_field *f, int depth) {
    dval v = {0};
    switch (f->type) {
    case IR_TYPE_INT32: v.u = (uint64_t)some_int(g, 32); break;
    case IR_TYPE_INT64: case IR_TYPE_UINT64: v.u = (uint64_t)some_int(g, 64); break;
    case IR_TYPE_UINT32: v.u = (uint32_t)some_int(g, 32); break;
    case IR_TYPE_SINT32: v.u = (uint32_t)zigzag_s64(some_int(g, 32)); break;
    case IR_TYPE_SINT64: v.u = zigzag_s64(some_int(g, 64)); break;
    case IR_TYPE_BOOL: v.u = rng_below(&g->r, 2); break;
    case IR_TYPE_ENUM: v.u = (uint64_t)(int64_t)some_enum(g, f->enum_type); break;
    case IR_TYPE_FIXED32: case IR_TYPE_SFIXED32: v.u = (uint32_t)some_int(g, 32); break;
    case IR_TYPE_FIXED64: case IR_TYPE_SFIXED64: v.u = (uint64_t)some_int(g, 64); break;
    case IR_TYPE_FLOAT: v.u = some_float(g); break;
    case IR_TYPE_DOUBLE: v.u = some_double(g); break;
    case IR_TYPE_STRING: some_text(g, &v); break;
    case IR_TYPE_BYTES: some_bytes(g, &v); break;
    case IR_TYPE_MESSAGE: case IR_TYPE_GROUP: v.m = some_message(g, f->message_type, depth + 1); break;
    default: fprintf(stderr, "gen: field %s has no type\n", f->full_name); exit(2);
    }
    return v;
}

static bool is_default(const ir_field *f, const dval *v) {
    if (is_message(f)) return v->m == NULL;
    if (f->type == IR_TYPE_STRING || f->type == IR_TYPE_BYTES) return v->n == 0;
    return v->u == 0;                                    /* -0.0 is not a default: protoc writes it */
}

/* Map key order as protoc sorts keys for deterministic output. */
static int key_cmp(const ir_field *key, const dval *a, const dval *b) {
    switch (key->type) {
    case IR_TYPE_STRING: {
        size_t n = a->n < b->n ? a->n : b->n;
        int c = n ? memcmp(a->s, b->s, n) : 0;
        return c ? c : (a->n > b->n) - (a->n < b->n);
    }
    case IR_TYPE_INT32: case IR_TYPE_INT64: case IR_TYPE_SFIXED64: {
        int64_t x = (int64_t)a->u, y = (int64_t)b->u;
        return (x > y) - (x < y);
    }
    case IR_TYPE_SFIXED32: {
        int32_t x = (int32_t)(uint32_t)a->u, y = (int32_t)(uint32_t)b->u;
        return (x > y) - (x < y);
    }
    case IR_TYPE_SINT32: case IR_TYPE_SINT64: {
        int64_t x = unzigzag_s64(a->u), y = unzigzag_s64(b->u);
        return (x > y) - (x < y);
    }
    default:
        return (a->u > b->u) - (a->u < b->u);
    }
}

static size_t some_count(gen *g, const ir_field *f, int depth) {
    bool message = is_message(f) || (is_map(f) && entry_field(f, 2)->type == IR_TYPE_MESSAGE);
    if (message && (depth >= g->max_depth || g->messages >= g->max_messages)) return 0;
    switch (rng_below(&g->r, 20)) {
    case 0: case 1: case 2: case 3: case 4: case 5: case 6: return 0;
    case 7: case 8: case 9: case 10: case 11: case 12: case 13: return 1;
    case 14: case 15: case 16: return 2 + rng_below(&g->r, 3);
    case 17: case 18: return 5 + rng_below(&g->r, message ? 5 : 30);
    default:                                             /* huge, rarely */
        if (message) return depth == 0 && rng_one_in(&g->r, 4) ? 40 + rng_below(&g->r, 60) : 1;
        return rng_one_in(&g->r, 25) ? 500 + rng_below(&g->r, 2500) : 1;
    }
}

static void some_map(gen *g, const ir_field *f, int depth, dfield *out) {
    const ir_field *key = entry_field(f, 1), *value = entry_field(f, 2);
    size_t n = some_count(g, f, depth), kept = 0;
    dval *keys = palloc((n + 1) * sizeof *keys);
    for (size_t i = 0; i < n; i++) keys[i] = some_value(g, key, depth);
    for (size_t i = 1; i < n; i++)                       /* insertion sort: counts are small */
        for (size_t j = i; j > 0 && key_cmp(key, &keys[j - 1], &keys[j]) > 0; j--) {
            dval t = keys[j];
            keys[j] = keys[j - 1], keys[j - 1] = t;
        }
    out->v = palloc((2 * n + 1) * sizeof *out->v);
    for (size_t i = 0; i < n; i++) {
        if (kept && key_cmp(key, &out->v[2 * (kept - 1)], &keys[i]) == 0) continue;
        out->v[2 * kept] = keys[i];
        out->v[2 * kept + 1] = some_value(g, value, depth);
        if (value->type == IR_TYPE_MESSAGE && !out->v[2 * kept + 1].m)
            out->v[2 * kept + 1].m = palloc(sizeof(dmsg)), out->v[2 * kept + 1].m->type = value->message_type;
        kept++;
    }
    out->count = kept;
}

/* A message set's unknown fields: items (group 1 { type_id = 2; message = 3 }), the only fields protobuf writes
 * back, with type_ids no extension uses, ascending (pbj orders a message set's items by type_id). */
static void some_unknown_items(gen *g, wbuf *b) {
    size_t n = rng_below(&g->r, 4);
    for (size_t i = 0; i < n; i++) {
        wbuf msg = {0};
        wb_random_fields(&msg, &g->r, 2);
        wb_tag(b, 1, 3);
        wb_tag(b, 2, 0);
        wb_varint(b, 1000000 + 1000 * i + rng_below(&g->r, 1000));
        wb_len_field(b, 3, msg.p, msg.n);
        wb_tag(b, 1, 4);
        wb_free(&msg);
    }
}

/* Unknown fields of every wire type, with numbers the message does not use. */
static void some_unknowns(gen *g, ir_message *m, dmsg *d) {
    wbuf b = {0};
    size_t n = m->message_set_wire_format ? 0 : rng_below(&g->r, 4);
    if (m->message_set_wire_format) some_unknown_items(g, &b);
    for (size_t i = 0; i < n; i++) {
        uint32_t number;
        do number = rng_one_in(&g->r, 2) ? 1 + (uint32_t)rng_below(&g->r, 60) : 1 + (uint32_t)rng_below(&g->r, 536870911);
        while (known_number(m, number));
        wb_random_field(&b, &g->r, number, (int)rng_below(&g->r, 5));
    }
    uint8_t *copy = palloc(b.n + 1);
    if (b.n) memcpy(copy, b.p, b.n);
    d->unknown = copy, d->unknown_len = b.n;
    wb_free(&b);
}

/* google.protobuf.*Value: pbj unboxes these to a value with presence, so
 * unknown fields inside one cannot be kept (a documented departure). */
static bool is_wrapper(const ir_message *m) {
    size_t n = strlen(m->full_name);
    return strncmp(m->full_name, "google.protobuf.", 16) == 0 && n > 5 && strcmp(m->full_name + n - 5, "Value") == 0;
}

/* The member chosen for oneof o of m (chosen[] follows m->oneofs). */
static ir_field *oneof_choice(const ir_message *m, ir_field **chosen, const ir_oneof *o) {
    for (size_t i = 0; i < m->oneofs.n; i++)
        if (m->oneofs.v[i] == o) return chosen[i];
    return NULL;
}

static dmsg *some_message(gen *g, ir_message *m, int depth) {
    minfo *mi = info(m);
    dmsg *d = palloc(sizeof *d);
    d->type = m;
    d->fields = palloc((mi->n + 1) * sizeof *d->fields);
    g->messages++;
    ir_field **chosen = palloc((m->oneofs.n + 1) * sizeof *chosen);
    for (size_t i = 0; i < m->oneofs.n; i++) {          /* one member or none of each oneof */
        ir_oneof *o = m->oneofs.v[i];
        if (!o->synthetic && o->fields.n && !rng_one_in(&g->r, 3)) chosen[i] = o->fields.v[rng_below(&g->r, o->fields.n)];
    }
    for (size_t i = 0; i < mi->n; i++) {
        ir_field *f = mi->fields[i];
        dfield *out = &d->fields[d->n];
        out->f = f;
        if (is_map(f)) {
            some_map(g, f, depth, out);
            if (out->count) d->n++;
        } else if (is_repeated(f)) {
            out->count = some_count(g, f, depth);
            out->v = palloc((out->count + 1) * sizeof *out->v);
            for (size_t k = 0; k < out->count; k++) {
                out->v[k] = some_value(g, f, depth);
                if (is_message(f) && !out->v[k].m)
                    out->v[k].m = palloc(sizeof(dmsg)), out->v[k].m->type = f->message_type;
            }
            if (out->count) d->n++;
        } else {
            bool message = is_message(f);
            bool present;
            if (in_real_oneof(f)) present = oneof_choice(m, chosen, f->oneof) == f;
            else if (features_required(f)) present = true;
            else if (has_presence(f))
                present = (!message || (depth < g->max_depth && g->messages < g->max_messages)) && rng_below(&g->r, 2);
            else present = !rng_one_in(&g->r, 3);
            if (!present) continue;
            out->v = palloc(sizeof *out->v);
            out->v[0] = some_value(g, f, depth);
            if (message && !out->v[0].m) out->v[0].m = palloc(sizeof(dmsg)), out->v[0].m->type = f->message_type;
            if (!in_real_oneof(f) && !has_presence(f) && is_default(f, &out->v[0])) continue;
            out->count = 1;
            d->n++;
        }
    }
    if (g->unknowns && !is_wrapper(m) && rng_one_in(&g->r, 3)) some_unknowns(g, m, d);
    return d;
}

/* A message past max_depth is empty, so recursion ends. */
static dmsg *bounded_message(gen *g, ir_message *m, int depth) {
    if (depth > g->max_depth) {
        dmsg *d = palloc(sizeof *d);
        d->type = m;
        return d;
    }
    return some_message(g, m, depth);
}

/* ---- serialization: canonical, or perturbed where chance() says so ------ */

/* True with probability 1/n, in the non-canonical mode only. */
static bool chance(gen *g, uint64_t n) { return g->noncanonical && rng_one_in(&g->r, n); }

/* Records of one message before they are interleaved: each has a group (the
 * order within a group is kept: a field's values, a oneof's members). */
typedef struct rec {
    size_t group;
    bool unknown;
    wbuf bytes;
} rec;

typedef struct recs {
    rec *v;
    size_t n, cap;
    size_t groups;
} recs;

static wbuf *new_rec(recs *rs, size_t group, bool unknown) {
    if (rs->n == rs->cap) {
        rs->cap = rs->cap ? rs->cap * 2 : 16;
        rs->v = realloc(rs->v, rs->cap * sizeof *rs->v);
    }
    rec *r = &rs->v[rs->n++];
    memset(r, 0, sizeof *r);
    r->group = group, r->unknown = unknown;
    return &r->bytes;
}

static void free_recs(recs *rs) {
    for (size_t i = 0; i < rs->n; i++) wb_free(&rs->v[i].bytes);
    free(rs->v);
    memset(rs, 0, sizeof *rs);
}

/* A varint padded with redundant continuation bytes now and then, up to max
 * bytes (protoc reads values of up to 10 bytes, tags and lengths of up to 5). */
static void nc_varint(gen *g, wbuf *b, uint64_t v, size_t max) {
    size_t n = 1;
    for (uint64_t x = v >> 7; x; x >>= 7) n++;
    if (n >= max || !chance(g, 40)) {
        wb_varint(b, v);
        return;
    }
    size_t want = n + 1 + rng_below(&g->r, max - n);
    for (size_t i = 0; i + 1 < want; i++, v >>= 7) wb_byte(b, (uint8_t)(0x80 | (v & 0x7f)));
    wb_byte(b, (uint8_t)v);
}

static void nc_tag(gen *g, wbuf *b, uint32_t number, int wire_type) {
    nc_varint(g, b, (uint64_t)number << 3 | (uint32_t)wire_type, 5);
}

static void nc_len_field(gen *g, wbuf *b, uint32_t number, const void *data, size_t n) {
    nc_tag(g, b, number, 2);
    nc_varint(g, b, n, 5);
    wb_bytes(b, data, n);
}

static void nc_message(gen *g, recs *out, const dmsg *d, bool top);

/* All records of a nested message, interleaved, into b (optionally only part of them). */
static void nc_flatten(const recs *rs, size_t from, size_t to, wbuf *b) {
    for (size_t i = from; i < to; i++) wb_bytes(b, rs->v[i].bytes.p, rs->v[i].bytes.n);
}

/* The same value in more bits, as protoc reads it: a bool is any non-zero
 * varint, a 32-bit varint keeps its low 32 bits. */
static uint64_t nc_widen(gen *g, ir_type type, uint64_t v) {
    if (!chance(g, 30)) return v;
    uint64_t high = rng_next(&g->r) << 32;
    switch (type) {
    case IR_TYPE_BOOL: return v ? (uint64_t)1 << rng_below(&g->r, 64) : 0;
    case IR_TYPE_INT32: case IR_TYPE_ENUM: case IR_TYPE_UINT32: case IR_TYPE_SINT32: return (v & 0xffffffffu) | high;
    default: return v;
    }
}

/* A scalar, string or bytes value without its tag. */
static void nc_raw(gen *g, wbuf *b, const ir_field *f, const dval *v) {
    switch (ir_type_wire_type(f->type)) {
    case 0: nc_varint(g, b, nc_widen(g, f->type, v->u), 10); break;
    case 1: wb_fixed(b, v->u, 8); break;
    case 5: wb_fixed(b, v->u, 4); break;
    default:
        nc_varint(g, b, v->n, 5);
        wb_bytes(b, v->s, v->n);
    }
}

/* A message field's record around an encoded body: length-delimited, or a group's start and end tags. */
static void nc_sub(gen *g, wbuf *b, const ir_field *f, const wbuf *body) {
    if (features_delimited(f)) {
        nc_tag(g, b, (uint32_t)f->number, 3);
        wb_bytes(b, body->p, body->n);
        nc_tag(g, b, (uint32_t)f->number, 4);
    } else {
        nc_len_field(g, b, (uint32_t)f->number, body->p, body->n);
    }
}

/* One value with its tag. */
static void nc_value(gen *g, wbuf *b, const ir_field *f, const dval *v) {
    if (v->m) {
        recs inner = {0};
        wbuf body = {0};
        nc_message(g, &inner, v->m, false);
        nc_flatten(&inner, 0, inner.n, &body);
        nc_sub(g, b, f, &body);
        wb_free(&body);
        free_recs(&inner);
        return;
    }
    nc_tag(g, b, (uint32_t)f->number, ir_type_wire_type(f->type));
    nc_raw(g, b, f, v);
}

/* A map entry: key and value in either order, a default one sometimes left out. */
static void nc_entry(gen *g, recs *out, const dfield *df, size_t i) {
    const ir_field *kf = entry_field(df->f, 1), *vf = entry_field(df->f, 2);
    const dval *k = &df->v[2 * i], *v = &df->v[2 * i + 1];
    bool swap = chance(g, 3);
    bool skip_key = is_default(kf, k) && chance(g, 2);
    bool skip_value = !is_message(vf) && is_default(vf, v) && chance(g, 2);
    if (is_message(vf) && v->m && v->m->n == 0 && !v->m->unknown_len && chance(g, 2))
        skip_value = true;                               /* an empty message value may be absent */
    wbuf e = {0};
    if (!swap && !skip_key) nc_value(g, &e, kf, k);
    if (!skip_value) nc_value(g, &e, vf, v);
    if (swap && !skip_key) nc_value(g, &e, kf, k);
    wbuf *b = new_rec(out, out->groups++, false);        /* keys are unique: entries go anywhere */
    nc_len_field(g, b, (uint32_t)df->f->number, e.p, e.n);
    wb_free(&e);
}

/* Packed elements, or one by one; non-canonical: runs of either kind. */
static void nc_repeated_scalar(gen *g, recs *out, const dfield *df, size_t group) {
    size_t k = 0;
    while (k < df->count) {
        size_t run = g->noncanonical ? 1 + rng_below(&g->r, df->count - k) : df->count;
        if (g->noncanonical ? rng_one_in(&g->r, 2) : is_packed(df->f)) {
            wbuf packed = {0};
            for (size_t i = k; i < k + run; i++) nc_raw(g, &packed, df->f, &df->v[i]);
            nc_len_field(g, new_rec(out, group, false), (uint32_t)df->f->number, packed.p, packed.n);
            wb_free(&packed);
        } else {
            for (size_t i = k; i < k + run; i++) nc_value(g, new_rec(out, group, false), df->f, &df->v[i]);
        }
        k += run;
        if (chance(g, 20)) nc_len_field(g, new_rec(out, group, false), (uint32_t)df->f->number, "", 0);
    }
}

/* An earlier value of the same field (or another member of its oneof): the last one wins. */
static void nc_decoy(gen *g, recs *out, const ir_field *f, size_t group, int depth) {
    if (in_real_oneof(f)) f = f->oneof->fields.v[rng_below(&g->r, f->oneof->fields.n)];
    dval v = is_message(f) ? (dval){.m = bounded_message(g, f->message_type, depth)} : some_value(g, f, g->max_depth);
    nc_value(g, new_rec(out, group, false), f, &v);
}

/* A message's records; with top, unknown fields among them (non-canonical mode). */
static void nc_message(gen *g, recs *out, const dmsg *d, bool top) {
    minfo *mi = info(d->type);
    size_t base = out->groups;
    out->groups += mi->n;
    for (size_t i = 0; i < d->n; i++) {
        const dfield *df = &d->fields[i];
        const ir_field *f = df->f;
        size_t group = base;
        while (mi->fields[group - base] != f) group++;
        if (in_real_oneof(f)) {                          /* a oneof's members share the first one's group */
            for (size_t j = 0; j < mi->n; j++)
                if (mi->fields[j]->oneof == f->oneof) { group = base + j; break; }
        }
        if (is_map(f)) {
            for (size_t k = 0; k < df->count; k++) nc_entry(g, out, df, k);
        } else if (is_repeated(f) && ir_type_is_packable(f->type)) {
            nc_repeated_scalar(g, out, df, group);
        } else if (is_repeated(f)) {
            for (size_t k = 0; k < df->count; k++) nc_value(g, new_rec(out, group, false), f, &df->v[k]);
        } else if (is_message(f)) {
            if (chance(g, 6)) nc_decoy(g, out, f, group, g->max_depth);
            recs inner = {0};
            nc_message(g, &inner, df->v[0].m, false);
            size_t cut = inner.n > 1 && chance(g, 3) ? 1 + rng_below(&g->r, inner.n - 1) : inner.n;
            for (size_t part = 0; part < 2; part++) {    /* one record, or two that merge */
                size_t from = part ? cut : 0, to = part ? inner.n : cut;
                if (part && from == to) break;
                wbuf body = {0};
                nc_flatten(&inner, from, to, &body);
                nc_sub(g, new_rec(out, group, false), f, &body);
                wb_free(&body);
            }
            free_recs(&inner);
        } else {
            if (chance(g, 5)) nc_decoy(g, out, f, group, g->max_depth);
            nc_value(g, new_rec(out, group, false), f, &df->v[0]);
        }
    }
    for (size_t i = 0; i < mi->n; i++) {                 /* absent scalars: a value, then the default */
        ir_field *f = mi->fields[i];
        if (is_map(f) || is_repeated(f) || in_real_oneof(f) || has_presence(f) || !chance(g, 12)) continue;
        bool present = false;
        for (size_t k = 0; k < d->n; k++) present |= d->fields[k].f == f;
        if (present) continue;
        dval zero = {0};
        nc_decoy(g, out, f, base + i, g->max_depth);
        nc_value(g, new_rec(out, base + i, false), f, &zero);
    }
    if (!g->drop_unknown)                                /* unknown mode: kept last */
        wb_bytes(new_rec(out, out->groups++, false), d->unknown, d->unknown_len);
    if (top && g->noncanonical) {
        size_t n = rng_below(&g->r, 4);
        for (size_t i = 0; i < n; i++) {
            uint32_t number;
            do number = 1 + (uint32_t)rng_below(&g->r, rng_one_in(&g->r, 2) ? 200 : 536870911);
            while (known_number(d->type, number));
            wb_random_field(new_rec(out, out->groups++, true), &g->r, number, (int)rng_below(&g->r, 4));
        }
    }
    /* interleave: a random order that keeps each group's records in order */
    size_t n = out->n;
    size_t *slots = malloc((n + 1) * sizeof *slots), *next = calloc(out->groups + 1, sizeof *next);
    rec *shuffled = malloc((n + 1) * sizeof *shuffled);
    for (size_t i = 0; i < n; i++) slots[i] = out->v[i].group;
    if (g->noncanonical && !rng_one_in(&g->r, 4))
        for (size_t i = n; i > 1; i--) {
            size_t j = rng_below(&g->r, i), t = slots[i - 1];
            slots[i - 1] = slots[j], slots[j] = t;
        }
    for (size_t i = 0; i < n; i++) {                     /* the next unused record of slots[i]'s group */
        size_t j = next[slots[i]];
        while (out->v[j].group != slots[i]) j++;
        shuffled[i] = out->v[j];
        next[slots[i]] = j + 1;
    }
    free(out->v);
    out->v = shuffled;
    out->cap = n + 1;
    free(slots);
    free(next);
}

/* ---- batches and the command line --------------------------------------- */

static ir_message *find_message(ir_program *prog, const char *full_name) {
    for (size_t i = 0; i < prog->files.n; i++) {
        ir_file *f = prog->files.v[i];
        IR_VEC(ir_message *) todo = {0};
        for (size_t k = 0; k < f->messages.n; k++) ir_pool_vec_push(&the_run.pool, &todo, f->messages.v[k]);
        while (todo.n) {
            ir_message *m = todo.v[--todo.n];
            if (strcmp(m->full_name, full_name) == 0) return m;
            for (size_t k = 0; k < m->messages.n; k++) ir_pool_vec_push(&the_run.pool, &todo, m->messages.v[k]);
        }
    }
    return NULL;
}

static void write_or_die(const wbuf *b, const char *prefix, const char *suffix) {
    char path[4096];
    snprintf(path, sizeof path, "%s%s", prefix, suffix);
    if (wb_write_file(b, path) != 0) {
        perror(path);
        exit(2);
    }
}

static int usage(void) {
    fprintf(stderr, "usage: gen [-I root]... [-d DEPTH] [-m MESSAGES] FILE.proto BATCH canonical|unknown|noncanonical COUNT SEED OUT\n"
                    "       gen splice A.bin UNK.bin OUT.bin\n"
                    "       gen wrap ITEM.bin OUT.bin\n");
    return 2;
}

static int splice(const char *a_path, const char *unk_path, const char *out_path) {
    wbuf a = {0}, unk = {0}, out = {0};
    if (wb_read_file(&a, a_path) != 0 || wb_read_file(&unk, unk_path) != 0) {
        perror("gen splice");
        return 2;
    }
    const uint8_t *p = a.p, *pe = a.p + a.n, *q = unk.p, *qe = unk.p + unk.n;
    while (p < pe) {
        const uint8_t *item, *extra;
        size_t item_len, extra_len;
        if (!wb_next_item(&p, pe, &item, &item_len) || !wb_next_item(&q, qe, &extra, &extra_len)) {
            fprintf(stderr, "gen splice: %s and %s do not match\n", a_path, unk_path);
            return 1;
        }
        wb_tag(&out, 1, 2);
        wb_varint(&out, item_len + extra_len);
        wb_bytes(&out, item, item_len);
        wb_bytes(&out, extra, extra_len);
    }
    if (q != qe || wb_write_file(&out, out_path) != 0) {
        fprintf(stderr, "gen splice: %s and %s do not match\n", a_path, unk_path);
        return 1;
    }
    wb_free(&a), wb_free(&unk), wb_free(&out);
    return 0;
}

static int wrap(const char *item_path, const char *out_path) {
    wbuf item = {0}, out = {0};
    if (wb_read_file(&item, item_path) != 0) {
        perror(item_path);
        return 2;
    }
    wb_len_field(&out, 1, item.p, item.n);
    int rc = wb_write_file(&out, out_path);
    if (rc != 0) perror(out_path);
    wb_free(&item), wb_free(&out);
    return rc ? 2 : 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "splice") == 0) return splice(argv[2], argv[3], argv[4]);
    if (argc == 4 && strcmp(argv[1], "wrap") == 0) return wrap(argv[2], argv[3]);
    context_begin(&the_run);
    ir_program prog = {0};
    context_program(&the_run, &prog);
    gen g = {.max_depth = 5, .max_messages = 100};
    int i = 1;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "-I") == 0) ir_pool_vec_push(&the_run.pool, &prog.roots, argv[i + 1]);
        else if (strcmp(argv[i], "-d") == 0) g.max_depth = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "-m") == 0) g.max_messages = (size_t)atol(argv[i + 1]);
        else return usage();
    }
    if (argc - i != 6) return usage();
    if (!prog.roots.n) ir_pool_vec_push(&the_run.pool, &prog.roots, ".");
    const char *file = argv[i], *batch_name = argv[i + 1], *mode = argv[i + 2], *out = argv[i + 5];
    long count = atol(argv[i + 3]);
    g.r.s = strtoull(argv[i + 4], NULL, 10);
    g.unknowns = strcmp(mode, "unknown") == 0;
    g.noncanonical = strcmp(mode, "noncanonical") == 0;
    if (!g.unknowns && !g.noncanonical && strcmp(mode, "canonical") != 0) return usage();
    if (resolve_program(&prog, &file, 1) != 0) return 1;
    ir_message *batch = find_message(&prog, batch_name);
    if (!batch || !batch->fields.n || batch->fields.v[0]->number != 1 || !is_repeated(batch->fields.v[0]) ||
        batch->fields.v[0]->type != IR_TYPE_MESSAGE) {
        fprintf(stderr, "gen: %s is not a message whose field 1 is a repeated message\n", batch_name);
        return 2;
    }
    ir_message *item = batch->fields.v[0]->message_type;
    wbuf all = {0}, known = {0}, unknown = {0};
    for (long k = 0; k < count; k++) {
        g.messages = 0;
        dmsg *d = some_message(&g, item, 0);
        recs rs = {0};
        wbuf b[3] = {{0}};
        nc_message(&g, &rs, d, true);
        for (size_t r = 0; r < rs.n; r++) {
            wb_bytes(&b[0], rs.v[r].bytes.p, rs.v[r].bytes.n);
            wb_bytes(&b[rs.v[r].unknown ? 2 : 1], rs.v[r].bytes.p, rs.v[r].bytes.n);
        }
        wb_len_field(&all, 1, b[0].p, b[0].n);
        if (g.noncanonical) {
            wb_len_field(&known, 1, b[1].p, b[1].n);
            wb_len_field(&unknown, 1, b[2].p, b[2].n);
        }
        for (int r = 0; r < 3; r++) wb_free(&b[r]);
        free_recs(&rs);
        if (g.unknowns) {                                /* the same item without its unknown fields */
            g.drop_unknown = true;
            nc_message(&g, &rs, d, true);
            for (size_t r = 0; r < rs.n; r++) wb_bytes(&b[1], rs.v[r].bytes.p, rs.v[r].bytes.n);
            wb_len_field(&known, 1, b[1].p, b[1].n);
            wb_free(&b[1]);
            free_recs(&rs);
            g.drop_unknown = false;
        }
        pool_free();
    }
    write_or_die(&all, out, ".bin");
    if (g.noncanonical || g.unknowns) write_or_die(&known, out, ".known.bin");
    if (g.noncanonical) {
        write_or_die(&unknown, out, ".unk.bin");
    }
    wb_free(&all), wb_free(&known), wb_free(&unknown);
    return 0;
}
