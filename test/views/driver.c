/* driver.c: views against decode: for a batch, each item read through its view prints what its decoded struct prints; truncations and mutations never fault; views never allocate. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t allocations;           /* PBJ_MALLOC calls: views must make none */
static void *counted_malloc(size_t n)
{
    allocations++;
    return malloc(n);
}
#define PBJ_MALLOC(n) counted_malloc(n)

#include VIEWS_HEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define B_(name) CAT(BATCH, name)
#define I_(name) CAT(ITEM, name)

static char text_space[1 << 26];     /* the view's text: a caller buffer, so printing allocates nothing */

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    *len = b && fread(b, 1, (size_t)n, f) == (size_t)n ? (size_t)n : 0;
    fclose(f);
    return b;
}

/* The text of the view of buf (its status when init fails). */
static pbj_status view_text(const uint8_t *buf, size_t len, pbj_text *t)
{
    I_(_view) v;
    pbj_text_init_buffer(t, text_space, sizeof text_space);
    pbj_status st = I_(_view_init)(&v, buf, len);
    if (st == PBJ_OK) I_(_view_print)(&v, t);
    return st;
}

/* Decode buf as the views read it (unknown fields skipped); its text into t when it decodes. */
static pbj_status decode_text(const uint8_t *buf, size_t len, pbj_text *t)
{
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    ITEM m;
    pbj_decode_options o = {0};
    o.unknown = PBJ_UNKNOWN_DROP;
    pbj_status st = I_(_decode)(&m, buf, len, &a, &o);
    pbj_text_init(t);
    if (st == PBJ_OK) I_(_print)(&m, t);
    pbj_arena_free(&a);
    return st;
}

/* Every item of the batch: the view's text is the decoded struct's, with no allocation. */
static int parity(const char *path)
{
    size_t len, items = 0;
    uint8_t *buf = read_all(path, &len);
    if (!buf) return fprintf(stderr, "cannot read %s\n", path), 1;
    B_(_view) batch;
    if (B_(_view_init)(&batch, buf, len) != PBJ_OK) return fprintf(stderr, "%s: batch view init fails\n", path), 1;
    pbj_view_iter it = B_(_view_items)(&batch);
    pbj_slice s;
    while (pbj_view_next_slice(&it, &s)) {
        pbj_text tw;
        pbj_status want = decode_text(s.data, s.len, &tw);
        size_t before = allocations;
        pbj_text tv;
        pbj_status got = view_text(s.data, s.len, &tv);
        if (allocations != before) return fprintf(stderr, "item %zu: the view allocated %zu times\n", items, allocations - before), 1;
        if (got != want || strcmp(tw.data, tv.data) != 0) {
            fprintf(stderr, "item %zu: view (%s) differs from decode (%s)\n--- decode\n%.2000s\n--- view\n%.2000s\n", items,
                    pbj_status_str(got), pbj_status_str(want), tw.data, tv.data);
            return 1;
        }
        pbj_text_free(&tw);
        pbj_text_free(&tv);
        items++;
    }
    printf("views %s: %zu items read through views print as decoded\n", path, items);
    free(buf);
    return items ? 0 : 1;
}

/* Every truncation of the first items, and random byte mutations of every item: init and reading every field
 * never fault (ASan+UBSan watch), never allocate; a view init that succeeds on bytes decode refuses is allowed
 * (nested levels are checked when read), but bytes decode accepts a view accepts too (a known field with a
 * wrong wire type is an unknown field to both). */
static int malformed(const char *path, unsigned long mutations, unsigned long seed)
{
    size_t len, items = 0, refused = 0;
    uint8_t *buf = read_all(path, &len);
    if (!buf) return 1;
    B_(_view) batch;
    if (B_(_view_init)(&batch, buf, len) != PBJ_OK) return 1;
    pbj_view_iter it = B_(_view_items)(&batch);
    pbj_slice s;
    uint64_t r = seed * 0x9e3779b97f4a7c15u + 1;
    while (pbj_view_next_slice(&it, &s)) {
        uint8_t *copy = malloc(s.len + 1);
        size_t before = allocations;
        for (size_t cut = 0; items < 20 && cut < s.len; cut++) {
            memcpy(copy, s.data, cut);               /* a buffer of exactly cut bytes: ASan sees any overread */
            uint8_t *exact = malloc(cut ? cut : 1);
            memcpy(exact, copy, cut);
            before = allocations;
            pbj_text t;
            refused += view_text(exact, cut, &t) != PBJ_OK;
            pbj_text_free(&t);
            if (allocations != before) return fprintf(stderr, "a truncated view allocated\n"), 1;
            free(exact);
        }
        for (unsigned long k = 0; k < mutations && s.len; k++) {
            memcpy(copy, s.data, s.len);
            for (int n = 0; n < 1 + (int)(r % 3); n++) {
                r = r * 6364136223846793005u + 1442695040888963407u;
                copy[(r >> 33) % s.len] = (uint8_t)(r >> 17);
            }
            uint8_t *exact = malloc(s.len);
            memcpy(exact, copy, s.len);
            before = allocations;
            pbj_text t, td;
            pbj_status got = view_text(exact, s.len, &t);
            refused += got != PBJ_OK;
            pbj_text_free(&t);
            if (allocations != before) return fprintf(stderr, "a mutated view allocated\n"), 1;
            pbj_status want = decode_text(exact, s.len, &td);
            pbj_text_free(&td);
            if (want == PBJ_OK && got != PBJ_OK)
                return fprintf(stderr, "item %zu, mutation %lu: decode accepts, the view refuses (%s)\n", items, k, pbj_status_str(got)), 1;
            free(exact);
        }
        free(copy);
        items++;
    }
    printf("views %s: truncations and %lu mutations of %zu items read safely (%zu refused at init)\n", path, mutations, items, refused);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "parity") == 0) return parity(argv[2]);
    if (argc == 5 && strcmp(argv[1], "malformed") == 0) return malformed(argv[2], strtoul(argv[3], NULL, 10), strtoul(argv[4], NULL, 10));
    fprintf(stderr, "usage: %s parity BATCH.bin | malformed BATCH.bin MUTATIONS SEED\n", argv[0]);
    return 2;
}
