/* test/json/utf8.c: M_to_json never writes a string that is not UTF-8 (a proto2 string holds any bytes, issue 26):
 * PBJ_ERR_UTF8 by default, U+FFFD for each such byte with opts.utf8_replace (whose output M_from_json reads back);
 * valid multi-byte text is written as it is. */
#include <stdio.h>
#include <string.h>

#include "proto2.pb.h"

#define EXPECT_NAME "json utf8"
#include "../expect.h"

/* The Item the bytes hold, as JSON with utf8_replace set or not: the status, the text in out (when it fits). */
static pbj_status to_json(const uint8_t *bytes, size_t n, bool replace, char *out, size_t cap)
{
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    parity_proto2_Item m;
    pbj_status st = parity_proto2_Item_decode(&m, bytes, n, &a, NULL);
    EXPECT(st == PBJ_OK, "decode: %s", pbj_status_str(st));
    pbj_text t;
    pbj_text_init(&t);
    pbj_json_options o = {0};
    o.utf8_replace = replace;
    st = parity_proto2_Item_to_json(&m, &t, &o);
    snprintf(out, cap, "%.*s", (int)t.len, t.data ? t.data : "");
    pbj_text_free(&t);
    pbj_arena_free(&a);
    return st;
}

/* The JSON reads back (it is valid UTF-8). */
static void reads_back(const char *json)
{
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    parity_proto2_Item m;
    pbj_status st = parity_proto2_Item_from_json(&m, json, strlen(json), &a, NULL);
    EXPECT(st == PBJ_OK, "%s does not read back: %s", json, pbj_status_str(st));
    pbj_arena_free(&a);
}

int main(void)
{
    char out[256];
    /* id = "x"; o_string = ff fe */
    static const uint8_t bad[] = {0x8a, 0x01, 0x01, 'x', 0x4a, 0x02, 0xff, 0xfe};
    EXPECT(to_json(bad, sizeof bad, false, out, sizeof out) == PBJ_ERR_UTF8, "ff fe: not PBJ_ERR_UTF8: %s", out);
    EXPECT(to_json(bad, sizeof bad, true, out, sizeof out) == PBJ_OK, "ff fe replaced: not OK");
    EXPECT(strstr(out, "\"oString\":\"\xef\xbf\xbd\xef\xbf\xbd\"") != NULL, "ff fe replaced: %s", out);
    reads_back(out);
    /* "a", a cut 2-byte sequence, "b", an encoded surrogate (ed a0 80), a valid e-acute and a 4-byte character */
    static const uint8_t mixed[] = {0x8a, 0x01, 0x01, 'x', 0x4a, 0x0d, 'a', 0xc3, 'b', 0xed, 0xa0, 0x80,
                                    0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80, '"'};
    EXPECT(to_json(mixed, sizeof mixed, false, out, sizeof out) == PBJ_ERR_UTF8, "mixed: not PBJ_ERR_UTF8: %s", out);
    EXPECT(to_json(mixed, sizeof mixed, true, out, sizeof out) == PBJ_OK, "mixed replaced: not OK");
    EXPECT(strstr(out, "\"oString\":\"a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9\xf0\x9f\x98\x80\\\"\"") != NULL,
           "mixed replaced: %s", out);
    reads_back(out);
    /* valid text: written as it is, with or without the option */
    static const uint8_t good[] = {0x8a, 0x01, 0x01, 'x', 0x4a, 0x06, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80};
    EXPECT(to_json(good, sizeof good, false, out, sizeof out) == PBJ_OK, "valid: not OK");
    EXPECT(strstr(out, "\"oString\":\"\xc3\xa9\xf0\x9f\x98\x80\"") != NULL, "valid: %s", out);
    /* a repeated string's element and a map's key */
    static const uint8_t in_list[] = {0x8a, 0x01, 0x01, 'x', 0xc2, 0x01, 0x01, 'a', 0xc2, 0x01, 0x01, 0x80};
    EXPECT(to_json(in_list, sizeof in_list, false, out, sizeof out) == PBJ_ERR_UTF8, "r_string: not PBJ_ERR_UTF8: %s", out);
    static const uint8_t in_key[] = {0x8a, 0x01, 0x01, 'x', 0x82, 0x02, 0x08, 0x0a, 0x01, 0xfe, 0x12, 0x03, 0x8a, 0x01, 0x00};
    EXPECT(to_json(in_key, sizeof in_key, false, out, sizeof out) == PBJ_ERR_UTF8, "map key: not PBJ_ERR_UTF8: %s", out);
    EXPECT(to_json(in_key, sizeof in_key, true, out, sizeof out) == PBJ_OK && strstr(out, "\"\xef\xbf\xbd\":") != NULL,
           "map key replaced: %s", out);
    if (expect_failures) return 1;
    printf("json utf8: strings that are not UTF-8 refused (PBJ_ERR_UTF8) or written with U+FFFD, valid ones as they are\n");
    return 0;
}
