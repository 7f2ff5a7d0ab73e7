/* pbj_core.h: the core of pbjc's header-only runtime (wire primitives, arena, decode context, buffers); pbj.h includes it. */
#ifndef PBJ_CORE_H
#define PBJ_CORE_H

/*
 * Using generated code (for `package acme; message Order {...}` in x.proto,
 * pbjc writes x.pb.h and x.pb.c; compile x.pb.c with -I<this directory>):
 *
 *   acme_Order o;
 *   acme_Order_init(&o);                       // every field absent or zero
 *   o.id = 7;                                  // scalars: C types
 *   o.note = PBJ_STR("hi");                    // string, bytes: pbj_slice {data, len}
 *   o.customer = &c;                           // singular message: pointer, NULL = absent
 *   o.lines.data = lines; o.lines.count = 3;   // repeated: {data, count}
 *   o.payment_case = acme_Order_payment_card;  // oneof: case (field number) + union
 *   o.payment.card = &card;
 *   o.has_discount = 1; o.discount = 0;        // explicit presence: has_ bits
 *
 *   size_t len;                                // encode: size pass, then straight writes
 *   if (acme_Order_encode(&o, buf, cap, &len) != PBJ_OK) ...   // len = bytes needed
 *
 *   pbj_arena arena;                           // decode: everything into one arena
 *   pbj_arena_init(&arena, NULL, 0);           // (or a first block of your own)
 *   pbj_status st = acme_Order_decode(&o, buf, len, &arena, NULL);   // NULL = default options
 *   if (st != PBJ_OK) fprintf(stderr, "%s\n", pbj_status_str(st));
 *   pbj_arena_free(&arena);                    // frees every decoded message at once
 *
 * acme_Order_print(&o, &text) writes protoc's text format into a pbj_text
 * (pbj_text.h); acme_Order_equal compares two messages (floats by bits).
 *
 * proto2 (and every field with explicit presence):
 *   acme_Order_has_note(&o), acme_Order_clear_note(&o)   // static inline, per field:
 *       has-bit fields, singular messages (pointer), oneof members (case)
 *   acme_Order_init sets [default = ...] values (and a closed enum's first
 *       value): like C++'s o.note(), o.note reads its default while absent;
 *       clear restores it; encode writes a present field even at its default
 *   required fields: acme_Order_missing(&o) is NULL or "acme.Order.id" (the
 *       first required field not set, nested messages searched too); encode
 *       returns PBJ_ERR_REQUIRED when one is missing (acme_Order_encode_partial
 *       writes anyway); decode returns PBJ_ERR_REQUIRED after reading the
 *       whole message, unless pbj_decode_options.partial
 *   groups: singular and repeated, as messages (pointer / {data, count})
 *   extensions (`extend acme.Order { optional int32 tip = 100; }` in package
 *       acme): the ones known to the pbjc run that generated the extendee
 *       (declared in any file of that run) are kept as raw records in
 *       o.pbj_ext, in number order, and written among the fields in number
 *       order; others stay unknown fields (round-trip unchanged, written
 *       last); typed accessors per extension find them in either place:
 *         acme_tip_has(&o), acme_tip_get(&o) (default when absent),
 *         acme_tip_set(&o, 5, &arena), acme_tip_clear(&o, &arena);
 *         repeated: _count, _at(&o, i), _add(&o, v, &arena);
 *         messages: _get(&o, &out, &arena) / _at(&o, i, &out, &arena) decode
 *         into out, _set / _add(&o, &msg, &arena) encode msg
 *       (named after the extension's full name: Scope.ext -> acme_Scope_ext).
 *       Known extensions print by name ([acme.tip]: 5), but message-typed
 *       ones from another file by number. message_set_wire_format
 *       messages keep their items the same way (keyed by type_id).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- version -------------------------------------------------------------
 * PBJ_RUNTIME_VERSION changes whenever generated code and runtime stop fitting
 * together; every generated file checks it with #error. */
