/* stack_test.c: every recursive operation of protobuf's TestAllTypesProto3 (chained through recursive_message) at its
 * depth bound, in a thread with an 8 MiB stack, at -O0 with ASan and UBSan (the largest frames), and one level past
 * it, where it must return its status: the readers (decode, from_json, from_text) at max_depth, print and to_json at
 * their max_depth, and the walks (size+encode, write_reverse, writer_from, copy, merge, sort_maps, equal) at
 * PBJ_MAX_ENCODE_DEPTH; their bounds must agree (one depth rule). Prints each one's stack per level. */
#include "google/protobuf/test_messages_proto3.pb.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define READ_LEVELS PBJ_DEFAULT_MAX_DEPTH            /* levels below the top one the readers accept by default */
#define WALK_LEVELS (PBJ_MAX_ENCODE_DEPTH - 1)       /* the same for the walks (PBJ_MAX_ENCODE_DEPTH counts the top) */
#define MOST_LEVELS (READ_LEVELS > WALK_LEVELS ? READ_LEVELS : WALK_LEVELS)
#define STACK ((size_t)8 << 20)
#define FILL 0xa5

typedef protobuf_test_messages_proto3_TestAllTypesProto3 T;
#define T_(fn) protobuf_test_messages_proto3_TestAllTypesProto3_##fn

static T chain[MOST_LEVELS + 2], other[MOST_LEVELS + 2];
static uint8_t wire[(MOST_LEVELS + 2) * 12];
static size_t wire_len;
static char *json, *text;
static size_t levels;                          /* the chains' levels below chain[0] (and other[0]) in this run */
static int failures;

#define EXPECT(cond, ...)                                    \
    do {                                                     \
        if (!(cond)) {                                       \
            fprintf(stderr, "FAIL stack_test: " __VA_ARGS__); \
            fprintf(stderr, "\n");                           \
            failures++;                                      \
        }                                                    \
    } while (0)

/* v as a varint just before p: where it starts */
static uint8_t *prepend_varint(uint8_t *p, size_t v) {
    uint8_t b[10];
    size_t k = 0;
    do b[k++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0)); while ((v >>= 7) != 0);
    p -= k;
    memcpy(p, b, k);
    return p;
}

/* chain (and other, equal to it) n levels deep: message i holds i + 1 and i + 1 below it; the bytes, JSON and
 * text of chain built by hand (encode refuses the deepest) */
static void build(size_t n) {
    for (size_t i = 0; i <= n; i++) {
        T *c[2] = {&chain[i], &other[i]};
        for (int k = 0; k < 2; k++) {
            T_(init)(c[k]);
            c[k]->optional_int32 = (int32_t)i + 1;
            if (i < n) c[k]->recursive_message = c[k] + 1;
        }
    }
    uint8_t *end = wire + sizeof wire, *p = end;        /* back to front: the innermost first */
    for (size_t i = n + 1; i-- > 0;) {
        if (i < n) {
            p = prepend_varint(p, (size_t)(end - p));
            *--p = 0x01, *--p = 0xda;                   /* recursive_message = 27, length-delimited */
        }
        p = prepend_varint(p, i + 1);
        *--p = 0x08;                                    /* optional_int32 = 1 */
    }
    wire_len = (size_t)(end - p);
    memmove(wire, p, wire_len);
    size_t jcap = (n + 1) * 64;
    json = realloc(json, jcap), text = realloc(text, jcap);
    size_t jl = 0, tl = 0;
    for (size_t i = 0; i <= n; i++) {
        jl += (size_t)snprintf(json + jl, jcap - jl, "{\"optionalInt32\":%zu%s", i + 1, i < n ? ",\"recursiveMessage\":" : "");
        tl += (size_t)snprintf(text + tl, jcap - tl, "optional_int32: %zu%s", i + 1, i < n ? " recursive_message { " : "");
    }
    for (size_t i = 0; i <= n; i++) {
        jl += (size_t)snprintf(json + jl, jcap - jl, "}");
        if (i < n) tl += (size_t)snprintf(text + tl, jcap - tl, " }");
    }
    levels = n;
}

