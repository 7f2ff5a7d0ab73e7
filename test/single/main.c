/* main.c: the shop sample through every part of the runtime (valid C and C++), for the single-definition
 * mode's test: build, encode, decode, copy, merge, text, JSON, a stream, a view and a writer, each
 * checked against the original; prints the text and JSON forms (the same in every build). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shop/order.pb.h"

static int failures;

static void expect(bool ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

static void build(shop_Order *o, pbj_arena *arena)
{
    shop_Order_init(o);
    o->id = 90017;
    expect(shop_Order_set_customer(o, "Ada Lovelace", 12, arena) == PBJ_OK, "set customer");
    o->status = shop_Status_STATUS_PAID;
    shop_LineItem item;
    shop_LineItem_init(&item);
    shop_Money *price = shop_LineItem_mutable_unit_price(&item, arena);
    expect(price != NULL, "allocate");
    if (!price) return;
    item.sku = pbj_slice_cstr("TEA-GREEN-100G");
    item.quantity = 2;
    price->currency = pbj_slice_cstr("EUR");
    price->units = 1250;
    expect(shop_Order_add_items(o, &item, arena) == PBJ_OK, "add items");   /* a deep copy */
    shop_Timestamp *placed = shop_Order_mutable_placed_at(o, arena);
    if (placed) placed->seconds = 1764500000, placed->nanos = 250000000;
    expect(shop_Order_put_notes(o, pbj_slice_cstr("wrap"), pbj_slice_cstr("blue paper"), arena) == PBJ_OK, "put notes");
    expect(shop_Order_put_notes(o, pbj_slice_cstr("gift"), pbj_slice_cstr("yes"), arena) == PBJ_OK, "put notes");
    expect(shop_Order_set_pickup_store(o, "Berlin Mitte", 12, arena) == PBJ_OK, "set pickup_store");
    expect(shop_Order_set_coupon(o, "WELCOME10", 9, arena) == PBJ_OK, "set coupon");
}

/* The bytes of o through the writer (shop_Order_writer_from): what encode writes. */
static void check_writer(const shop_Order *o, const uint8_t *wire, size_t len)
{
    pbj_wbuf buf;
    shop_Order_writer w;
    pbj_wbuf_init(&buf, NULL, 0);
    bool ok = shop_Order_writer_start(&w, &buf) == PBJ_OK && shop_Order_writer_from(&w, o) == PBJ_OK &&
              shop_Order_writer_end(&w) == PBJ_OK;
    expect(ok && pbj_wbuf_len(&buf) == len && memcmp(pbj_wbuf_data(&buf), wire, len) == 0, "writer bytes");
    pbj_wbuf_free(&buf);
}

/* A view of the bytes reads the fields back without decoding. */
static void check_view(const shop_Order *o, const uint8_t *wire, size_t len)
{
    shop_Order_view v;
    expect(shop_Order_view_init(&v, wire, len) == PBJ_OK, "view init");
    expect(shop_Order_view_id(&v) == o->id && pbj_slice_eq(shop_Order_view_customer(&v), o->customer), "view fields");
    pbj_view_iter it = shop_Order_view_items(&v);
    shop_LineItem_view item;
    size_t n = 0;
    while (shop_Order_view_items_next(&it, &item)) n += shop_LineItem_view_quantity(&item);
    expect(n == 2, "view items");
}

/* Two records through a memory stream, read back one at a time. */
static void check_stream(const shop_Order *o, pbj_arena *arena)
{
    pbj_sink out;
    pbj_sink_memory(&out);
    expect(shop_Order_write_delimited(o, &out) == PBJ_OK && shop_Order_write_delimited(o, &out) == PBJ_OK, "write_delimited");
    pbj_source in;
    pbj_source_memory(&in, out.buf.data, out.buf.len);
    int n = 0;
    while (pbj_source_more(&in)) {
        shop_Order back;
        expect(shop_Order_read_delimited(&back, &in, arena, NULL) == PBJ_OK && shop_Order_equal(o, &back), "read_delimited");
        n++;
    }
    expect(n == 2 && in.status == PBJ_OK, "stream records");
    pbj_source_free(&in);
    pbj_sink_free(&out);
}

/* Text and JSON: printed, then read back equal. */
static void check_text_json(const shop_Order *o, pbj_arena *arena)
{
    pbj_text text, json;
    shop_Order back;
    pbj_text_init(&text);
    pbj_text_init(&json);
    expect(shop_Order_print(o, &text) == PBJ_OK, "print");
    expect(shop_Order_to_json(o, &json, NULL) == PBJ_OK, "to_json");
    fputs(text.data, stdout);
    printf("%s\n", json.data);
    expect(shop_Order_from_text(&back, text.data, text.len, arena, NULL) == PBJ_OK && shop_Order_equal(o, &back), "from_text");
    expect(shop_Order_from_json(&back, json.data, json.len, arena, NULL) == PBJ_OK && shop_Order_equal(o, &back), "from_json");
    pbj_text_free(&text);
    pbj_text_free(&json);
}

int main(void)
{
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    shop_Order o, back, copy;
    build(&o, &arena);
    size_t cap = shop_Order_size(&o), len = 0;
    uint8_t *wire = (uint8_t *)malloc(cap);
    expect(wire && shop_Order_encode(&o, wire, cap, &len) == PBJ_OK, "encode");
    if (!wire) return 1;
    expect(shop_Order_decode(&back, wire, len, &arena, NULL) == PBJ_OK && shop_Order_equal(&o, &back), "decode");
    expect(shop_Order_copy(&copy, &back, &arena) == PBJ_OK && shop_Order_equal(&o, &copy), "copy");
    expect(shop_Order_merge(&copy, &back, &arena) == PBJ_OK && copy.items.count == 2 && copy.notes.count == 2, "merge");
    check_writer(&o, wire, len);
    check_view(&o, wire, len);
    check_stream(&o, &arena);
    check_text_json(&o, &arena);
    printf("%zu bytes; %s\n", len, failures ? "FAILED" : "round trips equal");
    free(wire);
    pbj_arena_free(&arena);
    return failures != 0;
}
