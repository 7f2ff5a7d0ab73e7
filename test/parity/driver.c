/* driver.c: one schema's generated code on random batches: decode, encode back, print, equality, non-canonical and malformed input. */
#define _POSIX_C_SOURCE 200809L

/*
 * Built once per schema with -DPARITY_HEADER='"x.pb.h"' -DBATCH=<C name of
 * the batch message> -DITEM=<C name of its item message>. A batch is a
 * message whose field 1 is `repeated ITEM items`.
 *
 *   driver roundtrip IN.bin OUT.txt    decode IN, encode: must give IN back;
 *                                      print to OUT.txt; equality checks
 *   driver reencode IN.bin WANT.bin OUT.txt
 *                                      decode IN (any valid encoding), encode:
 *                                      must give WANT; print to OUT.txt
 *   driver equal A.bin B.bin           A and B decode to equal batches
 *   driver dropped IN.bin KNOWN.bin    IN decoded dropping unknown fields encodes
 *                                      as KNOWN; strict decode fails exactly on
 *                                      the items that have unknown fields
 *   driver malformed IN.bin ITEMS SEED [ACCEPTED.bin]
 *                                      every truncation and many mutations of
 *                                      the first ITEMS items: a status, no crash;
 *                                      the mutations the default options accept
 *                                      go to ACCEPTED.bin, a batch
 *   driver print IN.bin OUT.txt        decode and print
 *
 * Exit 0 when every check holds; 1 with the first difference on stderr.
 */
#include PARITY_HEADER

#include <stdio.h>
#include <stdlib.h>

#include "wire.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define B_(name) CAT(BATCH, name)
#define I_(name) CAT(ITEM, name)
#define STR_(x) #x
#define STR(x) STR_(x)

/* ---- helpers ------------------------------------------------------------- */

static void hex_dump(const char *label, const uint8_t *p, size_t n, size_t at) {
    size_t from = at > 16 ? at - 16 : 0, to = at + 32 < n ? at + 32 : n;
    fprintf(stderr, "  %s (%zu bytes) at %zu:", label, n, from);
    for (size_t i = from; i < to; i++) fprintf(stderr, i == at ? " [%02x]" : " %02x", p[i]);
    fprintf(stderr, "\n");
}

/* The text of one item, decoded alone, for a report. */
static void show_item(const char *label, const uint8_t *p, size_t n) {
    ITEM m;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    I_(_init)(&m);
    pbj_status st = I_(_decode)(&m, p, n, &a, NULL);
    if (st != PBJ_OK) {
        fprintf(stderr, "  %s: decode alone fails: %s\n", label, pbj_status_str(st));
    } else {
        pbj_text t;
        pbj_text_init(&t);
        I_(_print)(&m, &t);
        fprintf(stderr, "  %s as text:\n%.4000s%s", label, t.data, t.len > 4000 ? "...\n" : "");
        pbj_text_free(&t);
    }
    pbj_arena_free(&a);
}

/* Fails with the first item whose bytes differ between batches want and got. */
static int compare_batches(const char *what, const wbuf *want, const uint8_t *got, size_t got_len) {
    if (want->n == got_len && memcmp(want->p, got, got_len) == 0) return 0;
    const uint8_t *p = want->p, *pe = want->p + want->n, *q = got, *qe = got + got_len;
    for (size_t i = 0;; i++) {
        const uint8_t *a, *b;
        size_t an, bn;
        int has_a = wb_next_item(&p, pe, &a, &an), has_b = wb_next_item(&q, qe, &b, &bn);
        if (!has_a || !has_b) {
            fprintf(stderr, "%s: item %zu: %s\n", what, i, has_a ? "missing from pbj's output" : "extra in pbj's output");
            return 1;
        }
        if (an == bn && memcmp(a, b, an) == 0) continue;
        size_t at = 0;
        while (at < an && at < bn && a[at] == b[at]) at++;
        fprintf(stderr, "%s: item %zu differs at byte %zu\n", what, i, at);
        hex_dump("want", a, an, at);
        hex_dump("pbj ", b, bn, at);
        show_item("item (want)", a, an);
        return 1;
    }
}

static int read_or_die(wbuf *b, const char *path) {
    if (wb_read_file(b, path) == 0) return 0;
    perror(path);
    exit(2);
}

