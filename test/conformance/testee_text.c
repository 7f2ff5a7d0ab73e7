/* testee_text.c: the conformance testee's text format: M_from_text reads a request's payload, M_print writes the answer. */
#include <string.h>

#include "testee.h"
#include "google/protobuf/test_messages_proto2.pb.h"
#include "google/protobuf/test_messages_proto3.pb.h"

#define P3(name) protobuf_test_messages_proto3_TestAllTypesProto3##name
#define P2(name) protobuf_test_messages_proto2_TestAllTypesProto2##name

/* The types an Any of the suite may hold in its expanded form. */
#define WKT(name) &google_protobuf_##name##__table
static const pbj_table *const any_types[] = {
    &P3(__table), &P2(__table), WKT(Any), WKT(Duration), WKT(Timestamp), WKT(FieldMask), WKT(Struct),
    WKT(Value), WKT(ListValue), WKT(BoolValue), WKT(Int32Value), WKT(Int64Value), WKT(UInt32Value), WKT(UInt64Value),
    WKT(FloatValue), WKT(DoubleValue), WKT(StringValue), WKT(BytesValue),
};
#undef WKT

static bool is(const testee_type *t, const char *name) { return strcmp(t->table->pool + t->table->name, name) == 0; }

TESTEE_READER(testee_read_text)
{
    pbj_slice in = rq->payload.text_payload;
    static pbj_text_error e;   /* static: the answer points into e.message until the response is written */
    pbj_text_read_options o = {.error = &e, .types = any_types, .type_count = sizeof any_types / sizeof *any_types};
    pbj_status s = PBJ_ERR_SYNTAX;
    if (is(t, "protobuf_test_messages.proto3.TestAllTypesProto3"))
        s = P3(_from_text)(msg, (const char *)in.data, in.len, arena, &o);
    else if (is(t, "protobuf_test_messages.proto2.TestAllTypesProto2"))
        s = P2(_from_text)(msg, (const char *)in.data, in.len, arena, &o);
    if (s == PBJ_OK) return true;
    testee_answer(rs, conformance_ConformanceResponse_result_parse_error, e.line ? e.message : pbj_status_str(s));
    return false;
}

/* msg without its unknown fields (the runner asks for them only with print_unknown_fields): encoded, then
 * decoded dropping them. */
static void *known_only(const testee_type *t, void *msg, pbj_arena *arena)
{
    size_t need = t->size(msg), len = 0;
    uint8_t *buf = pbj_arena_alloc(arena, need ? need : 1);
    void *copy = pbj_arena_alloc(arena, t->struct_size);
    pbj_decode_options d = {.unknown = PBJ_UNKNOWN_DROP, .partial = true};
    if (!buf || !copy || t->encode(msg, buf, need, &len) != PBJ_OK) return NULL;
    t->init(copy);
    return t->decode(copy, buf, len, arena, &d) == PBJ_OK ? copy : NULL;
}

TESTEE_WRITER(testee_write_text)
{
    pbj_text text;
    pbj_status s = PBJ_ERR_NOMEM;
    void *m = rq->print_unknown_fields ? msg : known_only(t, msg, arena);
    pbj_text_init(&text);
    if (m && is(t, "protobuf_test_messages.proto3.TestAllTypesProto3")) s = P3(_print)(m, &text);
    else if (m && is(t, "protobuf_test_messages.proto2.TestAllTypesProto2")) s = P2(_print)(m, &text);
    uint8_t *out = s == PBJ_OK ? pbj_arena_alloc(arena, text.len + 1) : NULL;
    if (out) {
        memcpy(out, text.data, text.len);
        rs->result_case = conformance_ConformanceResponse_result_text_payload;
        rs->result.text_payload = (pbj_slice){out, text.len};
    } else testee_answer(rs, conformance_ConformanceResponse_result_serialize_error, pbj_status_str(s));
    pbj_text_free(&text);
}
