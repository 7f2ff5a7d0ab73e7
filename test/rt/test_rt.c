/* test_rt.c: unit tests of every runtime function in rt/pbj.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* Count allocations through the overridable hooks. */
static size_t live_blocks;
static void *counting_malloc(size_t n)
{
    void *p = malloc(n);
    if (p) live_blocks++;
    return p;
}
static void counting_free(void *p)
{
    if (p) live_blocks--;
    free(p);
}
#define PBJ_MALLOC(n) counting_malloc(n)
#define PBJ_FREE(p) counting_free(p)
#include "pbj.h"


static void test_status_strings(void **state)
{
    (void)state;
    assert_int_equal(PBJ_OK, 0);
    assert_string_equal(pbj_status_str(PBJ_OK), "ok");
    assert_string_equal(pbj_status_str(PBJ_ERR_TRUNCATED), "input ends inside a field");
    assert_string_equal(pbj_status_str(PBJ_ERR_SYNTAX), "syntax error");
    for (int s = 0; s < PBJ__STATUS_COUNT; s++) {
        const char *msg = pbj_status_str((pbj_status)s);
        assert_non_null(msg);
        assert_true(strlen(msg) <= 26);                /* terse: a message, not documentation */
        assert_null(strpbrk(msg, "()."));
        for (int t = 0; t < s; t++)
            assert_string_not_equal(pbj_status_str((pbj_status)s), pbj_status_str((pbj_status)t));
    }
    assert_string_equal(pbj_status_str((pbj_status)999), "unknown status");
}

static void test_varint_size(void **state)
{
    (void)state;
    assert_int_equal(pbj_varint_size(0), 1);
    assert_int_equal(pbj_varint_size(127), 1);
    assert_int_equal(pbj_varint_size(128), 2);
    assert_int_equal(pbj_varint_size(16383), 2);
    assert_int_equal(pbj_varint_size(16384), 3);
    assert_int_equal(pbj_varint_size((1ull << 35) - 1), 5);
    assert_int_equal(pbj_varint_size(1ull << 35), 6);
    assert_int_equal(pbj_varint_size(1ull << 63), 10);
    assert_int_equal(pbj_varint_size(UINT64_MAX), 10);
    assert_int_equal(pbj_int32_size(-1), 10);
    assert_int_equal(pbj_int32_size(1), 1);
    for (unsigned b = 0; b < 64; b++) {
        uint64_t v = 1ull << b;
        assert_int_equal(pbj_varint_size(v), b / 7 + 1);
    }
}

static void roundtrip(uint64_t v)
{
    uint8_t buf[16];
    uint64_t out = ~v;
    size_t n = pbj_varint_size(v);
    assert_ptr_equal(pbj_put_varint(buf, v), buf + n);
    uint8_t buf2[16];
    assert_ptr_equal(pbj_put_varint_n(buf2, v, n), buf2 + n);
    assert_memory_equal(buf, buf2, n);
    assert_ptr_equal(pbj_get_varint(buf, buf + n, &out), buf + n);       /* exact end: slow path */
    assert_true(out == v);
    memset(buf + n, 0, sizeof buf - n);
    out = ~v;
    assert_ptr_equal(pbj_get_varint(buf, buf + sizeof buf, &out), buf + n);   /* room: fast path */
    assert_true(out == v);
}

static void test_varint_roundtrip(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (unsigned b = 0; b < 64; b++) {
        roundtrip(1ull << b);
        roundtrip((1ull << b) - 1);
        roundtrip((1ull << b) + 1);
    }
    roundtrip(UINT64_MAX);
    for (int i = 0; i < 10000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        roundtrip(x >> (x & 63));
    }
}

static void test_varint_known_bytes(void **state)
{
    (void)state;
    uint8_t buf[10];
    assert_ptr_equal(pbj_put_varint(buf, 300), buf + 2);
    assert_memory_equal(buf, ((uint8_t[]){0xac, 0x02}), 2);
    assert_ptr_equal(pbj_put_varint(buf, (uint64_t)(int64_t)-1), buf + 10);
    assert_memory_equal(buf, ((uint8_t[]){0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}), 10);
}

static void test_varint_errors(void **state)
{
    (void)state;
    uint64_t v;
    /* 10 bytes, the largest value */
    const uint8_t max[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0, 0};
    assert_ptr_equal(pbj_get_varint(max, max + 10, &v), max + 10);
    assert_true(v == UINT64_MAX);
    assert_ptr_equal(pbj_get_varint(max, max + 12, &v), max + 10);
    /* a 10th byte above 1: the bits past 64 drop, as protobuf's C++ reads it */
    const uint8_t over[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    assert_ptr_equal(pbj_get_varint(over, over + 10, &v), over + 10);
    assert_true(v == INT64_MAX);
    assert_int_equal(pbj_varint_error(over, over + 10), PBJ_OK);
    const uint8_t top[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f};
    assert_ptr_equal(pbj_get_varint(top, top + 10, &v), top + 10);
    assert_true(v == (uint64_t)1 << 63);
    /* ... but a 10th byte that goes on is an 11-byte varint */
    const uint8_t on[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x82, 0x01};
    assert_null(pbj_get_varint(on, on + 11, &v));
    assert_int_equal(pbj_varint_error(on, on + 11), PBJ_ERR_VARINT);
    /* continuation into an 11th byte */
    const uint8_t eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00};
    assert_null(pbj_get_varint(eleven, eleven + 11, &v));
    assert_int_equal(pbj_varint_error(eleven, eleven + 11), PBJ_ERR_VARINT);
    /* truncated: every prefix of a 10-byte varint */
    for (size_t n = 0; n < 10; n++) {
        assert_null(pbj_get_varint(max, max + n, &v));
        assert_int_equal(pbj_varint_error(max, max + n), PBJ_ERR_TRUNCATED);
    }
    /* non-minimal (padded) encodings are accepted, as protobuf does */
    const uint8_t padded[] = {0x81, 0x80, 0x80, 0x00};
    assert_ptr_equal(pbj_get_varint(padded, padded + 4, &v), padded + 4);
    assert_true(v == 1);
}