/* Decodes a whole batch; a failure names the first item that fails alone. */
static int decode_batch(BATCH *m, const wbuf *in, pbj_arena *a, const char *what, const pbj_decode_options *o) {
    B_(_init)(m);
    pbj_status st = B_(_decode)(m, in->p, in->n, a, o);
    if (st == PBJ_OK) return 0;
    fprintf(stderr, "%s: decode of the batch fails: %s\n", what, pbj_status_str(st));
    const uint8_t *p = in->p, *item;
    size_t n;
    for (size_t i = 0; wb_next_item(&p, in->p + in->n, &item, &n); i++) {
        ITEM one;
        pbj_arena ia;
        pbj_arena_init(&ia, NULL, 0);
        I_(_init)(&one);
        st = I_(_decode)(&one, item, n, &ia, o);
        pbj_arena_free(&ia);
        if (st != PBJ_OK) {
            fprintf(stderr, "  first failing item: %zu (%s)\n", i, pbj_status_str(st));
            hex_dump("item", item, n, 0);
            break;
        }
    }
    return 1;
}

static uint8_t *encode_batch(BATCH *m, size_t *len) {
    size_t size = B_(_size)(m);
    uint8_t *buf = malloc(size + 1);
    pbj_status st = B_(_encode)(m, buf, size, len);
    if (st != PBJ_OK || *len != size) {
        fprintf(stderr, "encode: %s (size %zu, wrote %zu)\n", pbj_status_str(st), size, *len);
        exit(1);
    }
    return buf;
}

