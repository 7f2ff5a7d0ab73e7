/* memory_test.c: no default memory cap refuses a valid message (issue 26): 4 MB of empty FileDescriptorProtos (2 bytes
 * each, 2 million structs of several hundred bytes: far more than any fixed ratio to the input) decode with default
 * options, as protobuf's C++ reads them; an explicit max_memory still refuses one byte short of what they take, the
 * same in a new arena and in a reused one. */
#include "google/protobuf/descriptor.pb.h"

#include <stdio.h>
#include <stdlib.h>

#define EXPECT_NAME "memory_test"
#include "../expect.h"

static pbj_status decode(google_protobuf_FileDescriptorSet *m, const uint8_t *in, size_t n, pbj_arena *a, size_t max_memory)
{
    pbj_decode_options o = {0};
    o.max_memory = max_memory;
    return google_protobuf_FileDescriptorSet_decode(m, in, n, a, max_memory ? &o : NULL);
}

int main(void) {
    size_t n = (size_t)4 << 20;
    uint8_t *in = malloc(n);
    for (size_t i = 0; i < n; i += 2) in[i] = 0x0a, in[i + 1] = 0;   /* file: an empty FileDescriptorProto */
    google_protobuf_FileDescriptorSet m;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    pbj_status st = decode(&m, in, n, &a, 0);
    EXPECT(st == PBJ_OK && m.file.count == n / 2, "4 MB of empty FileDescriptorProtos: %s, %zu", pbj_status_str(st), m.file.count);
    size_t took = pbj_arena_used(&a);
    EXPECT(took > 32 * n + (64 << 10), "they take %zu bytes: no more than the old default cap", took);
    pbj_arena_free(&a);
    n = 64 << 10;                                          /* max_memory, on 64 KB of them (a smaller peak) */
    EXPECT(decode(&m, in, n, &a, 0) == PBJ_OK, "64 KB");
    size_t need = pbj_arena_used(&a);
    pbj_arena_reset(&a);                                   /* one block as large as they took */
    EXPECT(decode(&m, in, n, &a, need - 1) == PBJ_ERR_NOMEM, "max_memory one short, a reused arena");
    EXPECT(decode(&m, in, n, &a, need) == PBJ_OK, "max_memory exact, a reused arena");
    pbj_arena_free(&a);
    EXPECT(decode(&m, in, n, &a, need - 1) == PBJ_ERR_NOMEM, "max_memory one short, a new arena");
    pbj_arena_free(&a);
    free(in);
    if (expect_failures) return 1;
    printf("memory: 4 MB of empty FileDescriptorProtos decode by default (%zu MB); max_memory refuses one byte short\n", took >> 20);
    return 0;
}
