/* descriptor.h: write a google.protobuf.FileDescriptorSet as protoc --descriptor_set_out does. */
#ifndef PBJC_DESCRIPTOR_H
#define PBJC_DESCRIPTOR_H

#include "ir.h"

/* Write the set for prog->inputs (with include_imports, also every file they
 * import, each before its importers, as protoc orders them) to path. The
 * options are the bytes resolve's option interpreter left in ir_options.wire.
 * Returns 0 on success, non-zero after reporting an error. */
int descriptor_write_set(const ir_program *prog, bool include_imports, const char *path);

#endif
