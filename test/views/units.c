/* units.c: views' extension accessors against decode and the struct's extension accessors (random records of
 * golden/extensions' Base and test/views/ext/more.proto, items of golden/message_set's Set, their truncations
 * and mutations), and oneof members written in a row (parity's Scalars). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "message_set.pb.h"
#include "more.pb.h"
#include "scalars.pb.h"

static int failures;
static const char *context = "";   /* what is being read, for a failure's report */

#define CHECK(cond)                                                                                 \
    do {                                                                                            \
        if (!(cond) && failures++ < 10) fprintf(stderr, "%s: %s:%d: %s\n", context, __FILE__, __LINE__, #cond); \
    } while (0)

/* ---- the extension records: a random Base ----------------------------------------------------------- */

/* How a number is written when it is written right: its wire type, and what its payload holds. */
enum payload { P_NUMBER, P_PACKABLE, P_BYTES, P_LEAF, P_NOTE, P_GROUP };
typedef struct spec {
    uint32_t number;
    int wt;            /* of one value */
    enum payload payload;
} spec;

static const spec base_specs[] = {
    {1, 0, P_NUMBER},     {100, 0, P_NUMBER},   {101, 2, P_BYTES},   {102, 0, P_PACKABLE}, {103, 5, P_PACKABLE},
    {104, 2, P_NOTE},     {105, 3, P_GROUP},    {150, 1, P_NUMBER},  {110, 0, P_NUMBER},   {111, 0, P_PACKABLE},
    {112, 0, P_PACKABLE}, {113, 1, P_PACKABLE}, {114, 2, P_BYTES},   {115, 2, P_BYTES},    {116, 2, P_LEAF},
    {117, 3, P_GROUP},    {118, 0, P_NUMBER},   {119, 0, P_NUMBER},  {120, 0, P_NUMBER},   {121, 1, P_NUMBER},
    {122, 5, P_NUMBER},   {123, 2, P_BYTES},    {124, 2, P_LEAF},    {125, 0, P_NUMBER},   {130, 0, P_NUMBER},
    {131, 2, P_LEAF},     {140, 5, P_NUMBER},   {141, 0, P_PACKABLE}, {160, 0, P_NUMBER},  {199, 2, P_BYTES},
    {300, 0, P_NUMBER},   {2, 2, P_BYTES},
};
static const spec leaf_specs[] = {{1, 0, P_NUMBER}, {2, 2, P_BYTES}, {3, 0, P_PACKABLE}, {10, 0, P_NUMBER},
                                  {11, 2, P_BYTES}, {12, 5, P_NUMBER}};
static const spec note_specs[] = {{1, 2, P_BYTES}, {2, 0, P_NUMBER}};
static const spec group_specs[] = {{1, 0, P_NUMBER}, {2, 2, P_BYTES}};   /* EGroup's g, XGroup's g and t */

typedef struct out {
    uint8_t b[1 << 16];
    size_t n;
} out;

static uint64_t random_state = 1;
static uint64_t next_random(void)
{
    random_state = random_state * 6364136223846793005u + 1442695040888963407u;
    return random_state >> 11;
}
static uint64_t below(uint64_t n) { return next_random() % n; }

static void put_varint(out *o, uint64_t v)
{
    while (v >= 0x80 && o->n < sizeof o->b) o->b[o->n++] = (uint8_t)(v | 0x80), v >>= 7;
    if (o->n < sizeof o->b) o->b[o->n++] = (uint8_t)v;
}

static void put_bytes(out *o, const uint8_t *p, size_t n)
{
    if (n > sizeof o->b - o->n) n = sizeof o->b - o->n;
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

/* A varint of every size: small ones (closed enum values in and outside the enum), negatives, large. */
static uint64_t some_number(void)
{
    switch (below(4)) {
    case 0: return below(7);
    case 1: return (uint64_t)-(int64_t)below(300);
    case 2: return below(1u << 20);
    default: return next_random() << 11 | below(2048);
    }
}

static void put_value(out *o, int wt)
{
    uint64_t v = next_random() << 11 ^ next_random();
    if (wt == 0) put_varint(o, some_number());
    else put_bytes(o, (const uint8_t *)&v, wt == 1 ? 8 : 4);
}

static void put_records(out *o, const spec *specs, size_t n, int depth, int count);

/* A length-delimited payload: built in a scratch buffer, then its length and bytes. */
static void put_len(out *o, const spec *s, int depth)
{
    out *sub = malloc(sizeof *sub);
    sub->n = 0;
    if (below(12) == 0) {                                            /* garbage a message's init may refuse */
        for (uint64_t k = below(6); k > 0; k--) sub->b[sub->n++] = (uint8_t)next_random();
    } else if (s->payload == P_LEAF) {
        put_records(sub, leaf_specs, sizeof leaf_specs / sizeof *leaf_specs, depth + 1, (int)below(5));
    } else if (s->payload == P_NOTE) {
        put_records(sub, note_specs, sizeof note_specs / sizeof *note_specs, depth + 1, (int)below(3));
    } else if (s->payload == P_PACKABLE) {
        for (uint64_t k = below(5); k > 0; k--) put_value(sub, s->wt);
        if (s->wt != 0 && below(10) == 0) sub->b[sub->n++] = 1;      /* a fixed run cut inside a value */
    } else {
        for (uint64_t k = below(8); k > 0; k--) sub->b[sub->n++] = (uint8_t)next_random();
    }
    put_varint(o, sub->n);
    put_bytes(o, sub->b, sub->n);
    free(sub);
}

/* One record of field s: mostly as its type is written (a packable number packed or not), else another wire type. */
static void put_record(out *o, const spec *s, int depth)
{
    int wt = s->wt;
    if (s->payload == P_PACKABLE && below(2)) wt = 2;
    if (below(6) == 0) wt = (int)"\0\1\2\3\5"[below(5)];
    if (depth > 3 && (wt == 2 || wt == 3)) wt = 0;
    put_varint(o, (uint64_t)s->number << 3 | (uint64_t)wt);
    if (wt == 3) {
        put_records(o, group_specs, 2, depth + 1, (int)below(3));
        put_varint(o, (uint64_t)s->number << 3 | 4);
    } else if (wt == 2) {
        spec as = *s;
        if (s->wt != 2 && s->payload != P_PACKABLE) as.payload = P_BYTES;
        put_len(o, &as, depth);
    } else {
        put_value(o, wt);
    }
}

static void put_records(out *o, const spec *specs, size_t n, int depth, int count)
{
    for (int i = 0; i < count; i++) put_record(o, &specs[below(n)], depth);
}

/* ---- one Base read both ways ------------------------------------------------------------------------- */

typedef struct reading {
    golden_extensions_Base m;            /* decoded */
    golden_extensions_Base_view v;
    pbj_arena a;
    bool check;                          /* decode accepted the bytes: the view must read what the struct holds */
} reading;

static bool same_slice(pbj_slice a, pbj_slice b) { return a.len == b.len && (!a.len || memcmp(a.data, b.data, a.len) == 0); }

/* The texts of a decoded message and of its view are the same. */
#define SAME_TEXT(T, x, sub)                                          \
    do {                                                              \
        T y = *(x);                                                   \
        pbj_text ta, tb;                                              \
        y.pbj_unknown = NULL;               /* views skip them */    \
        pbj_text_init(&ta);                                           \
        pbj_text_init(&tb);                                           \
        (void)T##_print(&y, &ta);                                      \
        T##_view_print(sub, &tb);                                     \
        CHECK(strcmp(ta.data, tb.data) == 0);                         \
        if (strcmp(ta.data, tb.data) != 0 && failures <= 2)           \
            fprintf(stderr, "decoded:\n%s--- view:\n%s", ta.data, tb.data); \
        pbj_text_free(&ta);                                           \
        pbj_text_free(&tb);                                           \
    } while (0)

/* T_print_canonical(m, a): m (decoded) encoded again, so canonical, prints through its view as it prints decoded
 * with unknown fields dropped: M_view_print prints the extensions M_print prints, at their place. Not compared
 * when that text shows unknown fields: an extension's message prints its own unknown fields (M_print decodes it
 * with unknown fields kept, whatever the outer decode dropped), while views skip them. */
#define PRINT_CANONICAL_FN(T)                                                                              \
    static bool T##_shows_unknown(const T *m)                                                              \
    {                                                                                                      \
        pbj_text text;                                                                                     \
        pbj_text_init(&text);                                                                              \
        (void)T##_print(m, &text);                                                                         \
        bool unknown = shows_unknown(text.data);                                                           \
        pbj_text_free(&text);                                                                              \
        return unknown;                                                                                    \
    }                                                                                                      \
    static void T##_print_canonical(const T *m, pbj_arena *a)                                              \
    {                                                                                                      \
        size_t n = T##_size(m), len = 0;                                                                   \
        uint8_t *c = malloc(n ? n : 1);                                                                    \
        T back;                                                                                            \
        T##_view v;                                                                                        \
        pbj_decode_options o = {0};                                                                        \
        o.unknown = PBJ_UNKNOWN_DROP;                                                                      \
        bool read = T##_encode(m, c, n, &len) == PBJ_OK && T##_decode(&back, c, len, a, &o) == PBJ_OK &&      \
                    T##_view_init(&v, c, len) == PBJ_OK;                                                   \
        context = #T " encoded again, printed";                                                          \
        CHECK(read);                                                                                       \
        if (read && !T##_shows_unknown(&back)) SAME_TEXT(T, &back, &v);                                       \
        free(c);                                                                                           \
    }
PRINT_CANONICAL_FN(golden_extensions_Base)
PRINT_CANONICAL_FN(golden_message_set_Set)

/* A Leaf and its view: the same fields and the same extensions. */
static void same_leaf(const reading *r, const views_more_Leaf *x, const views_more_Leaf_view *sub)
{
    if (!r->check) return;
    SAME_TEXT(views_more_Leaf, x, sub);     /* its extensions too */
    CHECK(views_more_leaf_ext_has(x) == views_more_leaf_ext_view_has(sub));
    CHECK(views_more_leaf_ext_get(x) == views_more_leaf_ext_view(sub));
    pbj_view_iter it = views_more_leaf_names_view(sub);
    pbj_slice s;
    size_t i = 0, k = views_more_leaf_names_count(x);
    for (; views_more_leaf_names_view_next(&it, &s); i++) CHECK(i < k && same_slice(views_more_leaf_names_at(x, i), s));
    CHECK(i == k);
}

static void same_note(const reading *r, const golden_extensions_Note *x, const golden_extensions_Note_view *sub)
{
    if (r->check) SAME_TEXT(golden_extensions_Note, x, sub);
}

static void same_egroup(const reading *r, const golden_extensions_EGroup *x, const golden_extensions_EGroup_view *sub)
{
    if (r->check) SAME_TEXT(golden_extensions_EGroup, x, sub);
}

static void same_xgroup(const reading *r, const views_more_XGroup *x, const views_more_XGroup_view *sub)
{
    if (r->check) SAME_TEXT(views_more_XGroup, x, sub);
}

/* A singular number or slice: presence and value (bit for bit). */
#define SAME_VALUE(X, T)                                                                            \
    do {                                                                                            \
        context = #X;                                                                               \
        T a = X##_get(&r->m), b = X##_view(&r->v);                                                  \
        bool ha = X##_has(&r->m), hb = X##_view_has(&r->v);                                         \
        if (r->check) CHECK(ha == hb && memcmp(&a, &b, sizeof a) == 0);                             \
                            \
    } while (0)

/* A closed enum: as SAME_VALUE, but a value outside the enum is absent (decode made it an unknown field; the
 * struct's accessor finds it there, where it looks for extensions compiled apart: a departure from protobuf). */
#define SAME_ENUM(X, dflt)                                                                          \
    do {                                                                                            \
        context = #X;                                                                               \
        int32_t a = X##_get(&r->m), b = X##_view(&r->v);                                            \
        bool ha = X##_has(&r->m) && views_more_Color_name(a), hb = X##_view_has(&r->v);             \
        if (!ha) a = dflt;                                                                          \
        if (r->check) CHECK(ha == hb && a == b);                                                    \
    } while (0)

#define SAME_SLICE(X)                                                                               \
    do {                                                                                            \
        context = #X;                                                                               \
        pbj_slice a = X##_get(&r->m), b = X##_view(&r->v);                                           \
        bool ha = X##_has(&r->m), hb = X##_view_has(&r->v);                                         \
        if (r->check) CHECK(ha == hb && same_slice(a, b));                                          \
    } while (0)

/* A repeated number or slice: the same values in the same order. */
#define SAME_VALUES_KEPT(X, T, eq, keep)                                                             \
    do {                                                                                            \
        context = #X;                                                                               \
        pbj_view_iter it = X##_view(&r->v);                                                         \
        size_t j = 0, k = X##_count(&r->m);  /* the struct's next value, how many */                \
        T a, b;                                                                                     \
        while (X##_view_next(&it, &b)) {                                                            \
            while (j < k && (a = X##_at(&r->m, j), !(keep))) j++;   /* (SAME_ENUM) */              \
            if (r->check) CHECK(j < k && eq);                                                       \
            j++;                                                                                    \
        }                                                                                           \
        while (j < k && (a = X##_at(&r->m, j), !(keep))) j++;                                       \
        if (r->check) CHECK(j == k);                                                                \
    } while (0)
#define SAME_VALUES(X, T, eq) SAME_VALUES_KEPT(X, T, eq, 1)

/* A singular message or group: the view of its last record is that record decoded alone (decode merges them). */
#define SAME_MESSAGE(X, T, number, wt, same)                                                        \
    do {                                                                                            \
        context = #X;                                                                               \
        T x;                                                                                        \
        T##_view sub;                                                                               \
        pbj_slice s;                                                                                \
        pbj_decode_options o = {0};                                                                 \
        o.unknown = PBJ_UNKNOWN_DROP;                                                               \
        pbj_status got = X##_view(&r->v, &sub), want = PBJ_OK;                                     \
        T##_init(&x);                                                                               \
        if (pbj__ext_payloads(r->m.pbj_ext, number, wt, (size_t)-1, &s))                           \
            want = T##_decode(&x, s.data, s.len, (pbj_arena *)&r->a, &o);                           \
        if (r->check) CHECK(X##_has(&r->m) == X##_view_has(&r->v) && got == want);                  \
        if (got == PBJ_OK && want == PBJ_OK) same(r, &x, &sub);                                     \
    } while (0)

/* A repeated message or group: record i's view is record i decoded, up to the first that fails. */
#define SAME_MESSAGES(X, T, same)                                                                   \
    do {                                                                                            \
        context = #X;                                                                               \
        pbj_view_iter it = X##_view(&r->v);                                                         \
        size_t i = 0, k = X##_count(&r->m);                                                         \
        T x;                                                                                        \
        T##_view sub;                                                                               \
        for (; X##_view_next(&it, &sub); i++) {                                                     \
            pbj_status want = X##_at(&r->m, i, &x, (pbj_arena *)&r->a);                             \
            if (r->check) CHECK(i < k && want == PBJ_OK);                                           \
            if (want == PBJ_OK) same(r, &x, &sub);                                                  \
        }                                                                                           \
        if (r->check && i < k) CHECK(X##_at(&r->m, i, &x, (pbj_arena *)&r->a) == it.status && it.status != PBJ_OK); \
    } while (0)

#define EQ_BITS (memcmp(&a, &b, sizeof a) == 0)
#define EQ_SLICE same_slice(a, b)

/* Every extension of Base read from the view as from the decoded struct. */
static void same_extensions(reading *r)
{
    SAME_VALUE(golden_extensions_e_int32, int32_t);
    SAME_SLICE(golden_extensions_e_string);
    SAME_VALUES(golden_extensions_e_list, int32_t, EQ_BITS);
    SAME_VALUES(golden_extensions_e_packed, uint32_t, EQ_BITS);
    SAME_MESSAGE(golden_extensions_e_note, golden_extensions_Note, 104, PBJ_WT_LEN, same_note);
    SAME_MESSAGE(golden_extensions_egroup, golden_extensions_EGroup, 105, PBJ_WT_SGROUP, same_egroup);
    SAME_VALUE(golden_extensions_Scope_s_double, double);
    SAME_ENUM(views_more_x_color, views_more_Color_RED);
    SAME_VALUES_KEPT(views_more_x_colors, int32_t, EQ_BITS, views_more_Color_name(a));
    SAME_VALUES(views_more_x_int64s, int64_t, EQ_BITS);
    SAME_VALUES(views_more_x_doubles, double, EQ_BITS);
    SAME_VALUES(views_more_x_strings, pbj_slice, EQ_SLICE);
    SAME_VALUES(views_more_x_bytes, pbj_slice, EQ_SLICE);
    SAME_MESSAGES(views_more_x_leaves, views_more_Leaf, same_leaf);
    SAME_MESSAGES(views_more_xgroup, views_more_XGroup, same_xgroup);
    SAME_VALUE(views_more_x_uint64, uint64_t);
    SAME_VALUE(views_more_x_bool, bool);
    SAME_VALUE(views_more_x_sint64, int64_t);
    SAME_VALUE(views_more_x_fixed64, uint64_t);
    SAME_VALUE(views_more_x_float, float);
    SAME_SLICE(views_more_x_blob);
    SAME_MESSAGE(views_more_x_leaf, views_more_Leaf, 124, PBJ_WT_LEN, same_leaf);
    SAME_ENUM(views_more_x_color_default, views_more_Color_BLUE);
    SAME_VALUE(views_more_Holder_h_int64, int64_t);
    SAME_MESSAGES(views_more_Holder_h_leaves, views_more_Leaf, same_leaf);
    SAME_VALUE(views_more_Holder_Deep_d_sfixed32, int32_t);
    SAME_VALUES(views_more_Holder_Deep_d_sint64s, int64_t, EQ_BITS);
}

/* ---- a message set's items ------------------------------------------------------------------------------ */

/* A random Set: items (group 1 { type_id = 2; message = 3 }) of Item's type_id or another, some without a
 * type_id or a message or with two, and length-delimited fields of the item's number. */
static void put_set(out *o)
{
    for (uint64_t k = below(6); k > 0; k--) {
        if (below(5) == 0) {
            put_varint(o, 1001 << 3 | 2);
            put_len(o, &(spec){1, 0, P_NOTE}, 0);
            continue;
        }
        o->b[o->n++] = 0x0b;
        for (uint64_t j = 1 + below(3); j > 0; j--) {
            if (below(2)) {
                o->b[o->n++] = 0x10;
                put_varint(o, below(3) ? 1001 : 4 + below(2000));
            } else {
                o->b[o->n++] = 0x1a;
                put_len(o, &(spec){1, 0, P_NOTE}, 0);   /* Item's v is Note's number 2: read or refused */
            }
        }
        o->b[o->n++] = 0x0c;
    }
}

static size_t items_read;

/* A Set decoded and through its view: the item's view is its last message decoded alone. */
static void read_set(const uint8_t *buf, size_t len)
{
    reading *r = calloc(1, sizeof *r);   /* for its arena and check (SAME_MESSAGE's r) */
    golden_message_set_Set set;
    golden_message_set_Set_view set_view;
    pbj_arena_init(&r->a, NULL, 0);
    r->check = golden_message_set_Set_decode(&set, buf, len, &r->a, NULL) == PBJ_OK;
    pbj_status st = golden_message_set_Set_view_init(&set_view, buf, len);
    context = "set init";
    if (r->check) CHECK(st == PBJ_OK);
    if (st == PBJ_OK) {
        golden_message_set_Item x;
        golden_message_set_Item_view sub;
        pbj_slice s;
        pbj_decode_options o = {0};
        o.unknown = PBJ_UNKNOWN_DROP;
        pbj_status got = golden_message_set_Item_item_view(&set_view, &sub), want = PBJ_OK;
        golden_message_set_Item_init(&x);
        if (pbj__ext_payloads(set.pbj_ext, 1001, PBJ_WT_LEN, (size_t)-1, &s))
            want = golden_message_set_Item_decode(&x, s.data, s.len, &r->a, &o);
        context = "set item";
        if (r->check) CHECK(golden_message_set_Item_item_has(&set) == golden_message_set_Item_item_view_has(&set_view) && got == want);
        if (r->check && got == PBJ_OK && want == PBJ_OK && golden_message_set_Item_item_view_has(&set_view)) {
            SAME_TEXT(golden_message_set_Item, &x, &sub);
            items_read++;
        }
    }
    if (r->check) golden_message_set_Set_print_canonical(&set, &r->a);
    pbj_arena_free(&r->a);
    free(r);
}

static size_t refused;   /* inputs decode refused (read through the view all the same) */

/* buf read through decode and through the view: when decode accepts it, the view does and reads the same. */
static void read_both(const uint8_t *buf, size_t len)
{
    reading *r = calloc(1, sizeof *r);
    pbj_arena_init(&r->a, NULL, 0);
    r->check = golden_extensions_Base_decode(&r->m, buf, len, &r->a, NULL) == PBJ_OK;
    pbj_status st = golden_extensions_Base_view_init(&r->v, buf, len);
    context = "init";
    if (r->check) CHECK(st == PBJ_OK);
    refused += !r->check;
    if (st == PBJ_OK) same_extensions(r);
    if (r->check) golden_extensions_Base_print_canonical(&r->m, &r->a);
    pbj_arena_free(&r->a);
    free(r);
}

/* An exact copy of n bytes of p: ASan sees any read past it. */
static void read_exact(void (*read)(const uint8_t *, size_t), const uint8_t *p, size_t n)
{
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, p, n);
    read(copy, n);
    free(copy);
}

static int extensions(unsigned long count, unsigned long seed)
{
    out *o = malloc(sizeof *o);
    uint8_t *mut = malloc(sizeof o->b);
    random_state = seed * 0x9e3779b97f4a7c15u + 1;
    for (unsigned long item = 0; item < 2 * count; item++) {
        bool set = item % 2;                 /* a Base, then a Set */
        void (*read)(const uint8_t *, size_t) = set ? read_set : read_both;
        o->n = 0;
        if (set) put_set(o);
        else put_records(o, base_specs, sizeof base_specs / sizeof *base_specs, 0, (int)below(24));
        read_exact(read, o->b, o->n);
        for (size_t cut = 0; item < 80 && cut < o->n; cut++) read_exact(read, o->b, cut);
        for (int k = 0; k < 20 && o->n; k++) {
            memcpy(mut, o->b, o->n);
            for (uint64_t j = 1 + below(3); j > 0; j--) mut[below(o->n)] = (uint8_t)next_random();
            read_exact(read, mut, o->n);
        }
    }
    printf("views units: extensions of %lu random Bases and Sets (their truncations and mutations) read as decoded (%zu Bases refused by decode, %zu items)\n",
           count, refused, items_read);
    free(o);
    free(mut);
    return failures != 0;
}

/* ---- oneof members written in a row ------------------------------------------------------------------ */

typedef struct oneof_case {
    const char *what;
    uint8_t bytes[24];
    size_t len;
    uint32_t want_case;
} oneof_case;

static const oneof_case oneof_cases[] = {
    {"c_int32 then c_string", {0xa8, 0x05, 0x07, 0xca, 0x05, 0x02, 'h', 'i'}, 8, 89},
    {"c_string then c_int32", {0xca, 0x05, 0x02, 'h', 'i', 0xa8, 0x05, 0x07}, 8, 85},
    {"c_string then c_bytes", {0xca, 0x05, 0x02, 'h', 'i', 0xe2, 0x05, 0x03, 1, 2, 3}, 11, 92},
    {"c_message then c_int32", {0x9a, 0x06, 0x03, 0xa8, 0x05, 0x03, 0xa8, 0x05, 0x07}, 9, 85},
    {"c_int32 then c_message", {0xa8, 0x05, 0x07, 0x9a, 0x06, 0x03, 0xa8, 0x05, 0x03}, 9, 99},
    {"c_message then after_choice", {0x9a, 0x06, 0x03, 0xa8, 0x05, 0x03, 0xa0, 0x06, 0x09}, 9, 99},
    {"c_double then c_message then c_fixed64", {0x89, 0x05, 1, 2, 3, 4, 5, 6, 7, 8, 0x9a, 0x06, 0x00,
                                                0xb1, 0x05, 8, 7, 6, 5, 4, 3, 2, 1}, 23, 86},
};

static int oneofs(void)
{
    for (size_t i = 0; i < sizeof oneof_cases / sizeof *oneof_cases; i++) {
        const oneof_case *c = &oneof_cases[i];
        parity_scalars_Scalars m;
        parity_scalars_Scalars_view v, sub;
        pbj_arena a;
        context = c->what;
        pbj_arena_init(&a, NULL, 0);
        CHECK(parity_scalars_Scalars_decode(&m, c->bytes, c->len, &a, NULL) == PBJ_OK);
        CHECK(parity_scalars_Scalars_view_init(&v, c->bytes, c->len) == PBJ_OK);
        CHECK((uint32_t)parity_scalars_Scalars_view_choice_case(&v) == c->want_case && (uint32_t)m.choice_case == c->want_case);
        /* the members the case does not name read as absent, at their defaults */
        CHECK(parity_scalars_Scalars_view_has_c_int32(&v) == (c->want_case == 85));
        CHECK(parity_scalars_Scalars_view_c_int32(&v) == (c->want_case == 85 ? 7 : 0));
        CHECK(parity_scalars_Scalars_view_has_c_string(&v) == (c->want_case == 89));
        CHECK(parity_scalars_Scalars_view_c_string(&v).len == (c->want_case == 89 ? 2u : 0u));
        CHECK(parity_scalars_Scalars_view_has_c_bytes(&v) == (c->want_case == 92));
        CHECK(parity_scalars_Scalars_view_c_bytes(&v).len == (c->want_case == 92 ? 3u : 0u));
        CHECK(parity_scalars_Scalars_view_has_c_double(&v) == false && parity_scalars_Scalars_view_c_double(&v) == 0);
        CHECK(parity_scalars_Scalars_view_c_fixed64(&v) == (c->want_case == 86 ? UINT64_C(0x0102030405060708) : 0));
        CHECK(parity_scalars_Scalars_view_has_c_message(&v) == (c->want_case == 99));
        CHECK(parity_scalars_Scalars_view_c_message(&v, &sub) == PBJ_OK);
        CHECK(parity_scalars_Scalars_view_c_int32(&sub) == (c->want_case == 99 ? 3 : 0));   /* every message holds c_int32 = 3 */
        CHECK(parity_scalars_Scalars_view_after_choice(&v) == (int32_t)m.after_choice);
        pbj_text tm, tv;
        pbj_text_init(&tm);
        pbj_text_init(&tv);
        (void)parity_scalars_Scalars_print(&m, &tm);
        parity_scalars_Scalars_view_print(&v, &tv);
        CHECK(strcmp(tm.data, tv.data) == 0);
        pbj_text_free(&tm);
        pbj_text_free(&tv);
        pbj_arena_free(&a);
    }
    printf("views units: %zu runs of oneof members read as decoded\n", sizeof oneof_cases / sizeof *oneof_cases);
    return failures != 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "extensions") == 0) return extensions(strtoul(argv[2], NULL, 10), strtoul(argv[3], NULL, 10));
    if (argc == 2 && strcmp(argv[1], "oneofs") == 0) return oneofs();
    fprintf(stderr, "usage: %s extensions COUNT SEED | oneofs\n", argv[0]);
    return 2;
}
