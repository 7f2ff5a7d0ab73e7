/* order_demo.c: build an order, encode it, decode it into an arena, print it. */
#include <stdio.h>
#include <stdlib.h>

#include "shop/order.pb.h"

/* Report a failed pbj call and stop. */
static void check(pbj_status s, const char *what)
{
    if (s != PBJ_OK) {
        fprintf(stderr, "order_demo: %s: %s\n", what, pbj_status_str(s));
        exit(1);
    }
}

/* order_demo [FILE]: with FILE, also write the encoded order there. */
int main(int argc, char **argv)
{
    /* Build: a message is a plain struct; init zeroes it. */
    shop_Money price = {.currency = PBJ_STR("EUR"), .units = 1250};
    shop_LineItem items[2];
    shop_LineItem_init(&items[0]);
    shop_LineItem_init(&items[1]);
    items[0].sku = PBJ_STR("TEA-GREEN-100G");
    items[0].quantity = 2;
    items[0].unit_price = &price;
    items[1].sku = PBJ_STR("MUG-WHITE");
    items[1].quantity = 1;

    shop_Timestamp placed = {.seconds = 1764500000, .nanos = 250000000};
    shop_Order_NotesEntry notes[] = {
        {.key = PBJ_STR("gift"), .value = PBJ_STR("yes")},
        {.key = PBJ_STR("wrap"), .value = PBJ_STR("blue paper")},
    };   /* map entries: sorted by key */

    shop_Order order;
    shop_Order_init(&order);
    order.id = 90017;
    order.customer = PBJ_STR("Ada Lovelace");
    order.status = shop_Status_STATUS_PAID;
    order.items.data = items;
    order.items.count = 2;
    order.placed_at = &placed;
    order.notes.data = notes;
    order.notes.count = 2;
    order.delivery_case = shop_Order_delivery_pickup_store;
    order.delivery.pickup_store = PBJ_STR("Berlin Mitte");
    order.has_coupon = true;
    order.coupon = PBJ_STR("WELCOME10");

    /* Encode: size first, then write into a buffer of that size. */
    size_t need = shop_Order_size(&order), len = 0;
    uint8_t *wire = malloc(need);
    if (!wire)
        return 1;
    check(shop_Order_encode(&order, wire, need, &len), "encode");
    printf("encoded %zu bytes\n", len);
    if (argc > 1) {
        FILE *out = fopen(argv[1], "wb");
        if (!out || fwrite(wire, 1, len, out) != len || fclose(out) != 0) {
            perror(argv[1]);
            return 1;
        }
    }

    /* Decode into an arena: everything the message holds lives there. */
    uint8_t first_block[1024];
    pbj_arena arena;
    pbj_arena_init(&arena, first_block, sizeof first_block);
    shop_Order back;
    check(shop_Order_decode(&back, wire, len, &arena, NULL), "decode");
    printf("decoded equal to the original: %s\n", shop_Order_equal(&order, &back) ? "yes" : "no");

    /* Print as text format, as protoc --decode would. */
    pbj_text text;
    pbj_text_init(&text);
    shop_Order_print(&back, &text);
    fputs(text.data, stdout);

    pbj_text_free(&text);
    pbj_arena_free(&arena);   /* frees every decoded string, item and entry at once */
    free(wire);
    return shop_Order_equal(&order, &back) ? 0 : 1;
}
