/* descriptor.h: the FileDescriptorSet fuzz target (protoc -o output). */
#include "google/protobuf/descriptor.pb.h"
#define FUZZ_MESSAGES(X) X(google_protobuf_FileDescriptorSet)
