/* fuzz_decode.c: libFuzzer target: any bytes through generated decode and views; what decodes must round-trip, and every API must agree on it. */
#define _POSIX_C_SOURCE 200809L

/*
 * Built once per target with -DFUZZ_TARGET='"target.h"': that header includes the generated
 * headers and defines FUZZ_MESSAGES(X) as X(C name) for each message read. With more than
 * one, the input's first byte picks the message (modulo their count) and the rest is read.
 * For input that decodes with the default options, m1:
 *   encode(m1) = b1 succeeds and writes exactly size(m1) bytes;
 *   encode into a buffer one byte short gives PBJ_ERR_BUFFER (ASan sees any byte past it);
 *   decode(b1) = m2 succeeds, equal(m1, m2), equal(m2, m1);
 *   encode(m2) = b1, byte for byte;
 *   print(m1) = print(m2), text for text;
 *   write_reverse(m1) = b1 and writer_from(m1) = b1, byte for byte (the targets' code has every API);
 *   the view of b1 prints what b1 decoded with unknown fields dropped prints (unless that text shows unknown
 *   fields: an extension's message or a message set's item of an unknown type_id prints them, views skip them).
 * For any input: its view's init and print stay inside the input (ASan), and when decode (unknown fields
 * dropped) accepts the input, view init accepts it too (views check nested levels only when read).
 * Any broken rule aborts with a line saying which.
 * With FUZZ_TWIN_LOG=file in the environment, each input also appends to file what decode gives under four
 * option sets (status, and for what decodes its encoding and its text), for comparing two builds of the same
 * schemas (fuzz.mk: the size tier's walker against the default tier's generated code).
 */
#include FUZZ_TARGET

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#define REQUIRE(cond, ...)                                \
    do {                                                  \
        if (!(cond)) {                                    \
            fprintf(stderr, "fuzz_decode: " __VA_ARGS__); \
            fprintf(stderr, "\n");                        \
            abort();                                      \
        }                                                 \
    } while (0)

/* One message's generated functions, on untyped pointers. */
typedef struct fuzz_ops {
    const char *name;
    size_t struct_size;
    pbj_status (*decode)(void *m, const uint8_t *p, size_t n, pbj_arena *a);
    size_t (*size)(void *m);
    pbj_status (*encode)(void *m, uint8_t *buf, size_t cap, size_t *len);
    bool (*equal)(const void *a, const void *b);
    void (*print)(const void *m, pbj_text *t);
    pbj_status (*decode_dropping)(void *m, const uint8_t *p, size_t n, pbj_arena *a);
    pbj_status (*decode_with)(void *m, const uint8_t *p, size_t n, pbj_arena *a, const pbj_decode_options *opts);
    pbj_status (*write_reverse)(const void *m, pbj_rbuf *out);
    pbj_status (*write_writer)(const void *m, pbj_wbuf *out);
    pbj_status (*view_print)(const uint8_t *p, size_t n, pbj_text *t);
} fuzz_ops;

#define FUZZ_WRAP(T)                                                                                        \
    static pbj_status T##_fz_decode(void *m, const uint8_t *p, size_t n, pbj_arena *a) {                    \
        return T##_decode(m, p, n, a, NULL);                                                                \
    }                                                                                                       \
    static size_t T##_fz_size(void *m) { return T##_size(m); }                                              \
    static pbj_status T##_fz_encode(void *m, uint8_t *b, size_t cap, size_t *len) { return T##_encode(m, b, cap, len); } \
    static bool T##_fz_equal(const void *a, const void *b) { return T##_equal(a, b); }                      \
    static void T##_fz_print(const void *m, pbj_text *t) { T##_print(m, t); }                              \
    static pbj_status T##_fz_decode_dropping(void *m, const uint8_t *p, size_t n, pbj_arena *a) {           \
        pbj_decode_options o = {0};                                                                         \
        o.unknown = PBJ_UNKNOWN_DROP;                                                                       \
        return T##_decode(m, p, n, a, &o);                                                                  \
    }                                                                                                       \
    static pbj_status T##_fz_decode_with(void *m, const uint8_t *p, size_t n, pbj_arena *a,                  \
                                         const pbj_decode_options *opts) {                                  \
        return T##_decode(m, p, n, a, opts);                                                                \
    }                                                                                                       \
    static pbj_status T##_fz_write_reverse(const void *m, pbj_rbuf *out) { return T##_write_reverse(m, out); } \
    static pbj_status T##_fz_write_writer(const void *m, pbj_wbuf *out) {                                   \
        T##_writer w;                                                                                       \
        pbj_status st = T##_writer_start(&w, out);                                                          \
        if (st == PBJ_OK) st = T##_writer_from(&w, m);                                                      \
        return st == PBJ_OK ? T##_writer_end(&w) : st;                                                      \
    }                                                                                                       \
    static pbj_status T##_fz_view_print(const uint8_t *p, size_t n, pbj_text *t) {                          \
        T##_view v;                                                                                         \
        pbj_status st = T##_view_init(&v, p, n);                                                            \
        if (st == PBJ_OK) T##_view_print(&v, t);                                                            \
        return st;                                                                                          \
    }
