/* test/conformance/testee_types.c: the test message types the runner names. */
#include <string.h>

#include "testee.h"
#include "google/protobuf/test_messages_proto2.pb.h"
#include "google/protobuf/test_messages_proto3.pb.h"

/* each generated function called through `void *` */
#define TESTEE_THUNKS(M) \
    static void M##_t_init(void *m) { M##_init(m); } \
    static pbj_status M##_t_decode(void *m, const uint8_t *b, size_t n, pbj_arena *a, const pbj_decode_options *o) \
    { return M##_decode(m, b, n, a, o); } \
    static size_t M##_t_size(void *m) { return M##_size(m); } \
    static pbj_status M##_t_encode(void *m, uint8_t *b, size_t cap, size_t *len) { return M##_encode(m, b, cap, len); }
#define TESTEE_TYPE(M, full) {full, sizeof(M), M##_t_init, M##_t_decode, M##_t_size, M##_t_encode}

TESTEE_THUNKS(protobuf_test_messages_proto3_TestAllTypesProto3)
TESTEE_THUNKS(protobuf_test_messages_proto2_TestAllTypesProto2)

static const testee_type types[] = {
    TESTEE_TYPE(protobuf_test_messages_proto3_TestAllTypesProto3, "protobuf_test_messages.proto3.TestAllTypesProto3"),
    TESTEE_TYPE(protobuf_test_messages_proto2_TestAllTypesProto2, "protobuf_test_messages.proto2.TestAllTypesProto2"),
};

const testee_type *testee_find(pbj_slice name)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == name.len && memcmp(types[i].name, name.data, name.len) == 0) return &types[i];
    return NULL;
}
