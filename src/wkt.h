/* wkt.h: the .proto files compiled into pbjc: the well-known types (src/wkt/), found after every -I root, and the options schema. */
#ifndef PBJC_WKT_H
#define PBJC_WKT_H

#include <stddef.h>

/* The text of the compiled-in file named name ("google/protobuf/timestamp.proto"), NULL when none. */
const char *wkt_find(const char *name, size_t *len);

/* The text of src/proto's google/protobuf/descriptor.proto (*name), newer than the importable one
 * (src/wkt's, protobuf 3.21's): what standard options are read against when no descriptor.proto was
 * read from disk. Never an import. */
const char *wkt_options_schema(const char **name, size_t *len);

#endif