static void test_zigzag(void **state)
{
    (void)state;
    assert_int_equal(pbj_zigzag32(0), 0);
    assert_int_equal(pbj_zigzag32(-1), 1);
    assert_int_equal(pbj_zigzag32(1), 2);
    assert_int_equal(pbj_zigzag32(INT32_MAX), 0xfffffffeu);
    assert_int_equal(pbj_zigzag32(INT32_MIN), 0xffffffffu);
    assert_true(pbj_zigzag64(INT64_MIN) == UINT64_MAX);
    assert_true(pbj_zigzag64(-2) == 3);
    int32_t s32[] = {0, 1, -1, 12345, -12345, INT32_MAX, INT32_MIN};
    for (size_t i = 0; i < sizeof s32 / sizeof *s32; i++) assert_int_equal(pbj_unzigzag32(pbj_zigzag32(s32[i])), s32[i]);
    int64_t s64[] = {0, 1, -1, INT64_MAX, INT64_MIN, -1234567890123ll};
    for (size_t i = 0; i < sizeof s64 / sizeof *s64; i++) assert_true(pbj_unzigzag64(pbj_zigzag64(s64[i])) == s64[i]);
}

static void test_fixed(void **state)
{
    (void)state;
    uint8_t buf[8];
    assert_ptr_equal(pbj_put_fixed32(buf, 0x01020304u), buf + 4);
    assert_memory_equal(buf, ((uint8_t[]){4, 3, 2, 1}), 4);
    assert_int_equal(pbj_load_le32(buf), 0x01020304u);
    assert_ptr_equal(pbj_put_fixed64(buf, 0x0102030405060708ull), buf + 8);
    assert_memory_equal(buf, ((uint8_t[]){8, 7, 6, 5, 4, 3, 2, 1}), 8);
    assert_true(pbj_load_le64(buf) == 0x0102030405060708ull);
    uint32_t v32;
    uint64_t v64;
    assert_ptr_equal(pbj_get_fixed32(buf, buf + 8, &v32), buf + 4);
    assert_int_equal(v32, 0x05060708u);
    assert_null(pbj_get_fixed32(buf, buf + 3, &v32));
    assert_ptr_equal(pbj_get_fixed64(buf, buf + 8, &v64), buf + 8);
    assert_null(pbj_get_fixed64(buf, buf + 7, &v64));
    /* floats as bits */
    assert_int_equal(pbj_float_bits(1.0f), 0x3f800000u);
    assert_true(pbj_double_bits(-2.0) == 0xc000000000000000ull);
    assert_true(pbj_bits_float(0x3f800000u) == 1.0f);
    assert_true(pbj_bits_double(0xc000000000000000ull) == -2.0);
    assert_int_equal(pbj_float_bits(-0.0f), 0x80000000u);
}

static bool utf8(const char *s) { return pbj_utf8_valid((const uint8_t *)s, strlen(s)); }

