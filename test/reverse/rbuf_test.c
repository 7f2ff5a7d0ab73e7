/* rbuf_test.c: rt/pbj_rbuf.h alone: reverse writes against the forward ones, growth keeping the bytes, reset, the
 * retry and its statuses (built with test/reverse/alloc.h forced in, so PBJ_MALLOC can fail). */
#define _DEFAULT_SOURCE           /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <pbj.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>


static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c); failures++; } } while (0)

/* Every varint length (and random values) written back to front equals pbj_put_varint's bytes. */
static void varints(void)
{
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t v = i < 128 ? (i < 64 ? (uint64_t)1 << i : ((uint64_t)1 << (i - 64)) - 1) : x >> (x % 64);
        uint8_t a[16], b[16];
        size_t n = (size_t)(pbj_put_varint(a, v) - a);
        uint8_t *q = pbj_rput_varint(b + sizeof b, v);
        CHECK((size_t)(b + sizeof b - q) == n && memcmp(a, q, n) == 0);
        if (failures) return;
    }
}

/* A "message" of n bytes (value k) written the way generated code does: give up (NULL) when it does not fit. */
static uint8_t *fill(uint8_t *p, uintptr_t lim, size_t n, uint8_t k)
{
    if (!pbj_rfits(p, lim, n)) return NULL;
    memset(p - n, k, n);
    return p - n;
}

static pbj_status write_n(pbj_rbuf *b, size_t n, uint8_t k)
{
    pbj_status st;
    while (pbj__rbuf_again(b, fill(b->p, pbj__rbuf_lim(b), n, k), &st)) {}
    return st;
}

static void growth(void)
{
    uint8_t tiny[4];
    pbj_rbuf b;
    pbj_rbuf_init(&b, tiny, sizeof tiny);
    CHECK(write_n(&b, 3, 'a') == PBJ_OK && pbj_rbuf_len(&b) == 3 && !b.owned);      /* fits the caller's block */
    size_t mark = pbj_rbuf_len(&b);
    CHECK(write_n(&b, 1000, 'b') == PBJ_OK && pbj_rbuf_len(&b) == 1003 && b.owned);  /* grown, bytes moved */
    CHECK(pbj_rbuf_len(&b) - mark == 1000);                                         /* a mark stays valid */
    const uint8_t *d = pbj_rbuf_data(&b);
    CHECK(d[0] == 'b' && d[999] == 'b' && memcmp(d + 1000, "aaa", 3) == 0);
    rev_allowed = 0;                                                                    /* no memory: left as it was */
    CHECK(write_n(&b, 100000, 'c') == PBJ_ERR_NOMEM && pbj_rbuf_len(&b) == 1003 && pbj_rbuf_data(&b)[1000] == 'a');
    rev_allowed = -1;
    uint8_t *block = b.owned;
    pbj_rbuf_reset(&b);                                                             /* empty, the block kept */
    CHECK(pbj_rbuf_len(&b) == 0 && b.owned == block);
    CHECK(write_n(&b, 1000, 'd') == PBJ_OK && b.owned == block && pbj_rbuf_data(&b)[0] == 'd');
    pbj_rbuf_free(&b);
    CHECK(pbj_rbuf_len(&b) == 0 && !b.owned);
    CHECK(write_n(&b, 0, 'e') == PBJ_OK && pbj_rbuf_len(&b) == 0);                   /* nothing, from no block */
    pbj_rbuf_free(&b);
}

/* A first write from no block at each edge of every size class: it ends in the first block of 256 B, 2 KiB, 16 KiB,
 * ... 8 MiB (8 times larger each), 32 MiB (4 times) that holds it, with its bytes. */
static void first_write(void)
{
    static const size_t classes[] = {0, 256, 2048, 16384, 131072, 1048576, 8388608, 33554432};
    size_t nc = sizeof classes / sizeof *classes;
    for (size_t c = 0; c + 1 < nc; c++)
        for (size_t n = classes[c]; n <= classes[c] + 1; n++) {
            pbj_rbuf b;
            pbj_rbuf_init(&b, NULL, 0);
            CHECK(write_n(&b, n, 'f') == PBJ_OK && pbj_rbuf_len(&b) == n);
            CHECK(n == 0 || (pbj_rbuf_data(&b)[0] == 'f' && pbj_rbuf_data(&b)[n - 1] == 'f'));
            CHECK((size_t)(b.end - b.start) == classes[n > classes[c] ? c + 1 : c]);
            pbj_rbuf_free(&b);
        }
}

/* A message's first check, where p may start below lim (a parent's lim + margin), and its unknown fields. */
static void first_check(void)
{
    uint8_t block[64] = {0};
    uintptr_t lim = (uintptr_t)block + 32;
    CHECK(!pbj__rfits_above(block + 16, lim, 0));              /* below lim: nothing fits */
    CHECK(pbj__rfits_above(block + 40, lim, 8) && !pbj__rfits_above(block + 40, lim, 9));
    pbj_slice u = pbj_slice_make("abc", 3);
    CHECK(!pbj__rput_unknown(u, block + 16, lim, 4));
    CHECK(!pbj__rput_unknown(u, block + 38, lim, 4));            /* 6 bytes above lim: not 3 + 4 */
    uint8_t *p = pbj__rput_unknown(u, block + 39, lim, 4);
    CHECK(p == block + 36 && memcmp(p, "abc", 3) == 0);
}

/* Past 2 GiB: PBJ_ERR_SIZE, the buffer as it was (addresses of a reserved, never touched, mapping). */
static void size_limit(void)
{
    size_t span = ((size_t)1 << 31) + ((size_t)1 << 25);
    uint8_t *base = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
        printf("rbuf: no 2 GiB of address space: size limit not checked\n");
        return;
    }
    pbj_rbuf b = {base, base + span, base + span, NULL};
    pbj_status st = PBJ_OK;
    CHECK(!pbj__rbuf_again(&b, base + span - ((size_t)1 << 31), &st) && st == PBJ_ERR_SIZE && b.p == base + span);
    CHECK(!pbj__rbuf_again(&b, base + span - INT32_MAX, &st) && st == PBJ_OK && b.p == base + span - INT32_MAX);
    b.p = b.end;
    CHECK(!pbj__rbuf_again(&b, NULL, &st) && st == PBJ_ERR_SIZE && b.p == b.end);   /* did not fit in over 2 GiB */
    munmap(base, span);
}

int main(void)
{
    varints();
    growth();
    first_write();
    first_check();
    size_limit();
    if (!failures) printf("rbuf: reverse varints, growth, first writes, first checks, reset, retry statuses, size limit: ok\n");
    return failures != 0;
}
