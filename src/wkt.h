/* wkt.h: the well-known types' .proto files compiled into pbjc (src/wkt/), found after every -I root. */
#ifndef PBJC_WKT_H
#define PBJC_WKT_H

#include <stddef.h>

/* The text of the compiled-in file named name ("google/protobuf/timestamp.proto"), NULL when none. */
const char *wkt_find(const char *name, size_t *len);

#endif
