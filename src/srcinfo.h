/* srcinfo.h: protoc 3.21's SourceCodeInfo of a file (--include_source_info), from the tokens its parse kept. */
#ifndef PBJC_SRCINFO_H
#define PBJC_SRCINFO_H

#include "ir.h"
#include "wire.h"

struct ptok;

/* The parser keeps each grammar token of f in order; end is one past its last byte
 * (an aggregate value's closing '}'). */
void srcinfo_token(ir_file *f, const struct ptok *t, ir_loc end);

/* FileDescriptorProto.source_code_info (field) of a parsed and resolved file, as protoc
 * writes it: locations in its parser's order, option paths as its option interpreter rewrites them. */
void srcinfo_put(wbuf *b, uint32_t field, const ir_file *f);

#endif
