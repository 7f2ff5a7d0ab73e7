/* test/json/driver.c: one parity schema's M_to_json on a batch of random items, one line per item. */
/*
 * Built per schema with -DPARITY_HEADER='"x.pb.h"' -DBATCH=<batch C name> -DITEM=<item C name>, like
 * test/parity/driver.c. `driver IN.bin MODE` decodes the batch IN.bin (field 1: repeated ITEM items) and
 * prints each item's JSON on a line of its own, or "ERROR <status>" when M_to_json fails. MODE is
 * "default" or "names_defaults" (proto_names and emit_defaults). The well-known types are known (Any).
 */
#include PARITY_HEADER

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#include "google/protobuf/any.pb.h"
#include "google/protobuf/duration.pb.h"
#include "google/protobuf/empty.pb.h"
#include "google/protobuf/field_mask.pb.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/timestamp.pb.h"
#include "google/protobuf/wrappers.pb.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

static const pbj_table *const types[] = {
    &CAT(ITEM, __table), &google_protobuf_Any__table, &google_protobuf_Duration__table, &google_protobuf_Empty__table,
    &google_protobuf_FieldMask__table, &google_protobuf_Struct__table, &google_protobuf_Value__table,
    &google_protobuf_ListValue__table, &google_protobuf_Timestamp__table, &google_protobuf_DoubleValue__table,
    &google_protobuf_FloatValue__table, &google_protobuf_Int64Value__table, &google_protobuf_UInt64Value__table,
    &google_protobuf_Int32Value__table, &google_protobuf_UInt32Value__table, &google_protobuf_BoolValue__table,
    &google_protobuf_StringValue__table, &google_protobuf_BytesValue__table,
};

int main(int argc, char **argv)
{
    size_t len = 0;
    uint8_t *in = argc == 3 ? wb_slurp(argv[1], &len) : NULL;
    if (!in) {
        fprintf(stderr, "usage: driver IN.bin default|names_defaults\n");
        return 2;
    }
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    BATCH batch;
    CAT(BATCH, _init)(&batch);
    pbj_status s = CAT(BATCH, _decode)(&batch, in, len, &arena, NULL);
    if (s != PBJ_OK) {
        fprintf(stderr, "driver: the batch does not decode: %s\n", pbj_status_str(s));
        return 1;
    }
    bool names_defaults = strcmp(argv[2], "names_defaults") == 0;
    pbj_json_options o = {.emit_defaults = names_defaults, .proto_names = names_defaults,
                          .types = types, .type_count = sizeof types / sizeof types[0]};
    for (size_t i = 0; i < batch.items.count; i++) {
        pbj_text out;
        pbj_text_init(&out);
        s = CAT(ITEM, _to_json)(&batch.items.data[i], &out, &o);
        if (s == PBJ_OK) printf("%s\n", out.data);
        else printf("ERROR %s, after: %s\n", pbj_status_str(s), out.data);   /* the text holds a prefix */
        pbj_text_free(&out);
    }
    pbj_arena_free(&arena);
    free(in);
    return 0;
}
