/* limits3.c: decode's default limits on protobuf's TestAllTypesProto3 (test_messages_proto3.proto, as the conformance
 * suite builds it) refuse only what protobuf's C++ 3.21 refuses, the same way whatever the arena held (issue 26):
 * recursive_message nested 35 and 100 deep decodes (101 is PBJ_ERR_DEPTH, as C++), again and again in one arena
 * between other decodes; an explicit max_memory refuses one byte short of what the decode takes, and only then. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "google/protobuf/test_messages_proto3.pb.h"

typedef protobuf_test_messages_proto3_TestAllTypesProto3 T3;

#define EXPECT_NAME "decode limits3"
#include "../expect.h"

/* recursive_message (field 27) nested n deep around optional_int32 = 1, written inside out from the buffer's end. */
static size_t nested(uint8_t *buf, size_t cap, int n, const uint8_t **start)
{
    uint8_t *p = buf + cap;
    *--p = 1;
    *--p = 0x08;
    for (int i = 0; i < n; i++) {
        size_t len = (size_t)(buf + cap - p);
        uint8_t v[10];
        uint8_t *e = pbj_put_varint(v, len);
        p -= e - v;
        memcpy(p, v, (size_t)(e - v));
        *--p = 0x01;
        *--p = 0xda;
    }
    *start = p;
    return (size_t)(buf + cap - p);
}

static pbj_status decode(const uint8_t *in, size_t len, pbj_arena *a, size_t max_memory)
{
    T3 m;
    pbj_decode_options o = {0};
    o.max_memory = max_memory;
    return protobuf_test_messages_proto3_TestAllTypesProto3_decode(&m, in, len, a, max_memory ? &o : NULL);
}

int main(void)
{
    static uint8_t buf[4096];
    const uint8_t *in35, *in100, *in101;
    size_t n35 = nested(buf, 1024, 35, &in35), n100 = nested(buf + 1024, 1024, 100, &in100),
           n101 = nested(buf + 2048, 1024, 101, &in101);
    pbj_arena a, fresh;
    pbj_arena_init(&a, NULL, 0);
    for (int round = 0; round < 3; round++) {                 /* one arena: the same verdicts every time */
        EXPECT(decode(in35, n35, &a, 0) == PBJ_OK, "35 deep (%zu bytes), round %d", n35, round);
        EXPECT(decode(in100, n100, &a, 0) == PBJ_OK, "100 deep, round %d", round);
        EXPECT(decode(in101, n101, &a, 0) == PBJ_ERR_DEPTH, "101 deep, round %d", round);
        if (round == 1) pbj_arena_reset(&a);
    }
    pbj_arena_init(&fresh, NULL, 0);
    EXPECT(decode(in100, n100, &fresh, 0) == PBJ_OK, "100 deep, a new arena");
    size_t need = pbj_arena_used(&fresh);
    pbj_arena_free(&fresh);
    for (int round = 0; round < 2; round++) {                 /* max_memory: an absolute count of this decode's bytes */
        EXPECT(decode(in100, n100, &fresh, need - 1) == PBJ_ERR_NOMEM, "100 deep, max_memory %zu, new arena", need - 1);
        pbj_arena_free(&fresh);
        EXPECT(decode(in100, n100, &fresh, need) == PBJ_OK, "100 deep, max_memory %zu, new arena", need);
        pbj_arena_free(&fresh);
        EXPECT(decode(in100, n100, &a, need - 1) == PBJ_ERR_NOMEM, "100 deep, max_memory %zu, used arena", need - 1);
        EXPECT(decode(in35, n35, &a, 0) == PBJ_OK, "35 deep between");
        EXPECT(decode(in100, n100, &a, need) == PBJ_OK, "100 deep, max_memory %zu, used arena", need);
    }
    pbj_arena_free(&a);
    if (expect_failures) return 1;
    printf("decode limits3: TestAllTypesProto3 35 and 100 deep decode (101: PBJ_ERR_DEPTH), the same in any arena; "
           "max_memory refuses below the %zu bytes 100 deep takes\n", need);
    return 0;
}
