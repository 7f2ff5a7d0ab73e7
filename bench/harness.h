/* harness.h: the timing harness every contender links: inputs, medians, the sum checks and the CSV rows. */
#ifndef PBJBENCH_HARNESS_H
#define PBJBENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A piece of an input. */
typedef struct { const uint8_t *p; size_t n; } bh_range;

/* The inputs, all under the build directory given by --dir (default build/bench). */
typedef struct {
  uint8_t *data; size_t len;
} bh_buf;

typedef struct {
  const char *contender;
  const char *dir;
  int runs;           /* timed runs per operation (median reported) */
  bool icount;        /* under callgrind: one run, instrumented */
  int cache_copies;   /* --cache N: only the cache rows, over N copies of the synthetic block (0: the usual run) */
  bh_buf synthetic, real, timestamp, account_id, tx_body;
  uint32_t synthetic_tx;   /* transactions in the synthetic block */
  uint32_t real_tx;        /* transactions (transaction results) in the real block */
  uint32_t small_reps;     /* iterations per timed run of a small message */
  uint64_t synthetic_sum;  /* the reference's read-every-field sum of the synthetic block */
  uint64_t tx_sum;         /* the same over each SignedTransaction and its TransactionBody */
  bh_range *txs; size_t n_txs; /* the SignedTransaction payloads of the synthetic block */
  uint64_t real_sum;       /* the same for the real block, from protoc-independent C++ (0: unknown) */
} bh_env;

/* Parses the command line (--dir D --runs N --icount) and loads the inputs. */
void bh_init(bh_env *e, const char *contender, int argc, char **argv);

/* Times fn(ctx) (ctx's state reset by reset(ctx), untimed, before each run):
   returns the median in ns of one call. Under --icount, one instrumented call. */
typedef void (*bh_fn)(void *ctx);
double bh_time(bh_env *e, const char *label, bh_fn fn, bh_fn reset, void *ctx);

/* The cache rows (--cache N): a round calls fn(ctxs[i]) for each of the n contexts in turn, each over
   its own copy of the input, so that nothing one call touched is in cache when its turn comes again once
   the copies outgrow the cache. After a warm-up round (page faults, buffers grown), returns the median
   of e->runs rounds of the thread CPU time in ns of one round; reset(ctxs[i]) runs untimed before each
   call. Under --icount, one instrumented round after the warm-up (reset included: a few instructions).
   Prints the row (workload "cache", op) per transaction, the label being cache_<op>. */
void bh_cache_row(bh_env *e, const char *op, bh_fn fn, bh_fn reset, void **ctxs, int n, const char *note);

/* n copies of b, each in its own allocation. */
bh_buf *bh_copies(const bh_buf *b, int n);

/* The cache rows' contexts: e->cache_copies of them, size bytes each (zeroed), each set up by init with its
   own copy of the synthetic block (kept for the program's life). */
void **bh_cache_contexts(bh_env *e, size_t size, void (*init)(void *ctx, bh_env *e, const bh_buf *copy));

/* Times a call made of pieces that must be timed one at a time: between
   bh_piece_start and bh_piece_stop; the sum of the pieces is one run. */
void bh_piece_start(void);
void bh_piece_stop(void);
double bh_pieces_total_ns(void);
void bh_pieces_reset(void);

/* One CSV row on stdout: contender,workload,op,ns_per_unit,bytes_per_unit,sum,note. */
void bh_row(bh_env *e, const char *workload, const char *op, double ns_per_unit, double bytes_per_unit,
            uint64_t sum, const char *note);
/* A row for an operation the contender cannot do, with the reason. */
void bh_na(bh_env *e, const char *workload, const char *op, const char *reason);

/* Fails the whole run (exit 1) with a message when ok is false. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
void bh_assert(bool ok, const char *fmt, ...);
/* The bytes must equal the input's. */
void bh_assert_same(const char *what, const uint8_t *got, size_t got_len, const bh_buf *want);

/* The payloads of oneof field `field` of each BlockItem of a block (a raw
   walk: Block.items = 1, the item's first field); *n set to their count. */
bh_range *bh_item_payloads(const bh_buf *block, unsigned field, size_t *n);

/* Keeps the optimizer from dropping a result. */
extern volatile uint64_t bh_sink;

#ifdef __cplusplus
}
#endif
#endif