static void print_batch(const BATCH *m, const char *path) {
    pbj_text t;
    pbj_text_init(&t);
    B_(_print)(m, &t);
    FILE *f = fopen(path, "w");
    if (!f || t.failed || fwrite(t.data, 1, t.len, f) != t.len || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
    pbj_text_free(&t);
}

/* Items decoded alone: equal to themselves, and equal to their neighbour exactly when the bytes are. */
static int check_item_equality(const wbuf *in) {
    const uint8_t *p = in->p, *end = in->p + in->n, *prev = NULL, *cur;
    size_t prev_n = 0, cur_n, checked = 0, unequal = 0;
    for (size_t i = 0; wb_next_item(&p, end, &cur, &cur_n); i++, prev = cur, prev_n = cur_n) {
        ITEM a, b, c;
        pbj_arena arena;
        pbj_arena_init(&arena, NULL, 0);
        I_(_init)(&a), I_(_init)(&b), I_(_init)(&c);
        if (I_(_decode)(&a, cur, cur_n, &arena, NULL) != PBJ_OK || I_(_decode)(&c, cur, cur_n, &arena, NULL) != PBJ_OK) {
            fprintf(stderr, "equal: item %zu does not decode alone\n", i);
            return 1;
        }
        if (!I_(_equal)(&a, &c)) {
            fprintf(stderr, "equal: item %zu is not equal to a second decode of itself\n", i);
            show_item("item", cur, cur_n);
            return 1;
        }
        if (prev && I_(_decode)(&b, prev, prev_n, &arena, NULL) == PBJ_OK) {
            bool same_bytes = prev_n == cur_n && memcmp(prev, cur, cur_n) == 0;
            if (I_(_equal)(&a, &b) != same_bytes) {
                fprintf(stderr, "equal: items %zu and %zu: bytes %s, " STR(ITEM) "_equal says %s\n", i - 1, i,
                        same_bytes ? "equal" : "differ", same_bytes ? "unequal" : "equal");
                show_item("first", prev, prev_n);
                show_item("second", cur, cur_n);
                return 1;
            }
            unequal += !same_bytes;
            checked++;
        }
        pbj_arena_free(&arena);
    }
    if (checked > 10 && unequal == 0) {
        fprintf(stderr, "equal: no two neighbouring items differ: the check proves nothing\n");
        return 1;
    }
    return 0;
}

/* Decodes batch in (with options o) into m and encodes it back: the bytes must be want's. */
static int decode_encode(BATCH *m, const wbuf *in, const wbuf *want, pbj_arena *a, const pbj_decode_options *o,
                         const char *what) {
    if (decode_batch(m, in, a, what, o)) return 1;
    size_t len;
    uint8_t *out = encode_batch(m, &len);
    int rc = compare_batches(what, want, out, len);
    free(out);
    return rc;
}

/* ---- modes ------------------------------------------------------------------ */

static int roundtrip(const char *in_path, const char *txt_path) {
    wbuf in = {0};
    read_or_die(&in, in_path);
    BATCH m, m2;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    pbj_decode_options alias = {.alias = true};
    int rc = decode_encode(&m, &in, &in, &a, NULL, "encode(decode(x)) != x");
    if (!rc) print_batch(&m, txt_path);
    if (!rc) rc = check_item_equality(&in);
    /* again with strings and bytes aliasing the input */
    if (!rc) rc = decode_encode(&m2, &in, &in, &a, &alias, "encode(decode(x, alias)) != x");
    if (!rc && !B_(_equal)(&m, &m2)) {
        fprintf(stderr, "decode with and without alias give unequal batches\n");
        rc = 1;
    }
    pbj_arena_free(&a);
    wb_free(&in);
    return rc;
}

static int reencode(const char *in_path, const char *want_path, const char *txt_path) {
    wbuf in = {0}, want = {0};
    read_or_die(&in, in_path);
    read_or_die(&want, want_path);
    BATCH m;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    int rc = decode_encode(&m, &in, &want, &a, NULL, "encode(decode(non-canonical x)) != protoc's canonical x");
    if (rc) {                                            /* show the input item too */
        const uint8_t *p = in.p, *w = want.p, *item, *witem;
        size_t n, wn;
        while (wb_next_item(&p, in.p + in.n, &item, &n) && wb_next_item(&w, want.p + want.n, &witem, &wn)) {
            ITEM x, y;
            pbj_arena ia;
            pbj_arena_init(&ia, NULL, 0);
            I_(_init)(&x), I_(_init)(&y);
            bool differ = I_(_decode)(&x, item, n, &ia, NULL) != PBJ_OK;
            if (!differ) {
                size_t xl = I_(_size)(&x), wl;
                uint8_t *xb = malloc(xl + 1);
                differ = I_(_encode)(&x, xb, xl, &wl) != PBJ_OK || wl != wn || memcmp(xb, witem, wn) != 0;
                free(xb);
            }
            pbj_arena_free(&ia);
            if (differ) {
                hex_dump("non-canonical input item", item, n, 0);
                break;
            }
        }
    }
    if (!rc) print_batch(&m, txt_path);
    pbj_arena_free(&a);
    wb_free(&in), wb_free(&want);
    return rc;
}

static int equal(const char *a_path, const char *b_path) {
    wbuf x = {0}, y = {0};
    read_or_die(&x, a_path);
    read_or_die(&y, b_path);
    BATCH a, b;
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    int rc = decode_batch(&a, &x, &arena, a_path, NULL) || decode_batch(&b, &y, &arena, b_path, NULL);
    if (!rc && !B_(_equal)(&a, &b)) {
        fprintf(stderr, "%s and %s decode to unequal batches\n", a_path, b_path);
        rc = 1;
    }
    pbj_arena_free(&arena);
    wb_free(&x), wb_free(&y);
    return rc;
}

/* Unknown fields dropped: the batch without them; rejected: exactly the items that had some fail. */
static int dropped(const char *in_path, const char *known_path) {
    pbj_decode_options drop = {.unknown = PBJ_UNKNOWN_DROP}, reject = {.unknown = PBJ_UNKNOWN_REJECT};
    wbuf in = {0}, known = {0};
    read_or_die(&in, in_path);
    read_or_die(&known, known_path);
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    BATCH m;
    int rc = decode_encode(&m, &in, &known, &a, &drop, "encode(decode(x, unknown fields dropped)) != x without them");
    const uint8_t *p = in.p, *q = known.p, *item, *kitem;
    size_t n, kn, rejected = 0;
    for (size_t i = 0; !rc && wb_next_item(&p, in.p + in.n, &item, &n) && wb_next_item(&q, known.p + known.n, &kitem, &kn); i++) {
        ITEM x;
        I_(_init)(&x);
        pbj_status st = I_(_decode)(&x, item, n, &a, &reject);
        pbj_status want = n == kn ? PBJ_OK : PBJ_ERR_UNKNOWN_FIELD;
        rejected += st != PBJ_OK;
        if (st != want) {
            fprintf(stderr, "strict decode of item %zu: %s, want %s\n", i, pbj_status_str(st), pbj_status_str(want));
            rc = 1;
        }
    }
    if (!rc && rejected == 0) {
        fprintf(stderr, "strict decode: no item had unknown fields: the check proves nothing\n");
        rc = 1;
    }
    pbj_arena_free(&a);
    wb_free(&in), wb_free(&known);
    return rc;
}

static int print_only(const char *in_path, const char *txt_path) {
    wbuf in = {0};
    read_or_die(&in, in_path);
    BATCH m;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    int rc = decode_batch(&m, &in, &a, in_path, NULL);
    if (!rc) print_batch(&m, txt_path);
    pbj_arena_free(&a);
    wb_free(&in);
    return rc;
}

/* Decode must return; when it says OK, the message must also size, encode and print. */
static size_t decode_ok;

/* PARITY_STATUS_LOG, when set: each malformed input's status and, when it decodes, its encoding, one line each,
 * so two builds of one schema (the default and size tiers) can be compared input by input. */
static FILE *status_log;

static void log_status(pbj_status st, const uint8_t *out, size_t len) {
    if (!status_log) return;
    fprintf(status_log, "%d", (int)st);
    for (size_t i = 0; i < len; i++) fprintf(status_log, "%s%02x", i ? "" : " ", out[i]);
    fputc('\n', status_log);
}

/* Decodes with one of several option sets (by variant); true when the defaults (variant 0) accept it. */
static bool try_decode(const uint8_t *p, size_t n, unsigned variant) {
    static const pbj_decode_options options[] = {
        {0}, {.alias = true}, {.unknown = PBJ_UNKNOWN_DROP}, {.unknown = PBJ_UNKNOWN_REJECT},
        {.max_depth = 3, .max_length = 40},
    };
    const pbj_decode_options *o = &options[variant % (sizeof options / sizeof *options)];
    bool accepted = false;
    ITEM m;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    I_(_init)(&m);
    uint8_t *copy = malloc(n + 1);                        /* exactly n bytes readable before the spare */
    if (n) memcpy(copy, p, n);
    pbj_status st = I_(_decode)(&m, copy, n, &a, o);
    if (st != PBJ_OK) log_status(st, NULL, 0);
    if (st == PBJ_OK) {
        decode_ok++;
        accepted = o == &options[0];
        size_t size = I_(_size)(&m), len;
        uint8_t *out = malloc(size + 1);
        if (I_(_encode)(&m, out, size, &len) != PBJ_OK || len != size) {
            fprintf(stderr, "malformed: a decoded message does not encode\n");
            exit(1);
        }
        log_status(st, out, len);
        pbj_text t;
        pbj_text_init(&t);
        I_(_print)(&m, &t);
        pbj_text_free(&t);
        free(out);
    }
    free(copy);
    pbj_arena_free(&a);
    return accepted;
}

static int malformed(const char *in_path, long items, uint64_t seed, const char *accepted_path) {
    wbuf in = {0}, mut = {0}, accepted = {0};
    read_or_die(&in, in_path);
    rng r = {seed};
    const uint8_t *p = in.p, *item;
    size_t n, tries = 0;
    for (long i = 0; i < items && wb_next_item(&p, in.p + in.n, &item, &n); i++) {
        size_t step = n > 2000 ? n / 1000 : 1;            /* every truncation of small items */
        for (size_t cut = 0; cut < n; cut += step, tries++) try_decode(item, cut, (unsigned)tries);
        for (int k = 0; k < 200; k++, tries++) {
            mut.n = 0;
            wb_bytes(&mut, item, n);
            for (int edits = 1 + (int)rng_below(&r, 4); edits > 0 && mut.n; edits--) {
                size_t at = rng_below(&r, mut.n);
                switch (rng_below(&r, 6)) {
                case 0: mut.p[at] = (uint8_t)rng_next(&r); break;              /* any byte */
                case 1: mut.p[at] ^= (uint8_t)(1u << rng_below(&r, 8)); break;  /* one bit */
                case 2: mut.p[at] = rng_below(&r, 2) ? 0xff : 0x80; break;     /* continuation */
                case 3: memmove(mut.p + at, mut.p + at + 1, mut.n - at - 1); mut.n--; break;  /* delete */
                case 4: mut.n = at; break;                                       /* cut */
                default: {                                                       /* insert */
                    uint8_t c = (uint8_t)rng_next(&r);
                    wb_byte(&mut, 0);
                    memmove(mut.p + at + 1, mut.p + at, mut.n - at - 1);
                    mut.p[at] = c;
                }
                }
            }
            if (try_decode(mut.p, mut.n, (unsigned)tries)) wb_len_field(&accepted, 1, mut.p, mut.n);
        }
    }
    printf("malformed: %zu inputs decoded, %zu of them valid\n", tries, decode_ok);
    if (accepted_path && wb_write_file(&accepted, accepted_path) != 0) {
        perror(accepted_path);
        return 2;
    }
    wb_free(&in), wb_free(&mut), wb_free(&accepted);
    return 0;
}

int main(int argc, char **argv) {
    const char *log = getenv("PARITY_STATUS_LOG");
    if (log && !(status_log = fopen(log, "w"))) {
        perror(log);
        return 2;
    }
    if (argc == 4 && strcmp(argv[1], "roundtrip") == 0) return roundtrip(argv[2], argv[3]);
    if (argc == 5 && strcmp(argv[1], "reencode") == 0) return reencode(argv[2], argv[3], argv[4]);
    if (argc == 4 && strcmp(argv[1], "equal") == 0) return equal(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "dropped") == 0) return dropped(argv[2], argv[3]);
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "malformed") == 0)
        return malformed(argv[2], atol(argv[3]), strtoull(argv[4], NULL, 10), argc == 6 ? argv[5] : NULL);
    if (argc == 4 && strcmp(argv[1], "print") == 0) return print_only(argv[2], argv[3]);
    fprintf(stderr, "usage: %s roundtrip IN.bin OUT.txt | reencode IN.bin WANT.bin OUT.txt | "
                    "equal A.bin B.bin | dropped IN.bin KNOWN.bin | malformed IN.bin ITEMS SEED [ACCEPTED.bin] | "
                    "print IN.bin OUT.txt\n", argv[0]);
    return 2;
}
