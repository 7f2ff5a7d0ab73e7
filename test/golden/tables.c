/* tables.c: every field table of a golden case checked against its generated code: each row's field set through the
 * table alone must encode (by the generated encoder) as that field's number and wire type, and print under its name.
 * Built per case: HEADER includes the case's headers, TABLES lists T(M) for each of its messages. */
#include <stdio.h>
#include <stdlib.h>

#include <pbj.h>
#include <pbj_text.h>
#include HEADER
#include TABLES

static int failures;

#define CHECK(cond, ...)                                                \
    do {                                                                \
        if (!(cond)) {                                                  \
            failures++;                                                 \
            fprintf(stderr, "FAIL tables: %s: ", t->pool + t->name);   \
            fprintf(stderr, __VA_ARGS__);                               \
            fprintf(stderr, "\n");                                      \
        }                                                               \
    } while (0)

static uint8_t *at(void *m, uint32_t offset) { return (uint8_t *)m + offset; }

/* The wire type of one value of f as the encoder writes it. */
static unsigned wire_type(const pbj_field *f)
{
    if ((f->flags & PBJ_F_PACKED) || f->mode == PBJ_MODE_WRAPPER) return 2;   /* a wrapper is a message on the wire */
    switch (f->type) {
    case PBJ_TYPE_DOUBLE: case PBJ_TYPE_FIXED64: case PBJ_TYPE_SFIXED64: return 1;
    case PBJ_TYPE_STRING: case PBJ_TYPE_BYTES: case PBJ_TYPE_MESSAGE: return 2;
    case PBJ_TYPE_GROUP: return 3;
    case PBJ_TYPE_FLOAT: case PBJ_TYPE_FIXED32: case PBJ_TYPE_SFIXED32: return 5;
    default: return 0;
    }
}

/* A message of type t, made as M_init makes it, in arena. */
static void *new_message(const pbj_table *t, pbj_arena *arena)
{
    void *m = pbj_arena_alloc(arena, t->size);
    if (!m) abort();
    memset(m, 0, t->size);
    if (t->init) t->init(m);
    return m;
}

/* A map entry's message value made, as decode makes one when the entry has none. */
static void entry_values(const pbj_table *t, void *e, pbj_arena *arena)
{
    for (uint32_t i = 0; i < t->count; i++)
        if ((t->flags & PBJ_T_MAP_ENTRY) && t->fields[i].type == PBJ_TYPE_MESSAGE) {
            void *v = new_message(t->fields[i].sub, arena);
            memcpy(at(e, t->fields[i].offset), &v, sizeof v);
        }
}

/* One value of f that is not zero, at p (an element's room, or the member's; a message held by value is in_array's). */
static void put_value(const pbj_field *f, uint8_t *p, bool in_array, pbj_arena *arena)
{
    static const uint8_t text[] = "x";
    uint32_t one32 = 1;
    uint64_t one64 = 1;
    float f1 = 1;
    double d1 = 1;
    bool b1 = true;
    pbj_slice s = pbj_slice_make(text, 1);
    switch (f->type) {
    case PBJ_TYPE_STRING: case PBJ_TYPE_BYTES: memcpy(p, &s, sizeof s); break;
    case PBJ_TYPE_MESSAGE: case PBJ_TYPE_GROUP:
        if (in_array) {
            memset(p, 0, f->sub->size);
            if (f->sub->init) f->sub->init(p);
            entry_values(f->sub, p, arena);
        } else {
            void *sub = new_message(f->sub, arena);
            memcpy(p, &sub, sizeof sub);
        }
        break;
    case PBJ_TYPE_BOOL: memcpy(p, &b1, sizeof b1); break;
    case PBJ_TYPE_FLOAT: memcpy(p, &f1, sizeof f1); break;
    case PBJ_TYPE_DOUBLE: memcpy(p, &d1, sizeof d1); break;
    case PBJ_TYPE_INT64: case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: case PBJ_TYPE_SFIXED64: case PBJ_TYPE_SINT64:
        memcpy(p, &one64, sizeof one64);
        break;
    default: memcpy(p, &one32, sizeof one32); break;
    }
}

