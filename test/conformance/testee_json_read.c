/* test/conformance/testee_json_read.c: the testee's JSON reader, the runner's message type read through its table. */
#include <stdio.h>

#include "testee.h"

TESTEE_READER(testee_read_json)
{
    static char why[256];                        /* "line:col: " and the 200-byte message */
    pbj_json_error err = {0};
    pbj_json_options o = {.error = &err, .types = testee_tables, .type_count = testee_ntypes,
                          .ignore_unknown_fields = rq->test_category == conformance_TestCategory_JSON_IGNORE_UNKNOWN_PARSING_TEST};
    pbj_slice in = rq->payload.json_payload;
    pbj_status st = pbj_table_from_json(t->table, msg, (const char *)in.data, in.len, arena, &o);
    if (st == PBJ_OK) return true;
    snprintf(why, sizeof why, "%u:%u: %s", err.line, err.column, err.message[0] ? err.message : pbj_status_str(st));
    testee_answer(rs, conformance_ConformanceResponse_result_parse_error, why);
    return false;
}
