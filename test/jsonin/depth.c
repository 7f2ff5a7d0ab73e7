/* depth.c: one depth rule for every reader (issue 26): JSON (argv[1] "json") or text ("text") input nested around
 * max_depth in every shape that counts levels (messages, repeated messages, map entries, Value, ListValue, Struct)
 * is accepted exactly when the binary decoder accepts the same message at the same max_depth, and at the levels
 * binary decode counts (protobuf's C++: 100 inside the top-level message by default). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nesting.pb.h"
#include "wkt.pb.h"

static int failures;

/* One type for max_depth in every reader's options: binary decode's, the text format's and JSON's. */
#define IS_U32(x) _Generic((x), uint32_t: 1, default: 0)
_Static_assert(IS_U32(((pbj_decode_options *)0)->max_depth) && IS_U32(((pbj_text_read_options *)0)->max_depth) &&
                   IS_U32(((pbj_json_options *)0)->max_depth),
               "max_depth has decode's type, uint32_t, in every reader's options");

/* Text built by repeating open n times around a middle, then close n times. */
static char *nest(const char *before, const char *open, int n, const char *middle, const char *close, const char *after)
{
    size_t len = strlen(before) + (strlen(open) + strlen(close)) * (size_t)n + strlen(middle) + strlen(after) + 1;
    char *s = malloc(len), *p = s;
    p += sprintf(p, "%s", before);
    for (int i = 0; i < n; i++) p += sprintf(p, "%s", open);
    p += sprintf(p, "%s", middle);
    for (int i = 0; i < n; i++) p += sprintf(p, "%s", close);
    sprintf(p, "%s", after);
    return s;
}

/* The operations on one top-level type: read (JSON or text) with a max_depth, encode, decode. */
typedef struct shape {
    const char *name;
    const char *before, *open, *middle, *close, *after;
    int per_step, extra;          /* the deepest level: per_step * n + extra */
    size_t size;
    void (*init)(void *m);
    pbj_status (*read)(void *m, const char *s, size_t len, pbj_arena *a, uint32_t max_depth);
    pbj_status (*encode)(const void *m, uint8_t *buf, size_t cap, size_t *len);
    pbj_status (*decode)(void *m, const uint8_t *buf, size_t len, pbj_arena *a, const pbj_decode_options *o);
} shape;

#define READERS(T)                                                                                                   \
    static pbj_status T##_json(void *m, const char *s, size_t len, pbj_arena *a, uint32_t max_depth)                 \
    {                                                                                                                \
        pbj_json_options o = {0};                                                                                    \
        o.max_depth = max_depth;                                                                                     \
        return T##_from_json((T *)m, s, len, a, &o);                                                                 \
    }                                                                                                                \
    static pbj_status T##_text(void *m, const char *s, size_t len, pbj_arena *a, uint32_t max_depth)                 \
    {                                                                                                                \
        pbj_text_read_options o = {0};                                                                               \
        o.max_depth = max_depth;                                                                                     \
        return T##_from_text((T *)m, s, len, a, &o);                                                                 \
    }                                                                                                                \
    static void T##_init_v(void *m) { T##_init((T *)m); }                                                            \
    static pbj_status T##_encode_v(const void *m, uint8_t *buf, size_t cap, size_t *len) { return T##_encode((const T *)m, buf, cap, len); } \
    static pbj_status T##_decode_v(void *m, const uint8_t *buf, size_t len, pbj_arena *a, const pbj_decode_options *o) \
    {                                                                                                                \
        return T##_decode((T *)m, buf, len, a, o);                                                                   \
    }
READERS(parity_nesting_Tree)
READERS(parity_nesting_Forest)
READERS(parity_wkt_Known)

#define OPS(T, json) sizeof(T), T##_init_v, json ? T##_json : T##_text, T##_encode_v, T##_decode_v

/* Binary decode's verdict on the message s holds (read with no practical limit) at max_depth. */
static pbj_status binary_verdict(const shape *sh, const char *s, uint32_t max_depth)
{
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    void *m = malloc(sh->size), *back = malloc(sh->size);
    pbj_status st = sh->read(m, s, strlen(s), &a, PBJ_MAX_DEPTH_CAP);
    size_t len = 0;
    uint8_t *buf = NULL;
    if (st == PBJ_OK) {
        buf = malloc(1 << 16);
        st = sh->encode(m, buf, 1 << 16, &len);
    }
    if (st != PBJ_OK) {
        fprintf(stderr, "FAIL depth: %s: no binary to compare (%s)\n", sh->name, pbj_status_str(st));
        failures++;
    } else {
        pbj_decode_options o = {0};
        o.max_depth = max_depth;
        st = sh->decode(back, buf, len, &a, &o);
    }
    free(buf);
    free(m);
    free(back);
    pbj_arena_free(&a);
    return st;
}

