/* open_ext.c: the extensions of an open enum (edition 2023) keep every value, inside the enum or not, as protobuf's do. */
#include "open_ext.pb.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    /* id: 1, shade: 99, shades: [LIGHT, 99] (packed, the edition's default) */
    static const uint8_t in[] = {0x08, 0x01, 0xa0, 0x06, 0x63, 0xaa, 0x06, 0x02, 0x01, 0x63};
    uint8_t out[sizeof in];
    size_t len = 0;
    pbj_arena arena;
    openx_Host m;
    pbj_arena_init(&arena, NULL, 0);
    int bad = openx_Host_decode(&m, in, sizeof in, &arena, NULL) != PBJ_OK;
    bad |= !openx_shade_has(&m) || openx_shade_get(&m) != 99;
    bad |= openx_shades_count(&m) != 2 || openx_shades_at(&m, 0) != openx_Shade_LIGHT || openx_shades_at(&m, 1) != 99;
    bad |= m.pbj_unknown != NULL;                          /* none of them an unknown field */
    bad |= openx_Host_encode(&m, out, sizeof out, &len) != PBJ_OK || len != sizeof in || memcmp(out, in, len) != 0;
    pbj_arena_free(&arena);
    if (bad) fprintf(stderr, "open_ext: an open enum extension's value outside the enum was not kept as a value\n");
    return bad;
}