static void test_utf8(void **state)
{
    (void)state;
    assert_true(pbj_utf8_valid(NULL, 0));
    assert_true(utf8("plain ascii text, longer than eight bytes"));
    assert_true(utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 and more ascii after it"));
    assert_true(utf8("\xed\x9f\xbf"));                /* U+D7FF */
    assert_true(utf8("\xee\x80\x80"));                /* U+E000 */
    assert_true(utf8("\xf4\x8f\xbf\xbf"));            /* U+10FFFF */
    assert_true(utf8("\xc2\x80"));                    /* U+0080 */
    assert_false(utf8("\xc0\x80"));                   /* overlong NUL */
    assert_false(utf8("\xc1\xbf"));                   /* overlong */
    assert_false(utf8("\xe0\x9f\xbf"));               /* overlong 3-byte */
    assert_false(utf8("\xf0\x8f\xbf\xbf"));           /* overlong 4-byte */
    assert_false(utf8("\xed\xa0\x80"));               /* U+D800 surrogate */
    assert_false(utf8("\xed\xbf\xbf"));               /* U+DFFF surrogate */
    assert_false(utf8("\xf4\x90\x80\x80"));           /* U+110000 */
    assert_false(utf8("\xf5\x80\x80\x80"));
    assert_false(utf8("\xff"));
    assert_false(utf8("\x80"));                       /* lone continuation */
    assert_false(utf8("abcdefgh\xc3"));               /* truncated after a fast ASCII block */
    assert_false(utf8("\xe2\x82"));
    assert_false(utf8("\xe2\x28\xa1"));               /* bad continuation */
    assert_false(utf8("\xf0\x9f\x98\x28"));
    const uint8_t nul[] = {'a', 0, 'b'};
    assert_true(pbj_utf8_valid(nul, 3));              /* NUL is valid UTF-8 */
}

static void test_arena_basic(void **state)
{
    (void)state;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    size_t before = live_blocks;
    uint8_t *p = (uint8_t *)pbj_arena_alloc(&a, 1);
    uint8_t *q = (uint8_t *)pbj_arena_alloc(&a, 3);
    assert_non_null(p);
    assert_non_null(q);
    assert_int_equal((uintptr_t)p % PBJ_ARENA_ALIGN, 0);
    assert_int_equal((uintptr_t)q % PBJ_ARENA_ALIGN, 0);
    assert_ptr_equal(q, p + 8);                       /* bump, aligned */
    assert_int_equal(live_blocks, before + 1);
    uint8_t *z = (uint8_t *)pbj_arena_zalloc(&a, 64);
    for (int i = 0; i < 64; i++) assert_int_equal(z[i], 0);
    pbj_arena_free(&a);
    assert_int_equal(live_blocks, before);
    assert_int_equal(a.allocated, 0);
    /* a zeroed arena works too */
    pbj_arena zero;
    memset(&zero, 0, sizeof zero);
    assert_non_null(pbj_arena_alloc(&zero, 10));
    pbj_arena_free(&zero);
    assert_int_equal(live_blocks, before);
}

static void test_arena_caller_block(void **state)
{
    (void)state;
    static uint64_t block[64];                        /* 512 bytes */
    pbj_arena a;
    size_t before = live_blocks;
    pbj_arena_init(&a, (uint8_t *)block + 1, sizeof block - 1);   /* misaligned start */
    uint8_t *p = (uint8_t *)pbj_arena_alloc(&a, 100);
    assert_true(p >= (uint8_t *)block && p + 100 <= (uint8_t *)block + sizeof block);
    assert_int_equal((uintptr_t)p % PBJ_ARENA_ALIGN, 0);
    assert_int_equal(live_blocks, before);            /* nothing malloc'd yet */
    for (int i = 0; i < 3; i++) assert_non_null(pbj_arena_alloc(&a, 100));
    assert_int_equal(live_blocks, before);
    assert_int_equal(pbj_arena_used(&a), 4 * 104);
    uint8_t *r = (uint8_t *)pbj_arena_alloc(&a, 200);  /* does not fit: growth */
    assert_true(r < (uint8_t *)block || r >= (uint8_t *)block + sizeof block);
    assert_int_equal(live_blocks, before + 1);
    pbj_arena_free(&a);
    assert_int_equal(live_blocks, before);
    p = (uint8_t *)pbj_arena_alloc(&a, 8);            /* after free: the caller block again */
    assert_true(p >= (uint8_t *)block && p < (uint8_t *)block + sizeof block);
    pbj_arena_free(&a);
}

/* The allocations of one capped decode (max_memory = cap) into a: PBJ_ERR_NOMEM as soon as one fails, else what
 * pbj__decode_uncap makes of PBJ_OK. */
static pbj_status capped_allocs(pbj_arena *a, size_t cap, const size_t *sizes, size_t count)
{
    pbj_decode_options o = {0};
    o.max_memory = cap;
    size_t old = pbj__decode_cap(a, &o);
    pbj_status st = PBJ_OK;
    for (size_t i = 0; i < count && st == PBJ_OK; i++)
        if (!pbj_arena_alloc(a, sizes[i])) st = PBJ_ERR_NOMEM;
    return pbj__decode_uncap(a, old, st);
}

/* max_memory counts the bytes a decode allocates, whatever the arena held before: the same verdict in a new arena,
 * in one with a large block, and in one whose block the same allocations filled earlier; nested caps keep the tighter. */
static void test_arena_decode_cap(void **state)
{
    (void)state;
    static const size_t sizes[] = {64, 64, 8, 1000};            /* 1,136 bytes */
    pbj_arena fresh, held;
    pbj_arena_init(&fresh, NULL, 0);
    pbj_arena_init(&held, NULL, 0);
    assert_non_null(pbj_arena_alloc(&held, 1 << 20));
    pbj_arena_reset(&held);                                     /* one 1 MiB block, free */
    for (int round = 0; round < 3; round++) {
        assert_int_equal(capped_allocs(&fresh, 1135, sizes, 4), PBJ_ERR_NOMEM);
        assert_int_equal(capped_allocs(&held, 1135, sizes, 4), PBJ_ERR_NOMEM);
        assert_int_equal(capped_allocs(&fresh, 1136, sizes, 4), PBJ_OK);
        assert_int_equal(capped_allocs(&held, 1136, sizes, 4), PBJ_OK);
        assert_int_equal(capped_allocs(&held, 100, sizes, 2), PBJ_ERR_NOMEM);
        assert_int_equal(capped_allocs(&held, 0, sizes, 4), PBJ_OK);          /* 0 and SIZE_MAX: no cap */
        assert_int_equal(capped_allocs(&held, (size_t)-1, sizes, 4), PBJ_OK);
        assert_int_equal(fresh.limit, 0);
        assert_int_equal(held.limit, 0);
    }
    pbj_decode_options o = {0};
    o.max_memory = 100;                                         /* an outer cap of 100, an inner one of 1,000 */
    size_t outer = pbj__decode_cap(&held, &o);
    o.max_memory = 1000;
    size_t inner = pbj__decode_cap(&held, &o);
    assert_non_null(pbj_arena_alloc(&held, 200));
    assert_int_equal(pbj__decode_uncap(&held, inner, PBJ_OK), PBJ_ERR_NOMEM);
    assert_int_equal(pbj__decode_uncap(&held, outer, PBJ_OK), PBJ_ERR_NOMEM);
    assert_int_equal(held.limit, 0);
    pbj_arena_free(&fresh);
    pbj_arena_free(&held);
}

#if defined(__SANITIZE_ADDRESS__)
#define RT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RT_ASAN 1
#endif
#endif
#ifdef RT_ASAN
#include <sanitizer/asan_interface.h>
#define POISONED(p) __asan_address_is_poisoned(p)
#else
#define POISONED(p) ((void)(p), 1)                    /* without ASan nothing is poisoned: the checks of it pass */
#define __asan_address_is_poisoned(p) ((void)(p), 0)
#endif

/* pbj__array_add: room kept before the data (decode's arrays, made with exactly their count, grow too); the
 * array given up is poisoned under ASan, in the caller's block as in a malloc'd one, until free or reset. */
static void test_array_add_and_poison(void **state)
{
    (void)state;
    static uint64_t block[32];
    pbj_arena a;
    pbj_arena_init(&a, block, sizeof block);
    uint32_t *v = (uint32_t *)pbj__array_more(&a, NULL, 0, 3, sizeof *v);   /* as decode makes a run of 3 */
    assert_non_null(v);
    for (uint32_t i = 0; i < 3; i++) v[i] = i;
    uint32_t *after = (uint32_t *)pbj_arena_alloc(&a, sizeof *after);      /* what follows it */
    *after = 77;
    uint32_t *w = (uint32_t *)pbj__array_add(&a, v, 3, sizeof *w);
    assert_ptr_not_equal(w, v);                       /* exactly 3 of room: a new array */
    w[3] = 3;
    assert_int_equal(*after, 77);
    for (uint32_t i = 0; i < 4; i++) assert_int_equal(w[i], i);
    assert_true(POISONED(v));
    assert_false(__asan_address_is_poisoned(w));
    uint32_t *x = w;
    int moves = 0;
    for (size_t n = 4; n < 200; n++) {                /* past the caller's block: the old array stays there */
        uint32_t *y = (uint32_t *)pbj__array_add(&a, x, n, sizeof *x);
        assert_non_null(y);
        moves += y != x;
        x = y;
        x[n] = (uint32_t)n;
    }
    assert_int_equal(moves, 6);                       /* to 8, 16, ..., 256: room doubles */
    for (uint32_t i = 0; i < 200; i++) assert_int_equal(x[i], i);
    assert_true(POISONED(w));
    pbj_arena_reset(&a);                              /* the malloc'd block again, unpoisoned */
    assert_false(__asan_address_is_poisoned(a.cur));
    pbj_arena_free(&a);
    assert_false(__asan_address_is_poisoned(v));      /* the caller's block is the caller's again */
    assert_false(__asan_address_is_poisoned(w));
    block[0] = 1;
}

static void test_arena_growth_and_big(void **state)
{
    (void)state;
    pbj_arena a;
    size_t before = live_blocks;
    pbj_arena_init(&a, NULL, 0);
    uint8_t *cur = (uint8_t *)pbj_arena_alloc(&a, 16);
    uint8_t *big = (uint8_t *)pbj_arena_alloc(&a, 1 << 20);    /* own block */
    assert_non_null(big);
    memset(big, 0xab, 1 << 20);
    uint8_t *next = (uint8_t *)pbj_arena_alloc(&a, 16);
    assert_ptr_equal(next, cur + 16);                  /* the current block continues */
    assert_int_equal(live_blocks, before + 2);
    size_t total = 0;
    assert_int_equal(pbj_arena_used(&a), 16 + (1 << 20) + 16);
    for (int i = 0; i < 10000; i++) {                  /* many blocks, doubling */
        uint8_t *p = (uint8_t *)pbj_arena_alloc(&a, 100);
        assert_non_null(p);
        memset(p, i & 0xff, 100);
        total += 100;
    }
    assert_true(a.allocated >= total);
    assert_int_equal(pbj_arena_used(&a), 32 + (1 << 20) + 10000 * 104);   /* 100 aligned to 104 */
    assert_true(live_blocks < before + 16);            /* geometric growth */
    assert_null(pbj_arena_alloc(&a, (size_t)-1));      /* impossible size */
    assert_null(pbj_arena_alloc(&a, (size_t)-1 - 100));
    size_t held = a.allocated;
    pbj_arena_reset(&a);
    assert_int_equal(live_blocks, before + 1);         /* the blocks became one */
    assert_true(a.allocated <= held && a.allocated + 16 * PBJ__HEADER_SIZE >= held);
    size_t kept = a.allocated;
    for (int i = 0; i < 10000; i++) assert_non_null(pbj_arena_alloc(&a, 100));
    assert_non_null(pbj_arena_alloc(&a, 1 << 20));
    assert_int_equal(a.allocated, kept);               /* the same load fits: nothing new */
    assert_int_equal(live_blocks, before + 1);
    pbj_arena_reset(&a);                               /* one block: kept as it is */
    assert_int_equal(a.allocated, kept);
    assert_int_equal(live_blocks, before + 1);
    pbj_arena_free(&a);
    assert_int_equal(live_blocks, before);
}

static void test_array_grow(void **state)
{
    (void)state;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    int32_t *v = NULL;
    size_t n = 0;
    for (int i = 0; i < 1000; i++) {
        v = (int32_t *)pbj__array_grow(&a, v, n, 1, sizeof *v);
        assert_non_null(v);
        v[n++] = i;
    }
    for (int i = 0; i < 1000; i++) assert_int_equal(v[i], i);
    int32_t *w = (int32_t *)pbj__array_grow(&a, v, 1000, 24, sizeof *v);   /* 1024: fits */
    assert_ptr_equal(w, v);
    w = (int32_t *)pbj__array_grow(&a, v, 1000, 25, sizeof *v);
    assert_ptr_not_equal(w, v);
    assert_int_equal(w[999], 999);
    assert_int_equal(pbj__capacity(0), 0);
    assert_int_equal(pbj__capacity(1), 4);
    assert_int_equal(pbj__capacity(5), 8);
    pbj_arena_free(&a);
}

static void test_buf(void **state)
{
    (void)state;
    pbj_buf b = {0};
    for (int i = 0; i < 1000; i++) assert_int_equal(pbj_buf_append(&b, "abc", 3), PBJ_OK);
    assert_int_equal(b.len, 3000);
    assert_true(b.cap >= 3000);
    assert_memory_equal(b.data + 2997, "abc", 3);
    assert_int_equal(pbj_buf_reserve(&b, (size_t)-1), PBJ_ERR_NOMEM);
    assert_int_equal(pbj_buf_append(&b, NULL, 0), PBJ_OK);
    pbj_buf_free(&b);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
}

static void test_slices(void **state)
{
    (void)state;
    pbj_slice a = PBJ_STR("abc"), b = pbj_slice_cstr("abd"), e = {NULL, 0};
    assert_int_equal(a.len, 3);
    assert_true(pbj_slice_eq(a, pbj_slice_make("abc", 3)));
    assert_false(pbj_slice_eq(a, b));
    assert_true(pbj_slice_eq(e, pbj_slice_make("", 0)));
    assert_true(pbj_slice_cmp(a, b) < 0);
    assert_true(pbj_slice_cmp(b, a) > 0);
    assert_true(pbj_slice_cmp(pbj_slice_make("ab", 2), a) < 0);
    assert_int_equal(pbj_slice_cmp(e, e), 0);
    assert_non_null(pbj_slice_data(e));
    assert_ptr_equal(pbj_slice_data(a), a.data);
    uint8_t out[16];
    assert_ptr_equal(pbj_put_bytes(out, a), out + 4);
    assert_memory_equal(out, "\x03" "abc", 4);
}

static void test_decode_primitives(void **state)
{
    (void)state;
    pbj_decoder d;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    pbj_decoder_init(&d, &a, NULL);
    assert_int_equal(d.depth_left, PBJ_DEFAULT_MAX_DEPTH + 1);   /* the top level on top of the limit */
    assert_true(d.max_length == PBJ_DEFAULT_MAX_LENGTH);
    assert_int_equal(d.unknown, PBJ_UNKNOWN_KEEP);
    pbj_status st = PBJ_OK;
    uint32_t tag;
    const uint8_t t1[] = {0x08};
    assert_ptr_equal(pbj_get_tag(t1, t1 + 1, &tag, &st), t1 + 1);
    assert_int_equal(tag, 8);
    const uint8_t t0[] = {0x02};
    assert_null(pbj_get_tag(t0, t0 + 1, &tag, &st));
    assert_int_equal(st, PBJ_ERR_FIELD_ZERO);
    const uint8_t t7[] = {0x0f};
    assert_null(pbj_get_tag(t7, t7 + 1, &tag, &st));
    assert_int_equal(st, PBJ_ERR_TAG);
    const uint8_t tbig[] = {0xff, 0xff, 0xff, 0xff, 0x10};
    assert_null(pbj_get_tag(tbig, tbig + 5, &tag, &st));
    assert_int_equal(st, PBJ_ERR_TAG);
    assert_null(pbj_get_tag(tbig, tbig + 2, &tag, &st));
    assert_int_equal(st, PBJ_ERR_TRUNCATED);
    const uint8_t tlong[] = {0x88, 0x80, 0x80, 0x80, 0x80, 0x00};   /* field 1 in 6 bytes: protoc rejects it */
    assert_null(pbj_get_tag(tlong, tlong + 6, &tag, &st));
    assert_int_equal(st, PBJ_ERR_TAG);
    const uint8_t t5[] = {0x88, 0x80, 0x80, 0x80, 0x00};             /* 5 bytes is still a tag */
    assert_ptr_equal(pbj_get_tag(t5, t5 + 5, &tag, &st), t5 + 5);
    assert_int_equal(tag, 8);
    const uint8_t thigh[] = {0x88, 0x80, 0x80, 0x80, 0x70};          /* bits past 32: dropped, as C++ reads it */
    assert_ptr_equal(pbj_get_tag(thigh, thigh + 5, &tag, &st), thigh + 5);
    assert_int_equal(tag, 8);
    /* lengths */
    size_t len;
    const uint8_t l3[] = {3, 'a', 'b', 'c'};
    assert_ptr_equal(pbj_get_len(l3, l3 + 4, &d, &len, &st), l3 + 1);
    assert_int_equal(len, 3);
    assert_null(pbj_get_len(l3, l3 + 3, &d, &len, &st));
    assert_int_equal(st, PBJ_ERR_TRUNCATED);
    const uint8_t l5[] = {0x80, 0x80, 0x80, 0x80, 0x00}, l6[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
    assert_ptr_equal(pbj_get_len(l5, l5 + 5, &d, &len, &st), l5 + 5);   /* 0 in 5 bytes: C++ reads it */
    assert_int_equal(len, 0);
    assert_null(pbj_get_len(l6, l6 + 6, &d, &len, &st));                /* in 6: C++ does not */
    assert_int_equal(st, PBJ_ERR_VARINT);
    pbj_decode_options o = {0};
    o.max_length = 2;
    o.max_depth = 3;
    o.alias = true;
    o.unknown = PBJ_UNKNOWN_REJECT;
    pbj_decoder d2;
    pbj_decoder_init(&d2, &a, &o);
    assert_int_equal(d2.depth_left, 3 + 1);
    o.max_depth = UINT32_MAX;                          /* clamped: recursion stays on the stack */
    pbj_decoder_init(&d2, &a, &o);
    assert_int_equal(d2.depth_left, PBJ_MAX_DEPTH_CAP + 1);
    o.max_depth = 3;
    pbj_decoder_init(&d2, &a, &o);
    assert_null(pbj_get_len(l3, l3 + 4, &d2, &len, &st));
    assert_int_equal(st, PBJ_ERR_TOO_LONG);
    /* slices: copied or aliased */
    pbj_slice s;
    assert_int_equal(pbj_take_slice(&d, l3 + 1, 3, &s), PBJ_OK);
    assert_ptr_not_equal(s.data, l3 + 1);
    assert_memory_equal(s.data, "abc", 3);
    assert_int_equal(pbj_take_slice(&d2, l3 + 1, 3, &s), PBJ_OK);
    assert_ptr_equal(s.data, l3 + 1);
    pbj_arena_free(&a);
}

static void test_skip_and_unknown(void **state)
{
    (void)state;
    pbj_arena a;
    pbj_decoder d;
    pbj_status st = PBJ_OK;
    pbj_arena_init(&a, NULL, 0);
    pbj_decoder_init(&d, &a, NULL);
    /* field 1 varint 150, field 2 fixed64, field 3 bytes "hi", field 4 group{5: 1}, field 6 fixed32 */
    const uint8_t msg[] = {0x08, 0x96, 0x01, 0x11, 1, 2, 3, 4, 5, 6, 7, 8, 0x1a, 2, 'h', 'i',
                           0x23, 0x28, 0x01, 0x24, 0x35, 1, 2, 3, 4};
    const uint8_t *p = msg, *end = msg + sizeof msg;
    pbj_slice *unk = NULL;                    /* a message's pbj_unknown: the first append makes its record */
    while (p < end) {
        uint32_t tag;
        const uint8_t *start = p;
        p = pbj_get_tag(p, end, &tag, &st);
        assert_non_null(p);
        p = pbj_unknown_field(&d, &unk, start, p, end, tag, &st);
        assert_non_null(p);
    }
    assert_non_null(unk);
    assert_int_equal(unk->len, sizeof msg);
    assert_memory_equal(unk->data, msg, sizeof msg);
    /* every truncation of it fails with a status, never reads past the end */
    for (size_t n = 1; n < sizeof msg; n++) {
        uint8_t *copy = (uint8_t *)malloc(n);
        memcpy(copy, msg, n);
        const uint8_t *q = copy, *e = copy + n;
        bool failed = false;
        pbj_slice *u = NULL;
        while (q < e) {
            uint32_t tag = 0;
            const uint8_t *s0 = q;
            st = PBJ_OK;
            if (!(q = pbj_get_tag(q, e, &tag, &st)) || !(q = pbj_unknown_field(&d, &u, s0, q, e, tag, &st))) {
                failed = true;
                assert_int_not_equal(st, PBJ_OK);
                break;
            }
        }
        bool boundary = n == 3 || n == 12 || n == 16 || n == 20;
        assert_int_equal(failed, !boundary);
        free(copy);
    }
    /* an end-group alone, a mismatched end-group, too deep groups */
    assert_null(pbj_skip_field(msg, msg, 0x24, &d, 10, &st));
    assert_int_equal(st, PBJ_ERR_GROUP);
    const uint8_t bad_end[] = {0x2c};
    assert_null(pbj_skip_field(bad_end, bad_end + 1, 0x23, &d, 10, &st));
    assert_int_equal(st, PBJ_ERR_GROUP);
    const uint8_t nested[] = {0x0b, 0x0b, 0x0c, 0x0c};
    assert_ptr_equal(pbj_skip_field(nested + 1, nested + 4, 0x0b, &d, 10, &st), nested + 4);
    assert_null(pbj_skip_field(nested + 1, nested + 4, 0x0b, &d, 1, &st));
    assert_int_equal(st, PBJ_ERR_DEPTH);
    /* drop and reject */
    pbj_decode_options o = {0};
    o.unknown = PBJ_UNKNOWN_DROP;
    pbj_decoder_init(&d, &a, &o);
    pbj_slice *u2 = NULL;
    assert_ptr_equal(pbj_unknown_field(&d, &u2, msg, msg + 1, end, 0x08, &st), msg + 3);
    assert_null(u2);                          /* dropped: no record made */
    assert_int_equal(pbj_unknown_bytes(u2).len, 0);
    o.unknown = PBJ_UNKNOWN_REJECT;
    pbj_decoder_init(&d, &a, &o);
    assert_null(pbj_unknown_field(&d, &u2, msg, msg + 1, end, 0x08, &st));
    assert_int_equal(st, PBJ_ERR_UNKNOWN_FIELD);
    pbj_arena_free(&a);
}

static void test_wrapper_group_closed_enum(void **state)
{
    (void)state;
    pbj_arena a;
    pbj_decoder d;
    pbj_status st = PBJ_OK;
    uint64_t v = 42;
    pbj_slice str = {NULL, 0}, wunk = {NULL, 0};
    pbj_arena_init(&a, NULL, 0);
    pbj_decoder_init(&d, &a, NULL);
    /* wrappers: the value field, others kept as the wrapper's unknown fields, absent leaves the value alone */
    const uint8_t i32[] = {0x08, 0x96, 0x01, 0x10, 0x05};
    assert_int_equal(pbj_decode_wrapper_keep(i32, i32 + sizeof i32, &d, 0x08, &v, &str, false, &wunk), PBJ_OK);
    assert_true(v == 150);
    assert_int_equal(wunk.len, 2);                           /* 10 05 kept */
    assert_memory_equal(wunk.data, i32 + 3, 2);
    v = 42;
    assert_int_equal(pbj_decode_wrapper_keep(i32 + 3, i32 + sizeof i32, &d, 0x08, &v, &str, false, &wunk), PBJ_OK);
    assert_true(v == 42);
    const uint8_t dbl[] = {0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f};
    assert_int_equal(pbj_decode_wrapper_keep(dbl, dbl + sizeof dbl, &d, 0x09, &v, &str, false, &wunk), PBJ_OK);
    assert_true(pbj_bits_double(v) == 1.0);
    const uint8_t flt[] = {0x0d, 0, 0, 0x80, 0x3f};
    assert_int_equal(pbj_decode_wrapper_keep(flt, flt + sizeof flt, &d, 0x0d, &v, &str, false, &wunk), PBJ_OK);
    assert_true(pbj_bits_float((uint32_t)v) == 1.0f);
    const uint8_t s[] = {0x0a, 0x02, 0xc3, 0xa9};
    assert_int_equal(pbj_decode_wrapper_keep(s, s + sizeof s, &d, 0x0a, &v, &str, true, &wunk), PBJ_OK);
    assert_int_equal(str.len, 2);
    const uint8_t bad[] = {0x0a, 0x01, 0xff};
    assert_int_equal(pbj_decode_wrapper_keep(bad, bad + sizeof bad, &d, 0x0a, &v, &str, true, &wunk), PBJ_ERR_UTF8);
    wunk.len = 0;                                            /* field 1 with another wire type: unknown, as C++ */
    assert_int_equal(pbj_decode_wrapper_keep(bad, bad + sizeof bad, &d, 0x08, &v, &str, false, &wunk), PBJ_OK);
    assert_int_equal(wunk.len, sizeof bad);
    d.unknown = PBJ_UNKNOWN_REJECT;
    assert_int_equal(pbj_decode_wrapper_keep(bad, bad + sizeof bad, &d, 0x08, &v, &str, false, &wunk), PBJ_ERR_UNKNOWN_FIELD);
    d.unknown = PBJ_UNKNOWN_KEEP;
    assert_int_equal(pbj_decode_wrapper_keep(i32, i32 + 2, &d, 0x08, &v, &str, false, &wunk), PBJ_ERR_TRUNCATED);
    /* group bodies: nested groups skipped, the matching end found */
    const uint8_t g[] = {0x08, 0x01, 0x13, 0x18, 0x02, 0x14, 0x0c, 0x99};
    const uint8_t *body_end = NULL;
    assert_ptr_equal(pbj_group_body(g, g + sizeof g, 0x0b, &d, &body_end, &st), g + 7);
    assert_ptr_equal(body_end, g + 6);
    assert_null(pbj_group_body(g, g + 6, 0x0b, &d, &body_end, &st));
    assert_int_equal(st, PBJ_ERR_TRUNCATED);
    assert_null(pbj_group_body(g, g + sizeof g, 0x13, &d, &body_end, &st));   /* ends with field 1's end */
    assert_int_equal(st, PBJ_ERR_GROUP);
    /* a closed enum's unknown value: an unknown varint field */
    pbj_slice *unk = NULL;
    assert_true(pbj_unknown_varint(&d, &unk, 4, 77, &st));
    assert_true(pbj_unknown_varint(&d, &unk, 300, (uint64_t)(int64_t)-1, &st));
    const uint8_t want[] = {0x20, 77, 0xe0, 0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    assert_int_equal(pbj_unknown_bytes(unk).len, sizeof want);
    assert_memory_equal(unk->data, want, sizeof want);
    pbj_decode_options o = {0};
    o.unknown = PBJ_UNKNOWN_REJECT;
    pbj_decoder_init(&d, &a, &o);
    assert_false(pbj_unknown_varint(&d, &unk, 4, 77, &st));
    assert_int_equal(st, PBJ_ERR_UNKNOWN_FIELD);
    pbj_arena_free(&a);
}

/* Extension records: insertion in number order, removal, scalar and payload reads, message-set items by type_id. */
static void test_extension_records(void **state)
{
    (void)state;
    pbj_arena a;
    pbj_slice ext = {NULL, 0}, s;
    uint64_t v = 0;
    pbj_arena_init(&a, NULL, 0);
    /* 101: packed [1, 300], 100: 7, 100: 9 (inserted after the other 100), 102: "ab" */
    assert_int_equal(pbj__ext_insert(&a, &ext, (const uint8_t *)"\252\006\003\001\254\002", 6, 101, false), PBJ_OK);
    assert_int_equal(pbj__ext_insert(&a, &ext, (const uint8_t *)"\240\006\007", 3, 100, false), PBJ_OK);
    assert_int_equal(pbj__ext_insert(&a, &ext, (const uint8_t *)"\240\006\011", 3, 100, true), PBJ_OK);
    assert_int_equal(pbj__ext_insert(&a, &ext, (const uint8_t *)"\262\006\002ab", 5, 102, true), PBJ_OK);
    assert_int_equal(ext.len, 17);
    assert_memory_equal(ext.data, "\240\006\007\240\006\011\252\006\003\001\254\002\262\006\002ab", 17);
    assert_int_equal(pbj__ext_values(ext, 100, PBJ_WT_VARINT, NULL, (size_t)-1, &v), 2);
    assert_int_equal(v, 9);                                     /* the last one wins */
    assert_int_equal(pbj__ext_values(ext, 101, PBJ_WT_VARINT | PBJ__EXT_PACKABLE, NULL, 1, &v), 2);
    assert_int_equal(v, 300);
    assert_int_equal(pbj__ext_payloads(ext, 102, PBJ_WT_LEN, 0, &s), 1);
    assert_memory_equal(s.data, "ab", 2);
    assert_true(pbj__ext_has(ext, 101) && !pbj__ext_has(ext, 103));
    uint8_t out[32];
    assert_int_equal(out + sizeof out - pbj__ext_rput(ext, 101, 101, out + sizeof out), 6);   /* one range's records */
    assert_int_equal(pbj__ext_remove(&a, &ext, 100), PBJ_OK);
    assert_int_equal(ext.len, 11);
    assert_int_equal(pbj__ext_values(ext, 100, PBJ_WT_VARINT, NULL, (size_t)-1, &v), 0);
    /* message-set items: keyed by type_id, the message read from field 3 */
    pbj_slice set = {NULL, 0};
    assert_int_equal(pbj__ext_insert(&a, &set, (const uint8_t *)"\013\020\351\007\032\002\010\001\014", 9, 1001, false), PBJ_OK);
    assert_int_equal(pbj__ext_insert(&a, &set, (const uint8_t *)"\013\020\005\032\000\014", 6, 5, false), PBJ_OK);
    assert_int_equal(set.data[2], 5);                           /* type_id 5 first */
    assert_int_equal(pbj__ext_payloads(set, 1001, PBJ_WT_LEN, 0, &s), 1);
    assert_int_equal(s.len, 2);
    assert_memory_equal(s.data, "\010\001", 2);
    assert_int_equal(pbj__ext_insert(&a, &set, (const uint8_t *)"\013\020\007\014", 4, 7, false), PBJ_OK);
    assert_int_equal(pbj__ext_payloads(set, 7, PBJ_WT_LEN, 0, &s), 0);      /* an item with no message: dropped */
    assert_int_equal(pbj__ext_insert(&a, &set, (const uint8_t *)"\013\020\010\032\000\014", 6, 8, false), PBJ_OK);
    assert_int_equal(pbj__ext_payloads(set, 8, PBJ_WT_LEN, 0, &s), 1);      /* an empty message: never NULL */
    assert_true(s.len == 0 && s.data != NULL);
    pbj_arena_free(&a);
}

/* Accessors never read past a record, and see only records that fit the extension: a packed record of
 * 12 bytes is no fixed64 values (8 bytes are one), nor values of a singular fixed64; 6 bytes are no fixed32s. */
static void test_extension_records_cut(void **state)
{
    (void)state;
    pbj_arena a;
    pbj_slice ext = {NULL, 0}, eight = {NULL, 0}, six = {NULL, 0};
    uint64_t v = 0;
    uint8_t rec[2 + 1 + 12];
    pbj_arena_init(&a, NULL, 0);
    rec[0] = 0xa2, rec[1] = 0x06, rec[2] = 12;                     /* field 100, length 12 */
    for (int i = 0; i < 12; i++) rec[3 + i] = (uint8_t)(i + 1);
    uint8_t *heap = malloc(sizeof rec);                                /* ASan sees a read past it */
    memcpy(heap, rec, sizeof rec);
    assert_int_equal(pbj__ext_insert(&a, &ext, heap, sizeof rec, 100, false), PBJ_OK);
    assert_int_equal(pbj__ext_values(ext, 100, PBJ_WT_I64 | PBJ__EXT_PACKABLE, NULL, (size_t)-1, &v), 0);
    heap[2] = 8;
    assert_int_equal(pbj__ext_insert(&a, &eight, heap, 3 + 8, 100, false), PBJ_OK);
    assert_int_equal(pbj__ext_values(eight, 100, PBJ_WT_I64 | PBJ__EXT_PACKABLE, NULL, (size_t)-1, &v), 1);
    assert_true(v == 0x0807060504030201u);
    assert_int_equal(pbj__ext_values(eight, 100, PBJ_WT_I64, NULL, (size_t)-1, &v), 0);   /* singular: not packed */
    heap[2] = 6;
    assert_int_equal(pbj__ext_insert(&a, &six, heap, 3 + 6, 100, false), PBJ_OK);
    assert_int_equal(pbj__ext_values(six, 100, PBJ_WT_I32 | PBJ__EXT_PACKABLE, NULL, (size_t)-1, &v), 0);
    free(heap);
    pbj_arena_free(&a);
}

/* A closed enum {1, 2} extension 100: values outside it are no values (protobuf keeps them as unknown
 * fields); adopting its records from the unknown fields leaves them there, in place. */
static const char *one_or_two(int32_t v)
{
    return v == 1 || v == 2 ? "v" : NULL;
}

static void test_extension_closed_enum(void **state)
{
    (void)state;
    pbj_arena a;
    pbj_slice ext = {NULL, 0};
    uint64_t v = 0;
    int kind = PBJ_WT_VARINT | PBJ__EXT_PACKABLE;
    /* 1: 5, 100: 9, 100: packed [2, 7, 1], 3: 6, 100: 1 */
    const uint8_t bytes[] = "\010\005\240\006\011\242\006\003\002\007\001\030\006\240\006\001";
    pbj_slice unknown = pbj_slice_make(bytes, sizeof bytes - 1);
    pbj_arena_init(&a, NULL, 0);
    assert_int_equal(pbj__ext_values(unknown, 100, kind, NULL, (size_t)-1, &v), 5);
    assert_int_equal(pbj__ext_values(unknown, 100, kind, one_or_two, (size_t)-1, &v), 3);
    assert_int_equal(v, 1);
    assert_int_equal(pbj__ext_values(unknown, 100, kind, one_or_two, 0, &v), 3);
    assert_int_equal(v, 2);
    assert_int_equal(pbj__ext_values(pbj_slice_make(bytes + 2, 3), 100, kind, one_or_two, (size_t)-1, &v), 0);
    pbj_slice *u = &unknown;                                       /* a message's pbj_unknown */
    assert_int_equal(pbj__ext_adopt(&a, &ext, &u, 100, kind, one_or_two), PBJ_OK);
    assert_int_equal(ext.len, 8);
    assert_memory_equal(ext.data, "\242\006\002\002\001\240\006\001", 8);
    assert_true(u != &unknown && unknown.len == sizeof bytes - 1); /* a new record: the old one untouched */
    assert_int_equal(u->len, 10);
    assert_memory_equal(u->data, "\010\005\240\006\011\240\006\007\030\006", 10);
    pbj_arena_free(&a);
}

/* Groups nested two million deep with max_depth at its largest: the clamp
 * stops the recursion with PBJ_ERR_DEPTH long before the stack ends. */
static void test_depth_cap(void **state)
{
    (void)state;
    static uint8_t deep[2000000];
    size_t n = sizeof deep;
    memset(deep, 0x0b, n);                                          /* field 1, start group */
    pbj_decode_options o = {0};
    o.max_depth = UINT32_MAX;
    pbj_decoder d;
    pbj_decoder_init(&d, NULL, &o);
    pbj_status st = PBJ_OK;
    assert_null(pbj_skip_field(deep + 1, deep + n, 0x0b, &d, d.depth_left, &st));
    assert_int_equal(st, PBJ_ERR_DEPTH);
}

static void test_count_varints(void **state)
{
    (void)state;
    const uint8_t p[] = {1, 0x80, 1, 0xff, 0xff, 0x7f, 0};
    assert_int_equal(pbj_count_varints(p, p + sizeof p), 4);
    assert_int_equal(pbj_count_varints(p, p), 0);
}

static int cmp_key(const void *a, const void *b)
{
    int x = ((const int *)a)[0], y = ((const int *)b)[0];
    return (x > y) - (x < y);
}

static void test_sort_unique(void **state)
{
    (void)state;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    int v[][2] = {{5, 0}, {1, 1}, {5, 2}, {3, 3}, {1, 4}, {9, 5}, {0, 6}};
    size_t n = pbj_sort_unique(v, 7, sizeof v[0], cmp_key, &a);
    assert_int_equal(n, 5);
    int want[][2] = {{0, 6}, {1, 4}, {3, 3}, {5, 2}, {9, 5}};   /* last of each key wins */
    assert_memory_equal(v, want, sizeof want);
    int s[][2] = {{1, 0}, {2, 0}, {3, 0}};
    assert_int_equal(pbj_sort_unique(s, 3, sizeof s[0], cmp_key, &a), 3);
    int big[1000][2];
    for (int i = 0; i < 1000; i++) big[i][0] = (i * 7919) % 500, big[i][1] = i;
    n = pbj_sort_unique(big, 1000, sizeof big[0], cmp_key, &a);
    assert_int_equal(n, 500);
    for (int i = 0; i < 500; i++) {
        assert_int_equal(big[i][0], i);
        assert_true(big[i][1] >= 500);                 /* the later of the two */
    }
    pbj_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_strings),
        cmocka_unit_test(test_varint_size),
        cmocka_unit_test(test_varint_roundtrip),
        cmocka_unit_test(test_varint_known_bytes),
        cmocka_unit_test(test_varint_errors),
        cmocka_unit_test(test_zigzag),
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_arena_basic),
        cmocka_unit_test(test_arena_caller_block),
        cmocka_unit_test(test_arena_growth_and_big),
        cmocka_unit_test(test_arena_decode_cap),
        cmocka_unit_test(test_array_grow),
        cmocka_unit_test(test_buf),
        cmocka_unit_test(test_slices),
        cmocka_unit_test(test_decode_primitives),
        cmocka_unit_test(test_skip_and_unknown),
        cmocka_unit_test(test_wrapper_group_closed_enum),
        cmocka_unit_test(test_extension_records),
        cmocka_unit_test(test_extension_records_cut),
        cmocka_unit_test(test_extension_closed_enum),
        cmocka_unit_test(test_depth_cap),
        cmocka_unit_test(test_count_varints),
        cmocka_unit_test(test_sort_unique),
        cmocka_unit_test(test_array_add_and_poison),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