/* n steps of sh around the limit: the reader's verdict is binary decode's, and OK exactly when the deepest level
 * is within max_depth (0: the default, 100). */
static void check(const shape *sh, int n, uint32_t max_depth)
{
    char *s = nest(sh->before, sh->open, n, sh->middle, sh->close, sh->after);
    int deepest = sh->per_step * n + sh->extra;
    uint32_t limit = max_depth ? max_depth : PBJ_DEFAULT_MAX_DEPTH;
    pbj_status want = (uint32_t)deepest <= limit ? PBJ_OK : PBJ_ERR_DEPTH;
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    void *m = malloc(sh->size);
    pbj_status got = sh->read(m, s, strlen(s), &a, max_depth), bin = binary_verdict(sh, s, max_depth);
    if (got != want || bin != want) {
        fprintf(stderr, "FAIL depth: %s, %d steps (level %d), max_depth %u: read %s, binary %s, want %s\n", sh->name, n,
                deepest, (unsigned)limit, pbj_status_str(got), pbj_status_str(bin), pbj_status_str(want));
        failures++;
    }
    free(m);
    pbj_arena_free(&a);
    free(s);
}

int main(int argc, char **argv)
{
    bool json = argc > 1 && strcmp(argv[1], "json") == 0;
    const shape json_shapes[] = {
        {"Tree.left", "", "{\"left\":", "{}", "}", "", 1, 0, OPS(parity_nesting_Tree, 1)},
        {"Tree.children", "", "{\"children\":[", "{}", "]}", "", 1, 0, OPS(parity_nesting_Tree, 1)},
        {"Forest.named", "", "{\"named\":{\"k\":{\"forest\":", "{}", "}}}", "", 3, 0, OPS(parity_nesting_Forest, 1)},
        {"Known.value lists", "{\"value\":", "[", "", "]", "}", 2, 0, OPS(parity_wkt_Known, 1)},
        {"Known.value lists of a number", "{\"value\":", "[", "1", "]", "}", 2, 1, OPS(parity_wkt_Known, 1)},
        {"Known.value structs", "{\"value\":", "{\"a\":", "true", "}", "}", 3, 1, OPS(parity_wkt_Known, 1)},
        {"Known.list", "{\"list\":", "[", "", "]", "}", 2, -1, OPS(parity_wkt_Known, 1)},
        {"Known.structs", "{\"structs\":{\"k\":", "{\"a\":", "\"x\"", "}", "}}", 3, 1, OPS(parity_wkt_Known, 1)},
    };
    const shape text_shapes[] = {
        {"Tree.left", "", "left {", "", "}", "", 1, 0, OPS(parity_nesting_Tree, 0)},
        {"Tree.children", "", "children {", "", "}", "", 1, 0, OPS(parity_nesting_Tree, 0)},
        {"Forest.named", "", "named { key: \"k\" value { forest { ", "", "} } }", "", 3, 0, OPS(parity_nesting_Forest, 0)},
        {"Known.value lists", "value { ", "list_value { values { ", "", "} } ", "}", 2, 1, OPS(parity_wkt_Known, 0)},
    };
    const shape *shapes = json ? json_shapes : text_shapes;
    size_t count = json ? sizeof json_shapes / sizeof *json_shapes : sizeof text_shapes / sizeof *text_shapes;
    for (size_t i = 0; i < count; i++) {
        const shape *sh = &shapes[i];
        for (uint32_t limit = 0; limit <= 10; limit += 10) {                 /* the default, and max_depth 10 */
            int at = ((int)(limit ? limit : PBJ_DEFAULT_MAX_DEPTH) - sh->extra) / sh->per_step;   /* the last n within it */
            for (int n = at - 2; n <= at + 2; n++)
                if (n >= 0) check(sh, n, limit);
        }
        check(sh, (150 - sh->extra) / sh->per_step, UINT32_MAX);         /* clamped to the cap, not wrapped */
    }
    if (failures) return 1;
    printf("depth: %s input accepted exactly where binary decode accepts the same message (%zu shapes, at max_depth 100, 10 and UINT32_MAX, clamped)\n",
           json ? "JSON" : "text", count);
    return 0;
}
