/* diff_pbj.h: the pbjc side of the differential targets (diff_pbj.c), callable from fuzz_diff.cc's C++. */
#ifndef DIFF_PBJ_H
#define DIFF_PBJ_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What pbjc's code made of one input: its verdict and, when it read the input, the message's encoding and text. */
typedef struct diff_pbj_result {
    int ok;                   /* the input was read */
    int code;                 /* the verdict: a pbj_status */
    const char *status;       /* pbj_status_str of the verdict */
    const char *why;          /* JSON: the reader's error message, when it refused */
    uint8_t *bytes;           /* encode of what was read (malloc'd) */
    size_t len;
    char *text;               /* print of what was read (malloc'd, NUL-terminated) */
    size_t text_len;
} diff_pbj_result;

/* pbj_status codes the target names */
extern const int diff_pbj_err_varint, diff_pbj_err_nomem, diff_pbj_err_depth;

/* protobuf_test_messages.proto3.TestAllTypesProto3 when proto3, else ...proto2.TestAllTypesProto2, from bytes with
 * the default decode options (but unknown fields dropped when drop_unknown). */
void diff_pbj_binary(int proto3, int drop_unknown, const uint8_t *p, size_t n, diff_pbj_result *r);
/* The same messages from JSON, with the default JSON options (an Any may hold the files' and the well-known types). */
void diff_pbj_json(int proto3, const char *p, size_t n, diff_pbj_result *r);
void diff_pbj_free(diff_pbj_result *r);

#ifdef __cplusplus
}
#endif
#endif
