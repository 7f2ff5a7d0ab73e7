/* text_test.c: pbj_text.h's primitives against what protoc --decode prints for the same bytes, run at test time. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <unistd.h>

#include "wire.h"

/* Allocation hook: fails once `alloc_budget` allocations have been made (when >= 0). */
static long alloc_budget = -1;
static void *test_malloc_hook(size_t n) {
    if (alloc_budget == 0) return NULL;
    if (alloc_budget > 0) alloc_budget--;
    return malloc(n);
}
#define PBJ_MALLOC(n) test_malloc_hook(n)
#include "../../rt/pbj_text.h"

#define SCHEMA_DIR "test/parity"
#define SCHEMA SCHEMA_DIR "/text.proto"

/* protoc --decode=type of bytes: its stdout, malloc'd and NUL-terminated. */
static char *protoc_decode(const char *type, const wbuf *bytes) {
    char path[] = "/tmp/pbj-text-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(wb_write_file(bytes, path), 0);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "protoc -I%s --decode=%s %s < %s", SCHEMA_DIR, type, SCHEMA, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, n = 0, got;
    char *out = malloc(cap);
    while ((got = fread(out + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n < 2) out = realloc(out, cap *= 2);
    }
    out[n] = '\0';
    int status = pclose(p);
    unlink(path);
    if (status != 0) fail_msg("protoc failed (status %d): %s", status, cmd);
    return out;
}

/* Fails with the first differing line of the two texts. */
static void assert_same_text(const char *want, const char *got) {
    if (strcmp(want, got) == 0) return;
    size_t line = 1;
    const char *w = want, *g = got;
    while (*w && *w == *g) {
        if (*w == '\n') line++;
        w++, g++;
    }
    while (w > want && w[-1] != '\n') w--, g--;
    fail_msg("line %zu differs:\n  protoc: %.*s\n  pbj:    %.*s", line,
             (int)strcspn(w, "\n"), w, (int)strcspn(g, "\n"), g);
}

static void check_against_protoc(const char *type, const wbuf *bytes, pbj_text *t) {
    assert_false(t->failed);
    char *want = protoc_decode(type, bytes);
    assert_same_text(want, t->data);
    free(want);
    pbj_text_free(t);
}

/* ---- floating point ------------------------------------------------------ */

static double pow10i(int k) { return pow(10.0, k); }

/* Interesting doubles: specials, bounds, short decimals, powers, random bit patterns. */
static size_t some_doubles(double *out, size_t max, rng *r) {
    static const double fixed[] = {0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1e15, 1e16, 1e17, 1e21, 1e22,
                                   123456789012345678.0, 9007199254740993.0, 0.5, 2.5e-8,
                                   DBL_MAX, -DBL_MAX, DBL_MIN, DBL_EPSILON, 4.9406564584124654e-324,
                                   2.2250738585072009e-308, 3.14159265358979, 100.0, 1e100};
    size_t n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) out[n++] = fixed[i];
    out[n++] = -0.0;
    out[n++] = INFINITY;
    out[n++] = -INFINITY;
    out[n++] = NAN;
    out[n++] = -NAN;
    for (int k = -30; k <= 30; k++) out[n++] = pow10i(k);
    while (n < max) {
        uint64_t bits = rng_next(r);
        double d;
        switch (rng_below(r, 4)) {
        case 0: memcpy(&d, &bits, 8); break;                          /* any bit pattern */
        case 1: d = (double)(int64_t)(bits >> rng_below(r, 60)) / pow10i((int)rng_below(r, 20)); break;
        case 2: d = (double)(bits % 100000) * pow10i((int)rng_below(r, 600) - 300); break;
        default: bits &= 0x800fffffffffffffu; memcpy(&d, &bits, 8); break;   /* subnormal */
        }
        out[n++] = d;
    }
    return n;
}

