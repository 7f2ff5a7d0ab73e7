/* test/conformance/testee_json_read.c: the testee's JSON reader, M_from_json of the runner's message type. */
#include <stdio.h>
#include <string.h>

#include "testee.h"
#include "google/protobuf/any.pb.h"
#include "google/protobuf/duration.pb.h"
#include "google/protobuf/field_mask.pb.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/test_messages_proto2.pb.h"
#include "google/protobuf/test_messages_proto3.pb.h"
#include "google/protobuf/timestamp.pb.h"
#include "google/protobuf/wrappers.pb.h"

/* every type an Any of the suite may name */
static const pbj_msg_type *const json_types[] = {
    &protobuf_test_messages_proto3_TestAllTypesProto3__json_type, &protobuf_test_messages_proto2_TestAllTypesProto2__json_type,
    &google_protobuf_Any__json_type, &google_protobuf_Duration__json_type, &google_protobuf_FieldMask__json_type,
    &google_protobuf_Struct__json_type, &google_protobuf_Value__json_type, &google_protobuf_ListValue__json_type,
    &google_protobuf_Timestamp__json_type, &google_protobuf_DoubleValue__json_type, &google_protobuf_FloatValue__json_type,
    &google_protobuf_Int64Value__json_type, &google_protobuf_UInt64Value__json_type, &google_protobuf_Int32Value__json_type,
    &google_protobuf_UInt32Value__json_type, &google_protobuf_BoolValue__json_type, &google_protobuf_StringValue__json_type,
    &google_protobuf_BytesValue__json_type,
};

TESTEE_READER(testee_read_json)
{
    static char why[200];
    pbj_json_error err = {0};
    pbj_json_options o = {.error = &err, .types = json_types, .type_count = sizeof json_types / sizeof *json_types,
                          .ignore_unknown_fields = rq->test_category == conformance_TestCategory_JSON_IGNORE_UNKNOWN_PARSING_TEST};
    const pbj_msg_type *type = NULL;
    for (size_t i = 0; i < 2; i++)
        if (strcmp(json_types[i]->full_name, t->name) == 0) type = json_types[i];
    pbj_slice in = rq->payload.json_payload;
    pbj_status st = type ? pbj_json_read(type, msg, (const char *)in.data, in.len, arena, &o) : PBJ_ERR_SYNTAX;
    if (st == PBJ_OK) return true;
    snprintf(why, sizeof why, "%u:%u: %s", err.line, err.column, err.message ? err.message : pbj_status_str(st));
    testee_answer(rs, conformance_ConformanceResponse_result_parse_error, why);
    return false;
}