/* Field f of m set through the table alone: a value, and its presence. */
static void set_field(const pbj_table *t, const pbj_field *f, void *m, pbj_arena *arena)
{
    if (f->mode == PBJ_MODE_REPEATED || f->mode == PBJ_MODE_MAP) {
        size_t elem = f->mode == PBJ_MODE_MAP || f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP ? f->sub->size
                    : f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES ? sizeof(pbj_slice)
                    : f->type == PBJ_TYPE_BOOL ? sizeof(bool) : wire_type(f) == 1 || f->type == PBJ_TYPE_INT64 ||
                      f->type == PBJ_TYPE_UINT64 || f->type == PBJ_TYPE_SINT64 ? 8 : 4;
        void *data = pbj_arena_alloc(arena, elem);
        size_t one = 1;
        if (!data) abort();
        put_value(f, (uint8_t *)data, true, arena);
        memcpy(at(m, f->offset), &data, sizeof data);
        memcpy(at(m, f->offset) + sizeof(void *), &one, sizeof one);
        CHECK(f->size == sizeof(void *) + sizeof(size_t), "field %u: an array's size %u", f->number, f->size);
        return;
    }
    put_value(f, at(m, f->offset), f->mode == PBJ_MODE_BY_VALUE, arena);
    CHECK(f->mode != PBJ_MODE_BY_VALUE || f->size == f->sub->size, "field %u: held by value in %u bytes, not its type's %u",
          f->number, f->size, f->sub->size);
    if (f->mode == PBJ_MODE_OPTIONAL || f->mode == PBJ_MODE_WRAPPER || f->mode == PBJ_MODE_BY_VALUE) *at(m, f->presence) = 1;
    if (f->mode == PBJ_MODE_ONEOF) {
        const pbj_oneof *o = &t->oneofs[f->presence];
        CHECK(o->case_size == sizeof(int), "field %u: its oneof case's size %u", f->number, o->case_size);
        int n = (int)f->number;
        memcpy(at(m, o->case_offset), &n, sizeof n);
        CHECK(f->offset >= o->offset && f->offset + f->size <= o->offset + o->size, "field %u: outside its oneof's union", f->number);
    }
}

/* The record after tag at p (a group's through its end tag), or NULL when malformed. */
static const uint8_t *skip(const uint8_t *p, const uint8_t *end, uint64_t tag)
{
    uint64_t v;
    switch (tag & 7) {
    case 0: return pbj_get_varint(p, end, &v);
    case 1: return end - p >= 8 ? p + 8 : NULL;
    case 5: return end - p >= 4 ? p + 4 : NULL;
    case 2: return (p = pbj_get_varint(p, end, &v)) && v <= (uint64_t)(end - p) ? p + v : NULL;
    case 3:
        while (p && p < end) {
            uint64_t t;
            if (!(p = pbj_get_varint(p, end, &t))) return NULL;
            if ((t & 7) == 4) return (t >> 3) == (tag >> 3) ? p : NULL;
            p = skip(p, end, t);
        }
        return NULL;
    default: return NULL;
    }
}

/* buf[0..len) well formed, each record numbered number with wire type wt; *found when there is one. */
static bool tags_of(const uint8_t *buf, size_t len, uint32_t number, unsigned wt, bool *found)
{
    const uint8_t *p = buf, *end = buf + len;
    *found = false;
    while (p < end) {
        uint64_t tag;
        if (!(p = pbj_get_varint(p, end, &tag))) return false;
        if ((tag >> 3) == number) {
            if ((tag & 7) != wt) return false;
            *found = true;
        }
        if (!(p = skip(p, end, tag))) return false;
    }
    return true;
}