static void test_double(void **state) {
    (void)state;
    rng r = {1};
    enum { N = 20000 };
    static double v[N];
    size_t n = some_doubles(v, N, &r);
    wbuf b = {0}, packed = {0};
    pbj_text t;
    pbj_text_init(&t);
    for (size_t i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &v[i], 8);
        wb_fixed(&packed, bits, 8);
        pbj_text_double(&t, "d", v[i]);
    }
    wb_len_field(&b, 1, packed.p, packed.n);
    check_against_protoc("pbjt.Values", &b, &t);
    wb_free(&b), wb_free(&packed);
}

static void test_float(void **state) {
    (void)state;
    rng r = {2};
    enum { N = 20000 };
    static double dv[N];
    size_t n = some_doubles(dv, N / 2, &r);
    wbuf b = {0}, packed = {0};
    pbj_text t;
    pbj_text_init(&t);
    for (size_t i = 0; i < N; i++) {
        float f;
        uint32_t bits = (uint32_t)rng_next(&r);
        if (i < n) f = (float)dv[i];                         /* the doubles, narrowed */
        else if (i % 3) memcpy(&f, &bits, 4);                /* any bit pattern */
        else f = (float)(int32_t)(bits >> rng_below(&r, 31)) / (float)pow10i((int)rng_below(&r, 12));
        memcpy(&bits, &f, 4);
        wb_fixed(&packed, bits, 4);
        pbj_text_float(&t, "f", f);
    }
    wb_len_field(&b, 2, packed.p, packed.n);
    check_against_protoc("pbjt.Values", &b, &t);
    wb_free(&b), wb_free(&packed);
}

/* ---- integers and bool --------------------------------------------------- */

static uint64_t some_u64(rng *r, size_t i) {
    static const uint64_t edge[] = {0, 1, 127, 128, 16383, 16384, 0x7fffffff, 0x80000000u, 0xffffffffu,
                                    0x100000000u, INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX,
                                    UINT64_MAX - 1};
    if (i < sizeof edge / sizeof *edge) return edge[i];
    return rng_next(r) >> rng_below(r, 64);
}

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

static void test_integers(void **state) {
    (void)state;
    rng r = {3};
    wbuf b = {0}, p[12] = {{0}};
    pbj_text t;
    pbj_text_init(&t);
    enum { N = 3000 };
    static uint64_t v[N];
    for (size_t i = 0; i < N; i++) v[i] = some_u64(&r, i);
    /* fields in number order, each packed */
    for (size_t i = 0; i < N; i++) wb_varint(&p[3], (uint64_t)(int64_t)(int32_t)v[i]);
    for (size_t i = 0; i < N; i++) pbj_text_int32(&t, "i32", (int32_t)v[i]);
    for (size_t i = 0; i < N; i++) wb_varint(&p[4], v[i]);
    for (size_t i = 0; i < N; i++) pbj_text_int64(&t, "i64", (int64_t)v[i]);
    for (size_t i = 0; i < N; i++) wb_varint(&p[5], (uint32_t)v[i]);
    for (size_t i = 0; i < N; i++) pbj_text_uint32(&t, "u32", (uint32_t)v[i]);
    for (size_t i = 0; i < N; i++) wb_varint(&p[6], v[i]);
    for (size_t i = 0; i < N; i++) pbj_text_uint64(&t, "u64", v[i]);
    for (size_t i = 0; i < N; i++) wb_varint(&p[7], (uint32_t)zigzag((int32_t)v[i]));
    for (size_t i = 0; i < N; i++) pbj_text_int32(&t, "s32", (int32_t)v[i]);
    for (size_t i = 0; i < N; i++) wb_varint(&p[8], zigzag((int64_t)v[i]));
    for (size_t i = 0; i < N; i++) pbj_text_int64(&t, "s64", (int64_t)v[i]);
    for (size_t i = 0; i < N; i++) wb_fixed(&p[9], v[i], 4);
    for (size_t i = 0; i < N; i++) pbj_text_uint32(&t, "fx32", (uint32_t)v[i]);
    for (size_t i = 0; i < N; i++) wb_fixed(&p[10], v[i], 8);
    for (size_t i = 0; i < N; i++) pbj_text_uint64(&t, "fx64", v[i]);
    for (size_t i = 0; i < N; i++) wb_fixed(&p[11], v[i], 4);
    for (size_t i = 0; i < N; i++) pbj_text_int32(&t, "sf32", (int32_t)v[i]);
    for (size_t i = 0; i < N; i++) wb_fixed(&p[0], v[i], 8);
    for (size_t i = 0; i < N; i++) pbj_text_int64(&t, "sf64", (int64_t)v[i]);
    for (size_t i = 0; i < N; i++) wb_varint(&p[1], v[i] & 1);
    for (size_t i = 0; i < N; i++) pbj_text_bool(&t, "b", v[i] & 1);
    for (uint32_t f = 3; f <= 11; f++) wb_len_field(&b, f, p[f].p, p[f].n);
    wb_len_field(&b, 12, p[0].p, p[0].n);
    wb_len_field(&b, 13, p[1].p, p[1].n);
    check_against_protoc("pbjt.Values", &b, &t);
    wb_free(&b);
    for (int i = 0; i < 12; i++) wb_free(&p[i]);
}

