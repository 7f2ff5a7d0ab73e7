/* forward.c: M_encode's forward walk against M_size and M__write on a golden case's message, its prefixes and mutations.
 *
 * Built once per golden case (generated with --fast-write) with -DMSG=<C name of the message> -DHEADER='"x.pb.h"'.
 *   forward IN.bin   decode IN (protoc's encoding of the case's .txt), then every prefix and 3,000 seeded mutations of
 *                    it; each message that decodes (empty ones, unknown fields, extensions among them) is encoded by
 *                    M_encode_partial into buffers of every size up to past M_size (every size near it: one byte
 *                    short, exact, one over) and with room to spare: the status, *len and bytes of the size pass.
 * Exit 0 when every check holds; 1 with the first difference on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include HEADER

#define PASTE(a, b) a##b
#define NAME(m, suffix) PASTE(m, suffix)
#define FN(suffix) NAME(MSG, suffix)   /* MSG's function of that suffix */

/* The whole of the file at path, *n bytes (exit 2 when it cannot be read). */
static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    long size = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    uint8_t *b = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (!b || fseek(f, 0, SEEK_SET) != 0 || fread(b, 1, (size_t)size, f) != (size_t)size) exit(2);
    fclose(f);
    *n = (size_t)size;
    return b;
}

static const char *what_ = "";

/* M_encode_partial into cap bytes (from the heap, so ASan sees a byte written past them) against want's n bytes. */
static int check_in(const MSG *m, const uint8_t *want, size_t n, size_t cap)
{
    uint8_t *buf = malloc(cap + 1);
    size_t len = 12345;
    if (!buf) exit(2);
    pbj_status st = FN(_encode_partial)(m, buf, cap, &len), se = cap < n ? PBJ_ERR_BUFFER : PBJ_OK;
    int bad = st != se || len != n || (st == PBJ_OK && n && memcmp(buf, want, n) != 0);
    if (bad) fprintf(stderr, "%s: encode into %zu bytes: %s, *len %zu; the size pass: %s, %zu bytes\n", what_, cap,
                     pbj_status_str(st), len, pbj_status_str(se), n);
    free(buf);
    return bad;
}

/* m's M_encode_partial in buffers of every size against M_size and M__write. */
static int check(const MSG *m)
{
    size_t n = FN(_size)(m);
    if (n == PBJ_SIZE_ERROR) return 0;   /* too deep: not made by decoding a golden message */
    uint8_t *want = malloc(n + 1);
    if (!want) exit(2);
    int bad = n && FN(__write)(m, want + n) != want;
    if (bad) fprintf(stderr, "%s: M__write did not write M_size's bytes\n", what_);
    for (size_t k = 0; k <= n + 80 && !bad; k += n / 64 + 1) bad |= check_in(m, want, n, k);
    for (size_t k = n > 24 ? n - 24 : 0; k <= n + 24 && !bad; k++) bad |= check_in(m, want, n, k);
    const size_t room[] = {63, 64, 500, 2047, 2048, 2049, 5000, 70000};
    for (size_t i = 0; i < sizeof room / sizeof room[0] && !bad; i++) bad |= check_in(m, want, n, n + room[i]);
    free(want);
    return bad;
}

/* in[0..n) decoded (into an exact copy: ASan sees overreads) and, when it decodes, checked. */
static int decode_check(const uint8_t *in, size_t n, pbj_arena *a, size_t *decoded)
{
    uint8_t *copy = malloc(n + 1);
    MSG m;
    if (!copy) exit(2);
    if (n) memcpy(copy, in, n);
    int bad = 0;
    if (FN(_decode)(&m, copy, n, a, NULL) == PBJ_OK) bad = check(&m), ++*decoded;
    free(copy);
    pbj_arena_reset(a);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) return fprintf(stderr, "usage: forward IN.bin\n"), 2;
    size_t n, decoded = 0;
    uint8_t *in = slurp(argv[1], &n);
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    what_ = "the message";
    int bad = decode_check(in, n, &a, &decoded);
    if (!decoded) return fprintf(stderr, "%s does not decode\n", argv[1]), 1;
    what_ = "a prefix";
    for (size_t k = 0; k < n && !bad; k++) bad = decode_check(in, k, &a, &decoded);
    what_ = "a mutation";
    uint64_t x = 0x243f6a8885a308d3ull;
    uint8_t *copy = malloc(n + 1);
    if (!copy) exit(2);
    for (int i = 0; i < 3000 && n && !bad; i++) {
        memcpy(copy, in, n);
        for (int j = 0; j < 1 + i % 4; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            copy[(x >> 8) % n] = (uint8_t)x;
        }
        bad = decode_check(copy, n, &a, &decoded);
    }
    free(copy);
    free(in);
    pbj_arena_free(&a);
    if (!bad) printf("%s: %zu messages decoded, M_encode = the size pass in every buffer\n", argv[1], decoded);
    return bad;
}