#define FUZZ_ROW(T) {#T, sizeof(T), T##_fz_decode, T##_fz_size, T##_fz_encode, T##_fz_equal, T##_fz_print, \
                     T##_fz_decode_dropping, T##_fz_decode_with, T##_fz_write_reverse, T##_fz_write_writer, T##_fz_view_print},

FUZZ_MESSAGES(FUZZ_WRAP)
static const fuzz_ops messages[] = {FUZZ_MESSAGES(FUZZ_ROW)};
#define MESSAGE_COUNT (sizeof messages / sizeof messages[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* m encoded into a buffer of exactly its size (malloc'd: the caller frees it). */
static uint8_t *encode_exact(const fuzz_ops *o, void *m, size_t *len) {
    size_t n = o->size(m);
    uint8_t *buf = malloc(n ? n : 1);
    REQUIRE(buf, "out of memory");
    pbj_status st = o->encode(m, buf, n, len);
    REQUIRE(st == PBJ_OK, "%s: encode: %s", o->name, pbj_status_str(st));
    REQUIRE(*len == n, "%s: encode wrote %zu bytes, size said %zu", o->name, *len, n);
    return buf;
}

/* One byte short: PBJ_ERR_BUFFER, and (ASan) nothing written past the buffer. */
static void encode_short(const fuzz_ops *o, void *m, size_t n) {
    if (n == 0) return;
    uint8_t *buf = malloc(n - 1 ? n - 1 : 1);
    size_t len;
    pbj_status st = o->encode(m, buf, n - 1, &len);
    REQUIRE(st == PBJ_ERR_BUFFER, "%s: encode into %zu bytes for %zu: %s", o->name, n - 1, n, pbj_status_str(st));
    free(buf);
}

static void print_to(const fuzz_ops *o, const void *m, pbj_text *t) {
    pbj_text_init(t);
    o->print(m, t);
    REQUIRE(!t->failed, "%s: print failed", o->name);
}

static bool same_bytes(const void *a, size_t a_len, const void *b, size_t b_len) {
    return a_len == b_len && (a_len == 0 || memcmp(a, b, a_len) == 0);
}

static bool same_text(const pbj_text *a, const pbj_text *b) { return same_bytes(a->data, a->len, b->data, b->len); }

/* The other encoders write b1, m's encoding, byte for byte. */
static void other_encoders(const fuzz_ops *o, const void *m, const uint8_t *b1, size_t n1) {
    pbj_rbuf r;
    pbj_rbuf_init(&r, NULL, 0);
    pbj_status st = o->write_reverse(m, &r);
    REQUIRE(st == PBJ_OK, "%s: write_reverse: %s", o->name, pbj_status_str(st));
    REQUIRE(same_bytes(pbj_rbuf_data(&r), pbj_rbuf_len(&r), b1, n1),
            "%s: write_reverse wrote other bytes (%zu for %zu)", o->name, pbj_rbuf_len(&r), n1);
    pbj_rbuf_free(&r);
    static pbj_wbuf w;            /* large (its frames): not on the stack */
    pbj_wbuf_init(&w, NULL, 0);
    st = o->write_writer(m, &w);
    REQUIRE(st == PBJ_OK, "%s: writer_from: %s (%s)", o->name, pbj_status_str(st), w.failed ? w.failed : "");
    REQUIRE(same_bytes(w.data, w.len, b1, n1), "%s: writer_from wrote other bytes (%zu for %zu)", o->name,
            w.len, n1);
    pbj_wbuf_free(&w);
}

/* The view of bytes a decode (unknown fields dropped) accepts prints as the decoded message; for bytes it refuses,
 * the view may refuse or read them, safely. canonical: the bytes are an encoder's. */
static void view_agrees(const fuzz_ops *o, const uint8_t *data, size_t size, bool canonical) {
    uint8_t *exact = malloc(size ? size : 1);          /* exactly size bytes: ASan sees a read past them */
    REQUIRE(exact, "out of memory");
    if (size) memcpy(exact, data, size);
    void *m = malloc(o->struct_size);
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    pbj_text tv, td;
    pbj_text_init(&tv);
    pbj_status got = o->view_print(exact, size, &tv);
    pbj_status want = o->decode_dropping(m, exact, size, &arena);
    if (want == PBJ_OK) {
        REQUIRE(got == PBJ_OK, "%s: decode accepts, the view refuses (%s)", o->name, pbj_status_str(got));
        print_to(o, m, &td);
        REQUIRE(!canonical || shows_unknown(td.data) || same_text(&tv, &td), "%s: the view prints other text than decode:\n%.2000s\n--- decode\n%.2000s",
                o->name, tv.data, td.data);
        pbj_text_free(&td);
    }
    pbj_text_free(&tv);
    pbj_arena_free(&arena);
    free(m);
    free(exact);
}