/* ---- strings, bytes, enums, nesting -------------------------------------- */

/* A valid UTF-8 encoding of code point c (not a surrogate) into out; returns its length. */
static size_t utf8(uint32_t c, uint8_t *out) {
    if (c < 0x80) { out[0] = (uint8_t)c; return 1; }
    if (c < 0x800) { out[0] = (uint8_t)(0xc0 | c >> 6); out[1] = (uint8_t)(0x80 | (c & 0x3f)); return 2; }
    if (c < 0x10000) {
        out[0] = (uint8_t)(0xe0 | c >> 12);
        out[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3f));
        out[2] = (uint8_t)(0x80 | (c & 0x3f));
        return 3;
    }
    out[0] = (uint8_t)(0xf0 | c >> 18);
    out[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3f));
    out[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3f));
    out[3] = (uint8_t)(0x80 | (c & 0x3f));
    return 4;
}

static void test_strings_and_bytes(void **state) {
    (void)state;
    rng r = {4};
    wbuf b = {0};
    pbj_text t;
    pbj_text_init(&t);
    for (int i = 0; i < 500; i++) {                      /* string: valid UTF-8, all of ASCII */
        uint8_t s[400];
        size_t n = 0, want = rng_below(&r, 90);
        while (n < want) {
            uint32_t c;
            switch (rng_below(&r, 4)) {
            case 0: c = (uint32_t)rng_below(&r, 0x80); break;
            case 1: c = 0x80 + (uint32_t)rng_below(&r, 0x780); break;
            case 2: c = 0xe000 + (uint32_t)rng_below(&r, 0x2000); break;
            default: c = 0x10000 + (uint32_t)rng_below(&r, 0x100000); break;
            }
            n += utf8(c, s + n);
        }
        wb_len_field(&b, 14, s, n);
        pbj_text_string(&t, "s", s, n);
    }
    for (int c = 0; c < 256; c++) {                      /* bytes: each byte alone */
        uint8_t one = (uint8_t)c;
        wb_len_field(&b, 15, &one, 1);
        pbj_text_bytes(&t, "by", &one, 1);
    }
    for (int i = 0; i < 500; i++) {                      /* bytes: random runs, empty ones too */
        uint8_t s[300];
        size_t n = rng_below(&r, i % 50 ? 40 : 300);
        for (size_t k = 0; k < n; k++) s[k] = (uint8_t)rng_next(&r);
        wb_len_field(&b, 15, s, n);
        pbj_text_bytes(&t, "by", s, n);
    }
    check_against_protoc("pbjt.Values", &b, &t);
    wb_free(&b);
}

