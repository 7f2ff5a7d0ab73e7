/* driver.c: one parity schema's M_from_text on a random batch: what M_print writes reads back equal, to the same bytes. */
#define _POSIX_C_SOURCE 200809L

/*
 * Built once per schema with -DPARITY_HEADER='"x.pb.h"' -DBATCH=<C name of the batch> -DITEM=<its item>.
 *   driver IN.bin OUT.txt OUT.bin
 *       decodes the batch IN.bin, prints it to OUT.txt, reads that text back with M_from_text: the batch read
 *       must be M_equal to the one decoded and encode to IN.bin's bytes (written to OUT.bin, for protoc's
 *       --encode of OUT.txt to be compared with). Each item goes through the same alone, so a failure names
 *       its item. Exit 0 when every check holds, else 1 with the first difference on stderr.
 */
#include PARITY_HEADER

#include <stdio.h>
#include <stdlib.h>

#include "wire.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define B_(name) CAT(BATCH, name)
#define I_(name) CAT(ITEM, name)

/* The text M_print writes for an item (in t). */
#define PRINT(fn, m, t) (pbj_text_init(t), (fn)(m, t) == PBJ_OK)

/* Fails naming item i with its text and the error. */
static int fail(size_t i, const char *what, const pbj_text *t, const pbj_text_error *e, pbj_status st)
{
    fprintf(stderr, "textin: item %zu: %s (%s", i, what, pbj_status_str(st));
    if (e && e->line) fprintf(stderr, ", %u:%u: %s", e->line, e->column, e->message);
    fprintf(stderr, ")\n  its text:\n%.4000s%s", t->data, t->len > 4000 ? "...\n" : "");
    return 1;
}

/* One item: its text read back is equal to it and encodes to its bytes. */
static int check_item(size_t i, const uint8_t *bytes, size_t n)
{
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    ITEM m, back;
    pbj_text t;
    pbj_text_error e;
    pbj_text_read_options o = {.error = &e};
    int rc = 0;
    pbj_status st = I_(_decode)(&m, bytes, n, &a, NULL);
    if (st != PBJ_OK) {
        fprintf(stderr, "textin: item %zu does not decode: %s\n", i, pbj_status_str(st));
        pbj_arena_free(&a);
        return 1;
    }
    if (!PRINT(I_(_print), &m, &t)) rc = fail(i, "print fails", &t, NULL, PBJ_OK);
    else if ((st = I_(_from_text)(&back, t.data, t.len, &a, &o)) != PBJ_OK) rc = fail(i, "M_from_text fails", &t, &e, st);
    else if (!I_(_equal)(&back, &m)) rc = fail(i, "read back, it is not M_equal to the item", &t, NULL, st);
    else {
        size_t size = I_(_size)(&back), len = 0;
        uint8_t *buf = malloc(size + 1);
        st = I_(_encode)(&back, buf, size, &len);
        if (st != PBJ_OK || len != n || memcmp(buf, bytes, n) != 0) rc = fail(i, "read back, it encodes to other bytes", &t, NULL, st);
        free(buf);
    }
    pbj_text_free(&t);
    pbj_arena_free(&a);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s IN.bin OUT.txt OUT.bin\n", argv[0]);
        return 2;
    }
    wbuf in = {0};
    if (wb_read_file(&in, argv[1]) != 0) {
        perror(argv[1]);
        return 2;
    }
    const uint8_t *p = in.p, *item;
    size_t n, count = 0;
    for (; wb_next_item(&p, in.p + in.n, &item, &n); count++)
        if (check_item(count, item, n)) return 1;
    /* the whole batch: text to OUT.txt, read back and encoded to OUT.bin */
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    BATCH m, back;
    pbj_text t;
    pbj_text_error e;
    pbj_text_read_options o = {.error = &e};
    pbj_status st = B_(_decode)(&m, in.p, in.n, &a, NULL);
    if (st != PBJ_OK || !PRINT(B_(_print), &m, &t)) return fprintf(stderr, "textin: the batch: %s\n", pbj_status_str(st)), 1;
    if ((st = B_(_from_text)(&back, t.data, t.len, &a, &o)) != PBJ_OK || !B_(_equal)(&back, &m))
        return fprintf(stderr, "textin: the batch read back: %s %u:%u: %s\n", pbj_status_str(st), e.line, e.column, e.message), 1;
    size_t size = B_(_size)(&back), len = 0;
    wbuf out = {0};
    wb_reserve(&out, size + 1);
    if (B_(_encode)(&back, out.p, size, &len) != PBJ_OK || len != in.n || memcmp(out.p, in.p, len) != 0)
        return fprintf(stderr, "textin: the batch read back encodes to other bytes\n"), 1;
    out.n = len;
    FILE *f = fopen(argv[2], "wb");
    if (!f || fwrite(t.data, 1, t.len, f) != t.len || fclose(f) != 0 || wb_write_file(&out, argv[3]) != 0) {
        perror(argv[2]);
        return 2;
    }
    printf("textin: %zu items printed, read back equal, to the same bytes\n", count);
    pbj_text_free(&t);
    pbj_arena_free(&a);
    wb_free(&in);
    wb_free(&out);
    return 0;
}