/* The value field f holds in m and in back (m decoded from its encoding) the same, as the table locates it. */
static bool value_back(const pbj_field *f, void *m, void *back)
{
    if (f->mode == PBJ_MODE_REPEATED || f->mode == PBJ_MODE_MAP)
        return memcmp(at(back, f->offset) + sizeof(void *), at(m, f->offset) + sizeof(void *), sizeof(size_t)) == 0;
    if (f->mode == PBJ_MODE_BY_VALUE) return *at(back, f->presence) != 0;
    if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) return *(void **)at(back, f->offset) != NULL;
    if (f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES)
        return pbj_slice_eq(*(pbj_slice *)at(back, f->offset), *(pbj_slice *)at(m, f->offset));
    if (f->flags & PBJ_F_CLOSED_ENUM) return true;   /* 1 may be no value of it: decode keeps it as unknown */
    size_t n = f->type == PBJ_TYPE_BOOL ? sizeof(bool) : wire_type(f) == 1 || f->type == PBJ_TYPE_INT64 ||
               f->type == PBJ_TYPE_UINT64 || f->type == PBJ_TYPE_SINT64 ? 8 : 4;
    return memcmp(at(back, f->offset), at(m, f->offset), n) == 0;
}

/* The table of M against M's code: each row alone encodes as its number and prints as its name. */
#define T(M)                                                                                                           \
    static void check_##M(void)                                                                                        \
    {                                                                                                                  \
        const pbj_table *t = &M##__table;                                                                              \
        CHECK(t->size == sizeof(M), "size %u", t->size);                                                               \
        for (uint32_t i = 0; i < t->count; i++) {                                                                      \
            const pbj_field *f = &t->fields[i];                                                                        \
            CHECK(pbj_table_find(t, f->number) == f, "field %u not found by number", f->number);                      \
            CHECK(i + 1 == t->count || f->number < t->fields[i + 1].number, "fields out of order at %u", f->number);  \
            CHECK((i < t->dense) == (f->number == i + 1) || i > t->dense, "dense %u wrong at %u", t->dense, f->number); \
            pbj_arena arena;                                                                                           \
            pbj_arena_init(&arena, NULL, 0);                                                                           \
            M m;                                                                                                       \
            M##_init(&m);                                                                                              \
            entry_values(t, &m, &arena);                                                                               \
            set_field(t, f, &m, &arena);                                                                               \
            uint8_t buf[4096];                                                                                         \
            size_t len = 0;                                                                                            \
            bool found;                                                                                                \
            CHECK(M##_encode_partial(&m, buf, sizeof buf, &len) == PBJ_OK, "field %u: encode fails", f->number);      \
            CHECK(tags_of(buf, len, f->number, wire_type(f), &found) && found, "field %u: not encoded as itself",     \
                  f->number);                                                                                          \
            M back, empty;                                                                                             \
            pbj_decode_options partial = {.partial = true};                                                            \
            M##_init(&empty);                                                                                          \
            CHECK(M##_decode(&back, buf, len, &arena, &partial) == PBJ_OK && value_back(f, &m, &back),                \
                  "field %u: its value does not decode back where the table says", f->number);                       \
            CHECK(((f->flags & PBJ_F_CLOSED_ENUM) || M##_equal(&m, &back)) && !M##_equal(&m, &empty),                \
                  "field %u: M_equal wrong", f->number);                                                               \
            pbj_text text;                                                                                             \
            pbj_text_init(&text);                                                                                      \
            (void)M##_print(&m, &text);                                                                                \
            const char *name = t->pool + f->name;                                                                      \
            size_t n = strlen(name);                                                                               \
            const char *line = text.data;                                                                              \
            while (line && (strncmp(line, name, n) != 0 || (line[n] != ':' && line[n] != ' ')))                      \
                line = (line = strchr(line, '\n')) ? line + 1 : NULL;                                                  \
            CHECK(line != NULL, "field %u: printed without its name %s:\n%s", f->number, name, text.data);           \
            if (f->sub) CHECK(f->sub->size > 0 && f->sub->pool[f->sub->name], "field %u: no sub-table", f->number);  \
            pbj_text_free(&text);                                                                                      \
            pbj_arena_free(&arena);                                                                                    \
        }                                                                                                              \
        CHECK(t->unknown == PBJ_TABLE_NONE || t->unknown + sizeof(pbj_slice *) <= t->size, "unknown at %u", t->unknown); \
    }
TABLE_LIST
#undef T

int main(void)
{
    size_t messages = 0;
#define T(M) check_##M(), messages++;
    TABLE_LIST
#undef T
    if (failures) return 1;
    printf("golden: tables of %zu messages match their code\n", messages);
    return 0;
}
