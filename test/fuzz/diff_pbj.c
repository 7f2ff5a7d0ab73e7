/* diff_pbj.c: the pbjc side of the differential targets: protobuf's TestAllTypesProto2/3 decoded, encoded, printed. */
#include "diff_pbj.h"
#include "google/protobuf/test_messages_proto2.pb.h"
#include "google/protobuf/test_messages_proto3.pb.h"

#include <stdlib.h>
#include <string.h>

#define DIFF_P2 protobuf_test_messages_proto2_TestAllTypesProto2
#define DIFF_P3 protobuf_test_messages_proto3_TestAllTypesProto3
#define DIFF_CAT(a, b) DIFF_CAT_(a, b)
#define DIFF_CAT_(a, b) a##b

const int diff_pbj_err_varint = PBJ_ERR_VARINT, diff_pbj_err_nomem = PBJ_ERR_NOMEM, diff_pbj_err_depth = PBJ_ERR_DEPTH;

/* One message's table and calls on untyped pointers. */
typedef struct diff_ops {
    const pbj_table *table;
    void (*print)(const void *m, pbj_text *t);
    size_t (*size)(const void *m);
    pbj_status (*encode)(const void *m, uint8_t *buf, size_t cap, size_t *len);
    pbj_status (*decode)(void *m, const uint8_t *p, size_t n, pbj_arena *a, const pbj_decode_options *o);
} diff_ops;

#define DIFF_FNS(T)                                                                                                  \
    static void DIFF_CAT(T, _diff_print)(const void *m, pbj_text *t) { DIFF_CAT(T, _print)(m, t); }                \
    static size_t DIFF_CAT(T, _diff_size)(const void *m) { return DIFF_CAT(T, _size)(m); }                          \
    static pbj_status DIFF_CAT(T, _diff_encode)(const void *m, uint8_t *b, size_t c, size_t *n) { return DIFF_CAT(T, _encode)(m, b, c, n); } \
    static pbj_status DIFF_CAT(T, _diff_decode)(void *m, const uint8_t *p, size_t n, pbj_arena *a, const pbj_decode_options *o) \
    {                                                                                                                \
        return DIFF_CAT(T, _decode)(m, p, n, a, o);                                                                 \
    }
#define DIFF_ROW(T) {&DIFF_CAT(T, __table), DIFF_CAT(T, _diff_print), DIFF_CAT(T, _diff_size), DIFF_CAT(T, _diff_encode), DIFF_CAT(T, _diff_decode)}
DIFF_FNS(DIFF_P2)
DIFF_FNS(DIFF_P3)
static const diff_ops ops[2] = {DIFF_ROW(DIFF_P2), DIFF_ROW(DIFF_P3)};

/* The types an Any may name in JSON: every message of the two files and the well-known types they import. */
#define DIFF_ANY_TYPES(X) X(protobuf_test_messages_proto3_TestAllTypesProto3) X(protobuf_test_messages_proto3_TestAllTypesProto3_NestedMessage) \
    X(protobuf_test_messages_proto3_ForeignMessage) X(protobuf_test_messages_proto3_NullHypothesisProto3)                          \
    X(protobuf_test_messages_proto3_EnumOnlyProto3) X(protobuf_test_messages_proto2_TestAllTypesProto2)                          \
    X(protobuf_test_messages_proto2_TestAllTypesProto2_NestedMessage) X(protobuf_test_messages_proto2_ForeignMessageProto2)      \
    X(protobuf_test_messages_proto2_UnknownToTestAllTypes) X(protobuf_test_messages_proto2_NullHypothesisProto2)                 \
    X(protobuf_test_messages_proto2_EnumOnlyProto2) X(protobuf_test_messages_proto2_OneStringProto2)                             \
    X(google_protobuf_Any) X(google_protobuf_Duration) X(google_protobuf_FieldMask) X(google_protobuf_Struct)                   \
    X(google_protobuf_Value) X(google_protobuf_ListValue) X(google_protobuf_Timestamp) X(google_protobuf_DoubleValue)            \
    X(google_protobuf_FloatValue) X(google_protobuf_Int64Value) X(google_protobuf_UInt64Value) X(google_protobuf_Int32Value)     \
    X(google_protobuf_UInt32Value) X(google_protobuf_BoolValue) X(google_protobuf_StringValue) X(google_protobuf_BytesValue)
#define DIFF_TYPE_REF(T) &T##__table,
static const pbj_table *const any_types[] = {DIFF_ANY_TYPES(DIFF_TYPE_REF)};

/* m's encoding and text into r. */
static void diff_write(const diff_ops *o, void *m, diff_pbj_result *r)
{
    size_t n = o->size(m);
    r->bytes = malloc(n ? n : 1);
    if (!r->bytes || o->encode(m, r->bytes, n, &r->len) != PBJ_OK) abort();
    pbj_text t;
    pbj_text_init(&t);
    o->print(m, &t);
    if (t.failed) abort();
    r->text = malloc(t.len + 1);
    if (!r->text) abort();
    if (t.len) memcpy(r->text, t.data, t.len);
    r->text[t.len] = '\0';
    r->text_len = t.len;
    pbj_text_free(&t);
}

/* r for status st of reading into m. */
static void diff_verdict(const diff_ops *o, void *m, pbj_status st, diff_pbj_result *r)
{
    r->ok = st == PBJ_OK;
    r->code = st;
    r->status = pbj_status_str(st);
    if (r->ok) diff_write(o, m, r);
}

void diff_pbj_binary(int proto3, int drop_unknown, const uint8_t *p, size_t n, diff_pbj_result *r)
{
    pbj_decode_options opts = {0};
    opts.unknown = drop_unknown ? PBJ_UNKNOWN_DROP : PBJ_UNKNOWN_KEEP;
    const diff_ops *o = &ops[proto3 != 0];
    memset(r, 0, sizeof *r);
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    void *m = pbj_arena_alloc(&arena, o->table->size);
    if (!m) abort();
    diff_verdict(o, m, o->decode(m, p, n, &arena, &opts), r);
    pbj_arena_free(&arena);
}

void diff_pbj_json(int proto3, const char *p, size_t n, diff_pbj_result *r)
{
    const diff_ops *o = &ops[proto3 != 0];
    memset(r, 0, sizeof *r);
    pbj_json_error err = {0};
    pbj_json_options opts = {.error = &err, .types = any_types, .type_count = sizeof any_types / sizeof *any_types};
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    void *m = pbj_arena_alloc(&arena, o->table->size);
    if (!m) abort();
    pbj_status st = pbj_table_from_json(o->table, m, p, n, &arena, &opts);
    diff_verdict(o, m, st, r);
    static char why[sizeof err.message];       /* the message outlives err: one result at a time */
    memcpy(why, err.message, sizeof why);
    r->why = st == PBJ_OK ? NULL : why;
    pbj_arena_free(&arena);
}

void diff_pbj_free(diff_pbj_result *r)
{
    free(r->bytes);
    free(r->text);
    memset(r, 0, sizeof *r);
}
