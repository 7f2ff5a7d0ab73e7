/* descriptor.h: write a google.protobuf.FileDescriptorSet as protoc --descriptor_set_out does. */
#ifndef PBJC_DESCRIPTOR_H
#define PBJC_DESCRIPTOR_H

#include "ir.h"

/* What goes into the set besides the inputs' descriptors (flags may be or'ed). */
enum {
    DESCRIPTOR_IMPORTS = 1,       /* --include_imports: every file the inputs import */
    DESCRIPTOR_SOURCE_INFO = 2    /* --include_source_info: each file's SourceCodeInfo */
};

/* Write the set for prog->inputs (with DESCRIPTOR_IMPORTS, also every file they
 * import, each before its importers, as protoc orders them) to path. The
 * options are the bytes resolve's option interpreter left in ir_options.wire.
 * Returns 0 on success, non-zero after reporting an error. */
int descriptor_write_set(const ir_program *prog, unsigned flags, const char *path);

#endif
