/* fuzz_json.c: libFuzzer target: any bytes through M_from_json of test/parity's proto3 schemas (with Anys of them)
 * and of test/golden's proto2 extensions and message set ("[pkg.ext]" keys). */
#define _POSIX_C_SOURCE 200809L

/*
 * The input's first byte picks the message (modulo their count) and whether unknown fields are skipped; the
 * rest is read as JSON (libFuzzer's buffer is exactly its size: ASan sees a read past it). What reads:
 *   encode(m1) = b1 succeeds; decode(b1) = m2 succeeds and equal(m1, m2);
 *   the error of what does not read points into the input.
 * Any broken rule aborts with a line saying which.
 */
#include "scalars.pb.h"
#include "maps.pb.h"
#include "nesting.pb.h"
#include "wrappers.pb.h"
#include "wkt.pb.h"
#include "extensions.pb.h"
#include "message_set.pb.h"
#include "google/protobuf/duration.pb.h"
#include "google/protobuf/timestamp.pb.h"
#include "google/protobuf/wrappers.pb.h"

#include <stdio.h>
#include <stdlib.h>

#define REQUIRE(cond, ...)                              \
    do {                                                \
        if (!(cond)) {                                  \
            fprintf(stderr, "fuzz_json: " __VA_ARGS__); \
            fprintf(stderr, "\n");                      \
            abort();                                    \
        }                                               \
    } while (0)

#define FUZZ_MESSAGES(X) X(parity_scalars_Scalars) X(parity_maps_Maps) X(parity_nesting_Root) X(parity_wrappers_Wrapped) \
    X(parity_wkt_Known) X(golden_extensions_Base) X(golden_message_set_Holder)

/* One message's table, and its size, encode, decode and equal on untyped pointers. */
typedef struct fuzz_ops {
    const pbj_table *table;
    size_t (*size)(const void *m);
    pbj_status (*encode)(const void *m, uint8_t *buf, size_t cap, size_t *len);
    pbj_status (*decode)(void *m, const uint8_t *p, size_t n, pbj_arena *a);
    bool (*equal)(const void *a, const void *b);
} fuzz_ops;

#define FUZZ_WRAP(T)                                                                                           \
    static size_t T##_fz_size(const void *m) { return T##_size(m); }                                              \
    static pbj_status T##_fz_encode(const void *m, uint8_t *b, size_t c, size_t *n) { return T##_encode(m, b, c, n); } \
    static pbj_status T##_fz_decode(void *m, const uint8_t *p, size_t n, pbj_arena *a) { return T##_decode(m, p, n, a, NULL); } \
    static bool T##_fz_equal(const void *a, const void *b) { return T##_equal(a, b); }
#define FUZZ_ROW(T) {&T##__table, T##_fz_size, T##_fz_encode, T##_fz_decode, T##_fz_equal},
#define FUZZ_TYPE(T) &T##__table,

FUZZ_MESSAGES(FUZZ_WRAP)
static const fuzz_ops messages[] = {FUZZ_MESSAGES(FUZZ_ROW)};
static const pbj_table *const types[] = {FUZZ_MESSAGES(FUZZ_TYPE) &google_protobuf_Duration__table,
                                         &google_protobuf_Timestamp__table, &google_protobuf_Int32Value__table};
#define MESSAGE_COUNT (sizeof messages / sizeof messages[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const fuzz_ops *o = &messages[data[0] % MESSAGE_COUNT];
    pbj_json_error err = {0};
    pbj_json_options opts = {.error = &err, .types = types, .type_count = sizeof types / sizeof *types,
                             .ignore_unknown_fields = data[0] & 0x80};
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    void *m1 = pbj_arena_alloc(&arena, o->table->size), *m2 = pbj_arena_alloc(&arena, o->table->size);
    REQUIRE(m1 && m2, "out of memory");
    pbj_status st = pbj_table_from_json(o->table, m1, (const char *)data + 1, size - 1, &arena, &opts);
    if (st != PBJ_OK) {
        REQUIRE(err.offset <= size - 1 && err.message[0], "%s: error at %zu of %zu (%s)", o->table->pool + o->table->name, err.offset, size - 1,
                err.message[0] ? err.message : "no message");
    } else {
        size_t n = o->size(m1), len = 0;
        uint8_t *buf = malloc(n ? n : 1);
        REQUIRE(buf && o->encode(m1, buf, n, &len) == PBJ_OK && len == n, "%s: encode of what JSON read fails",
                o->table->pool + o->table->name);
        REQUIRE(o->decode(m2, buf, len, &arena) == PBJ_OK, "%s: decode of its encoding fails", o->table->pool + o->table->name);
        REQUIRE(o->equal(m1, m2), "%s: decode of its encoding differs from what JSON read", o->table->pool + o->table->name);
        free(buf);
    }
    pbj_arena_free(&arena);
    return 0;
}
