/* test/json/buf.c: a parity batch against `buf convert`'s JSON (test/json.mk's check-json-buf). */
/*
 * Built per schema with -DPARITY_HEADER='"x.pb.h"' -DBATCH=<batch C name> (and -DWKT when the schema holds the
 * well-known types: an Any may then hold any of them).
 *   buf tojson IN.bin        prints the batch's M_to_json (default options) on one line
 *   buf fromjson IN.json WANT.bin
 *                            reads IN.json with M_from_json and compares M_encode's bytes with WANT.bin
 */
#include PARITY_HEADER

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#ifdef WKT
#include "google/protobuf/any.pb.h"
#include "google/protobuf/duration.pb.h"
#include "google/protobuf/empty.pb.h"
#include "google/protobuf/field_mask.pb.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/timestamp.pb.h"
#include "google/protobuf/wrappers.pb.h"
#define T(name) &google_protobuf_##name##__table,
static const pbj_table *const types[] = {
    T(Any) T(Duration) T(Empty) T(FieldMask) T(Struct) T(Value) T(ListValue) T(Timestamp) T(DoubleValue) T(FloatValue)
    T(Int64Value) T(UInt64Value) T(Int32Value) T(UInt32Value) T(BoolValue) T(StringValue) T(BytesValue)
};
#undef T
#define NTYPES (sizeof types / sizeof types[0])
#else
static const pbj_table *const *const types = NULL;
#define NTYPES 0
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

static int to_json(const uint8_t *in, size_t len, const pbj_json_options *o, pbj_arena *arena)
{
    BATCH batch;
    pbj_text out;
    pbj_status s = CAT(BATCH, _decode)(&batch, in, len, arena, NULL);
    if (s != PBJ_OK) return fprintf(stderr, "buf: the batch does not decode: %s\n", pbj_status_str(s)), 1;
    pbj_text_init(&out);
    s = CAT(BATCH, _to_json)(&batch, &out, o);
    if (s == PBJ_OK) printf("%s\n", out.data);
    else fprintf(stderr, "buf: M_to_json: %s\n", pbj_status_str(s));
    pbj_text_free(&out);
    return s != PBJ_OK;
}

static int from_json(const uint8_t *in, size_t len, const uint8_t *want, size_t want_len, pbj_json_options *o,
                     pbj_arena *arena)
{
    BATCH batch;
    pbj_json_error e = {0};
    o->error = &e;
    pbj_status s = CAT(BATCH, _from_json)(&batch, (const char *)in, len, arena, o);
    if (s != PBJ_OK)
        return fprintf(stderr, "buf: M_from_json refuses buf's JSON: %s at %u:%u: %s\n", pbj_status_str(s), e.line, e.column,
                       e.message), 1;
    size_t n = CAT(BATCH, _size)(&batch), got = 0;
    uint8_t *bytes = malloc(n ? n : 1);
    s = bytes ? CAT(BATCH, _encode)(&batch, bytes, n, &got) : PBJ_ERR_NOMEM;
    int bad = s != PBJ_OK || got != want_len || memcmp(bytes, want, got) != 0;
    if (bad) {
        size_t at = 0;
        while (s == PBJ_OK && at < got && at < want_len && bytes[at] == want[at]) at++;
        fprintf(stderr, "buf: buf's JSON reads to other bytes (%zu against %zu, first difference at %zu)\n", got, want_len, at);
    }
    free(bytes);
    return bad;
}

int main(int argc, char **argv)
{
    size_t len = 0, want_len = 0;
    uint8_t *in = argc >= 3 ? wb_slurp(argv[2], &len) : NULL;
    uint8_t *want = argc == 4 ? wb_slurp(argv[3], &want_len) : NULL;
    bool json = argc == 3 && strcmp(argv[1], "tojson") == 0;
    if (!in || !(json || (want && strcmp(argv[1], "fromjson") == 0))) {
        fprintf(stderr, "usage: buf tojson IN.bin | buf fromjson IN.json WANT.bin\n");
        return 2;
    }
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    pbj_json_options o = {.types = types, .type_count = NTYPES};
    int rc = json ? to_json(in, len, &o, &arena) : from_json(in, len, want, want_len, &o, &arena);
    pbj_arena_free(&arena);
    free(in);
    free(want);
    return rc;
}