#define PBJ_VERSION_MAJOR 0
#define PBJ_VERSION_MINOR 1
#define PBJ_RUNTIME_VERSION 15   /* 2: proto2 (required status, extension records); 3: const encode, back to front; 4: field tables;
                                  * 5: enum tables; merge, copy, sort_maps, missing and compare over the tables;
                                  * 6: text and JSON over the tables (extension rows, codec, wkt; no M__type records);
                                  * 7: extension rows with no type (PBJ_F_UNTYPED), which the readers pass by;
                                  * 8: views printed over the tables (pbj_table.view);
                                  * 9: PBJ_MESSAGE_FUNCTIONS_REVERSE (M_encode in one walk, M__encode_reverse);
                                  * 10: PBJ__RUN_HOME_DEFINE (a unity unit may include the run's home first);
                                  *     pbj__rnear, pbj__rexact (a sub-message near the buffer's start written exactly);
                                  *     PBJ_MESSAGE_FUNCTIONS_TABLE (the size tier's calls into the runtime), pbj__decode_top;
                                  * 11: PBJ__VIEW_ZERO (a view's scan starts from a zeroed struct, not a memset);
                                  * 12: pbj_wtype.children (a child writer's type found, not stored when it opens);
                                  * 13: pbj_unknown a pointer to a record in the arena (NULL: none), not a slice;
                                  *     pbj_codec.rencode (PBJ_CODEC_REVERSE), M_encode's forward walk (pbj__encode_forward);
                                  * 14: PBJ_MODE_BY_VALUE (pbj.by_value: a message held in its parent's struct);
                                  *     pbj__view_clear (a non-leaf view's scan zeroes its slots in 16-byte stores);
                                  * 15: a view's singular message field present when its slot's offset is not 0 (no n);
                                  *     pbj__view_nested and pbj__view_ext_depth (the views' depth rule), no pbj__view_depth */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- compiler helpers ---------------------------------------------------- */
#if defined(__GNUC__) || defined(__clang__)
#define PBJ_MUST_USE __attribute__((warn_unused_result))
#define PBJ_COLD __attribute__((noinline, cold, unused))
#define PBJ_LIKELY(x) __builtin_expect(!!(x), 1)
#define PBJ_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PBJ__ASSUME(x) do { if (!(x)) __builtin_unreachable(); } while (0)   /* what the compiler may take as true */
#else
#define PBJ_MUST_USE
#define PBJ_COLD
#define PBJ_LIKELY(x) (x)
#define PBJ_UNLIKELY(x) (x)
#define PBJ__ASSUME(x) ((void)0)
#endif
/* Hot paths are inlined; cold paths stay out of line (still in this header). */
#define PBJ_INLINE static inline
/* Inlined wherever the compiler optimizes. Not at -O0: there each inlined copy's locals (and, with sanitizers,
 * their checks' spill slots) would add up in the caller's frame, 137 KB of TestAllTypesProto3's decoder
 * (clang, ASan+UBSan) against 73 KB as calls; debug builds recurse through those frames. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__)
#define PBJ__FORCE_INLINE __attribute__((always_inline, unused))
#else
#define PBJ__FORCE_INLINE
#endif
#define PBJ_HOT_INLINE static inline PBJ__FORCE_INLINE   /* the decoder's per-field reads */
/* Out-of-line functions: by default a static copy in every object that calls one. The single-definition
 * mode keeps one copy per program: every file compiled with PBJ_SINGLE_DEFINITION, and one .c file that
 * defines PBJ_IMPLEMENTATION before including the runtime headers the program uses (README, "One copy
 * of the runtime per program"): that file defines them (external linkage), the others see only their
 * prototypes. Each is written `PBJ_OUTLINE T f(...) PBJ__PROTO`, its body under `#if PBJ__BODIES`.
 * A run's mode needs nothing of the user: pbjc, generating several files in one run, defines PBJ__RUN_SHARED
 * at the top of .pb.c files, 2 in one of them (which defines every out-of-line function of pbj.h, pbj_view.h and
 * pbj_writer.h, weak and hidden: the copies of two runs merge at the link), 1 in the other inputs' (which only
 * declare them, hidden), when one input imports another; where weak symbols are not available (neither gcc nor clang, or not ELF or Mach-O), and under
 * the single-definition mode, it is off (README, "One copy of the runtime per pbjc run"). A translation unit that
 * includes several generated sources takes the first one's PBJ__RUN_SHARED: the holder of the copy first, or 0 defined first for static copies. */
#if defined(PBJ__RUN_SHARED) && !defined(PBJ_SINGLE_DEFINITION) && !defined(PBJ_IMPLEMENTATION) && \
    (defined(__GNUC__) || defined(__clang__)) && (defined(__ELF__) || defined(__APPLE__))
#define PBJ__SHARED PBJ__RUN_SHARED
#else
#define PBJ__SHARED 0
#endif
#if PBJ__SHARED == 2
#define PBJ__LINKAGE __attribute__((weak, visibility("hidden")))
#elif PBJ__SHARED == 1
#define PBJ__LINKAGE __attribute__((visibility("hidden")))
#elif defined(PBJ_SINGLE_DEFINITION) || defined(PBJ_IMPLEMENTATION)
#define PBJ__LINKAGE
#else
#define PBJ__LINKAGE static
#endif
#if PBJ__SHARED == 2 || (PBJ__SHARED == 0 && (!defined(PBJ_SINGLE_DEFINITION) || defined(PBJ_IMPLEMENTATION)))
#define PBJ__BODIES 1
#define PBJ__PROTO
#else
#define PBJ__BODIES 0
#define PBJ__PROTO ;
#endif
#if defined(__GNUC__) || defined(__clang__)
#define PBJ_OUTLINE PBJ__LINKAGE PBJ_COLD
#define PBJ_OUTLINE_WARM PBJ__LINKAGE PBJ__NOINLINE
#elif defined(PBJ_SINGLE_DEFINITION) || defined(PBJ_IMPLEMENTATION)
#define PBJ_OUTLINE
#define PBJ_OUTLINE_WARM
#else
#define PBJ_OUTLINE static inline
#define PBJ_OUTLINE_WARM static inline
#endif
/* PBJ__RUN_HOME_DEFINE(name), PBJ__RUN_HOME(name): in the .pb.c files of a run's mode, the symbol naming the .pb.c
 * that holds the run's copy (pbj_runtime_of_this_run_is_in_<file>_pb_c): defined there, referenced by the others,
 * so that a program that links some of the run's files but not that one fails at the link with a name that says
 * which file to add. */
#ifdef __cplusplus
#define PBJ__C_DECL extern "C"
#define PBJ__C_DEF extern "C"
#else
#define PBJ__C_DECL extern
#define PBJ__C_DEF
#endif
#if PBJ__SHARED == 2
#define PBJ__RUN_HOME_DEFINE(name) PBJ__C_DEF __attribute__((weak, visibility("hidden"))) const char name = 0;
#else
#define PBJ__RUN_HOME_DEFINE(name)
#endif
#if PBJ__SHARED >= 1   /* a unique name for the reference: a translation unit may include several sources */
#define PBJ__RUN_HOME(name) PBJ__C_DECL __attribute__((visibility("hidden"))) const char name; \
    static const char *const PBJ__RUN_REF(__COUNTER__) __attribute__((used)) = &name;
#define PBJ__RUN_REF(n) PBJ__RUN_REF_(n)
#define PBJ__RUN_REF_(n) pbj__run_home_##n
#else
#define PBJ__RUN_HOME(name)
#endif
/* PBJ_OUTLINE_WARM: as PBJ_OUTLINE, but compiled for speed, not size (cold), and its calls not taken as unlikely:
 * the walks of a whole message that a program may run in a loop (JSON output and input). */
#if (defined(PBJ_IMPLEMENTATION) || PBJ__SHARED == 2) && (defined(__GNUC__) || defined(__clang__))
#pragma GCC diagnostic ignored "-Wmissing-declarations"   /* there, the definitions are the declarations */
#if !defined(__cplusplus) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#endif
#endif

/* Every allocation goes through these two (define both before including pbj.h to replace them). */
#if !defined(PBJ_MALLOC) || !defined(PBJ_FREE)
#include <stdlib.h>
#endif
#ifndef PBJ_MALLOC
#define PBJ_MALLOC(n) malloc(n)
#endif
#ifndef PBJ_FREE
#define PBJ_FREE(p) free(p)
#endif
/* The generated code's own checks (encode wrote exactly the bytes its size pass counted). Define
 * PBJ_ASSERT(x) to route them elsewhere; by default they are: nothing under NDEBUG; under PBJ_NO_STDIO a
 * trap, which needs nothing of the C library (newlib's assert pulls in printf and malloc); else assert(). */
#ifndef PBJ_ASSERT
#if defined(NDEBUG) || (defined(PBJ_NO_STDIO) && !defined(__GNUC__))
#define PBJ_ASSERT(x) ((void)sizeof(x))
#elif defined(PBJ_NO_STDIO)
#define PBJ_ASSERT(x) ((x) ? (void)0 : __builtin_trap())
#else
#include <assert.h>
#define PBJ_ASSERT(x) assert(x)
#endif
#endif

/* ---- status codes: one list, enum and messages made from it ------------- */
#define PBJ_STATUSES(X)                                                                  \
    X(OK,            "ok")                                                               \
    X(ERR_TRUNCATED, "input ends inside a field")                                        \
    X(ERR_VARINT,    "malformed varint")                                                 \
    X(ERR_TAG,       "malformed tag")                                                    \
    X(ERR_FIELD_ZERO, "field number 0")                                                  \
    X(ERR_WIRE_TYPE, "wrong wire type")                                                  \
    X(ERR_TOO_LONG,  "length past max_length")                                           \
    X(ERR_DEPTH,     "nested past max_depth")                                            \
    X(ERR_UTF8,      "invalid UTF-8")                                                    \
    X(ERR_UNKNOWN_FIELD, "unknown field rejected")                                       \
    X(ERR_GROUP,     "unmatched group")                                                  \
    X(ERR_NOMEM,     "out of memory")                                                    \
    X(ERR_BUFFER,    "output buffer too small")                                          \
    X(ERR_SIZE,      "message over 2 GiB")                                               \
    X(ERR_REQUIRED,  "required field missing")                                           \
    X(ERR_ORDER,     "writer call out of order")                                         \
    X(ERR_JSON,      "value not writable as JSON")                                       \
    X(ERR_SYNTAX,    "syntax error")                                                     \
    X(ERR_IO,        "cannot read file")                                                 \
    X(ERR_KIND,      "field of another kind")

/* Every pbj function that can fail returns one of these; PBJ_OK is 0. */
typedef enum pbj_status {
#define PBJ__STATUS_ENUM(name, msg) PBJ_##name,
    PBJ_STATUSES(PBJ__STATUS_ENUM)
#undef PBJ__STATUS_ENUM
    PBJ__STATUS_COUNT
} pbj_status;

/* A one-line English description of a status ("unknown status" if out of range). */
PBJ_INLINE const char *pbj_status_str(pbj_status s)
{
    static const char *const msgs[] = {
#define PBJ__STATUS_MSG(name, msg) msg,
        PBJ_STATUSES(PBJ__STATUS_MSG)
#undef PBJ__STATUS_MSG
    };
    return (unsigned)s < (unsigned)PBJ__STATUS_COUNT ? msgs[s] : "unknown status";
}

/* What M_missing gives for a message nested deeper than PBJ_MAX_DEPTH_CAP (a hand-built cycle) instead of a
 * field's name: no full name starts with "(". */
#define PBJ_MISSING_TOO_DEEP "(nested deeper than PBJ_MAX_DEPTH_CAP)"

/* The status of M_missing's answer r: PBJ_OK when NULL, PBJ_ERR_DEPTH for PBJ_MISSING_TOO_DEEP, else PBJ_ERR_REQUIRED. */
PBJ_INLINE pbj_status pbj_missing_status(const char *r)
{
    return !r ? PBJ_OK : r[0] == '(' ? PBJ_ERR_DEPTH : PBJ_ERR_REQUIRED;
}

/* ---- slices: string and bytes fields ------------------------------------ */
typedef struct pbj_slice {
    const uint8_t *data;
    size_t len;
} pbj_slice;

/* Not in C++ (no compound literals): PBJ_STR("abc") is a slice over a literal. */
#ifndef __cplusplus
#define PBJ_STR(lit) ((pbj_slice){(const uint8_t *)(lit), sizeof(lit) - 1})
#endif

PBJ_INLINE pbj_slice pbj_slice_make(const void *data, size_t len)
{
    pbj_slice s;
    s.data = (const uint8_t *)data;
    s.len = len;
    return s;
}

PBJ_INLINE pbj_slice pbj_slice_cstr(const char *s)
{
    return pbj_slice_make(s, strlen(s));
}

/* The bytes of s, never NULL (an empty slice may hold NULL). */
PBJ_INLINE const uint8_t *pbj_slice_data(pbj_slice s)
{
    return s.data ? s.data : (const uint8_t *)"";
}

PBJ_INLINE bool pbj_slice_eq(pbj_slice a, pbj_slice b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
}

/* Byte-wise order (as protobuf orders string map keys). */
PBJ_INLINE int pbj_slice_cmp(pbj_slice a, pbj_slice b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.data, b.data, n) : 0;
    if (c) return c;
    return a.len < b.len ? -1 : a.len > b.len;
}

/* ---- zigzag and float bit casts ------------------------------------------ */
PBJ_INLINE uint32_t pbj_zigzag32(int32_t v) { return ((uint32_t)v << 1) ^ (uint32_t)-(int32_t)((uint32_t)v >> 31); }
PBJ_INLINE uint64_t pbj_zigzag64(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)-(int64_t)((uint64_t)v >> 63); }
PBJ_INLINE int32_t pbj_unzigzag32(uint32_t v) { return (int32_t)((v >> 1) ^ (uint32_t)-(int32_t)(v & 1)); }
PBJ_INLINE int64_t pbj_unzigzag64(uint64_t v) { return (int64_t)((v >> 1) ^ (uint64_t)-(int64_t)(v & 1)); }

PBJ_INLINE uint32_t pbj_float_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
PBJ_INLINE uint64_t pbj_double_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
PBJ_INLINE float pbj_bits_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
PBJ_INLINE double pbj_bits_double(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* Java's Double.compare and Float.compare (pbj.comparable; a float widens exactly): numeric order, -0.0
 * before 0.0, NaN after everything and equal to itself. */
PBJ_INLINE int pbj_cmp_double(double a, double b)
{
    if (a < b) return -1;
    if (a > b) return 1;
    if (a != a || b != b) return (b == b) - (a == a);
    int64_t x = (int64_t)pbj_double_bits(a), y = (int64_t)pbj_double_bits(b);
    return (x > y) - (x < y);
}

/* ---- fixed-width little-endian access ------------------------------------ */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PBJ_LITTLE_ENDIAN 1
#else
#define PBJ_LITTLE_ENDIAN 0
#endif

PBJ_INLINE uint32_t pbj_load_le32(const uint8_t *p)
{
#if PBJ_LITTLE_ENDIAN
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
#else
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

PBJ_INLINE uint64_t pbj_load_le64(const uint8_t *p)
{
#if PBJ_LITTLE_ENDIAN
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
#else
    return (uint64_t)pbj_load_le32(p) | (uint64_t)pbj_load_le32(p + 4) << 32;
#endif
}

PBJ_INLINE uint8_t *pbj_store_le32(uint8_t *p, uint32_t v)
{
#if PBJ_LITTLE_ENDIAN
    memcpy(p, &v, 4);
#else
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
#endif
    return p + 4;
}

PBJ_INLINE uint8_t *pbj_store_le64(uint8_t *p, uint64_t v)
{
#if PBJ_LITTLE_ENDIAN
    memcpy(p, &v, 8);
#else
    pbj_store_le32(p, (uint32_t)v);
    pbj_store_le32(p + 4, (uint32_t)(v >> 32));
#endif
    return p + 8;
}

/* ---- varints: sizes and writes -------------------------------------------- */
/* Bytes a varint of v takes, 1..10, without a loop: 9 bits of size per 64 of value. */
PBJ_INLINE size_t pbj_varint_size(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1);
#else
    unsigned bits = 1;
    while (bits < 64 && (v >> bits)) bits++;
#endif
    return (bits * 9u + 64u) / 64u;
}

PBJ_INLINE size_t pbj_varint_size32(uint32_t v) { return pbj_varint_size(v); }

/* int32 and enum values are sign-extended to 64 bits on the wire (10 bytes when negative). */
PBJ_INLINE size_t pbj_int32_size(int32_t v) { return pbj_varint_size((uint64_t)(int64_t)v); }

/* Write v in exactly n bytes (n == pbj_varint_size(v)), no test per byte. */
PBJ_INLINE uint8_t *pbj_put_varint_n(uint8_t *p, uint64_t v, size_t n)
{
    size_t i;
    for (i = 0; i + 1 < n; i++) {
        p[i] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n - 1] = (uint8_t)v;
    return p + n;
}

/* Write v, size found on the way (1-byte values take one compare). */
PBJ_INLINE uint8_t *pbj_put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

PBJ_INLINE uint8_t *pbj_put_fixed32(uint8_t *p, uint32_t v) { return pbj_store_le32(p, v); }
PBJ_INLINE uint8_t *pbj_put_fixed64(uint8_t *p, uint64_t v) { return pbj_store_le64(p, v); }

PBJ_INLINE uint8_t *pbj_put_bytes(uint8_t *p, pbj_slice s)
{
    p = pbj_put_varint(p, s.len);
    if (s.len) memcpy(p, s.data, s.len);
    return p + s.len;
}

/* Size of a length-delimited payload of n bytes with its length prefix. */
PBJ_INLINE size_t pbj_len_size(size_t n) { return pbj_varint_size(n) + n; }

/* ---- varints: reads ---------------------------------------------------------
 * pbj_get_varint reads one varint from [p, end) into *out and returns the byte
 * after it, or NULL when it is truncated or malformed (pbj_varint_error tells
 * which). A varint is at most 10 bytes; the 10th may only hold bit 63.
 * One and two bytes are read inline; longer ones out of line, 8 bytes at once
 * when the input has them (find the last byte, then gather the 7-bit groups). */
#if defined(__GNUC__) || defined(__clang__)
#define PBJ__NOINLINE __attribute__((noinline, unused))
#else
#define PBJ__NOINLINE
#endif
/* The 8-byte gather: a varint of 1 to 8 bytes starting at p (8 readable bytes there), or NULL. */
PBJ_HOT_INLINE const uint8_t *pbj__varint8(const uint8_t *p, uint64_t *out)
{
    uint64_t x = pbj_load_le64(p), stops = ~x & 0x8080808080808080ull;
    if (PBJ_UNLIKELY(stops == 0)) return NULL;
#if defined(__GNUC__) || defined(__clang__)
    unsigned n = ((unsigned)__builtin_ctzll(stops) + 1) / 8;   /* bytes used, 1..8 */
#else
    unsigned n = 1;
    while (!(stops & (0x80ull << (8 * (n - 1))))) n++;
#endif
    x &= n == 8 ? ~0ull : (1ull << (8 * n)) - 1;
    x = ((x & 0x7f007f007f007f00ull) >> 1) | (x & 0x007f007f007f007full);
    x = ((x & 0x3fff00003fff0000ull) >> 2) | (x & 0x00003fff00003fffull);
    x = ((x & 0x0fffffff00000000ull) >> 4) | (x & 0x000000000fffffffull);
    *out = x;
    return p + n;
}

static PBJ__NOINLINE const uint8_t *pbj__get_varint_long(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;
    unsigned shift;
    const uint8_t *q;
    if (PBJ_LIKELY(end - p >= 8) && (q = pbj__varint8(p, out))) return q;
    for (shift = 0; shift < 70 && p < end; shift += 7) {
        uint8_t b = *p++;
        v |= (uint64_t)(b & 0x7f) << shift;   /* the 10th byte: bits past 64 drop, as protobuf's C++ */
        if (b < 0x80) {
            *out = v;
            return p;
        }
    }
    return NULL;
}

/* A varint's one and two bytes inline, then `longer` (a call reading the rest): the body of pbj_get_varint, of a
 * length's (pbj__get_len_varint) and of one inside a message being decoded (pbj_get_varint_in). */
#define PBJ__GET_VARINT_TWO(longer)                                \
    if (PBJ_LIKELY(p < end && p[0] < 0x80)) {                      \
        *out = p[0];                                               \
        return p + 1;                                              \
    }                                                              \
    if (PBJ_LIKELY(end - p >= 2 && p[1] < 0x80)) {                 \
        *out = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;      \
        return p + 2;                                              \
    }                                                              \
    return longer;

PBJ_HOT_INLINE const uint8_t *pbj_get_varint(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    PBJ__GET_VARINT_TWO(pbj__get_varint_long(p, end, out))
}

/* Why pbj_get_varint failed at p: truncated input or a malformed varint. */
PBJ_OUTLINE pbj_status pbj_varint_error(const uint8_t *p, const uint8_t *end) PBJ__PROTO
#if PBJ__BODIES
{
    size_t i;
    for (i = 0; i < 10; i++) {
        if (p + i >= end) return PBJ_ERR_TRUNCATED;
        if (p[i] < 0x80) return PBJ_OK;
    }
    return PBJ_ERR_VARINT;
}
#endif

PBJ_INLINE const uint8_t *pbj_get_fixed32(const uint8_t *p, const uint8_t *end, uint32_t *out)
{
    if (PBJ_UNLIKELY(end - p < 4)) return NULL;
    *out = pbj_load_le32(p);
    return p + 4;
}

PBJ_INLINE const uint8_t *pbj_get_fixed64(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    if (PBJ_UNLIKELY(end - p < 8)) return NULL;
    *out = pbj_load_le64(p);
    return p + 8;
}

/* ---- wire format ------------------------------------------------------------ */
enum {
    PBJ_WT_VARINT = 0, PBJ_WT_I64 = 1, PBJ_WT_LEN = 2,
    PBJ_WT_SGROUP = 3, PBJ_WT_EGROUP = 4, PBJ_WT_I32 = 5
};
#define PBJ_MAX_FIELD_NUMBER 536870911
#define PBJ_TAG(num, wt) (((uint32_t)(num) << 3) | (uint32_t)(wt))

/* ---- UTF-8 validation --------------------------------------------------------
 * Exactly what protobuf accepts: no overlong forms, no surrogates, nothing
 * beyond U+10FFFF. ASCII runs go 8 bytes per step. */
PBJ_OUTLINE bool pbj__utf8_rest(const uint8_t *p, const uint8_t *end) PBJ__PROTO
#if PBJ__BODIES
{
    while (p < end) {
        uint8_t c = *p;
        if (c < 0x80) {
            p++;
            continue;
        }
        size_t n;
        uint8_t lo = 0x80, hi = 0xbf;     /* range of the second byte */
        if (c >= 0xc2 && c <= 0xdf) n = 2;
        else if (c >= 0xe0 && c <= 0xef) {
            n = 3;
            if (c == 0xe0) lo = 0xa0;     /* overlong */
            if (c == 0xed) hi = 0x9f;     /* surrogates */
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 4;
            if (c == 0xf0) lo = 0x90;     /* overlong */
            if (c == 0xf4) hi = 0x8f;     /* beyond U+10FFFF */
        } else return false;
        if ((size_t)(end - p) < n) return false;
        if (p[1] < lo || p[1] > hi) return false;
        for (size_t i = 2; i < n; i++)
            if ((p[i] & 0xc0) != 0x80) return false;
        p += n;
    }
    return true;
}
#endif

PBJ_INLINE bool pbj_utf8_valid(const uint8_t *p, size_t len)
{
    if (len == 0) return true;                 /* p may be NULL */
    const uint8_t *end = p + len;
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        if (x & 0x8080808080808080ull) break;
        p += 8;
    }
    while (p < end && *p < 0x80) p++;
    return p == end || pbj__utf8_rest(p, end);
}

/* ---- the arena ---------------------------------------------------------------
 * Bump allocation in chained blocks. An optional first block comes from the
 * caller (never freed by pbj); further blocks come from PBJ_MALLOC, doubling
 * in size. Everything is released at once (pbj_arena_free), or recycled
 * (pbj_arena_reset keeps the newest block). A zeroed pbj_arena is valid.
 * Under AddressSanitizer an array given up when it grows is poisoned until the
 * arena is reset or freed, so a pointer kept into it is caught when used. */
#if defined(__SANITIZE_ADDRESS__)
#define PBJ__ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PBJ__ASAN 1
#endif
#endif
#ifdef PBJ__ASAN
#include <sanitizer/asan_interface.h>
#define PBJ__UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define PBJ__UNPOISON(p, n) ((void)0)
#endif
typedef struct pbj__block {
    struct pbj__block *next;
    size_t size;                  /* usable bytes after the header */
} pbj__block;

typedef struct pbj_arena {
    uint8_t *cur;                 /* next free byte of the current block */
    uint8_t *end;                 /* the end of the current block: pbj__arena_left bytes are left (one store a bump) */
    pbj__block *blocks;           /* blocks from PBJ_MALLOC, current first */
    void *first;                  /* the caller's block, or NULL */
    size_t first_size;
    size_t next_size;             /* size of the next block to allocate */
    size_t allocated;             /* bytes currently held from PBJ_MALLOC */
    size_t capacity;              /* bytes of every block (the caller's too) */
    size_t wasted;                /* tails of blocks left behind */
    size_t limit;                 /* when not 0: what pbj_arena_used may reach (a decode's max_memory) */
} pbj_arena;

#define PBJ_ARENA_ALIGN 8
#define PBJ_ARENA_MIN_BLOCK 4096
#define PBJ_ARENA_MAX_BLOCK (16u << 20)
#define PBJ__HEADER_SIZE ((sizeof(pbj__block) + PBJ_ARENA_ALIGN - 1) & ~(size_t)(PBJ_ARENA_ALIGN - 1))

PBJ_INLINE void pbj_arena_init(pbj_arena *a, void *first, size_t first_size)
{
    memset(a, 0, sizeof *a);
    if (first) PBJ__UNPOISON(first, first_size);   /* a block given back by another arena's free */
    if (first) {
        uintptr_t pad = (PBJ_ARENA_ALIGN - ((uintptr_t)first % PBJ_ARENA_ALIGN)) % PBJ_ARENA_ALIGN;
        if (first_size >= pad) {
            a->first = first;
            a->first_size = first_size;
            a->cur = (uint8_t *)first + pad;
            a->capacity = (first_size - pad) & ~(size_t)(PBJ_ARENA_ALIGN - 1);
            a->end = a->cur + a->capacity;
        }
    }
    a->next_size = PBJ_ARENA_MIN_BLOCK;
}

/* Bytes left in the current block (none in a new arena: cur and end both NULL). */
PBJ_INLINE size_t pbj__arena_left(const pbj_arena *a)
{
    return (size_t)((uintptr_t)a->end - (uintptr_t)a->cur);
}

PBJ_OUTLINE void *pbj__arena_alloc_slow(pbj_arena *a, size_t n) PBJ__PROTO
#if PBJ__BODIES
{
    size_t size = a->next_size ? a->next_size : PBJ_ARENA_MIN_BLOCK;
    bool big = n > size / 4;                       /* gets a block of its own */
    if (big) size = n;
    if (size > (size_t)PTRDIFF_MAX - PBJ__HEADER_SIZE) return NULL;
    if (a->limit) {                                /* a decode's max_memory: a smaller block, or none */
        size_t used = a->capacity - a->wasted - pbj__arena_left(a), room = used < a->limit ? a->limit - used : 0;
        if (n > room) return NULL;
        if (size > room) size = room & ~(size_t)(PBJ_ARENA_ALIGN - 1);
    }
    pbj__block *b = (pbj__block *)PBJ_MALLOC(PBJ__HEADER_SIZE + size);
    if (!b) return NULL;
    b->size = size;
    a->allocated += PBJ__HEADER_SIZE + size;
    a->capacity += size;
    uint8_t *mem = (uint8_t *)b + PBJ__HEADER_SIZE;
    if (big && a->blocks) {                        /* keep bumping in the current block */
        b->next = a->blocks->next;
        a->blocks->next = b;
        return mem;
    }
    b->next = a->blocks;
    a->blocks = b;
    if (!big && a->next_size < PBJ_ARENA_MAX_BLOCK) a->next_size = size * 2;
    a->wasted += pbj__arena_left(a);
    a->cur = mem + n;
    a->end = mem + size;
    return mem;
}
#endif

/* n bytes aligned to 8, uninitialised; NULL when out of memory. */
PBJ_INLINE void *pbj_arena_alloc(pbj_arena *a, size_t n)
{
    if (PBJ_UNLIKELY(n > (size_t)-1 - PBJ_ARENA_ALIGN)) return NULL;
    n = (n + PBJ_ARENA_ALIGN - 1) & ~(size_t)(PBJ_ARENA_ALIGN - 1);
    if (PBJ_LIKELY(n <= pbj__arena_left(a))) {
        void *r = a->cur;
        PBJ__ASSUME(r || !n);                      /* a block is never at NULL: the caller's NULL test folds */
        a->cur += n;
        return r;
    }
    return pbj__arena_alloc_slow(a, n);
}

PBJ_INLINE void *pbj_arena_zalloc(pbj_arena *a, size_t n)
{
    void *r = pbj_arena_alloc(a, n);
    if (r) memset(r, 0, n);
    return r;
}

/* Bytes handed out since the last reset (alignment included): what the decoded data takes. */
PBJ_INLINE size_t pbj_arena_used(const pbj_arena *a)
{
    return a->capacity - a->wasted - pbj__arena_left(a);
}

/* Release every block from PBJ_MALLOC; the arena is then like a new one on the same caller block. */
PBJ_INLINE void pbj_arena_free(pbj_arena *a)
{
    pbj__block *b = a->blocks;
    while (b) {
        pbj__block *next = b->next;
        PBJ__UNPOISON(b, PBJ__HEADER_SIZE + b->size);
        PBJ_FREE(b);
        b = next;
    }
    pbj_arena_init(a, a->first, a->first_size);
}

/* Several blocks (or none) become one of their total size. */
PBJ_OUTLINE void pbj__arena_reset_slow(pbj_arena *a) PBJ__PROTO
#if PBJ__BODIES
{
    pbj__block *b = a->blocks;
    size_t total = 0, next_size = a->next_size;
    for (; b; b = b->next) total += b->size;
    pbj_arena_free(a);
    if (total) {
        a->next_size = total;
        if (pbj__arena_alloc_slow(a, 0)) {         /* one block of the total size */
            a->cur = (uint8_t *)a->blocks + PBJ__HEADER_SIZE;
            a->end = a->cur + a->blocks->size;
            a->capacity = a->blocks->size;
            a->wasted = 0;
        }
        a->next_size = next_size;
    }
}
#endif

/* Forget every allocation but keep the memory: when it came in several
 * blocks they become one of their total size, so a reused arena settles on a
 * single block and stops calling PBJ_MALLOC (that one block reused inline). */
PBJ_INLINE void pbj_arena_reset(pbj_arena *a)
{
    pbj__block *b = a->blocks;
    if (PBJ_LIKELY(b && !b->next)) {
        PBJ__UNPOISON((uint8_t *)b + PBJ__HEADER_SIZE, b->size);
        a->cur = (uint8_t *)b + PBJ__HEADER_SIZE;
        a->end = a->cur + b->size;
        a->capacity = b->size;
        a->wasted = 0;
        return;
    }
    pbj__arena_reset_slow(a);
}

#ifdef PBJ__ASAN
/* n bytes at p, given up (an array that grew elsewhere), poisoned when they lie in one of a's blocks. */
PBJ_INLINE void pbj__arena_give_up(const pbj_arena *a, const void *p, size_t n)
{
    uintptr_t q = (uintptr_t)p, start = (uintptr_t)a->first;
    bool in = a->first && q >= start && q + n <= start + a->first_size;
    for (const pbj__block *b = a->blocks; b && !in; b = b->next) {
        start = (uintptr_t)b + PBJ__HEADER_SIZE;
        in = q >= start && q + n <= start + b->size;
    }
    if (in) ASAN_POISON_MEMORY_REGION(p, n);
}
#else
#define pbj__arena_give_up(a, p, n) ((void)0)
#endif

/* An array of count elements grown to hold count + add: arrays made here have
 * room for the next power of two (at least 4) of their count, so growth needs
 * no stored capacity. Returns data itself when it has room, NULL when out of memory. */
PBJ_INLINE size_t pbj__capacity(size_t count)
{
    if (count == 0) return 0;
    if (count <= 4) return 4;
#if defined(__GNUC__) || defined(__clang__)
    return (size_t)2 << (63 - __builtin_clzll((unsigned long long)count - 1));   /* no loop */
#else
    size_t c = 4;
    while (c < count) c *= 2;
    return c;
#endif
}

PBJ_OUTLINE void *pbj__array_grow_slow(pbj_arena *a, void *data, size_t count, size_t add, size_t elem) PBJ__PROTO
#if PBJ__BODIES
{
    size_t cap = pbj__capacity(count + add);
    if (cap < count + add || cap > (size_t)-1 / elem) return NULL;
    void *n = pbj_arena_alloc(a, cap * elem);
    if (n && count) memcpy(n, data, count * elem);
    return n;
}
#endif

PBJ_INLINE void *pbj__array_grow(pbj_arena *a, void *data, size_t count, size_t add, size_t elem)
{
    if (count + add <= pbj__capacity(count) && data) return data;
    return pbj__array_grow_slow(a, data, count, add, elem);
}

/* A repeated field's array made by the runtime (decode, the text and JSON readers, add, put, merge): its
 * capacity is kept in the PBJ_ARENA_ALIGN bytes before data. A field's first run in decode gets exactly its
 * count (counted before allocating: most runs are a field's only one); growth goes to a power of two, the old
 * array given up (poisoned under ASan). pbj__array_room is the inline test. */
PBJ_INLINE bool pbj__array_room(const void *data, size_t count)
{
    size_t cap;
    if (!data) return false;
    memcpy(&cap, (const uint8_t *)data - PBJ_ARENA_ALIGN, sizeof cap);
    return count < cap;
}

/* The array with room for count + add: data itself, or a new one (count elements copied). */
PBJ_HOT_INLINE void *pbj__array_resize(pbj_arena *a, void *data, size_t count, size_t add, size_t elem)
{
    size_t had = 0, cap;
    if (data) memcpy(&had, (uint8_t *)data - PBJ_ARENA_ALIGN, sizeof had);
    if (data && count + add <= had) return data;
    cap = data ? pbj__capacity(count + add) : add;
    if (cap < count + add || cap > ((size_t)-1 - PBJ_ARENA_ALIGN) / elem) return NULL;
    uint8_t *mem = (uint8_t *)pbj_arena_alloc(a, PBJ_ARENA_ALIGN + cap * elem);
    if (!mem) return NULL;
    memcpy(mem, &cap, sizeof cap);
    if (count) memcpy(mem + PBJ_ARENA_ALIGN, data, count * elem);
    if (data) pbj__arena_give_up(a, (uint8_t *)data - PBJ_ARENA_ALIGN, PBJ_ARENA_ALIGN + had * elem);
    return mem + PBJ_ARENA_ALIGN;
}

PBJ_OUTLINE void *pbj__array_more(pbj_arena *a, void *data, size_t count, size_t add, size_t elem) PBJ__PROTO
#if PBJ__BODIES
{
    return pbj__array_resize(a, data, count, add, elem);
}
#endif

/* A runtime-made array of count elements with room for one more: data itself, or a new one (NULL when out of
 * memory). A new array has room for 4, as pbj__capacity gives the arrays that grow one element at a time. */
PBJ_INLINE void *pbj__array_add(pbj_arena *a, void *data, size_t count, size_t elem)
{
    return pbj__array_room(data, count) ? data : pbj__array_more(a, data, count, data ? 1 : 4, elem);
}

/* The records of a run that starts with the payload at p of a record tagged tag: 1 + how many
 * records with the same tag follow it (a repeated field's elements, counted once so its array is
 * allocated once). Stops at anything else, malformed input included: decode reports that later. */
PBJ_HOT_INLINE size_t pbj__run_count(const uint8_t *p, const uint8_t *end, uint32_t tag)
{
    size_t n = 0;
    uint64_t len;
    if ((tag & 7) == PBJ_WT_LEN && tag < 0x80)     /* the usual run: messages or strings with one-byte tags */
        for (;;) {
            n++;
            if (!(p = pbj_get_varint(p, end, &len)) || len >= (uint64_t)(end - p) || p[len] != tag) return n;
            p += len + 1;
        }
    for (;;) {
        uint64_t v;
        n++;
        switch (tag & 7) {
        case PBJ_WT_VARINT: p = pbj_get_varint(p, end, &v); break;
        case PBJ_WT_I64: p = end - p >= 8 ? p + 8 : NULL; break;
        case PBJ_WT_I32: p = end - p >= 4 ? p + 4 : NULL; break;
        case PBJ_WT_LEN: p = (p = pbj_get_varint(p, end, &v)) && v <= (uint64_t)(end - p) ? p + v : NULL; break;
        default: p = NULL;                         /* groups: one at a time */
        }
        if (!p || !(p = pbj_get_varint(p, end, &v)) || v != tag) return n;
    }
}

/* One more element of a repeated field whose record tagged tag has its payload at p, the array being
 * full: room for the rest of the run. Once per run, not cold: a field's first run (no array yet) is allocated
 * inline from the current block; anything else ends in a tail call, so the usual path saves no register. */
static PBJ__NOINLINE void *pbj__array_next(pbj_arena *a, void *data, size_t count, size_t elem, const uint8_t *p, const uint8_t *end,
                                  uint32_t tag)
{
    size_t add = pbj__run_count(p, end, tag), n = add * elem + PBJ_ARENA_ALIGN;
    if (PBJ_LIKELY(!data && add <= ((size_t)-1 - PBJ_ARENA_ALIGN) / elem && n <= pbj__arena_left(a))) {
        uint8_t *mem = a->cur;                     /* n is a multiple of 8 when elem is (a struct of 8-byte members) */
        if (PBJ_LIKELY(n % PBJ_ARENA_ALIGN == 0)) {
            a->cur += n;
            memcpy(mem, &add, sizeof add);
            return mem + PBJ_ARENA_ALIGN;
        }
    }
    return pbj__array_more(a, data, count, add, elem);
}

/* ---- where text-format or JSON input failed ------------------------------------ */
/* pbj_text_read_options.error and pbj_json_options.error (pbj_text_error and pbj_json_error name it too). */
typedef struct pbj_read_error {
    size_t offset;                /* bytes of the input before the error */
    uint32_t line, column;        /* from 1; the text format counts a tab to the next multiple of 8, JSON bytes */
    char message[200];            /* what is wrong there (the text format: protoc's words) */
} pbj_read_error;

/* ---- the growable write buffer ------------------------------------------------ */
/* Empty: pbj_buf b = PBJ_BUF_INIT; or pbj_buf_init(&b). It grows through PBJ_MALLOC; pbj_buf_free frees it. */
typedef struct pbj_buf {
    uint8_t *data;                /* from PBJ_MALLOC */
    size_t len, cap;
} pbj_buf;

#define PBJ_BUF_INIT {NULL, 0, 0}

PBJ_INLINE void pbj_buf_init(pbj_buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
}

PBJ_OUTLINE pbj_status pbj__buf_grow(pbj_buf *b, size_t need) PBJ__PROTO
#if PBJ__BODIES
{
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) {
        if (cap > (size_t)-1 / 2) return PBJ_ERR_NOMEM;
        cap *= 2;
    }
    uint8_t *n = (uint8_t *)PBJ_MALLOC(cap);
    if (!n) return PBJ_ERR_NOMEM;
    if (b->len) memcpy(n, b->data, b->len);
    PBJ_FREE(b->data);
    b->data = n;
    b->cap = cap;
    return PBJ_OK;
}
#endif

/* Make room for extra more bytes after len. */
PBJ_MUST_USE PBJ_INLINE pbj_status pbj_buf_reserve(pbj_buf *b, size_t extra)
{
    if (PBJ_UNLIKELY(extra > (size_t)-1 - b->len)) return PBJ_ERR_NOMEM;
    if (PBJ_LIKELY(b->len + extra <= b->cap)) return PBJ_OK;
    return pbj__buf_grow(b, b->len + extra);
}

PBJ_MUST_USE PBJ_INLINE pbj_status pbj_buf_append(pbj_buf *b, const void *p, size_t n)
{
    pbj_status s = pbj_buf_reserve(b, n);
    if (s != PBJ_OK) return s;
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    return PBJ_OK;
}

PBJ_INLINE void pbj_buf_free(pbj_buf *b)
{
    PBJ_FREE(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* ---- decoding: options and context -------------------------------------------- */
typedef enum pbj_unknown_mode {
    PBJ_UNKNOWN_KEEP = 0,         /* kept as raw bytes, written back after the known fields */
    PBJ_UNKNOWN_DROP = 1,         /* skipped */
    PBJ_UNKNOWN_REJECT = 2        /* strict: PBJ_ERR_UNKNOWN_FIELD */
} pbj_unknown_mode;

#define PBJ_DEFAULT_MAX_DEPTH 100                  /* as protobuf's C++ runtime */
/* The deepest nesting any max_depth allows: decode recurses once per level, so a
 * larger setting is clamped to this. A level of TestAllTypesProto3's decoder takes
 * 7.9 KB of stack at -O0 with ASan+UBSan under gcc 12, 64 KB under clang 14 (a few
 * hundred bytes at -O2): the default depth fits an 8 MiB stack; this cap needs an
 * optimized build or a larger stack; define it smaller for threads with small stacks. */
#ifndef PBJ_MAX_DEPTH_CAP
#define PBJ_MAX_DEPTH_CAP 4000
#endif
/* The longest chain of messages, the top one included, that M_size, M_encode, M_write_reverse, M_writer_from, M_copy,
 * M_merge, M_sort_maps and M_equal walk (deeper, or a message that reaches itself: PBJ_SIZE_ERROR, PBJ_ERR_DEPTH, or
 * unequal). By default exactly what decode accepts with its default max_depth (PBJ_DEFAULT_MAX_DEPTH levels inside the
 * top message): one depth rule for readers and walks, and the bound fits an 8 MiB stack at -O0 with ASan (a level of
 * TestAllTypesProto3 takes at most 1.5 KB of these walks under gcc 12, 27 KB under clang 14; README, M_size). For
 * messages decoded with max_depth N above the default, define it as N + 1 (the same in every unit). Size and encode
 * count the levels through message types that form a cycle (a Node holding a Node), each type off such a cycle
 * starting a new count; the others count every message and map entry, as decode does. */
#ifndef PBJ_MAX_ENCODE_DEPTH
#define PBJ_MAX_ENCODE_DEPTH (PBJ_DEFAULT_MAX_DEPTH + 1)
#endif
#define PBJ_SIZE_ERROR ((size_t)-1)   /* M_size of a message nested deeper than PBJ_MAX_ENCODE_DEPTH */
#define PBJ_DEFAULT_MAX_LENGTH ((size_t)64 << 20)   /* 64 MiB per length-delimited field */

/* Zero (or NULL options) means the default for each member. */
typedef struct pbj_decode_options {
    uint32_t max_depth;           /* messages (and groups) nested inside the top-level one; 0 = PBJ_DEFAULT_MAX_DEPTH; at most PBJ_MAX_DEPTH_CAP */
    size_t max_length;            /* limit on any one length prefix; 0 = PBJ_DEFAULT_MAX_LENGTH */
    bool alias;                   /* strings and bytes point into the input (keep it alive) */
    pbj_unknown_mode unknown;
    bool partial;                 /* proto2: accept a message with required fields missing (else PBJ_ERR_REQUIRED) */
    size_t max_memory;            /* bytes one decode may allocate from the arena (its structs, arrays, strings,
                                     unknown fields; counted the same whatever the arena held before), PBJ_ERR_NOMEM
                                     past it; 0 or SIZE_MAX = no limit (the default: a valid message is never refused) */
} pbj_decode_options;

/* The state one decode call threads through the generated decoders. */
typedef struct pbj_decoder {
    pbj_arena *arena;
    size_t max_length;
    uint32_t depth_left;          /* nesting levels still allowed */
    bool alias;
    pbj_unknown_mode unknown;
    uintptr_t input_tail;         /* 10 bytes before the whole input's end (M_decode's), or 0: a long varint at or
                                     before it is read inline with one check of end */
} pbj_decoder;

PBJ_INLINE void pbj_decoder_init(pbj_decoder *d, pbj_arena *a, const pbj_decode_options *o)
{
    d->arena = a;
    d->max_length = o && o->max_length ? o->max_length : PBJ_DEFAULT_MAX_LENGTH;
    d->depth_left = o && o->max_depth ? o->max_depth : PBJ_DEFAULT_MAX_DEPTH;
    if (d->depth_left > PBJ_MAX_DEPTH_CAP) d->depth_left = PBJ_MAX_DEPTH_CAP;
    d->depth_left++;                           /* the top-level message is level 0, as protoc counts */
    d->alias = o ? o->alias : false;
    d->unknown = o ? o->unknown : PBJ_UNKNOWN_KEEP;
    d->input_tail = 0;
}

/* The arena's cap for one decode (options o): max_memory more bytes than it has handed out. Returns the cap it
 * replaces, which pbj__decode_uncap puts back when the decode returns (nested decodes keep the tighter cap). */
PBJ_INLINE size_t pbj__decode_cap(pbj_arena *a, const pbj_decode_options *o)
{
    if (!a || !o || !o->max_memory || o->max_memory == (size_t)-1) return a ? a->limit : 0;
    size_t old = a->limit, used = pbj_arena_used(a);
    size_t limit = o->max_memory > (size_t)-1 - used ? 0 : used + o->max_memory;
    if (!old || (limit && limit < old)) a->limit = limit;
    return old;
}

/* The decode's status, its cap ended: PBJ_ERR_NOMEM whenever the decode took more than the cap, however far
 * it got (the arena refuses a new block past the cap, but allocations that fit the current block go unchecked:
 * so the verdict does not depend on what the arena held before). */
PBJ_INLINE pbj_status pbj__decode_uncap(pbj_arena *a, size_t old, pbj_status st)
{
    if (!a) return st;
    if (PBJ_UNLIKELY(a->limit != 0) && pbj_arena_used(a) > a->limit) st = PBJ_ERR_NOMEM;
    a->limit = old;
    return st;
}

/* M_decode's start: d from o (NULL, the usual call: the defaults as constants, no option read), the input's
 * last 10 bytes noted, the arena capped; returns the cap pbj__decode_uncap puts back. */
PBJ_HOT_INLINE size_t pbj__decode_begin(pbj_decoder *d, pbj_arena *a, const pbj_decode_options *o, const uint8_t *buf, size_t len)
{
    if (PBJ_LIKELY(!o)) {
        pbj_decoder dflt = { a, PBJ_DEFAULT_MAX_LENGTH, PBJ_DEFAULT_MAX_DEPTH + 1, false, PBJ_UNKNOWN_KEEP, 0 };
        *d = dflt;
    } else pbj_decoder_init(d, a, o);
    d->input_tail = len >= 10 ? (uintptr_t)(buf + len - 10) : 0;
    return o ? pbj__decode_cap(a, o) : a ? a->limit : 0;
}


/* A tag: the varint (at most 5 bytes: protoc rejects a tag written with 6 to 10 bytes; bits past 32 dropped,
 * as C++ reads it), checked for field number 0 and wire types 6 and 7.
 * Returns NULL with *st set on error. */
#define PBJ_MAX_TAG_BYTES 5
PBJ_OUTLINE pbj_status pbj__tag_status(const uint8_t *p, const uint8_t *end) PBJ__PROTO
#if PBJ__BODIES
{
    uint64_t v;
    const uint8_t *q = pbj_get_varint(p, end, &v);
    if (!q) return pbj_varint_error(p, end);
    if (q - p <= PBJ_MAX_TAG_BYTES && ((uint32_t)v >> 3) == 0) return PBJ_ERR_FIELD_ZERO;
    return PBJ_ERR_TAG;
}
#endif

PBJ_INLINE const uint8_t *pbj_get_tag(const uint8_t *p, const uint8_t *end, uint32_t *tag, pbj_status *st)
{
    uint64_t v;
    const uint8_t *q = pbj_get_varint(p, end, &v);
    uint32_t t;
    if (PBJ_LIKELY(q && q - p <= PBJ_MAX_TAG_BYTES && ((t = (uint32_t)v) >> 3) != 0 && (t & 7) < 6)) {
        *tag = t;
        return q;
    }
    *st = pbj__tag_status(p, end);
    return NULL;
}

/* A length prefix is at most 5 bytes long, as C++ reads it (ReadSize). */
#define PBJ_MAX_LEN_BYTES 5

/* Why the length prefix at p failed: the varint, the limit, or the bytes left. */
PBJ_OUTLINE pbj_status pbj__len_status(const uint8_t *p, const uint8_t *end, size_t max_length) PBJ__PROTO
#if PBJ__BODIES
{
    uint64_t v;
    const uint8_t *q = pbj_get_varint(p, end, &v);
    if (!q) return pbj_varint_error(p, end);
    if (q - p > PBJ_MAX_LEN_BYTES) return PBJ_ERR_VARINT;
    return v > max_length ? PBJ_ERR_TOO_LONG : PBJ_ERR_TRUNCATED;
}
#endif

/* A varint's value and the byte after it (p NULL when cut or malformed): returned in two registers, so an
 * out-of-line read keeps nothing in memory and saves no register. */
typedef struct { const uint8_t *p; uint64_t v; } pbj__varint_at;

/* A length prefix past two bytes, out of line: its varint, p NULL when it is cut, malformed or longer than
 * PBJ_MAX_LEN_BYTES. */
static PBJ__NOINLINE pbj__varint_at pbj__get_len_long(const uint8_t *p, const uint8_t *end)
{
    pbj__varint_at r;
    r.p = pbj__get_varint_long(p, end, &r.v);
    if (r.p && r.p - p > PBJ_MAX_LEN_BYTES) r.p = NULL;
    return r;
}

/* pbj__get_len_long's value through out (inlined: out is the caller's local, kept in a register). */
PBJ_HOT_INLINE const uint8_t *pbj__get_len_rest(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    pbj__varint_at r = pbj__get_len_long(p, end);
    *out = r.v;
    return r.p;
}

/* A length prefix's varint: one and two bytes inline (within the 5-byte bound, no check of it), longer ones out of
 * line; NULL when it is cut, malformed or longer than PBJ_MAX_LEN_BYTES. */
PBJ_HOT_INLINE const uint8_t *pbj__get_len_varint(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    PBJ__GET_VARINT_TWO(pbj__get_len_rest(p, end, out))
}

/* A length prefix, checked against the limit and the bytes left (one branch when it is good). */
PBJ_HOT_INLINE const uint8_t *pbj_get_len(const uint8_t *p, const uint8_t *end, const pbj_decoder *d, size_t *len, pbj_status *st)
{
    uint64_t v;
    const uint8_t *q = pbj__get_len_varint(p, end, &v);
    if (PBJ_LIKELY(q && v <= (uint64_t)(end - q) && v <= d->max_length)) {
        *len = (size_t)v;
        return q;
    }
    *st = pbj__len_status(p, end, d->max_length);
    return NULL;
}

/* The same inside a message decode reads: its bytes, like the whole input, are no longer than d->max_length (M_decode
 * stops a longer input at its first top-level length past the limit: pbj__top_lengths), so a length that fits them fits the limit. */
PBJ_HOT_INLINE const uint8_t *pbj__get_len_in(const uint8_t *p, const uint8_t *end, const pbj_decoder *d, size_t *len, pbj_status *st)
{
    uint64_t v;
    const uint8_t *q = pbj__get_len_varint(p, end, &v);
    if (PBJ_LIKELY(q && v <= (uint64_t)(end - q))) {
        *len = (size_t)v;
        return q;
    }
    *st = pbj__len_status(p, end, d->max_length);
    return NULL;
}

/* Read a varint; on error set *st. */
PBJ_HOT_INLINE const uint8_t *pbj_get_varint_st(const uint8_t *p, const uint8_t *end, uint64_t *out, pbj_status *st)
{
    const uint8_t *q = pbj_get_varint(p, end, out);
    if (PBJ_UNLIKELY(!q)) *st = pbj_varint_error(p, end);
    return q;
}

/* Bytes 3 to 10 of a varint at p whose first two bytes go on, 10 bytes readable at p: one byte at a
 * time, unrolled (a 3- to 5-byte id or amount costs a few instructions a byte, no call); NULL when malformed. */
#define PBJ__VARINT_BYTE(i) \
    b = p[i]; \
    r |= (b & 0x7f) << (7 * i); \
    if (b < 0x80) { *out = r; return p + i + 1; }
PBJ_HOT_INLINE const uint8_t *pbj__varint_tail(const uint8_t *p, uint64_t *out)
{
    uint64_t b, r = (uint64_t)(p[0] & 0x7f) | (uint64_t)(p[1] & 0x7f) << 7;
    PBJ__VARINT_BYTE(2) PBJ__VARINT_BYTE(3) PBJ__VARINT_BYTE(4) PBJ__VARINT_BYTE(5)
    PBJ__VARINT_BYTE(6) PBJ__VARINT_BYTE(7) PBJ__VARINT_BYTE(8)
    if ((b = p[9]) >= 0x80) return NULL;
    *out = r | b << 63;                          /* the 10th byte's bits past 64 drop, as protobuf's C++ */
    return p + 10;
}

/* The same where fewer than 10 bytes are left (near the input's end): each byte checked against end first,
 * the first two too; NULL when cut or malformed. */
#define PBJ__VARINT_BYTE_IN(i) \
    if (end - p <= i) return NULL;   /* a count, not p + i: that pointer may lie past the buffer */ \
    PBJ__VARINT_BYTE(i)
static PBJ__NOINLINE const uint8_t *pbj__varint_tail_in(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    if (end - p < 2) return NULL;
    uint64_t b, r = (uint64_t)(p[0] & 0x7f) | (uint64_t)(p[1] & 0x7f) << 7;
    PBJ__VARINT_BYTE_IN(2) PBJ__VARINT_BYTE_IN(3) PBJ__VARINT_BYTE_IN(4) PBJ__VARINT_BYTE_IN(5)
    PBJ__VARINT_BYTE_IN(6) PBJ__VARINT_BYTE_IN(7) PBJ__VARINT_BYTE_IN(8)
    if (end - p <= 9 || (b = p[9]) >= 0x80) return NULL;
    *out = r | b << 63;
    return p + 10;
}
#undef PBJ__VARINT_BYTE_IN
#undef PBJ__VARINT_BYTE

/* Past two bytes: the tail read at once when the whole input has 10 bytes left, checked against end. */
PBJ_HOT_INLINE const uint8_t *pbj__get_varint_rest(const uint8_t *p, const uint8_t *end, const pbj_decoder *d, uint64_t *out, pbj_status *st)
{
    const uint8_t *q;
    if (PBJ_LIKELY((uintptr_t)p <= d->input_tail) && (q = pbj__varint_tail(p, out)) && q <= end) return q;
    if (PBJ_UNLIKELY(!(q = pbj__varint_tail_in(p, end, out)))) *st = pbj_varint_error(p, end);
    return q;
}

/* Bytes past the first two of the varint at p, out of line (the default tier's), as pbj__get_varint_rest. */
static PBJ__NOINLINE pbj__varint_at pbj__varint_rest_call(const uint8_t *p, const uint8_t *end, uintptr_t input_tail)
{
    pbj__varint_at r;
    const uint8_t *q;
    if (PBJ_LIKELY((uintptr_t)p <= input_tail) && (q = pbj__varint_tail(p, &r.v)) && q <= end) r.p = q;
    else r.p = pbj__varint_tail_in(p, end, &r.v);
    return r;
}

PBJ_HOT_INLINE const uint8_t *pbj__get_varint_rest_out(const uint8_t *p, const uint8_t *end, const pbj_decoder *d, uint64_t *out,
                                                      pbj_status *st)
{
    pbj__varint_at r = pbj__varint_rest_call(p, end, d->input_tail);
    if (PBJ_UNLIKELY(!r.p)) *st = pbj_varint_error(p, end);
    else *out = r.v;
    return r.p;
}

/* Read a varint inside a message being decoded by d; on error set *st. One and two bytes inline; past
 * them out of line (pbj_get_varint_in) or inline too (pbj__get_varint_hot, the max tier's). */
PBJ_HOT_INLINE const uint8_t *pbj_get_varint_in(const uint8_t *p, const uint8_t *end, const pbj_decoder *d, uint64_t *out, pbj_status *st)
{
    PBJ__GET_VARINT_TWO(pbj__get_varint_rest_out(p, end, d, out, st))
}

PBJ_HOT_INLINE const uint8_t *pbj__get_varint_hot(const uint8_t *p, const uint8_t *end, const pbj_decoder *d, uint64_t *out, pbj_status *st)
{
    PBJ__GET_VARINT_TWO(pbj__get_varint_rest(p, end, d, out, st))
}
#undef PBJ__GET_VARINT_TWO

/* String or bytes contents: copied into the arena, or aliased to the input. */
PBJ_INLINE pbj_status pbj_take_slice(pbj_decoder *d, const uint8_t *p, size_t len, pbj_slice *out)
{
    if (d->alias || len == 0) {
        out->data = len ? p : NULL;
        out->len = len;
        return PBJ_OK;
    }
    uint8_t *m = (uint8_t *)pbj_arena_alloc(d->arena, len);
    if (PBJ_UNLIKELY(!m)) return PBJ_ERR_NOMEM;
    memcpy(m, p, len);
    out->data = m;
    out->len = len;
    return PBJ_OK;
}

/* Skip the payload of a field with wire type wt whose tag ended at p; groups
 * are skipped to their matching end (counted against the depth limit). */
PBJ_OUTLINE const uint8_t *pbj_skip_field(const uint8_t *p, const uint8_t *end, uint32_t tag, const pbj_decoder *d, uint32_t depth_left, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    uint64_t v;
    size_t len;
    switch (tag & 7) {
    case PBJ_WT_VARINT: return pbj_get_varint_st(p, end, &v, st);
    case PBJ_WT_I64:
        if (end - p < 8) break;
        return p + 8;
    case PBJ_WT_I32:
        if (end - p < 4) break;
        return p + 4;
    case PBJ_WT_LEN: return (p = pbj_get_len(p, end, d, &len, st)) ? p + len : NULL;
    case PBJ_WT_SGROUP:
        if (depth_left == 0) {
            *st = PBJ_ERR_DEPTH;
            return NULL;
        }
        for (;;) {
            uint32_t t;
            if (p >= end) break;
            if (!(p = pbj_get_tag(p, end, &t, st))) return NULL;
            if ((t & 7) == PBJ_WT_EGROUP) {
                if ((t >> 3) == (tag >> 3)) return p;
                *st = PBJ_ERR_GROUP;
                return NULL;
            }
            if (!(p = pbj_skip_field(p, end, t, d, depth_left - 1, st))) return NULL;
        }
        break;
    default:                                   /* an end-group with no start */
        *st = PBJ_ERR_GROUP;
        return NULL;
    }
    *st = PBJ_ERR_TRUNCATED;
    return NULL;
}
#endif

/* A group's body: from p (after its start tag) to *body_end, where its end
 * tag starts; returns the byte after the end tag. */
PBJ_OUTLINE const uint8_t *pbj_group_body(const uint8_t *p, const uint8_t *end, uint32_t tag, const pbj_decoder *d,
                                          const uint8_t **body_end, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    if (d->depth_left == 0) {
        *st = PBJ_ERR_DEPTH;
        return NULL;
    }
    for (;;) {
        uint32_t t;
        const uint8_t *at = p;
        if (p >= end) {
            *st = PBJ_ERR_TRUNCATED;
            return NULL;
        }
        if (!(p = pbj_get_tag(p, end, &t, st))) return NULL;
        if ((t & 7) == PBJ_WT_EGROUP) {
            if ((t >> 3) != (tag >> 3)) break;
            *body_end = at;
            return p;
        }
        if (!(p = pbj_skip_field(p, end, t, d, d->depth_left - 1, st))) return NULL;
    }
    *st = PBJ_ERR_GROUP;
    return NULL;
}
#endif

/* An input longer than max_length: where decode must stop so that it reports the first top-level record whose
 * length is past the limit, which it no longer checks (pbj__get_len_in): the end of that length's varint (decode
 * finds the length past the bytes left and says PBJ_ERR_TOO_LONG), or end. */
PBJ_OUTLINE const uint8_t *pbj__top_lengths(const uint8_t *p, const uint8_t *end, const pbj_decoder *d) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_status st = PBJ_OK;
    uint32_t tag;
    uint64_t v;
    while (p < end) {
        if (!(p = pbj_get_tag(p, end, &tag, &st))) return end;
        const uint8_t *q = pbj_skip_field(p, end, tag, d, d->depth_left, &st);
        if (q) p = q;
        else if (st == PBJ_ERR_TOO_LONG && (tag & 7) == PBJ_WT_LEN) return pbj_get_varint(p, end, &v);
        else return end;              /* malformed (decode says so), or a group (pbj_group_body checks its lengths) */
    }
    return end;
}
#endif

/* The end M_decode gives its body: the input's, or where pbj__top_lengths stops an input longer than max_length. */
PBJ_INLINE const uint8_t *pbj__decode_end(const pbj_decoder *d, const uint8_t *buf, size_t len)
{
    return PBJ_LIKELY(len <= d->max_length) ? buf + len : pbj__top_lengths(buf, buf + len, d);
}



/* Append n bytes to a slice grown in the arena (unknown fields). */
PBJ_INLINE pbj_status pbj__append(pbj_arena *a, pbj_slice *s, const uint8_t *bytes, size_t n)
{
    uint8_t *buf = (uint8_t *)pbj__array_grow(a, (void *)(uintptr_t)s->data, s->len, n, 1);
    if (!buf) return PBJ_ERR_NOMEM;
    memcpy(buf + s->len, bytes, n);
    s->data = buf;
    s->len += n;
    return PBJ_OK;
}

/* A message's unknown fields, its pbj_unknown member: NULL when it has none, else a record in an arena (decode's,
 * merge's, copy's) holding their raw bytes. Their bytes, empty for NULL. */
PBJ_INLINE pbj_slice pbj_unknown_bytes(const pbj_slice *u)
{
    return u ? *u : pbj_slice_make(NULL, 0);
}

/* n bytes appended to the unknown fields *u, whose record the first append makes in the arena. */
PBJ_INLINE pbj_status pbj__append_unknown(pbj_arena *a, pbj_slice **u, const uint8_t *bytes, size_t n)
{
    if (!*u && (*u = (pbj_slice *)pbj_arena_alloc(a, sizeof **u)) != NULL) **u = pbj_slice_make(NULL, 0);
    return *u ? pbj__append(a, *u, bytes, n) : PBJ_ERR_NOMEM;
}

/* *u set to a new record in the arena holding bytes (NULL when empty): never writes to the record *u held. */
PBJ_INLINE pbj_status pbj__unknown_new(pbj_arena *a, pbj_slice **u, pbj_slice bytes)
{
    pbj_slice *r = bytes.len ? (pbj_slice *)pbj_arena_alloc(a, sizeof *r) : NULL;
    if (bytes.len && !r) return PBJ_ERR_NOMEM;
    if (r) *r = bytes;
    *u = r;
    return PBJ_OK;
}

/* n bytes of unknown fields appended to **unknown when the options keep them; unknown is NULL for a
 * message that has no pbj_unknown (pbj.drop_unknown), whose unknown fields are always dropped. */
PBJ_INLINE pbj_status pbj__keep_unknown(pbj_decoder *d, pbj_slice **unknown, const uint8_t *bytes, size_t n)
{
    return d->unknown != PBJ_UNKNOWN_KEEP || !unknown ? PBJ_OK : pbj__append_unknown(d->arena, unknown, bytes, n);
}

/* An unknown field whose tag starts at start and payload at p: kept (appended
 * to **unknown in the arena), dropped, or rejected as the options say. */
PBJ_OUTLINE const uint8_t *pbj_unknown_field(pbj_decoder *d, pbj_slice **unknown, const uint8_t *start, const uint8_t *p, const uint8_t *end, uint32_t tag, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    if (d->unknown == PBJ_UNKNOWN_REJECT) {
        *st = PBJ_ERR_UNKNOWN_FIELD;
        return NULL;
    }
    if (!(p = pbj_skip_field(p, end, tag, d, d->depth_left, st))) return NULL;
    if ((*st = pbj__keep_unknown(d, unknown, start, (size_t)(p - start))) != PBJ_OK) return NULL;
    return p;
}
#endif

/* The payload of a google.protobuf wrapper message (DoubleValue, StringValue,
 * ...) unboxed into a field: the value field 1 (tag want_tag) is read into
 * *num (varint, fixed32, fixed64) or *str (length-delimited), left alone when
 * absent; anything else (field 1 with another wire type too, as protobuf's
 * C++ runtime does) is an unknown field of the wrapper: kept in *unknown as
 * the options say, or skipped when unknown is NULL. The wrapper is a level of
 * nesting, as any message (d->depth_left: the levels its parent allows inside). */
PBJ_OUTLINE pbj_status pbj_decode_wrapper_keep(const uint8_t *p, const uint8_t *end, pbj_decoder *d, uint32_t want_tag,
                                               uint64_t *num, pbj_slice *str, bool utf8, pbj_slice *unknown) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_status st = PBJ_OK;
    if (d->depth_left == 0) return PBJ_ERR_DEPTH;
    while (p < end) {
        uint32_t tag, u32;
        size_t len;
        const uint8_t *start = p;
        if (!(p = pbj_get_tag(p, end, &tag, &st))) return st;
        if (tag != want_tag) {
            d->depth_left--;                   /* the levels inside the wrapper */
            p = unknown ? pbj_unknown_field(d, &unknown, start, p, end, tag, &st) : pbj_skip_field(p, end, tag, d, d->depth_left, &st);
            d->depth_left++;
            if (!p) return st;
            continue;
        }
        switch (tag & 7) {
        case PBJ_WT_VARINT:
            if (!(p = pbj_get_varint_st(p, end, num, &st))) return st;
            break;
        case PBJ_WT_I64:
            if (!(p = pbj_get_fixed64(p, end, num))) return PBJ_ERR_TRUNCATED;
            break;
        case PBJ_WT_I32:
            if (!(p = pbj_get_fixed32(p, end, &u32))) return PBJ_ERR_TRUNCATED;
            *num = u32;
            break;
        default:
            if (!(p = pbj_get_len(p, end, d, &len, &st))) return st;
            if (utf8 && !pbj_utf8_valid(p, len)) return PBJ_ERR_UTF8;
            if ((st = pbj_take_slice(d, p, len, str)) != PBJ_OK) return st;
            p += len;
        }
    }
    return PBJ_OK;
}
#endif

/* The same with the wrapper's unknown fields skipped (views). */
PBJ_INLINE pbj_status pbj_decode_wrapper(const uint8_t *p, const uint8_t *end, pbj_decoder *d, uint32_t want_tag,
                                         uint64_t *num, pbj_slice *str, bool utf8)
{
    return pbj_decode_wrapper_keep(p, end, d, want_tag, num, str, utf8, NULL);
}

/* A value of a closed (proto2) enum that names no value: kept as an unknown
 * varint field (number, v), dropped, or rejected, as the options say (unknown NULL: dropped). */
PBJ_OUTLINE bool pbj_unknown_varint(pbj_decoder *d, pbj_slice **unknown, int32_t number, uint64_t v, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t field[15];
    if (d->unknown == PBJ_UNKNOWN_REJECT) {
        *st = PBJ_ERR_UNKNOWN_FIELD;
        return false;
    }
    size_t n = (size_t)(pbj_put_varint(pbj_put_varint(field, PBJ_TAG(number, PBJ_WT_VARINT)), v) - field);
    return (*st = pbj__keep_unknown(d, unknown, field, n)) == PBJ_OK;
}
#endif

/* ---- extensions ----------------------------------------------------------------
 * A message with extension ranges keeps the records of its known extensions
 * (those that fit the extension's type: pbj__ext_field) as they came in its
 * pbj_ext slice (arena memory), ascending by field number (a number's records
 * in arrival order); encode writes them in number order
 * among the other fields. The typed accessors generated for each `extend`
 * field read and rewrite these records. In a message_set_wire_format message
 * the records are items (group 1 holding type_id 2 and message 3), ordered by
 * type_id. */
typedef struct pbj__ext_rec {
    uint32_t tag;
    uint32_t number;                        /* the field number; a message-set item's type_id */
    const uint8_t *start, *payload, *end;   /* tag, value, one past the record */
} pbj__ext_rec;

/* The record at *pos of ext (advancing *pos); false at the end. */
PBJ_INLINE bool pbj__ext_next(pbj_slice ext, size_t *pos, pbj__ext_rec *r)
{
    pbj_decoder d;
    pbj_status st = PBJ_OK;
    uint64_t tag;
    const uint8_t *p, *end = pbj_slice_data(ext) + ext.len;
    if (*pos >= ext.len) return false;
    r->start = ext.data + *pos;
    if (!(p = pbj_get_varint(r->start, end, &tag))) return false;
    pbj_decoder_init(&d, NULL, NULL);
    d.max_length = (size_t)-1;
    r->tag = (uint32_t)tag;
    r->payload = p;
    if (!(r->end = pbj_skip_field(p, end, r->tag, &d, d.depth_left, &st))) return false;
    *pos = (size_t)(r->end - ext.data);
    r->number = r->tag >> 3;
    if (r->tag == PBJ_TAG(1, PBJ_WT_SGROUP)) {         /* a message-set item: its type_id */
        while (p < r->end) {
            uint64_t t, v;
            if (!(p = pbj_get_varint(p, r->end, &t))) break;
            if (t == PBJ_TAG(2, PBJ_WT_VARINT) && pbj_get_varint(p, r->end, &v)) {
                r->number = (uint32_t)v;
                break;
            }
            if ((t & 7) == PBJ_WT_EGROUP || !(p = pbj_skip_field(p, r->end, (uint32_t)t, &d, d.depth_left, &st))) break;
        }
    }
    return true;
}

/* ext with n bytes of records rec (field number) inserted after the records of
 * numbers up to number; a new array in the arena unless appending to one decode made. */
PBJ_OUTLINE pbj_status pbj__ext_insert(pbj_arena *a, pbj_slice *ext, const uint8_t *rec, size_t n, uint32_t number, bool owned) PBJ__PROTO
#if PBJ__BODIES
{
    size_t pos = 0, at = 0;
    pbj__ext_rec r;
    while (pbj__ext_next(*ext, &pos, &r) && r.number <= number) at = pos;
    if (owned && at == ext->len) return pbj__append(a, ext, rec, n);
    uint8_t *buf = (uint8_t *)pbj__array_grow(a, NULL, 0, ext->len + n, 1);
    if (!buf) return PBJ_ERR_NOMEM;
    if (at) memcpy(buf, ext->data, at);
    memcpy(buf + at, rec, n);
    if (ext->len > at) memcpy(buf + at + n, ext->data + at, ext->len - at);
    ext->data = buf;
    ext->len += n;
    return PBJ_OK;
}
#endif

/* ext without the records of field number (a new array in the arena when there were any). */
PBJ_OUTLINE pbj_status pbj__ext_remove(pbj_arena *a, pbj_slice *ext, uint32_t number) PBJ__PROTO
#if PBJ__BODIES
{
    size_t pos = 0, len = 0;
    pbj__ext_rec r;
    uint8_t *buf = NULL;
    bool found = false;
    while (pbj__ext_next(*ext, &pos, &r)) found |= r.number == number;
    if (!found) return PBJ_OK;
    if (!(buf = (uint8_t *)pbj__array_grow(a, NULL, 0, ext->len, 1))) return PBJ_ERR_NOMEM;
    for (pos = 0; pbj__ext_next(*ext, &pos, &r);) {
        if (r.number == number) continue;
        memcpy(buf + len, r.start, (size_t)(r.end - r.start));
        len += (size_t)(r.end - r.start);
    }
    ext->data = buf;
    ext->len = len;
    return PBJ_OK;
}
#endif

/* Replace the records of field number by the n bytes at rec. */
PBJ_OUTLINE pbj_status pbj__ext_set(pbj_arena *a, pbj_slice *ext, uint32_t number, const uint8_t *rec, size_t n) PBJ__PROTO
#if PBJ__BODIES
{
    pbj_status st = pbj__ext_remove(a, ext, number);
    return st != PBJ_OK ? st : pbj__ext_insert(a, ext, rec, n, number, false);
}
#endif

/* Whether ext holds a record of field number. */
PBJ_INLINE bool pbj__ext_has(pbj_slice ext, uint32_t number)
{
    size_t pos = 0;
    pbj__ext_rec r;
    while (pbj__ext_next(ext, &pos, &r))
        if (r.number == number) return true;
    return false;
}

/* Where an extension's records are: decode keeps the extensions the run knew
 * in pbj_ext and the others (from schemas compiled apart) in pbj_unknown. */
PBJ_INLINE pbj_slice pbj__ext_in(pbj_slice ext, pbj_slice unknown, uint32_t number)
{
    return pbj__ext_has(ext, number) || !pbj__ext_has(unknown, number) ? ext : unknown;
}

/* A known extension's kind: the wire type of one value, | PBJ__EXT_PACKABLE when the
 * extension is repeated and packable (its records may come packed or not, as protobuf). */
#define PBJ__EXT_PACKABLE 8
#define PBJ__EXT_ITEM 16                       /* a message set's field: kept as the item protobuf writes */
#define PBJ__EXT_FOREIGN 32                    /* with PBJ__EXT_ITEM: a number no extension of the run has */

/* Whether a record with tag may be one of an extension of kind (else protobuf keeps it as an unknown field). */
PBJ_INLINE bool pbj__ext_fits(uint32_t tag, int kind)
{
    int wt = (int)(tag & 7);
    return wt == (kind & 7) || (wt == PBJ_WT_LEN && (kind & PBJ__EXT_PACKABLE));
}

/* A packed payload [p, end) of values of wire type wt: PBJ_OK when it holds whole values only. */
PBJ_INLINE pbj_status pbj__packed_check(const uint8_t *p, const uint8_t *end, int wt)
{
    pbj_status st = PBJ_OK;
    uint64_t v;
    if (wt != PBJ_WT_VARINT) return (size_t)(end - p) % (wt == PBJ_WT_I32 ? 4 : 8) ? PBJ_ERR_TRUNCATED : PBJ_OK;
    while (p < end && (p = pbj_get_varint_st(p, end, &v, &st))) {}
    return st;
}

/* Record r (its payload ending at r->end) checked against an extension of kind: PBJ_OK when its
 * values are whole (a packed record of whole values); what decode gives for a normal field else. */
PBJ_INLINE pbj_status pbj__ext_check(const pbj__ext_rec *r, int kind)
{
    uint64_t len;
    const uint8_t *p;
    if ((int)(r->tag & 7) != PBJ_WT_LEN || (kind & 7) == PBJ_WT_LEN) return PBJ_OK;
    if (!(p = pbj_get_varint(r->payload, r->end, &len))) return PBJ_ERR_TRUNCATED;
    return pbj__packed_check(p, r->end, kind & 7);
}

/* The scalar values of field number (an extension of kind: its records that fit, packed ones too; a closed
 * enum's (valid: its name function) values in the enum): returns how many there are and puts value want into
 * *v (want (size_t)-1: the last). */
PBJ_OUTLINE size_t pbj__ext_values(pbj_slice ext, uint32_t number, int kind, const char *(*valid)(int32_t), size_t want,
                                   uint64_t *v) PBJ__PROTO
#if PBJ__BODIES
{
    size_t pos = 0, k = 0;
    int wt = kind & 7;
    pbj__ext_rec r;
    while (pbj__ext_next(ext, &pos, &r)) {
        const uint8_t *p = r.payload, *end = r.end;
        uint64_t len;
        if (r.number != number || !pbj__ext_fits(r.tag, kind) || pbj__ext_check(&r, kind) != PBJ_OK) continue;
        if ((int)(r.tag & 7) != wt) p = pbj_get_varint(p, end, &len);     /* packed */
        while (p < end) {
            uint64_t x;
            if (wt == PBJ_WT_I32) x = pbj_load_le32(p), p += 4;
            else if (wt == PBJ_WT_I64) x = pbj_load_le64(p), p += 8;
            else p = pbj_get_varint(p, end, &x);
            bool kept = !valid || valid((int32_t)x);
            if (kept && (k == want || want == (size_t)-1)) *v = x;
            k += kept;
            if ((r.tag & 7) != PBJ_WT_LEN) break;
        }
    }
    return k;
}
#endif

/* Record r's type_id and message: false when protobuf drops it (message sets, below). */
PBJ_INLINE bool pbj__msgset_parts(const pbj__ext_rec *r, uint32_t *type_id, pbj_slice *msg)
{
    pbj_decoder d;
    pbj_status st = PBJ_OK;
    const uint8_t *p = r->payload;
    bool has_id = false, has_msg = false;
    uint64_t t, v;
    *type_id = 0;
    *msg = pbj_slice_make(p, 0);
    if ((r->tag & 7) == PBJ_WT_LEN) {
        if (!(p = pbj_get_varint(p, r->end, &v)) || v > (uint64_t)(r->end - p)) return false;
        *type_id = r->number;
        *msg = pbj_slice_make(p, (size_t)v);
        return true;
    }
    if (r->tag != PBJ_TAG(1, PBJ_WT_SGROUP)) return false;
    pbj_decoder_init(&d, NULL, NULL);
    d.max_length = (size_t)-1;
    while (p < r->end) {
        const uint8_t *q;
        if (!(p = pbj_get_varint(p, r->end, &t)) || (t & 7) == PBJ_WT_EGROUP) break;
        if (t == PBJ_TAG(2, PBJ_WT_VARINT) && !has_id && pbj_get_varint(p, r->end, &v)) {
            *type_id = (uint32_t)v;
            has_id = true;
        } else if (t == PBJ_TAG(3, PBJ_WT_LEN) && !has_msg && (q = pbj_get_varint(p, r->end, &v)) &&
                   v <= (uint64_t)(r->end - q)) {
            *msg = pbj_slice_make(q, (size_t)v);
            has_msg = true;
        }
        if (!(p = pbj_skip_field(p, r->end, (uint32_t)t, &d, d.depth_left, &st))) break;
    }
    return has_id && *type_id != 0 && has_msg;
}

/* The length-delimited values (or group bodies, or message-set items' messages) of field number, an
 * extension of kind: how many, and value want in *out. */
PBJ_OUTLINE size_t pbj__ext_payloads(pbj_slice ext, uint32_t number, int kind, size_t want, pbj_slice *out) PBJ__PROTO
#if PBJ__BODIES
{
    size_t pos = 0, k = 0;
    pbj__ext_rec r;
    while (pbj__ext_next(ext, &pos, &r)) {
        pbj_slice s;
        uint64_t len;
        if (r.number != number) continue;
        if (r.tag == PBJ_TAG(1, PBJ_WT_SGROUP) && number != 1) {
            uint32_t type_id;
            if (!pbj__msgset_parts(&r, &type_id, &s)) continue;     /* protobuf drops it: no message */
        } else if (!pbj__ext_fits(r.tag, kind)) {
            continue;
        } else if ((r.tag & 7) == PBJ_WT_LEN) {
            const uint8_t *p = pbj_get_varint(r.payload, r.end, &len);
            s = pbj_slice_make(p, (size_t)len);
        } else if ((r.tag & 7) == PBJ_WT_SGROUP) {
            s = pbj_slice_make(r.payload, (size_t)(r.end - r.payload) - pbj_varint_size(PBJ_TAG(number, PBJ_WT_EGROUP)));
        } else continue;
        if (k == want || want == (size_t)-1) *out = s;
        k++;
    }
    return k;
}
#endif

/* The records with numbers in [lo, hi]: ext.data[*from..*to) (one run: records are in number order). */
PBJ_INLINE void pbj__ext_span(pbj_slice ext, uint32_t lo, uint32_t hi, size_t *from, size_t *to)
{
    size_t pos = 0;
    pbj__ext_rec r;
    *from = *to = 0;
    while (pbj__ext_next(ext, &pos, &r)) {
        if (r.number < lo) *from = pos;
        if (r.number <= hi) *to = pos;
    }
}

/* ---- message sets: what protobuf writes of a message_set_wire_format message --
 * Its extensions and unknown fields go out as items (group 1 { type_id = 2;
 * message = 3 }) in canonical form: an item with a type_id (its low 32 bits,
 * not 0) and a message (the first of each), and a length-delimited field (its
 * number as the type_id). protobuf (C++ 3.21) drops everything else: other
 * fields, items without a type_id or a message (pbj__msgset_parts, above). */

/* An item's bytes before its message (group start, type_id, the message's tag and length) at p: how many (at most 18). */
PBJ_INLINE size_t pbj__msgset_head(uint32_t type_id, size_t len, uint8_t *p)
{
    uint8_t *q = p;
    *q++ = 0x0b;
    *q++ = 0x10;
    q = pbj_put_varint(q, type_id);
    *q++ = 0x1a;
    q = pbj_put_varint(q, len);
    return (size_t)(q - p);
}

/* Record r as protobuf writes it: its size, and the item at p unless p is NULL. */
PBJ_INLINE size_t pbj__msgset_item(const pbj__ext_rec *r, uint8_t *p)
{
    uint32_t type_id;
    pbj_slice msg;
    if (!pbj__msgset_parts(r, &type_id, &msg)) return 0;
    if (p) {
        p += pbj__msgset_head(type_id, msg.len, p);
        if (msg.len) memcpy(p, msg.data, msg.len);
        p[msg.len] = 0x0c;
    }
    return 4 + pbj_varint_size(type_id) + pbj_len_size(msg.len);
}

/* The items of a message set's extensions, then of its unknown fields, written at p (p NULL: not written); their size. */
PBJ_OUTLINE size_t pbj__msgset_items(pbj_slice ext, pbj_slice unknown, uint8_t *p) PBJ__PROTO
#if PBJ__BODIES
{
    const pbj_slice both[2] = {ext, unknown};
    size_t n = 0;
    for (int i = 0; i < 2; i++) {
        size_t pos = 0;
        pbj__ext_rec r;
        while (pbj__ext_next(both[i], &pos, &r)) n += pbj__msgset_item(&r, p ? p + n : NULL);
    }
    return n;
}
#endif

/* A message set's field at start (p after its tag) read by decode: an item, or a length-delimited field (its
 * number the type_id), goes into *ext as the item protobuf writes of it (type_id, then message: the form
 * encode writes, so that a decoded copy of the encoding is M_equal to it and encodes the same), in type_id
 * order. What protobuf does not write (an item with no type_id or message, any other field) is dropped, or
 * refused under PBJ_UNKNOWN_REJECT, as is a length-delimited field of no known extension (not known). */
PBJ_OUTLINE const uint8_t *pbj__msgset_field(pbj_decoder *d, pbj_slice *ext, pbj_slice **unknown, const uint8_t *start,
                                             const uint8_t *p, const uint8_t *end, uint32_t tag, bool known,
                                             pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    size_t pos = 0, h, n;
    pbj__ext_rec r;
    uint32_t type_id;
    pbj_slice msg;
    uint8_t head[18], *item;
    (void)unknown;
    if (tag != PBJ_TAG(1, PBJ_WT_SGROUP) && ((tag & 7) != PBJ_WT_LEN || (!known && d->unknown == PBJ_UNKNOWN_REJECT))) {
        if (d->unknown == PBJ_UNKNOWN_REJECT) *st = PBJ_ERR_UNKNOWN_FIELD;
        return d->unknown == PBJ_UNKNOWN_REJECT ? NULL : pbj_skip_field(p, end, tag, d, d->depth_left, st);
    }
    if (!(p = pbj_skip_field(p, end, tag, d, d->depth_left, st))) return NULL;
    if (!pbj__ext_next(pbj_slice_make(start, (size_t)(p - start)), &pos, &r) || !pbj__msgset_parts(&r, &type_id, &msg))
        return p;                                  /* dropped, as protobuf drops it */
    h = pbj__msgset_head(type_id, msg.len, head);
    n = h + msg.len + 1;
    if (n == (size_t)(p - start) && !memcmp(head, start, h) && msg.data == start + h) {
        *st = pbj__ext_insert(d->arena, ext, start, n, type_id, true);   /* written as protobuf writes it */
    } else if (!(item = (uint8_t *)pbj_arena_alloc(d->arena, n))) {
        *st = PBJ_ERR_NOMEM;
    } else {
        memcpy(item, head, h);
        if (msg.len) memcpy(item + h, msg.data, msg.len);
        item[n - 1] = 0x0c;
        *st = pbj__ext_insert(d->arena, ext, item, n, type_id, true);
    }
    return *st == PBJ_OK ? p : NULL;
}
#endif

/* Which values a closed enum keeps: known(e, v) (e: what the caller passed, its name function boxed
 * (pbj__enum_by_name) or its table). */
typedef bool (*pbj__enum_known)(const void *e, int32_t v);
typedef struct pbj__name_fn {
    const char *(*name)(int32_t);
} pbj__name_fn;
PBJ_INLINE bool pbj__enum_by_name(const void *e, int32_t v) { return ((const pbj__name_fn *)e)->name(v) != NULL; }

/* A closed enum extension's record r (a varint, or packed) read by decode: its values outside the enum
 * (known says false) go to *unknown as varint fields, as protobuf; the others stay in *rec (r's bytes, or
 * a new record in the arena when any went; *n 0 when none stay). */
PBJ_OUTLINE bool pbj__ext_enum_split(pbj_decoder *d, pbj_slice **unknown, const pbj__ext_rec *r, pbj__enum_known known,
                                     const void *e, const uint8_t **rec, size_t *n, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    const uint8_t *p = r->payload, *q;
    size_t tag_len = (size_t)(r->payload - r->start), len;
    uint8_t *buf, *vals, *w;
    uint64_t v;
    bool packed = (r->tag & 7) == PBJ_WT_LEN, all = true;
    if (packed) p = pbj_get_varint(p, r->end, &v);
    for (q = p; q < r->end && (q = pbj_get_varint(q, r->end, &v));) all &= known(e, (int32_t)v);
    if (all) return true;
    if (!(buf = (uint8_t *)pbj_arena_alloc(d->arena, tag_len + 10 + (size_t)(r->end - p)))) return *st = PBJ_ERR_NOMEM, false;
    vals = w = buf + tag_len + 10;                                   /* the values kept, after room for a length */
    for (q = p; q < r->end;) {
        const uint8_t *at = q;
        q = pbj_get_varint(q, r->end, &v);
        if (known(e, (int32_t)v)) w = (uint8_t *)memcpy(w, at, (size_t)(q - at)) + (q - at);
        else if (!pbj_unknown_varint(d, unknown, (int32_t)r->number, v, st)) return false;
    }
    len = (size_t)(w - vals);
    *n = 0;
    if (packed && len) {                                             /* tag, length, the values kept */
        uint8_t *at = pbj_put_varint(buf + tag_len, len);
        memmove(at, vals, len);
        memcpy(buf, r->start, tag_len);
        *rec = buf;
        *n = (size_t)(at + len - buf);
    }
    return true;
}
#endif

/* Before an extension of kind is changed: its records that fit move from the unknown fields to ext; a closed
 * enum's (valid: its name function, else NULL) values outside the enum stay there, as decode leaves them. */
PBJ_OUTLINE pbj_status pbj__ext_adopt(pbj_arena *a, pbj_slice *ext, pbj_slice **unknown, uint32_t number, int kind,
                                      const char *(*valid)(int32_t)) PBJ__PROTO
#if PBJ__BODIES
{
    size_t pos = 0;
    pbj__ext_rec r;
    pbj_status st = PBJ_OK;
    pbj_slice rest = pbj_slice_make(NULL, 0), *restp = &rest, from = pbj_unknown_bytes(*unknown);
    pbj_decoder d;                                                   /* the enum split's arena */
    pbj__name_fn e = {valid};
    if (!pbj__ext_has(from, number)) return PBJ_OK;
    pbj_decoder_init(&d, a, NULL);
    while (pbj__ext_next(from, &pos, &r)) {
        const uint8_t *rec = r.start;
        size_t n = (size_t)(r.end - r.start);
        if (r.number != number || !pbj__ext_fits(r.tag, kind) || pbj__ext_check(&r, kind) != PBJ_OK) st = pbj__append(a, &rest, rec, n);
        else if (valid && !pbj__ext_enum_split(&d, &restp, &r, pbj__enum_by_name, &e, &rec, &n, &st)) return st;
        else if (n) st = pbj__ext_insert(a, ext, rec, n, number, false);
        if (st != PBJ_OK) return st;
    }
    return pbj__unknown_new(a, unknown, rest);
}
#endif

/* A known extension's field read by decode: kept in *ext (in number order) when it fits the extension's
 * kind, else in *unknown (as protobuf); a singular scalar's new value replaces the old one (last wins). A
 * packed record cut inside a value fails the decode, as a normal field's; known (a closed enum's test of e,
 * or NULL) sends the values outside the enum to *unknown. */
PBJ_OUTLINE const uint8_t *pbj__ext_field_in(pbj_decoder *d, pbj_slice *ext, pbj_slice **unknown, const uint8_t *start,
                                             const uint8_t *p, const uint8_t *end, uint32_t tag, int kind,
                                             pbj__enum_known known, const void *e, bool replace, pbj_status *st) PBJ__PROTO
#if PBJ__BODIES
{
    size_t pos = 0, n;
    const uint8_t *rec = start;
    pbj__ext_rec r;
    if (kind & PBJ__EXT_ITEM) return pbj__msgset_field(d, ext, unknown, start, p, end, tag, !(kind & PBJ__EXT_FOREIGN), st);
    if (!pbj__ext_fits(tag, kind)) return pbj_unknown_field(d, unknown, start, p, end, tag, st);
    if (!(p = pbj_skip_field(p, end, tag, d, d->depth_left, st))) return NULL;
    n = (size_t)(p - start);
    if (!pbj__ext_next(pbj_slice_make(start, n), &pos, &r)) r.number = tag >> 3;
    else if ((*st = pbj__ext_check(&r, kind)) != PBJ_OK) return NULL;
    else if (known && !pbj__ext_enum_split(d, unknown, &r, known, e, &rec, &n, st)) return NULL;
    if (!n) return p;
    if (replace && (*st = pbj__ext_remove(d->arena, ext, r.number)) != PBJ_OK) return NULL;
    if ((*st = pbj__ext_insert(d->arena, ext, rec, n, r.number, true)) != PBJ_OK) return NULL;
    return p;
}
#endif

/* The same, a closed enum's values tested by its name function valid (or NULL): generated decode's call. */
PBJ_INLINE const uint8_t *pbj__ext_field(pbj_decoder *d, pbj_slice *ext, pbj_slice **unknown, const uint8_t *start, const uint8_t *p,
                                         const uint8_t *end, uint32_t tag, int kind, const char *(*valid)(int32_t), bool replace,
                                         pbj_status *st)
{
    pbj__name_fn e = {valid};
    return pbj__ext_field_in(d, ext, unknown, start, p, end, tag, kind, valid ? pbj__enum_by_name : NULL, &e, replace, st);
}

/* Whether the bytes at p (before end) are the tag a, b, ... (1 to 5 bytes): decode's prediction of the next field.
 * A call at -O0 (PBJ_HOT_INLINE), where the checks of each inline test took 80 bytes of the decoder's frame. */
PBJ_HOT_INLINE bool pbj__at_tag1(const uint8_t *p, const uint8_t *end, uint8_t a)
{
    return p < end && p[0] == a;       /* (not end - p >= 1: a compare, where the difference took two more) */
}
PBJ_HOT_INLINE bool pbj__at_tag2(const uint8_t *p, const uint8_t *end, uint8_t a, uint8_t b)
{
    return end - p >= 2 && p[0] == a && p[1] == b;
}
PBJ_HOT_INLINE bool pbj__at_tag3(const uint8_t *p, const uint8_t *end, uint8_t a, uint8_t b, uint8_t c)
{
    return end - p >= 3 && p[0] == a && p[1] == b && p[2] == c;
}
PBJ_HOT_INLINE bool pbj__at_tag4(const uint8_t *p, const uint8_t *end, uint8_t a, uint8_t b, uint8_t c, uint8_t e)
{
    return end - p >= 4 && p[0] == a && p[1] == b && p[2] == c && p[3] == e;
}
PBJ_HOT_INLINE bool pbj__at_tag5(const uint8_t *p, const uint8_t *end, uint8_t a, uint8_t b, uint8_t c, uint8_t e, uint8_t f)
{
    return end - p >= 5 && p[0] == a && p[1] == b && p[2] == c && p[3] == e && p[4] == f;
}

/* Number of varints in a packed payload (bytes without the continuation bit). */
PBJ_INLINE size_t pbj_count_varints(const uint8_t *p, const uint8_t *end)
{
    size_t n = 0;
    for (; p < end; p++) n += *p < 0x80;
    return n;
}

/* Stable merge sort of n elements of size elem (map entries by key), with
 * scratch space from the arena; then equal keys collapse to the last one.
 * Returns the new count, or (size_t)-1 when out of memory. */
typedef int (*pbj_cmp_fn)(const void *a, const void *b);

PBJ_OUTLINE size_t pbj_sort_unique(void *base, size_t n, size_t elem, pbj_cmp_fn cmp, pbj_arena *a) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t *v = (uint8_t *)base;
    size_t i, w;
    for (i = 1; i < n && cmp(v + (i - 1) * elem, v + i * elem) < 0; i++) {}
    if (i >= n) return n;                          /* already strictly ascending */
    uint8_t *tmp = (uint8_t *)pbj_arena_alloc(a, n * elem);
    if (!tmp) return (size_t)-1;
    for (size_t width = 1; width < n; width *= 2) {  /* bottom-up, stable */
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t l = lo, r = mid, o = lo;
            while (l < mid && r < hi) {
                if (cmp(v + r * elem, v + l * elem) < 0) memcpy(tmp + o++ * elem, v + r++ * elem, elem);
                else memcpy(tmp + o++ * elem, v + l++ * elem, elem);
            }
            if (l < mid) memcpy(tmp + o * elem, v + l * elem, (mid - l) * elem), o += mid - l;
            if (r < hi) memcpy(tmp + o * elem, v + r * elem, (hi - r) * elem);
        }
        memcpy(v, tmp, n * elem);
    }
    pbj__arena_give_up(a, tmp, n * elem);
    for (i = 0, w = 0; i < n; i++) {               /* keep the last of each run of equal keys */
        if (i + 1 < n && cmp(v + i * elem, v + (i + 1) * elem) == 0) continue;
        if (w != i) memcpy(v + w * elem, v + i * elem, elem);
        w++;
    }
    return w;
}
#endif

#ifdef __cplusplus
}
#endif

#endif
