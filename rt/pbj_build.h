/* pbj_build.h: what the generated building helpers (M_add_f, M_set_f, M_put_f, M_merge, ...) and service tables use. */
#ifndef PBJ_BUILD_H
#define PBJ_BUILD_H

#include "pbj_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The building helpers a generated header declares for each field f of a message M (its last section):
 * M_set_f(m, v) sets a singular field with its has-bit or oneof case (strings and bytes: M_set_f(m, data, len,
 * arena) copies them into arena; a string also has M_set_f_str(m, s, arena) taking a NUL-terminated one);
 * M_mutable_f(m, arena) gives a message field, made when absent; M_add_f(m, v, arena) appends v to a repeated field
 * (strings and bytes: data, len, copied, and M_add_f_str(m, s, arena); a message: a deep copy of *v, or an
 * initialised one for NULL); repeated numbers and enums also have M_add_f_many(m, v, n, arena), appending the n
 * values of array v; maps: M_put_f(m, key, value, arena) sets key's value (its entry added in key order when
 * absent), a map of messages has M_mutable_f(m, key, arena) instead, giving key's value message, made when absent;
 * M_get_f(m, key, &value) finds it. No helper hands out a pointer into an array (arrays move as they grow): a
 * message that mutable gives never moves. add, put and mutable grow arrays that decode, the readers, copy, merge,
 * add, put or mutable made, never one set by hand. M_has_f(m) and M_clear_f(m) test and clear a field with
 * presence (a has-bit, a oneof's case, a message pointer). A message's own functions (M_copy, M_merge, ...) are
 * PBJ_MESSAGE's (pbj_table.h). */

/* The accessors and helpers of the most common fields, each one line in a generated header: the same functions, names
 * and types as the header would spell out (it spells out the rest). Field f of message M: PBJ_FIELD_MESSAGE (a message
 * pointer: M_has_f, M_clear_f), PBJ_FIELD_OPTIONAL (a has_f member), PBJ_FIELD_ONEOF (member f of oneof o, case
 * member o_case, constants M_o_f and M_o_NOT_SET); PBJ_FIELD_MUTABLE and PBJ_FIELD_MUTABLE_ONEOF (M_mutable_f of a
 * message S: made, initialised, in arena when absent, or unless the oneof's case is f already; NULL when out of
 * memory; it never moves); PBJ_FIELD_SET, PBJ_FIELD_SET_OPTIONAL, PBJ_FIELD_SET_ONEOF (M_set_f(m, v) of a value of
 * type T, with its has-bit or oneof case). */
#ifdef PBJ__GENERATED_SOURCE   /* only user code calls them: a .pb.c parses none (nor its imports') */
#define PBJ_FIELD_MESSAGE(M, f)
#define PBJ_FIELD_OPTIONAL(M, f)
#define PBJ_FIELD_ONEOF(M, o, f)
#define PBJ_FIELD_MUTABLE(M, f, S)
#define PBJ_FIELD_MUTABLE_ONEOF(M, o, f, S)
#define PBJ_FIELD_SET(M, f, T)
#define PBJ_FIELD_SET_OPTIONAL(M, f, T)
#define PBJ_FIELD_SET_ONEOF(M, o, f, T)
#else
#define PBJ_FIELD_MESSAGE(M, f)                                                                                       \
    static inline bool M##_has_##f(const M *m) { return m->f != NULL; }                                             \
    static inline void M##_clear_##f(M *m) { m->f = NULL; }
#define PBJ_FIELD_OPTIONAL(M, f)                                                                                      \
    static inline bool M##_has_##f(const M *m) { return m->has_##f; }                                               \
    static inline void M##_clear_##f(M *m)                                                                           \
    {                                                                                                                \
        m->has_##f = 0;                                                                                              \
        memset(&m->f, 0, sizeof m->f);                                                                               \
    }
#define PBJ_FIELD_ONEOF(M, o, f)                                                                                      \
    static inline bool M##_has_##f(const M *m) { return m->o##_case == M##_##o##_##f; }                             \
    static inline void M##_clear_##f(M *m)                                                                           \
    {                                                                                                                \
        if (m->o##_case != M##_##o##_##f) return;                                                                    \
        m->o##_case = M##_##o##_NOT_SET;                                                                             \
        memset(&m->o, 0, sizeof m->o);                                                                               \
    }
#define PBJ_FIELD_MUTABLE(M, f, S)                                                                                    \
    static inline S *M##_mutable_##f(M *m, pbj_arena *arena)                                                         \
    {                                                                                                                \
        if (!m->f && (m->f = (S *)pbj_arena_alloc(arena, sizeof(S)))) S##_init(m->f);                                \
        return m->f;                                                                                                 \
    }
#define PBJ_FIELD_MUTABLE_ONEOF(M, o, f, S)                                                                           \
    static inline S *M##_mutable_##f(M *m, pbj_arena *arena)                                                         \
    {                                                                                                                \
        if (m->o##_case == M##_##o##_##f && m->o.f) return m->o.f;                                                   \
        S *v = (S *)pbj_arena_alloc(arena, sizeof(S));                                                               \
        if (!v) return NULL;                                                                                         \
        S##_init(v);                                                                                                 \
        m->o.f = v;                                                                                                  \
        m->o##_case = M##_##o##_##f;                                                                                 \
        return v;                                                                                                    \
    }
#define PBJ_FIELD_SET(M, f, T) static inline void M##_set_##f(M *m, T v) { m->f = v; }
#define PBJ_FIELD_SET_OPTIONAL(M, f, T)                                                                               \
    static inline void M##_set_##f(M *m, T v)                                                                        \
    {                                                                                                                \
        m->f = v;                                                                                                    \
        m->has_##f = 1;                                                                                              \
    }
#define PBJ_FIELD_SET_ONEOF(M, o, f, T)                                                                               \
    static inline void M##_set_##f(M *m, T v)                                                                        \
    {                                                                                                                \
        m->o.f = v;                                                                                                  \
        m->o##_case = M##_##o##_##f;                                                                                 \
    }
#endif

/* *out = a copy of data[0..len) in the arena (len 0: an empty slice, no allocation). */
PBJ_MUST_USE PBJ_INLINE pbj_status pbj_copy(pbj_arena *a, const void *data, size_t len, pbj_slice *out)
{
    uint8_t *p = NULL;
    if (len) {
        if (!(p = (uint8_t *)pbj_arena_alloc(a, len))) return PBJ_ERR_NOMEM;
        memcpy(p, data, len);
    }
    *out = pbj_slice_make(p, len);
    return PBJ_OK;
}

/* A new array in the arena holding data's count elements, then n from src (left uninitialised when src is
 * NULL), its room noted as decode notes it (so add and put grow it); NULL when out of memory. data itself is
 * left as it was. */
PBJ_OUTLINE void *pbj_append_array(pbj_arena *a, const void *data, size_t count, const void *src, size_t n, size_t elem) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t *p = count + n < count ? NULL : (uint8_t *)pbj__array_more(a, NULL, 0, count + n, elem);
    if (!p) return NULL;
    if (count) memcpy(p, data, count * elem);
    if (src && n) memcpy(p + count * elem, src, n * elem);
    return p;
}
#endif

/* *s's bytes then n more from bytes, in a new slice of the arena (merge's unknown fields: *s may be anyone's). */
PBJ_OUTLINE pbj_status pbj__append_new(pbj_arena *a, pbj_slice *s, const uint8_t *bytes, size_t n) PBJ__PROTO
#if PBJ__BODIES
{
    uint8_t *buf = s->len > (size_t)-1 - n ? NULL : (uint8_t *)pbj__array_grow(a, NULL, 0, s->len + n, 1);
    if (!buf) return PBJ_ERR_NOMEM;
    if (s->len) memcpy(buf, s->data, s->len);
    if (n) memcpy(buf + s->len, bytes, n);
    *s = pbj_slice_make(buf, s->len + n);
    return PBJ_OK;
}
#endif

/* Binary search of key among n sorted elements: true with *at its index, else false with *at where it goes. */
PBJ_INLINE bool pbj_find(const void *base, size_t n, size_t elem, const void *key, pbj_cmp_fn cmp, size_t *at)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp((const uint8_t *)base + mid * elem, key);
        if (c == 0) {
            *at = mid;
            return true;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    *at = lo;
    return false;
}

/* Extension records of from added to ext's, each after the records of its number; the records of the numbers
 * replace[0..n) (singular scalars) replace ext's, as decoding the two encodings one after the other does. */
PBJ_OUTLINE pbj_status pbj__ext_merge(pbj_arena *a, pbj_slice *ext, pbj_slice from, const uint32_t *replace, size_t n) PBJ__PROTO
#if PBJ__BODIES
{
    size_t pos = 0, i;
    pbj__ext_rec r;
    pbj_status st;
    while (pbj__ext_next(from, &pos, &r)) {
        for (i = 0; i < n && replace[i] != r.number; i++) {}
        if (i < n && (st = pbj__ext_remove(a, ext, r.number)) != PBJ_OK) return st;
        if ((st = pbj__ext_insert(a, ext, r.start, (size_t)(r.end - r.start), r.number, false)) != PBJ_OK) return st;
    }
    return PBJ_OK;
}
#endif

/* ---- services: each service's methods, for an RPC layer (x_Svc_service in the generated header) ---- */
typedef struct pbj_method {
    const char *name;             /* "Get" */
    const char *full_name;        /* "acme.Shop.Get" */
    const char *path;             /* "/acme.Shop/Get", as gRPC names it */
    const char *request;          /* the request message's full name */
    const char *response;         /* the response message's full name */
    bool client_streaming, server_streaming;
} pbj_method;

typedef struct pbj_service {
    const char *name;             /* "Shop" */
    const char *full_name;        /* "acme.Shop" */
    const pbj_method *methods;
    size_t count;
} pbj_service;

#ifdef __cplusplus
}
#endif

#endif