static void test_enum(void **state) {
    (void)state;
    static const struct { int32_t v; const char *name; } known[] = {
        {0, "COLOR_ZERO"}, {1, "RED"}, {-7, "NEG"}, {INT32_MAX, "TOP"}, {INT32_MIN, "BOTTOM"}};
    static const int32_t unknown[] = {2, -1, -8, 1000, INT32_MAX - 1, INT32_MIN + 1, 6};
    wbuf b = {0}, packed = {0};
    pbj_text t;
    pbj_text_init(&t);
    for (size_t i = 0; i < 5; i++) {
        wb_varint(&packed, (uint64_t)(int64_t)known[i].v);
        pbj_text_enum(&t, "e", known[i].v, known[i].name);
    }
    for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
        wb_varint(&packed, (uint64_t)(int64_t)unknown[i]);
        pbj_text_enum(&t, "e", unknown[i], NULL);
    }
    wb_len_field(&b, 16, packed.p, packed.n);
    check_against_protoc("pbjt.Values", &b, &t);
    wb_free(&b), wb_free(&packed);
}

/* Values{ i32: depth, nested { ... } } down to depth 0, and an empty nested at each level. */
static void nest(wbuf *b, pbj_text *t, int depth) {
    wb_tag(b, 3, 0);
    wb_varint(b, (uint64_t)depth);
    pbj_text_int32(t, "i32", depth);
    wb_len_field(b, 17, "", 0);
    pbj_text_open(t, "nested");
    pbj_text_close(t);
    if (depth == 0) return;
    wbuf inner = {0};
    pbj_text_open(t, "nested");
    nest(&inner, t, depth - 1);
    pbj_text_close(t);
    wb_len_field(b, 17, inner.p, inner.n);
    wb_free(&inner);
}

static void test_nested(void **state) {
    (void)state;
    wbuf b = {0};
    pbj_text t;
    pbj_text_init(&t);
    nest(&b, &t, 40);
    assert_int_equal(t.depth, 0);
    check_against_protoc("pbjt.Values", &b, &t);
    wb_free(&b);
}

/* ---- unknown fields -------------------------------------------------------- */

/* An Empty holding item as its unknown fields: the bytes to b, pbj's text to t; frees item. */
static void add_unknown_item(wbuf *b, pbj_text *t, wbuf *item) {
    wb_len_field(b, 1, item->p, item->n);
    pbj_text_open(t, "e");
    pbj_text_unknown(t, item->p, item->n);
    pbj_text_close(t);
    wb_free(item);
}

static void test_unknown(void **state) {
    (void)state;
    rng r = {5};
    wbuf b = {0};
    pbj_text t;
    pbj_text_init(&t);
    for (int i = 0; i < 3000; i++) {
        wbuf item = {0};
        wb_random_fields(&item, &r, (int)rng_below(&r, 16));
        add_unknown_item(&b, &t, &item);
    }
    check_against_protoc("pbjt.Unknowns", &b, &t);
    wb_free(&b);
}

/* Deeply nested messages as unknown fields: protoc's recursion budget decides
 * where it stops reading payloads as messages and prints them as strings. */
static void test_unknown_budget(void **state) {
    (void)state;
    wbuf b = {0};
    pbj_text t;
    pbj_text_init(&t);
    for (int depth = 0; depth < 14; depth++) {
        for (int group_inside = 0; group_inside < 2; group_inside++) {
            wbuf item = {0};
            wb_tag(&item, 7, 0);
            wb_varint(&item, 1);
            for (int d = 0; d < depth; d++) {
                wbuf outer = {0};
                if (group_inside && d % 2) {
                    wb_tag(&outer, 3, 3);
                    wb_bytes(&outer, item.p, item.n);
                    wb_tag(&outer, 3, 4);
                } else {
                    wb_len_field(&outer, 2, item.p, item.n);
                }
                wb_free(&item);
                item = outer;
            }
            add_unknown_item(&b, &t, &item);
        }
    }
    check_against_protoc("pbjt.Unknowns", &b, &t);
    wb_free(&b);
}

