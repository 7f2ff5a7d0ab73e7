/* main.c: a program on uses_all.proto's generated code and the well-known types' (test/wkt/run.sh):
 * a message holding each type encodes, decodes equal and prints. */
#include <stdio.h>
#include <string.h>

#include "uses_all.pb.h"

int main(void)
{
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    wkt_test_Everything m;
    wkt_test_Everything_init(&m);
    google_protobuf_Timestamp at;
    google_protobuf_Timestamp_init(&at);
    at.seconds = 1764619200;
    at.nanos = 500000000;
    m.at = &at;
    google_protobuf_compiler_CodeGeneratorRequest req;
    google_protobuf_compiler_CodeGeneratorRequest_init(&req);
    req.parameter = PBJ_STR("views");
    req.has_parameter = true;
    m.request = &req;
    m.has_count = true;
    m.count = 42;
    uint8_t buf[256];
    size_t len;
    if (wkt_test_Everything_encode(&m, buf, sizeof buf, &len) != PBJ_OK) return 1;
    wkt_test_Everything back;
    if (wkt_test_Everything_decode(&back, buf, len, &arena, NULL) != PBJ_OK) return 1;
    if (!wkt_test_Everything_equal(&m, &back)) return 1;
    pbj_text t;
    pbj_text_init(&t);
    if (wkt_test_Everything_print(&back, &t) != PBJ_OK) return 1;
    fputs(t.data, stdout);
    pbj_text_free(&t);
    pbj_arena_free(&arena);
    return 0;
}
