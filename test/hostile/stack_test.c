/* stack_test.c: a TestAllTypesProto3 nested 100 deep through recursive_message (C++'s and pbj's default max_depth) goes
 * through decode, size and encode, copy, equal, print and to_json in a thread with an 8 MiB stack, at -O0 with ASan and
 * UBSan (the largest frames: issue 26 measured 244 KB a level for its decoder); prints each one's stack per level. */
#include "google/protobuf/test_messages_proto3.pb.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define LEVELS 100                             /* messages nested inside the top one */
#define STACK ((size_t)8 << 20)
#define FILL 0xa5

typedef protobuf_test_messages_proto3_TestAllTypesProto3 T;

static T chain[LEVELS + 1];
static uint8_t wire[LEVELS * 8 + 16];
static size_t wire_len;
static int failures;

#define EXPECT(cond, ...)                                    \
    do {                                                     \
        if (!(cond)) {                                       \
            fprintf(stderr, "FAIL stack_test: " __VA_ARGS__); \
            fprintf(stderr, "\n");                           \
            failures++;                                      \
        }                                                    \
    } while (0)

/* The operations, each run alone in a fresh thread: 0 on success. */
static int op_decode(void) {
    pbj_arena a;
    T m;
    pbj_arena_init(&a, NULL, 0);
    pbj_decode_options o = {0};
    o.max_memory = SIZE_MAX;                   /* the default cap refused this (issue 26 item 1, not a stack matter) */
    pbj_status st = protobuf_test_messages_proto3_TestAllTypesProto3_decode(&m, wire, wire_len, &a, &o);
    bool same = st == PBJ_OK && protobuf_test_messages_proto3_TestAllTypesProto3_equal(&m, &chain[0]);
    pbj_arena_free(&a);
    return same ? 0 : 1;
}

static int op_encode(void) {
    uint8_t buf[sizeof wire];
    size_t len = 0;
    pbj_status st = protobuf_test_messages_proto3_TestAllTypesProto3_encode(&chain[0], buf, sizeof buf, &len);
    return st == PBJ_OK && len == wire_len && !memcmp(buf, wire, len) ? 0 : 1;
}

static int op_copy(void) {
    pbj_arena a;
    T m;
    pbj_arena_init(&a, NULL, 0);
    pbj_status st = protobuf_test_messages_proto3_TestAllTypesProto3_copy(&m, &chain[0], &a);
    bool same = st == PBJ_OK && protobuf_test_messages_proto3_TestAllTypesProto3_equal(&m, &chain[0]);
    pbj_arena_free(&a);
    return same ? 0 : 1;
}

static int op_equal(void) {
    static T other[LEVELS + 1];
    memcpy(other, chain, sizeof other);
    for (size_t i = 0; i < LEVELS; i++) other[i].recursive_message = &other[i + 1];
    return protobuf_test_messages_proto3_TestAllTypesProto3_equal(&chain[0], &other[0]) ? 0 : 1;
}

static int op_print(void) {
    pbj_text t;
    pbj_text_init(&t);
    pbj_status st = protobuf_test_messages_proto3_TestAllTypesProto3_print(&chain[0], &t);
    pbj_text_free(&t);
    return st == PBJ_OK ? 0 : 1;
}

static int op_json(void) {
    pbj_text t;
    pbj_text_init(&t);
    pbj_status st = protobuf_test_messages_proto3_TestAllTypesProto3_to_json(&chain[0], &t, NULL);
    pbj_text_free(&t);
    return st == PBJ_OK ? 0 : 1;
}

static const struct {
    const char *name;
    int (*fn)(void);
} ops[] = {{"decode", op_decode}, {"size+encode", op_encode}, {"copy", op_copy},
           {"equal", op_equal},   {"print", op_print},        {"to_json", op_json}};

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

int main(void) {
    for (size_t i = 0; i <= LEVELS; i++) {
        protobuf_test_messages_proto3_TestAllTypesProto3_init(&chain[i]);
        chain[i].optional_int32 = (int32_t)i + 1;
        if (i < LEVELS) chain[i].recursive_message = &chain[i + 1];
    }
    EXPECT(protobuf_test_messages_proto3_TestAllTypesProto3_encode(&chain[0], wire, sizeof wire, &wire_len) == PBJ_OK,
           "the chain does not encode");
    uint8_t *stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT(stack != MAP_FAILED, "no stack");
    for (size_t k = 0; k < sizeof ops / sizeof *ops && stack != MAP_FAILED; k++) {
        pthread_attr_t attr;
        pthread_t th;
        void *ret = NULL;
        memset(stack, FILL, STACK);
        pthread_attr_init(&attr);
        pthread_attr_setstack(&attr, stack, STACK);
        EXPECT(pthread_create(&th, &attr, run, (void *)(intptr_t)k) == 0 && pthread_join(th, &ret) == 0, "no thread");
        pthread_attr_destroy(&attr);
        EXPECT(ret == NULL, "%s of a chain %d deep in an 8 MiB stack fails", ops[k].name, LEVELS);
        printf("%-12s %7zu bytes of stack, %5zu a level\n", ops[k].name, used(stack), used(stack) / LEVELS);
    }
    if (failures) return 1;
    printf("stack: TestAllTypesProto3 %d deep: decode, encode, copy, equal, print, to_json within 8 MiB\n", LEVELS);
    return 0;
}