/* What an operation gets here when it succeeds but its result differs from the chain (a stand-in status). */
#define DIFFERS PBJ_ERR_SIZE

/* The ways of making a message from the chain: its bytes, JSON or text read, or the chain copied or merged. */
static pbj_status read_wire(T *m, pbj_arena *a) { return T_(decode)(m, wire, wire_len, a, NULL); }
static pbj_status read_json(T *m, pbj_arena *a) { return T_(from_json)(m, json, strlen(json), a, NULL); }
static pbj_status read_text(T *m, pbj_arena *a) { return T_(from_text)(m, text, strlen(text), a, NULL); }
static pbj_status make_copy(T *m, pbj_arena *a) { return T_(copy)(m, &chain[0], a); }
static pbj_status make_merge(T *m, pbj_arena *a) {
    T_(init)(m);
    return T_(merge)(m, &chain[0], a);
}

/* make's status, DIFFERS when it made a message unequal to the chain (equal bounds itself: n <= its bound) */
static pbj_status made_equal(pbj_status (*make)(T *, pbj_arena *)) {
    pbj_arena a;
    T m;
    pbj_arena_init(&a, NULL, 0);
    pbj_status st = make(&m, &a);
    if (st == PBJ_OK && !T_(equal)(&m, &chain[0])) st = DIFFERS;
    pbj_arena_free(&a);
    return st;
}

/* The operations, each run alone in a fresh thread on the chain as built: PBJ_OK, or the status it gave. */
static pbj_status op_decode(void) { return made_equal(read_wire); }
static pbj_status op_from_json(void) { return made_equal(read_json); }
static pbj_status op_from_text(void) { return made_equal(read_text); }
static pbj_status op_copy(void) { return made_equal(make_copy); }
static pbj_status op_merge(void) { return made_equal(make_merge); }

static pbj_status op_print(void) {
    pbj_text t;
    pbj_text_init(&t);
    pbj_status st = T_(print)(&chain[0], &t);
    pbj_text_free(&t);
    return st;
}

static pbj_status op_to_json(void) {
    pbj_text t;
    pbj_text_init(&t);
    pbj_status st = T_(to_json)(&chain[0], &t, NULL);
    if (st == PBJ_OK && strcmp(t.data, json)) st = DIFFERS;
    pbj_text_free(&t);
    return st;
}

static pbj_status op_encode(void) {
    uint8_t buf[sizeof wire];
    size_t len = 0;
    if (T_(size)(&chain[0]) == PBJ_SIZE_ERROR) return PBJ_ERR_DEPTH;
    pbj_status st = T_(encode)(&chain[0], buf, sizeof buf, &len);
    return st != PBJ_OK ? st : len == wire_len && !memcmp(buf, wire, len) ? PBJ_OK : DIFFERS;
}

static pbj_status op_write_reverse(void) {
    pbj_rbuf r;
    pbj_rbuf_init(&r, NULL, 0);
    pbj_status st = T_(write_reverse)(&chain[0], &r);
    if (st == PBJ_OK && (pbj_rbuf_len(&r) != wire_len || memcmp(pbj_rbuf_data(&r), wire, wire_len))) st = DIFFERS;
    pbj_rbuf_free(&r);
    return st;
}

static pbj_status op_writer_from(void) {
    pbj_wbuf b;
    T_(writer) w;
    pbj_wbuf_init(&b, NULL, 0);
    pbj_status st = T_(writer_start)(&w, &b);
    if (st == PBJ_OK) st = T_(writer_from)(&w, &chain[0]);
    if (st == PBJ_OK) st = T_(writer_end)(&w);
    if (st == PBJ_OK && (pbj_wbuf_len(&b) != wire_len || memcmp(pbj_wbuf_data(&b), wire, wire_len))) st = DIFFERS;
    pbj_wbuf_free(&b);
    return st;
}