/* Garbage given as unknown fields: printing stops at what does not parse, reads
 * nothing outside the bytes (ASan), leaves the depth as it found it and ends lines. */
static void test_unknown_garbage(void **state) {
    (void)state;
    rng r = {6};
    for (int i = 0; i < 20000; i++) {
        wbuf item = {0};
        if (i % 2) {
            wb_random_fields(&item, &r, (int)rng_below(&r, 6));
        }
        size_t n = item.n ? item.n : rng_below(&r, 48);
        uint8_t *bytes = malloc(n + 1);                  /* exactly n readable bytes before the spare */
        for (size_t k = 0; k < n; k++) bytes[k] = k < item.n ? item.p[k] : (uint8_t)rng_next(&r);
        for (int edits = (int)rng_below(&r, 4); edits > 0 && n; edits--) bytes[rng_below(&r, n)] = (uint8_t)rng_next(&r);
        pbj_text t;
        pbj_text_init(&t);
        t.depth = 3;
        pbj_text_unknown(&t, bytes, n);
        assert_int_equal(t.depth, 3);
        assert_true(t.len == 0 || t.data[t.len - 1] == '\n');
        pbj_text_free(&t);
        free(bytes);
        wb_free(&item);
    }
}

/* ---- the sink itself ------------------------------------------------------- */

/* An empty string or bytes field may be a NULL slice: printed as "", no UB. */
static void test_empty_null_string(void **state) {
    (void)state;
    pbj_text t;
    pbj_text_init(&t);
    pbj_text_string(&t, "s", NULL, 0);
    pbj_text_bytes(&t, "b", NULL, 0);
    assert_same_text("s: \"\"\nb: \"\"\n", t.data);
    pbj_text_free(&t);
}

static void test_sink(void **state) {
    (void)state;
    char small[8];
    pbj_text t;
    pbj_text_init_buffer(&t, small, sizeof small);
    pbj_text_puts(&t, "abc");
    assert_ptr_equal(t.data, small);                    /* fits: stays in the caller's buffer */
    assert_string_equal(small, "abc");
    for (int i = 0; i < 1000; i++) pbj_text_puts(&t, "0123456789");
    assert_true(t.heap);                                 /* moved to the heap, text kept */
    assert_int_equal(t.len, 10003);
    assert_int_equal(strncmp(t.data, "abc0123456789012", 16), 0);
    assert_int_equal(t.data[t.len], '\0');
    pbj_text_free(&t);
    assert_int_equal(t.len, 0);
    assert_string_equal(t.data, "");

    t.depth = 20;                                        /* indentation beyond one run of spaces */
    pbj_text_indent(&t);
    assert_int_equal(t.len, 40);
    assert_int_equal(strspn(t.data, " "), 40);
    pbj_text_free(&t);

    alloc_budget = 1;                                    /* the second growth fails: sticky */
    pbj_text_init(&t);
    pbj_text_puts(&t, "x");
    size_t kept = t.len;
    for (int i = 0; i < 100 && !t.failed; i++) pbj_text_puts(&t, "0123456789"), kept = t.len;
    assert_true(t.failed);
    pbj_text_puts(&t, "more");
    assert_int_equal(t.len, kept);
    assert_int_equal(strlen(t.data), t.len);
    alloc_budget = -1;
    pbj_text_free(&t);
    assert_false(t.failed);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sink),
        cmocka_unit_test(test_empty_null_string),
        cmocka_unit_test(test_double),
        cmocka_unit_test(test_float),
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_strings_and_bytes),
        cmocka_unit_test(test_enum),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_unknown_budget),
        cmocka_unit_test(test_unknown_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
