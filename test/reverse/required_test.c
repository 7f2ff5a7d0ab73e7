/* required_test.c: M_write_reverse refuses a message missing a required field as M_encode does (PBJ_ERR_REQUIRED,
 * nothing written, the buffer as it was), also when the field is in a sub-message without a reverse encoder. */
#include "batches.pb.h"

#include <stdio.h>

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c); failures++; } } while (0)

int main(void)
{
    rev_Slow slow;
    rev_Slow_init(&slow);
    slow.has_a = 1;
    slow.a = 300;                                 /* r, required, not set */
    rev_Mixed m;
    rev_Mixed_init(&m);
    m.one = &slow;
    m.has_last = 1;
    m.last = 7;

    uint8_t buf[256], block[4];
    size_t len = 99;
    pbj_rbuf out;
    pbj_rbuf_init(&out, block, sizeof block);
    CHECK(rev_Mixed_encode(&m, buf, sizeof buf, &len) == PBJ_ERR_REQUIRED && len == 0);
    CHECK(rev_Mixed_write_reverse(&m, &out) == PBJ_ERR_REQUIRED && pbj_rbuf_len(&out) == 0 && !out.owned);

    slow.has_r = 1;                               /* now complete: the same bytes */
    CHECK(rev_Mixed_encode(&m, buf, sizeof buf, &len) == PBJ_OK);
    CHECK(rev_Mixed_write_reverse(&m, &out) == PBJ_OK && pbj_rbuf_len(&out) == len);
    CHECK(memcmp(pbj_rbuf_data(&out), buf, len) == 0);

    slow.has_r = 0;                               /* refused again: what out holds stays */
    CHECK(rev_Mixed_write_reverse(&m, &out) == PBJ_ERR_REQUIRED && pbj_rbuf_len(&out) == len);
    CHECK(memcmp(pbj_rbuf_data(&out), buf, len) == 0);
    pbj_rbuf_free(&out);
    if (!failures) printf("required: write_reverse refuses as encode does, out unchanged\n");
    return failures != 0;
}
