/* roundtrip.c: decode a message with generated code, encode it back, print it; or decode every truncation and mutation.
 * Built once per schema with -DMSG=<C name of the message> -DHEADER='"x.pb.h"'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include HEADER

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define FN(suffix) CAT(MSG, suffix)

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 1 << 16, len = 0;
    uint8_t *b = malloc(cap);
    if (!f || !b) exit(2);
    for (size_t got; (got = fread(b + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap && !(b = realloc(b, cap *= 2))) exit(2);
    }
    fclose(f);
    *n = len;
    return b;
}

static int write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(p, 1, n, f) == n;
    if (f && fclose(f) != 0) ok = 0;
    return ok ? 0 : 1;
}

/* Encode m into a new buffer (NULL on failure). */
static uint8_t *encode(MSG *m, size_t *len)
{
    size_t need = FN(_size)(m);
    uint8_t *out = malloc(need + 1);
    if (!out || FN(_encode)(m, out, need, len) != PBJ_OK || *len != need) return NULL;
    if (need && FN(_encode)(m, out, need - 1, len) != PBJ_ERR_BUFFER) return NULL;   /* one byte short */
    *len = need;
    return out;
}

/* Every prefix and many seeded mutations: a status each, no crash (run under ASan/UBSan). */
static int abuse(const uint8_t *in, size_t n)
{
    pbj_arena a;
    MSG m;
    size_t failed = 0;
    pbj_arena_init(&a, NULL, 0);
    for (size_t k = 0; k < n; k++) {
        uint8_t *copy = malloc(k + 1);                  /* exact size: ASan sees overreads */
        memcpy(copy, in, k);
        pbj_status st = FN(_decode)(&m, copy, k, &a, NULL);
        failed += st != PBJ_OK;
        if (st == PBJ_OK) {
            size_t len;
            uint8_t *again = encode(&m, &len);
            if (!again) return fprintf(stderr, "prefix %zu: decoded but does not encode\n", k), 1;
            free(again);
        }
        free(copy);
        pbj_arena_reset(&a);
    }
    if (n > 0 && failed == 0) return fprintf(stderr, "no truncation failed to decode\n"), 1;
    uint64_t x = 0x243f6a8885a308d3ull;
    for (int i = 0; i < 20000 && n > 0; i++) {
        uint8_t *copy = malloc(n);
        memcpy(copy, in, n);
        for (int j = 0; j < 1 + i % 4; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            copy[(x >> 8) % n] = (uint8_t)x;
        }
        pbj_status st = FN(_decode)(&m, copy, n, &a, NULL);
        if (st == PBJ_OK) {
            size_t len;
            uint8_t *again = encode(&m, &len);
            if (!again) return fprintf(stderr, "mutation %d: decoded but does not encode\n", i), 1;
            free(again);
            pbj_text t;
            pbj_text_init(&t);
            FN(_print)(&m, &t);
            pbj_text_free(&t);
        }
        free(copy);
        pbj_arena_reset(&a);
    }
    pbj_arena_free(&a);
    printf("%zu of %zu truncations rejected; 20000 mutations survived\n", failed, n);
    return 0;
}

/* roundtrip [--strict|--drop|--alias|--max-depth N|--max-length N|--expect STATUS] IN.bin [OUT.bin OUT.txt]
 * roundtrip --abuse IN.bin */
int main(int argc, char **argv)
{
    pbj_decode_options o;
    const char *expect = "ok";
    int i = 1;
    memset(&o, 0, sizeof o);
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--strict") == 0) o.unknown = PBJ_UNKNOWN_REJECT;
        else if (strcmp(argv[i], "--drop") == 0) o.unknown = PBJ_UNKNOWN_DROP;
        else if (strcmp(argv[i], "--alias") == 0) o.alias = true;
        else if (strcmp(argv[i], "--max-depth") == 0 && i + 1 < argc) o.max_depth = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--max-length") == 0 && i + 1 < argc) o.max_length = (size_t)atol(argv[++i]);
        else if (strcmp(argv[i], "--expect") == 0 && i + 1 < argc) expect = argv[++i];
        else if (strcmp(argv[i], "--abuse") == 0 && i + 1 < argc) {
            size_t n;
            uint8_t *in = read_file(argv[i + 1], &n);
            int rc = abuse(in, n);
            free(in);
            return rc;
        } else return fprintf(stderr, "unknown option %s\n", argv[i]), 2;
    }
    if (i >= argc) return fprintf(stderr, "usage: roundtrip [options] IN.bin [OUT.bin OUT.txt]\n"), 2;
    size_t n, len;
    uint8_t *in = read_file(argv[i], &n);
    pbj_arena a;
    MSG m, back;
    pbj_arena_init(&a, NULL, 0);
    pbj_status st = FN(_decode)(&m, in, n, &a, &o);
    bool as_expected = strcmp(pbj_status_str(st), expect) == 0 || (st != PBJ_OK && strstr(pbj_status_str(st), expect));
    if (!as_expected) fprintf(stderr, "decode: \"%s\", expected \"%s\"\n", pbj_status_str(st), expect);
    if (!as_expected || st != PBJ_OK) {
        pbj_arena_free(&a);
        free(in);
        return as_expected ? 0 : 1;
    }
    uint8_t *out = encode(&m, &len);
    if (!out) return fprintf(stderr, "encode failed\n"), 1;
    if (FN(_decode)(&back, out, len, &a, NULL) != PBJ_OK || !FN(_equal)(&m, &back))
        return fprintf(stderr, "the encoding does not decode to an equal message\n"), 1;
    if (len > 0 && FN(_equal)(&m, (MSG *)memset(&back, 0, sizeof back)))
        return fprintf(stderr, "equal() says a message equals an empty one\n"), 1;
    pbj_text t;
    pbj_text_init(&t);
    FN(_print)(&m, &t);
    int rc = 0;
    if (i + 2 < argc) rc = write_file(argv[i + 1], out, len) | write_file(argv[i + 2], t.data, t.len);
    pbj_text_free(&t);
    pbj_arena_free(&a);
    free(in);
    free(out);
    return rc;
}