static pbj_status op_sort_maps(void) {
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    pbj_status st = T_(sort_maps)(&chain[0], &a);
    pbj_arena_free(&a);
    return st;
}

/* equal's status: false for two equal chains is its "too deep" */
static pbj_status op_equal(void) {
    return T_(equal)(&chain[0], &other[0]) ? PBJ_OK : PBJ_ERR_DEPTH;
}

static const struct {
    const char *name;
    pbj_status (*fn)(void);
    size_t bound;                              /* the deepest it takes: levels below the top message */
} ops[] = {
    {"decode", op_decode, READ_LEVELS},          {"from_json", op_from_json, READ_LEVELS},
    {"from_text", op_from_text, READ_LEVELS},    {"print", op_print, PBJ_TEXT_MAX_DEPTH},
    {"to_json", op_to_json, READ_LEVELS},        {"size+encode", op_encode, WALK_LEVELS},
    {"write_reverse", op_write_reverse, WALK_LEVELS}, {"writer_from", op_writer_from, WALK_LEVELS},
    {"copy", op_copy, WALK_LEVELS},              {"merge", op_merge, WALK_LEVELS},
    {"sort_maps", op_sort_maps, WALK_LEVELS},    {"equal", op_equal, WALK_LEVELS},
};

static void *run(void *arg) {
    return (void *)(intptr_t)ops[(intptr_t)arg].fn();
}

/* The bytes of the stack the thread wrote below its top: the lowest byte that is not FILL. */
#if defined(__clang__) || defined(__GNUC__)
__attribute__((no_sanitize_address))
#endif
static size_t used(const uint8_t *stack) {
    size_t i = 0;
    while (i < STACK && stack[i] == FILL) i++;
    return STACK - i;
}

/* ops[k] in a thread with an 8 MiB stack: its status, *stack_used the bytes it took */
static pbj_status run_alone(uint8_t *stack, size_t k, size_t *stack_used) {
    pthread_attr_t attr;
    pthread_t th;
    void *ret = (void *)(intptr_t)PBJ_ERR_NOMEM;
    memset(stack, FILL, STACK);
    pthread_attr_init(&attr);
    pthread_attr_setstack(&attr, stack, STACK);
    EXPECT(pthread_create(&th, &attr, run, (void *)(intptr_t)k) == 0 && pthread_join(th, &ret) == 0, "no thread");
    pthread_attr_destroy(&attr);
    *stack_used = used(stack);
    return (pbj_status)(intptr_t)ret;
}

int main(void) {
    /* one depth rule: the walks take exactly what the readers accept at their default max_depth */
    EXPECT(WALK_LEVELS == READ_LEVELS && PBJ_TEXT_MAX_DEPTH == READ_LEVELS,
           "the walks take %d levels, print %d, the readers %d", WALK_LEVELS, PBJ_TEXT_MAX_DEPTH, READ_LEVELS);
    uint8_t *stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT(stack != MAP_FAILED, "no stack");
    for (size_t k = 0; k < sizeof ops / sizeof *ops && stack != MAP_FAILED; k++) {
        size_t at, past;
        build(ops[k].bound);
        pbj_status st = run_alone(stack, k, &at);
        EXPECT(st == PBJ_OK, "%s of a chain %zu deep (its bound) in an 8 MiB stack: %s", ops[k].name, levels,
               st == DIFFERS ? "a result unlike the chain" : pbj_status_str(st));
        build(ops[k].bound + 1);
        st = run_alone(stack, k, &past);
        EXPECT(st == PBJ_ERR_DEPTH, "%s of a chain %zu deep (past its bound): %s", ops[k].name, levels,
               pbj_status_str(st));
        printf("%-14s %4zu levels: %7zu bytes of stack, %6zu a level\n", ops[k].name, ops[k].bound, at, at / ops[k].bound);
    }
    free(json), free(text);
    if (failures) return 1;
    printf("stack: TestAllTypesProto3 at each recursive operation's bound (%d levels) within 8 MiB, one more refused\n",
           READ_LEVELS);
    return 0;
}
