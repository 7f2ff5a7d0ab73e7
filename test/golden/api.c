/* api.c: the names a generated header gives users, used as a user would: the array type of a
 * repeated field declared on its own, and field-number macros checked against the encoded tags. */
#include <stdio.h>
#include <string.h>

#include "shop/order.pb.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "api.c:%d: FAIL %s\n", __LINE__, #c); return 1; } } while (0)

_Static_assert(shop_Order_id_tag == 1 && shop_Order_items_tag == 4 && shop_Order_coupon_tag == 9, "field numbers");
_Static_assert(shop_LineItem_quantity_tag == 2, "field numbers");

/* A caller's own variable of the items' type, assigned to the struct member. */
static shop_Order_items_array two_items(shop_LineItem *storage)
{
    shop_Order_items_array items = {storage, 2};
    for (size_t i = 0; i < items.count; i++) {
        shop_LineItem_init(&items.data[i]);
        items.data[i].quantity = (uint32_t)(i + 1);
    }
    return items;
}

int main(void)
{
    shop_LineItem storage[2];
    shop_Order order;
    shop_Order_init(&order);
    order.id = 7;
    order.items = two_items(storage);
    uint8_t buf[64];
    size_t len;
    CHECK(shop_Order_encode(&order, buf, sizeof buf, &len) == PBJ_OK);
    CHECK(buf[0] == PBJ_TAG(shop_Order_id_tag, PBJ_WT_VARINT));
    CHECK(buf[2] == PBJ_TAG(shop_Order_items_tag, PBJ_WT_LEN));
    CHECK(buf[4] == PBJ_TAG(shop_LineItem_quantity_tag, PBJ_WT_VARINT) && buf[5] == 1);
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    shop_Order back;
    CHECK(shop_Order_decode(&back, buf, len, &arena, NULL) == PBJ_OK);
    shop_Order_items_array got = back.items;
    CHECK(got.count == 2 && got.data[1].quantity == 2);
    CHECK(shop_Order_equal(&order, &back));
    pbj_arena_free(&arena);
    puts("golden: api: array types and field-number macros work as a user writes them");
    return 0;
}