/* Message sets normalise as protobuf's C++ runtime does (only items are written): for the messages a target
 * lists in FUZZ_NORMALISING(X), the rules hold from the first re-encoding on. */
#ifndef FUZZ_NORMALISING
#define FUZZ_NORMALISING(X)
#endif
#define FUZZ_NAME(T) #T,
static const char *const normalising[] = {FUZZ_NORMALISING(FUZZ_NAME) NULL};

static bool normalises(const fuzz_ops *o) {
    for (size_t i = 0; normalising[i]; i++)
        if (strcmp(normalising[i], o->name) == 0) return true;
    return false;
}

static void roundtrip(const fuzz_ops *o, const uint8_t *data, size_t size);

/* Decode, encode once, then the rules on the encoding. */
static void roundtrip_normalised(const fuzz_ops *o, const uint8_t *data, size_t size) {
    void *m = malloc(o->struct_size);
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    if (o->decode(m, data, size, &arena) == PBJ_OK) {
        size_t n;
        uint8_t *b = encode_exact(o, m, &n);
        roundtrip(o, b, n);
        free(b);
    }
    pbj_arena_free(&arena);
    free(m);
}

static void roundtrip(const fuzz_ops *o, const uint8_t *data, size_t size) {
    void *m1 = malloc(o->struct_size), *m2 = malloc(o->struct_size);
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    if (o->decode(m1, data, size, &arena) == PBJ_OK) {
        size_t n1, n2;
        uint8_t *b1 = encode_exact(o, m1, &n1);
        encode_short(o, m1, n1);
        pbj_status st = o->decode(m2, b1, n1, &arena);
        REQUIRE(st == PBJ_OK, "%s: decode of its own encoding (%zu bytes): %s", o->name, n1, pbj_status_str(st));
        REQUIRE(o->equal(m1, m2) && o->equal(m2, m1), "%s: decode(encode(m)) is not equal to m", o->name);
        uint8_t *b2 = encode_exact(o, m2, &n2);
        REQUIRE(same_bytes(b1, n1, b2, n2), "%s: re-encode differs (%zu and %zu bytes)", o->name, n1, n2);
        pbj_text t1, t2;
        print_to(o, m1, &t1);
        print_to(o, m2, &t2);
        REQUIRE(same_text(&t1, &t2), "%s: print differs after a round trip", o->name);
        other_encoders(o, m1, b1, n1);
        view_agrees(o, b1, n1, true);
        pbj_text_free(&t1);
        pbj_text_free(&t2);
        free(b1);
        free(b2);
    }
    pbj_arena_free(&arena);
    free(m1);
    free(m2);
}

/* FUZZ_TWIN_LOG: what decode gives for the input under each option set, appended to the log. */
static void twin_log(const fuzz_ops *o, const uint8_t *data, size_t size) {
    const char *path = getenv("FUZZ_TWIN_LOG");
    if (!path) return;
    FILE *log = fopen(path, "a");
    REQUIRE(log, "%s: cannot append", path);
    pbj_decode_options opts[4] = {{0}, {0}, {0}, {0}};
    opts[1].unknown = PBJ_UNKNOWN_DROP;
    opts[2].unknown = PBJ_UNKNOWN_REJECT;
    opts[3].max_depth = 3, opts[3].max_length = 40;
    for (int k = 0; k < 4; k++) {
        void *m = malloc(o->struct_size);
        pbj_arena arena;
        pbj_arena_init(&arena, NULL, 0);
        pbj_status st = o->decode_with(m, data, size, &arena, &opts[k]);
        fprintf(log, "%s %d: %s", o->name, k, pbj_status_str(st));
        if (st == PBJ_OK) {
            size_t n;
            uint8_t *b = encode_exact(o, m, &n);
            pbj_text t;
            print_to(o, m, &t);
            fputc(' ', log);
            for (size_t i = 0; i < n; i++) fprintf(log, "%02x", b[i]);
            fprintf(log, "\n%s", t.data ? t.data : "");
            pbj_text_free(&t);
            free(b);
        }
        fputc('\n', log);
        pbj_arena_free(&arena);
        free(m);
    }
    fclose(log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (MESSAGE_COUNT == 1) twin_log(&messages[0], data, size);
    else if (size > 0) twin_log(&messages[data[0] % MESSAGE_COUNT], data + 1, size - 1);
    if (MESSAGE_COUNT == 1) {
        roundtrip(&messages[0], data, size);
        view_agrees(&messages[0], data, size, false);
    } else if (size > 0) {
        const fuzz_ops *o = &messages[data[0] % MESSAGE_COUNT];
        (normalises(o) ? roundtrip_normalised : roundtrip)(o, data + 1, size - 1);
        view_agrees(o, data + 1, size - 1, false);
    }
    return 0;
}
