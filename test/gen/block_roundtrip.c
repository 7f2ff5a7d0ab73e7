/* block_roundtrip.c: decode a real block, print it (as protoc --decode does), encode it back and compare the bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/block.pb.h"

static uint8_t *read_all(FILE *f, size_t *n)
{
    size_t cap = 1 << 20, len = 0;
    uint8_t *b = malloc(cap);
    for (size_t got; b && (got = fread(b + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap) b = realloc(b, cap *= 2);
    }
    *n = len;
    return b;
}

/* block_roundtrip TEXT_OUT < block.bin: exit 0 when the bytes come back the same. */
int main(int argc, char **argv)
{
    size_t n, len;
    uint8_t *in = read_all(stdin, &n);
    pbj_arena arena;
    com_hedera_hapi_block_stream_Block block;
    pbj_arena_init(&arena, NULL, 0);
    pbj_status st = com_hedera_hapi_block_stream_Block_decode(&block, in, n, &arena, NULL);
    if (st != PBJ_OK) {
        fprintf(stderr, "decode: %s\n", pbj_status_str(st));
        return 1;
    }
    uint8_t *out = malloc(n + 1);
    st = com_hedera_hapi_block_stream_Block_encode(&block, out, n + 1, &len);
    if (st != PBJ_OK) {
        fprintf(stderr, "encode: %s (%zu bytes, input %zu)\n", pbj_status_str(st), len, n);
        return 1;
    }
    if (len != n || memcmp(in, out, n) != 0) {
        size_t i = 0;
        while (i < len && i < n && in[i] == out[i]) i++;
        fprintf(stderr, "encode: %zu bytes, input %zu, first difference at %zu\n", len, n, i);
        return 1;
    }
    pbj_text t;
    pbj_text_init(&t);
    com_hedera_hapi_block_stream_Block_print(&block, &t);
    FILE *f = argc > 1 ? fopen(argv[1], "w") : stdout;
    if (!f || fwrite(t.data, 1, t.len, f) != t.len || t.failed) return 1;
    if (f != stdout) fclose(f);
    printf("block: %zu bytes decoded, encoded back identical; arena: %zu bytes used, %zu held\n", n, pbj_arena_used(&arena), arena.allocated);
    pbj_text_free(&t);
    pbj_arena_free(&arena);
    free(in);
    free(out);
    return 0;
}
