/* main.c: the shop sample as a microcontroller program: no malloc (the arena has a static block and
 * PBJ_MALLOC fails), no text, no stdio: encode, read back as a stream record, compare. */
#include "shop/order.pb.h"

static uint8_t arena_block[2048];
static uint8_t out[256];

int main(void)
{
    shop_Order order;
    shop_LineItem item;
    shop_Order_init(&order);
    shop_LineItem_init(&item);
    order.id = 90017;
    order.customer = PBJ_STR("Ada Lovelace");
    item.sku = PBJ_STR("PEN-1");
    item.quantity = 2;
    order.items.data = &item;
    order.items.count = 1;
    size_t len;
    uint8_t *body = pbj_put_varint(out, shop_Order_size(&order));   /* one length-delimited record */
    if (shop_Order_encode(&order, body, sizeof out - (size_t)(body - out), &len) != PBJ_OK) return 1;
    pbj_arena arena;
    pbj_arena_init(&arena, arena_block, sizeof arena_block);
    pbj_source in;
    pbj_source_memory(&in, out, (size_t)(body - out) + len);
    shop_Order back;
    if (shop_Order_read_delimited(&back, &in, &arena, NULL) != PBJ_OK) return 2;
    shop_Order copy;
    if (shop_Order_copy(&copy, &back, &arena) != PBJ_OK) return 3;
    return shop_Order_equal(&order, &copy) && !pbj_source_more(&in) ? 0 : 4;
}
