/* test/conformance/testee_types.c: the message types the testee knows: their tables and generated functions. */
#include "testee.h"
#include "google/protobuf/test_messages_proto2.pb.h"
#include "google/protobuf/test_messages_proto3.pb.h"

#define TESTEE_TYPES(X)                                                                                           \
    X(protobuf_test_messages_proto3_TestAllTypesProto3) X(protobuf_test_messages_proto2_TestAllTypesProto2)      \
    X(google_protobuf_Any) X(google_protobuf_Duration) X(google_protobuf_FieldMask) X(google_protobuf_Struct)    \
    X(google_protobuf_Value) X(google_protobuf_ListValue) X(google_protobuf_Timestamp)                           \
    X(google_protobuf_DoubleValue) X(google_protobuf_FloatValue) X(google_protobuf_Int64Value)                   \
    X(google_protobuf_UInt64Value) X(google_protobuf_Int32Value) X(google_protobuf_UInt32Value)                  \
    X(google_protobuf_BoolValue) X(google_protobuf_StringValue) X(google_protobuf_BytesValue)

#define TESTEE_THUNKS(T)                                                                                          \
    static void T##_t_init(void *m) { T##_init(m); }                                                              \
    static pbj_status T##_t_decode(void *m, const uint8_t *b, size_t n, pbj_arena *a, const pbj_decode_options *o) \
    {                                                                                                             \
        return T##_decode(m, b, n, a, o);                                                                         \
    }                                                                                                             \
    static size_t T##_t_size(const void *m) { return T##_size(m); }                                               \
    static pbj_status T##_t_encode(const void *m, uint8_t *b, size_t c, size_t *n) { return T##_encode(m, b, c, n); }
#define TESTEE_ROW(T) {&T##__table, sizeof(T), T##_t_init, T##_t_decode, T##_t_size, T##_t_encode},
#define TESTEE_TABLE(T) &T##__table,

TESTEE_TYPES(TESTEE_THUNKS)
const testee_type testee_types[] = {TESTEE_TYPES(TESTEE_ROW)};
const pbj_table *const testee_tables[] = {TESTEE_TYPES(TESTEE_TABLE)};
const size_t testee_ntypes = sizeof testee_types / sizeof testee_types[0];

const testee_type *testee_find(pbj_slice name)
{
    const pbj_table *t = pbj_json_find_type(&(pbj_json_options){.types = testee_tables, .type_count = testee_ntypes}, name);
    for (size_t i = 0; t && i < testee_ntypes; i++)
        if (testee_types[i].table == t) return &testee_types[i];
    return NULL;
}
