/* utf8.c: invalid UTF-8 in special.proto's strings: NONE fields (Item.no_check, Inner.s) are read,
 * written, printed, viewed and written by writers as given; a VERIFY field (Item.implicit_str)
 * is refused by decode, views and writers with PBJ_ERR_UTF8.
 *   utf8 write DIR   the two batches, DIR/none.bin and DIR/verify.bin, for buf convert
 *   utf8 check       every API on them */
#include <stdio.h>
#include <string.h>

#include "special.pb.h"

/* Item: no_check = "a\xff\xfeb" (NONE), delimited { s: "\xc0\x80" } (NONE, an overlong NUL), required_int = 1. */
static const uint8_t item_none[] = { 0x52, 4, 'a', 0xff, 0xfe, 'b', 0x5b, 0x12, 2, 0xc0, 0x80, 0x5c, 0x88, 0x01, 1 };
/* Item: implicit_str = "\xff" (VERIFY, the default), required_int = 1. */
static const uint8_t item_verify[] = { 0x12, 1, 0xff, 0x88, 0x01, 1 };

static int failures;

#define EXPECT(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "utf8.c:%d: failed: %s\n", __LINE__, #cond); \
            failures++; \
        } \
    } while (0)

/* A Batch of one item: field 1, its length, the item. */
static size_t batch_of(const uint8_t *item, size_t n, uint8_t *out)
{
    out[0] = 0x0a;
    out[1] = (uint8_t)n;
    memcpy(out + 2, item, n);
    return n + 2;
}

static void check_none(void)
{
    uint8_t in[64], out[64];
    size_t n = batch_of(item_none, sizeof item_none, in), len = 0;
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    parity_special_Batch b;
    EXPECT(parity_special_Batch_decode(&b, in, n, &arena, NULL) == PBJ_OK);
    EXPECT(b.items.count == 1 && b.items.data[0].no_check.len == 4 && memcmp(b.items.data[0].no_check.data, "a\xff\xfe" "b", 4) == 0);
    EXPECT(parity_special_Batch_encode(&b, out, sizeof out, &len) == PBJ_OK && len == n && memcmp(in, out, n) == 0);
    pbj_text text, vtext;
    pbj_text_init(&text);
    pbj_text_init(&vtext);
    EXPECT(parity_special_Batch_print(&b, &text) == PBJ_OK);
    EXPECT(text.data && strstr(text.data, "no_check: \"a\\377\\376b\"") && strstr(text.data, "s: \"\\300\\200\""));
    parity_special_Batch_view v;
    EXPECT(parity_special_Batch_view_init(&v, in, n) == PBJ_OK);
    parity_special_Batch_view_print(&v, &vtext);
    EXPECT(text.data && vtext.data && strcmp(text.data, vtext.data) == 0);
    parity_special_Item_view iv;
    EXPECT(parity_special_Item_view_init(&iv, item_none, sizeof item_none) == PBJ_OK);
    EXPECT(parity_special_Item_view_no_check(&iv).len == 4);
    pbj_text_free(&text);
    pbj_text_free(&vtext);

    pbj_wbuf wb;
    pbj_wbuf_init(&wb, NULL, 0);
    parity_special_Item_writer w;
    EXPECT(parity_special_Item_writer_start(&w, &wb) == PBJ_OK);
    EXPECT(parity_special_Item_writer_no_check(&w, "a\xff\xfe" "b", 4) == PBJ_OK);
    parity_special_Inner_writer *inner = parity_special_Item_writer_delimited(&w);
    EXPECT(inner && parity_special_Inner_writer_s(inner, "\xc0\x80", 2) == PBJ_OK);
    EXPECT(parity_special_Item_writer_required_int(&w, 1) == PBJ_OK);
    EXPECT(parity_special_Item_writer_end(&w) == PBJ_OK);
    EXPECT(wb.len == sizeof item_none && memcmp(wb.data, item_none, wb.len) == 0);
    pbj_wbuf_free(&wb);
    pbj_arena_free(&arena);
}

static void check_verify(void)
{
    uint8_t in[64];
    size_t n = batch_of(item_verify, sizeof item_verify, in);
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    parity_special_Batch b;
    EXPECT(parity_special_Batch_decode(&b, in, n, &arena, NULL) == PBJ_ERR_UTF8);
    parity_special_Batch_view v;
    parity_special_Item_view iv;
    EXPECT(parity_special_Batch_view_init(&v, in, n) == PBJ_OK);           /* an item is scanned when its view is made */
    EXPECT(parity_special_Item_view_init(&iv, item_verify, sizeof item_verify) == PBJ_ERR_UTF8);
    pbj_wbuf wb;
    pbj_wbuf_init(&wb, NULL, 0);
    parity_special_Item_writer w;
    EXPECT(parity_special_Item_writer_start(&w, &wb) == PBJ_OK);
    EXPECT(parity_special_Item_writer_implicit_str(&w, "\xff", 1) == PBJ_ERR_UTF8);
    EXPECT(parity_special_Item_writer_implicit_str(&w, "ok", 2) == PBJ_OK);    /* not sticky */
    pbj_wbuf_free(&wb);
    pbj_arena_free(&arena);
}

static int write_file(const char *dir, const char *name, const uint8_t *item, size_t n)
{
    uint8_t batch[64];
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    size_t len = batch_of(item, n, batch);
    int ok = f && fwrite(batch, 1, len, f) == len;
    if (f) ok &= fclose(f) == 0;
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "write") == 0)
        return write_file(argv[2], "none.bin", item_none, sizeof item_none) |
               write_file(argv[2], "verify.bin", item_verify, sizeof item_verify);
    if (argc != 2 || strcmp(argv[1], "check") != 0) {
        fprintf(stderr, "usage: utf8 write DIR | utf8 check\n");
        return 2;
    }
    check_none();
    check_verify();
    if (failures == 0) printf("editions utf8: decode, encode, print, views and writers keep NONE strings, refuse VERIFY ones\n");
    return failures != 0;
}
