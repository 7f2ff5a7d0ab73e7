/* test/conformance/testee_json_write.c: the testee's JSON output, through its table (what M_to_json calls). */
#include "testee.h"

TESTEE_WRITER(testee_write_json)
{
    pbj_text out;
    pbj_text_init(&out);
    pbj_json_options o = {.types = testee_tables, .type_count = testee_ntypes};
    pbj_status s = pbj_json_write(t->table, msg, &out, &o);
    char *text = s == PBJ_OK ? pbj_arena_alloc(arena, out.len + 1) : NULL;
    (void)rq;
    if (s == PBJ_OK && text) {
        memcpy(text, out.data, out.len + 1);
        rs->result_case = conformance_ConformanceResponse_result_json_payload;
        rs->result.json_payload = (pbj_slice){(const uint8_t *)text, out.len};
    } else {
        testee_answer(rs, conformance_ConformanceResponse_result_serialize_error, pbj_status_str(s ? s : PBJ_ERR_NOMEM));
    }
    pbj_text_free(&out);
}
