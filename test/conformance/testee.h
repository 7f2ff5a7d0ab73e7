/* test/conformance/testee.h: what the testee's format readers and writers share. */
#ifndef TESTEE_H
#define TESTEE_H

#include <string.h>

#include "conformance.pb.h"

/* one test message type: its table (JSON's Any registry holds tables) and its generated functions */
typedef struct testee_type {
    const pbj_table *table;      /* &M__table */
    size_t struct_size;
    void (*init)(void *m);
    pbj_status (*decode)(void *m, const uint8_t *buf, size_t len, pbj_arena *arena, const pbj_decode_options *o);
    size_t (*size)(const void *m);
    pbj_status (*encode)(const void *m, uint8_t *buf, size_t cap, size_t *len);
} testee_type;

/* every type the testee knows (the test messages and the well-known types an Any may hold), and their tables */
extern const testee_type testee_types[];
extern const pbj_table *const testee_tables[];
extern const size_t testee_ntypes;

/* the test message type of this full name, or NULL */
const testee_type *testee_find(pbj_slice name);

/* A reader parses the request's payload into msg (initialised, of type t; allocate in arena) and
 * returns true, or sets the response (parse_error, skipped) and returns false. A writer writes
 * msg in its format into the response (the payload, or serialize_error, skipped). */
typedef bool (*testee_reader)(const conformance_ConformanceRequest *rq, const testee_type *t, void *msg,
                              pbj_arena *arena, conformance_ConformanceResponse *rs);
typedef void (*testee_writer)(const conformance_ConformanceRequest *rq, const testee_type *t, void *msg,
                              pbj_arena *arena, conformance_ConformanceResponse *rs);

/* Each format's reader and writer is defined in its own file (testee_json_write.c,
 * testee_json_read.c, testee_text_read.c, ...; conformance.mk links every test/conformance/testee*.c):
 * one that no file defines is NULL (weak) and its format answers `skipped`. */
#define TESTEE_READER(name) \
    bool name(const conformance_ConformanceRequest *rq, const testee_type *t, void *msg, pbj_arena *arena, \
              conformance_ConformanceResponse *rs)
#define TESTEE_WRITER(name) \
    void name(const conformance_ConformanceRequest *rq, const testee_type *t, void *msg, pbj_arena *arena, \
              conformance_ConformanceResponse *rs)
__attribute__((weak)) TESTEE_READER(testee_read_json);
__attribute__((weak)) TESTEE_WRITER(testee_write_json);
__attribute__((weak)) TESTEE_READER(testee_read_text);
__attribute__((weak)) TESTEE_WRITER(testee_write_text);

/* sets the response's result to a string (parse_error, serialize_error, skipped, runtime_error, ...) */
void testee_answer(conformance_ConformanceResponse *rs, int result_case, const char *text);

#endif
