/* pool_test.c: the IR pool: ir_pool_printf prints what snprintf does (its own conversions and the rest), big and small requests. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "ir.h"

/* fmt printed by the pool and by snprintf: the same text. */
static void same_as_snprintf(ir_pool *pool, const char *fmt, ...) IR_PRINTF(2, 3);
static void same_as_snprintf(ir_pool *pool, const char *fmt, ...)
{
    char want[1024];
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    vsnprintf(want, sizeof want, fmt, ap);
    const char *got = ir_pool_vprintf(pool, fmt, again);
    va_end(again);
    va_end(ap);
    assert_string_equal(got, want);
}

static void test_quick_conversions(void **state)
{
    (void)state;
    ir_pool pool = {0};
    same_as_snprintf(&pool, "%d %d %d %d", 0, -1, INT_MAX, INT_MIN);
    same_as_snprintf(&pool, "%u %u %x %x", 0u, UINT_MAX, 0u, 0xabcdefu);
    same_as_snprintf(&pool, "%02x %02x %02x", 0u, 7u, 0xffu);
    same_as_snprintf(&pool, "%zu %zu", (size_t)0, SIZE_MAX);
    same_as_snprintf(&pool, "%s|%s|%%|%s", "", "m->f1", "end");
    same_as_snprintf(&pool, "p -= %d;\nmemcpy(p, \"%s\", %d);", 3, "\\x80\\x01", 3);
    same_as_snprintf(&pool, "no conversion at all");
    ir_pool_free(&pool);
}

/* Conversions the pool leaves to vsnprintf, and texts longer than its stack buffer. */
static void test_other_conversions_and_long_text(void **state)
{
    (void)state;
    ir_pool pool = {0};
    same_as_snprintf(&pool, "%lld %llx %ld %5d %-3s|", -5ll, 255ull, -7l, 42, "a");
    char long_text[700];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = 0;
    same_as_snprintf(&pool, "%s", long_text);
    same_as_snprintf(&pool, "[%s] %d [%s]", long_text + 400, -12, long_text + 450);
    same_as_snprintf(&pool, "%s%s", long_text + 500, long_text + 444);   /* 255 bytes: fits with its NUL */
    same_as_snprintf(&pool, "%s%s", long_text + 500, long_text + 443);   /* 256: does not */
    ir_pool_free(&pool);
}

/* Small and big requests: aligned where asked, zeroed by alloc, each keeping what was written to it. */
static void test_requests(void **state)
{
    (void)state;
    ir_pool pool = {0};
    enum { N = 64 };
    unsigned char *blocks[N];
    size_t sizes[N];
    for (size_t i = 0; i < N; i++) {
        sizes[i] = i % 8 == 7 ? (size_t)3 << 20 : i % 4 == 3 ? 300000 : 1 + 37 * i;   /* some past a chunk */
        blocks[i] = ir_pool_alloc(&pool, sizes[i]);
        assert_int_equal((uintptr_t)blocks[i] % _Alignof(max_align_t), 0);
        for (size_t k = 0; k < sizes[i]; k++) assert_int_equal(blocks[i][k], 0);
        memset(blocks[i], (int)i + 1, sizes[i]);
        char *text = ir_pool_chars(&pool, 3);
        memcpy(text, "ab", 3);
    }
    for (size_t i = 0; i < N; i++)
        for (size_t k = 0; k < sizes[i]; k += 4093) assert_int_equal(blocks[i][k], (unsigned char)(i + 1));
    ir_pool_free(&pool);
    assert_null(pool.chunks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quick_conversions),
        cmocka_unit_test(test_other_conversions_and_long_text),
        cmocka_unit_test(test_requests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
