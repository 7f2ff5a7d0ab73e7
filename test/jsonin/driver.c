/* driver.c: M_from_json of every case oracle.py wrote (its JSON, python's verdict, python's bytes): the same verdict,
 * and M_encode's bytes equal to python's; then every prefix of every fifth accepted text is rejected (each read from
 * a copy of exactly its length: ASan catches a read past it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#include PARITY_HEADER
#include "google/protobuf/any.pb.h"
#include "google/protobuf/duration.pb.h"
#include "google/protobuf/empty.pb.h"
#include "google/protobuf/field_mask.pb.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/timestamp.pb.h"
#include "google/protobuf/wrappers.pb.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

/* The types an Any may name: the item's and the well-known ones. */
static const pbj_table *const types[] = {
    &CAT(ITEM, __table), &google_protobuf_Any__table, &google_protobuf_Duration__table,
    &google_protobuf_Empty__table, &google_protobuf_FieldMask__table, &google_protobuf_Struct__table,
    &google_protobuf_Value__table, &google_protobuf_ListValue__table, &google_protobuf_Timestamp__table,
    &google_protobuf_Int32Value__table, &google_protobuf_StringValue__table, &google_protobuf_BytesValue__table,
};

typedef struct rec {
    const uint8_t *data;
    size_t len;
} rec;

static bool next(const uint8_t **p, const uint8_t *end, rec *r)
{
    if (end - *p < 4) return false;
    uint32_t n = (uint32_t)(*p)[0] | (uint32_t)(*p)[1] << 8 | (uint32_t)(*p)[2] << 16 | (uint32_t)(*p)[3] << 24;
    if ((size_t)(end - *p - 4) < n) return false;
    r->data = *p + 4;
    r->len = n;
    *p += 4 + n;
    return true;
}

/* One text read as an ITEM in a fresh copy (so a read past its end is caught): the status, the encoding in out. */
static pbj_status read_one(const uint8_t *text, size_t len, const pbj_json_options *o, uint8_t **out, size_t *out_len)
{
    pbj_arena arena;
    ITEM m;
    char *copy = malloc(len ? len : 1);
    memcpy(copy, text, len);
    pbj_arena_init(&arena, NULL, 0);
    pbj_status st = CAT(ITEM, _from_json)(&m, copy, len, &arena, o);
    free(copy);
    *out = NULL;
    *out_len = 0;
    if (st == PBJ_OK) {
        size_t n = CAT(ITEM, _size)(&m);
        *out = malloc(n ? n : 1);
        st = CAT(ITEM, _encode)(&m, *out, n, out_len);
    }
    pbj_arena_free(&arena);
    return st;
}

int main(int argc, char **argv)
{
    size_t len = 0;
    uint8_t *all = argc == 2 ? wb_slurp(argv[1], &len) : NULL;
    if (!all) {
        fprintf(stderr, "usage: driver CASES (written by oracle.py)\n");
        return 2;
    }
    pbj_json_error err = {0};
    pbj_json_options o = {.error = &err, .types = types, .type_count = sizeof types / sizeof *types};
    const uint8_t *p = all, *end = all + len;
    rec text, verdict, want;
    int cases = 0, failed = 0, prefixes = 0;
    while (next(&p, end, &text) && next(&p, end, &verdict) && next(&p, end, &want)) {
        uint8_t *got;
        size_t got_len;
        cases++;
        pbj_status st = read_one(text.data, text.len, &o, &got, &got_len);
        bool accept = verdict.len && verdict.data[0] != 'R';
        if ((st == PBJ_OK) != accept) {
            fprintf(stderr, "jsonin: case %d: python %s, pbj %s (%s at %u:%u: %s): %.*s\n", cases, accept ? "accepts" : "rejects",
                    st == PBJ_OK ? "accepts" : "rejects", pbj_status_str(st), err.line, err.column, err.message[0] ? err.message : "",
                    (int)(text.len > 400 ? 400 : text.len), (const char *)text.data);
            failed++;
        } else if (st == PBJ_OK && verdict.data[0] == 'A' && (got_len != want.len || memcmp(got, want.data, got_len) != 0)) {
            fprintf(stderr, "jsonin: case %d: bytes differ from python's (%zu vs %zu): %.*s\n", cases, got_len, want.len,
                    (int)(text.len > 400 ? 400 : text.len), (const char *)text.data);
            failed++;
        }
        free(got);
        for (size_t cut = 0; st == PBJ_OK && cases % 5 == 0 && cut < text.len && text.len < 4096; cut++) {   /* prefixes: rejected */
            size_t k = text.len - 1 - cut;
            while (k && (text.data[k] == ' ' || text.data[k] == '\n')) k--;
            if (read_one(text.data, k, &o, &got, &got_len) == PBJ_OK) {
                fprintf(stderr, "jsonin: case %d: the prefix of %zu bytes is accepted\n", cases, k);
                failed++;
                break;
            }
            prefixes++;
        }
        if (failed > 20) break;
    }
    free(all);
    printf("jsonin %s: %d cases, %d prefixes rejected, %d failed\n", argv[1], cases, prefixes, failed);
    return failed != 0;
}
