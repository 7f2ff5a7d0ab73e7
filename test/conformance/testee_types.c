/* test/conformance/testee_types.c: the message types the testee knows, by their generated records. */
#include "testee.h"
#include "google/protobuf/test_messages_proto2.pb.h"
#include "google/protobuf/test_messages_proto3.pb.h"

const pbj_msg_type *const testee_types[] = {
    &protobuf_test_messages_proto3_TestAllTypesProto3__type, &protobuf_test_messages_proto2_TestAllTypesProto2__type,
    &google_protobuf_Any__type, &google_protobuf_Duration__type, &google_protobuf_FieldMask__type,
    &google_protobuf_Struct__type, &google_protobuf_Value__type, &google_protobuf_ListValue__type,
    &google_protobuf_Timestamp__type, &google_protobuf_DoubleValue__type, &google_protobuf_FloatValue__type,
    &google_protobuf_Int64Value__type, &google_protobuf_UInt64Value__type, &google_protobuf_Int32Value__type,
    &google_protobuf_UInt32Value__type, &google_protobuf_BoolValue__type, &google_protobuf_StringValue__type,
    &google_protobuf_BytesValue__type,
};
const size_t testee_ntypes = sizeof testee_types / sizeof testee_types[0];

const testee_type *testee_find(pbj_slice name)
{
    return pbj_json_find_type(&(pbj_json_options){.types = testee_types, .type_count = testee_ntypes}, name);
}
