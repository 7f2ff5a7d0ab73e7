/* wkt.c: the .proto files compiled into pbjc by src/tools/wkt2c: the well-known types (src/wkt) and the options schema (src/proto). */
#include "wkt.h"

#include <string.h>

typedef struct wkt_file {
    const char *name;        /* "google/protobuf/timestamp.proto" */
    const char *text;        /* NUL-terminated */
    size_t len;
} wkt_file;

#include "wkt/files.inc"
#include "wkt/schema.inc"

const char *wkt_find(const char *name, size_t *len)
{
    for (size_t i = 0; i < sizeof wkt_files / sizeof *wkt_files; i++) {
        if (strcmp(wkt_files[i].name, name) != 0) continue;
        *len = wkt_files[i].len;
        return wkt_files[i].text;
    }
    return NULL;
}

const char *wkt_options_schema(const char **name, size_t *len)
{
    *name = wkt_schema_files[0].name;
    *len = wkt_schema_files[0].len;
    return wkt_schema_files[0].text;
}
