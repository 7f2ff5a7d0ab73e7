/* textformat.h: aggregate option values, { protobuf text format }, parsed and encoded as their message. */
#ifndef PBJC_TEXTFORMAT_H
#define PBJC_TEXTFORMAT_H

#include "optvalue.h"

/* The aggregate value v (IR_VAL_AGGREGATE) of message- or group-typed f as
 * protoc's option interpreter writes it: f's tag, then the message's fields in
 * number order. Errors are reported as protoc's ("Error while parsing option
 * value for ..."); false after one. */
bool textformat_put(optenv *env, wbuf *b, const ir_field *f, const ir_value *v);

#endif
