/* multi_include.c: pbj.h and pbj_view.h included several times in one unit, built as C11 and as C++. */
#include <pbj.h>
#include <pbj.h>
#include "pbj.h"
#include <pbj_view.h>
#include "pbj_view.h"
#include "pbj_writer.h"
#include <pbj_writer.h>
#include <stdio.h>

int main(void)
{
    uint8_t buf[16];
    uint64_t v = 0;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    uint8_t *e = pbj_put_varint(buf, 300);
    const uint8_t *r = pbj_get_varint(buf, e, &v);
    void *m = pbj_arena_alloc(&a, 100);
    static pbj_wbuf wb;
    pbj_wbuf_init(&wb, buf, sizeof buf);
    int ok = r == e && v == 300 && m != NULL && pbj_utf8_valid(buf, 0) && pbj_wbuf_len(&wb) == 0;
    const uint8_t msg[] = {0x08, 0x96, 0x01, 0x0a, 0x01, 0x07};   /* 1: 150, then packed [7] */
    pbj_view view = {msg, sizeof msg, msg + sizeof msg, 0};                                /* depth 0: a top-level view */
    pbj_view_slot slot = {0, 0, 2};                                 /* two records from the start */
    pbj_view_iter it = pbj_view_items(&view, &slot, PBJ_TAG(1, PBJ_WT_VARINT), PBJ_TAG(1, PBJ_WT_LEN));
    ok = ok && pbj_view_next_value(&it, &v) && v == 150 && pbj_view_next_value(&it, &v) && v == 7 && !pbj_view_next_value(&it, &v);
    pbj_arena_free(&a);
    printf("%s\n", ok ? "ok" : pbj_status_str(PBJ_ERR_VARINT));
    return ok ? 0 : 1;
}
