/* descriptor.h: write a google.protobuf.FileDescriptorSet as protoc --descriptor_set_out does. */
#ifndef PBJC_DESCRIPTOR_H
#define PBJC_DESCRIPTOR_H

#include "ir.h"

/* Write the set for prog->inputs (with include_imports, also every file they
 * import, each before its importers, as protoc orders them) to path.
 * Returns 0 on success, non-zero after reporting an error. */
int descriptor_write_set(const ir_program *prog, bool include_imports, const char *path);

/* Encode every file of prog->files in memory as the writer would, reporting what
 * protoc's option interpreter rejects (aggregate values, "was already set", ...),
 * and write nothing. Meant right after a resolve with no error. Returns the
 * number of errors reported. */
int descriptor_validate(const ir_program *prog);

#endif
