/* test/conformance/testee.c: the conformance runner's testee, on pbjc's generated code. */
/* It reads ConformanceRequests on stdin and answers ConformanceResponses on stdout, each after
 * its length (4 bytes, little-endian). A request is parsed from its payload's format by that
 * format's reader and written in the requested format by that format's writer (the `formats`
 * table); a format with no reader or writer yet answers `skipped`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.pb.h"
#include "testee.h"

/* ---- protobuf ---------------------------------------------------------------------------- */

static bool read_protobuf(const conformance_ConformanceRequest *rq, const testee_type *t, void *msg,
                          pbj_arena *arena, conformance_ConformanceResponse *rs)
{
    pbj_slice in = rq->payload.protobuf_payload;
    pbj_status s = t->decode(msg, in.data, in.len, arena, NULL);
    if (s == PBJ_OK) return true;
    testee_answer(rs, conformance_ConformanceResponse_result_parse_error, pbj_status_str(s));
    return false;
}

static void write_protobuf(const conformance_ConformanceRequest *rq, const testee_type *t, void *msg,
                           pbj_arena *arena, conformance_ConformanceResponse *rs)
{
    size_t need = t->size(msg), len = 0;
    uint8_t *out = pbj_arena_alloc(arena, need ? need : 1);
    pbj_status s = out ? t->encode(msg, out, need, &len) : PBJ_ERR_NOMEM;
    (void)rq;
    if (s != PBJ_OK) {
        testee_answer(rs, conformance_ConformanceResponse_result_serialize_error, pbj_status_str(s));
        return;
    }
    rs->result_case = conformance_ConformanceResponse_result_protobuf_payload;
    rs->result.protobuf_payload = (pbj_slice){out, len};
}

/* ---- the formats: each reader and writer lives in its own file (testee_FORMAT.c) -------- */

typedef struct testee_format {
    testee_reader read;   /* NULL: input in this format is skipped */
    testee_writer write;  /* NULL: output in this format is skipped */
} testee_format;

static const testee_format formats[] = {
    [conformance_WireFormat_PROTOBUF] = {read_protobuf, write_protobuf},
    [conformance_WireFormat_JSON] = {testee_read_json, testee_write_json},
    [conformance_WireFormat_TEXT_FORMAT] = {testee_read_text, testee_write_text},
};

/* the wire format of the request's payload */
static int payload_format(const conformance_ConformanceRequest *rq)
{
    switch (rq->payload_case) {
    case conformance_ConformanceRequest_payload_protobuf_payload: return conformance_WireFormat_PROTOBUF;
    case conformance_ConformanceRequest_payload_json_payload: return conformance_WireFormat_JSON;
    case conformance_ConformanceRequest_payload_text_payload: return conformance_WireFormat_TEXT_FORMAT;
    default: return conformance_WireFormat_JSPB;
    }
}

static const testee_format *format_of(int wire_format)
{
    if (wire_format < 0 || (size_t)wire_format >= sizeof formats / sizeof formats[0]) return NULL;
    return &formats[wire_format];
}

void testee_answer(conformance_ConformanceResponse *rs, int result_case, const char *text)
{
    rs->result_case = (conformance_ConformanceResponse_result_case)result_case;
    rs->result.skipped = (pbj_slice){(const uint8_t *)text, strlen(text)};
}

static void run(const conformance_ConformanceRequest *rq, pbj_arena *arena, conformance_ConformanceResponse *rs)
{
    const testee_type *t = testee_find(rq->message_type);
    const testee_format *in = format_of(payload_format(rq)), *out = format_of(rq->requested_output_format);
    if (!t) {
        testee_answer(rs, conformance_ConformanceResponse_result_runtime_error, "unknown message type");
        return;
    }
    if (!in || !in->read || !out || !out->write) {
        testee_answer(rs, conformance_ConformanceResponse_result_skipped, "format not supported");
        return;
    }
    void *msg = pbj_arena_alloc(arena, t->struct_size);
    if (!msg) {
        testee_answer(rs, conformance_ConformanceResponse_result_runtime_error, "out of memory");
        return;
    }
    t->init(msg);
    if (in->read(rq, t, msg, arena, rs)) out->write(rq, t, msg, arena, rs);
}

/* ---- the pipe ------------------------------------------------------------------------------ */

static bool read_all(void *buf, size_t n)
{
    return fread(buf, 1, n, stdin) == n;
}

static bool write_all(const void *buf, size_t n)
{
    return fwrite(buf, 1, n, stdout) == n;
}

/* one request read and answered; false at the end of the input */
static bool serve(pbj_arena *arena)
{
    uint8_t head[4];
    if (!read_all(head, 4)) return false;
    uint32_t len = (uint32_t)head[0] | (uint32_t)head[1] << 8 | (uint32_t)head[2] << 16 | (uint32_t)head[3] << 24;
    uint8_t *in = pbj_arena_alloc(arena, len ? len : 1);
    if (!in || !read_all(in, len)) {
        fprintf(stderr, "testee: short request\n");
        exit(1);
    }
    conformance_ConformanceRequest rq;
    conformance_ConformanceResponse rs;
    conformance_ConformanceRequest_init(&rq);
    conformance_ConformanceResponse_init(&rs);
    if (conformance_ConformanceRequest_decode(&rq, in, len, arena, NULL) != PBJ_OK) {
        fprintf(stderr, "testee: bad ConformanceRequest\n");
        exit(1);
    }
    run(&rq, arena, &rs);
    size_t need = conformance_ConformanceResponse_size(&rs), out_len = 0;
    uint8_t *out = pbj_arena_alloc(arena, need + 4);
    if (!out || conformance_ConformanceResponse_encode(&rs, out + 4, need, &out_len) != PBJ_OK) {
        fprintf(stderr, "testee: cannot encode the response\n");
        exit(1);
    }
    for (int i = 0; i < 4; i++) out[i] = (uint8_t)(out_len >> (8 * i));
    if (!write_all(out, out_len + 4) || fflush(stdout) != 0) exit(1);
    return true;
}

int main(void)
{
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    while (serve(&arena)) pbj_arena_reset(&arena);
    pbj_arena_free(&arena);
    return 0;
}
