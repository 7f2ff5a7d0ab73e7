/* irdesc.h: the IR of a file protoc already parsed, from its FileDescriptorProto (plugin mode's front end). */
#ifndef PBJC_IRDESC_H
#define PBJC_IRDESC_H

#include "ir.h"
#include "google/protobuf/descriptor.pb.h"

/* The file as the parser would have built it: declarations in order, labels and map, group and
 * proto3-optional fields as written, [default] as a value, standard options (features included) as
 * written options, comments and every <<<pbj...>>> comment from its source_code_info. Its imports are
 * named only: resolve_loaded links them. Custom options are left out (they shape no generated code). */
ir_file *irdesc_file(const ir_program *prog, const google_protobuf_FileDescriptorProto *fd);

#endif
