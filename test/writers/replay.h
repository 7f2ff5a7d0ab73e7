/* replay.h: what the code replay_gen writes needs: a seeded choice, the call and probe macros. */
#ifndef REPLAY_H
#define REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct replay_rng {
    uint64_t s;
    unsigned fault;               /* probe after this call (1: the first); 0: never */
} replay_rng;

enum { REPLAY_CAUGHT = 1000, REPLAY_MISSED = 1001 };

static inline uint64_t replay_next(replay_rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

static inline bool coin(replay_rng *r) { return replay_next(r) & 1; }

/* A message value's call: 0 a child writer, 1 _from, 2 _raw; NULL values (an empty oneof message) cannot
 * go through _from, whole ones (unknown fields, extensions) not through a child. */
static inline int pick(replay_rng *r, bool null, bool whole)
{
    int k = (int)(replay_next(r) % 3);
    if (null && k == 1) return 2;
    if (whole && k == 0) return 1;
    return k;
}

#define CALL(e)                                                                        \
    do {                                                                               \
        if ((st = (int)(e)) != 0) return st;                                           \
    } while (0)

/* After a valid call, when it is the fault-th: the probe e must fail with PBJ_ERR_ORDER writing nothing. */
#define PROBE(e)                                                                       \
    do {                                                                               \
        if (r->fault && --r->fault == 0) {                                             \
            size_t len_ = pbj_wbuf_len(w->w.buf);                                       \
            bool closes_ = (~w->w.gate & PBJ__WPACKED) != 0; /* may end its packed record */ \
            pbj_status p_ = (e);                                                       \
            return p_ == PBJ_ERR_ORDER && (pbj_wbuf_len(w->w.buf) == len_ || closes_) ? REPLAY_CAUGHT : REPLAY_MISSED; \
        }                                                                              \
    } while (0)

#endif
