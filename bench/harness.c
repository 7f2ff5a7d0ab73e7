/* harness.c: the timing harness: loads the inputs, times medians (or counts instructions under callgrind), prints CSV rows. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(s) (void)(s)
#endif

volatile uint64_t bh_sink;

void bh_assert(bool ok, const char *fmt, ...)
{
  if (ok) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "bench: FAILED: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

void bh_assert_same(const char *what, const uint8_t *got, size_t got_len, const bh_buf *want)
{
  size_t i = 0;
  while (i < got_len && i < want->len && got[i] == want->data[i]) i++;
  bh_assert(got_len == want->len && i == got_len, "%s: %zu bytes differ from the input's %zu at offset %zu",
            what, got_len, want->len, i);
}

static bh_buf load(const char *dir, const char *name)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  bh_buf b = { NULL, 0 };
  FILE *f = fopen(path, "rb");
  bh_assert(f != NULL, "cannot open %s (run make bench-block)", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  b.data = malloc((size_t)n + 1);
  b.len = (size_t)n;
  bh_assert(b.data && fread(b.data, 1, b.len, f) == b.len, "cannot read %s", path);
  fclose(f);
  return b;
}

static uint64_t load_number(const char *dir, const char *name)
{
  bh_buf b = load(dir, name);
  b.data[b.len] = 0;
  uint64_t v = strtoull((char *)b.data, NULL, 0);
  free(b.data);
  return v;
}

void bh_init(bh_env *e, const char *contender, int argc, char **argv)
{
  memset(e, 0, sizeof *e);
  e->contender = contender;
  e->dir = "build/bench";
  e->runs = 7;
  e->small_reps = 200000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--dir") && i + 1 < argc) e->dir = argv[++i];
    else if (!strcmp(argv[i], "--runs") && i + 1 < argc) e->runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--icount")) e->icount = true;
    else if (!strcmp(argv[i], "--cache") && i + 1 < argc) e->cache_copies = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--quick")) { e->runs = 1; e->small_reps = 100; } /* the checks: asserts, no timing */
    else { fprintf(stderr, "usage: %s [--dir DIR] [--runs N] [--icount] [--quick] [--cache N]\n", argv[0]); exit(2); }
  }
  if (e->icount) { e->runs = 1; e->small_reps = 1000; }
  bh_assert(e->cache_copies >= 0 && e->cache_copies <= 256, "--cache takes 1 to 256 copies");
  e->synthetic = load(e->dir, "synthetic.blk");
  e->real = load(e->dir, "real.blk");
  e->timestamp = load(e->dir, "small.timestamp.bin");
  e->account_id = load(e->dir, "small.account_id.bin");
  e->tx_body = load(e->dir, "small.tx_body.bin");
  e->synthetic_tx = (uint32_t)load_number(e->dir, "synthetic.tx");
  e->synthetic_sum = load_number(e->dir, "synthetic.sum");
  e->real_tx = (uint32_t)load_number(e->dir, "real.tx");
  e->tx_sum = load_number(e->dir, "synthetic.txsum");
  e->txs = bh_item_payloads(&e->synthetic, 4, &e->n_txs);
}

static double now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double piece_ns, piece_t0;
void bh_piece_start(void) { piece_t0 = now_ns(); }
void bh_piece_stop(void) { piece_ns += now_ns() - piece_t0; }
double bh_pieces_total_ns(void) { return piece_ns; }
void bh_pieces_reset(void) { piece_ns = 0; }

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Under --icount: the counts since CALLGRIND_ZERO_STATS dumped as contender/label. */
static void dump_counts(const bh_env *e, const char *label)
{
  char name[256];
  snprintf(name, sizeof name, "%s/%s", e->contender, label);
  CALLGRIND_DUMP_STATS_AT(name);
}

/* Timed runs per operation: e->runs, 1 to 64. */
static int runs_of(const bh_env *e) { return e->runs < 1 ? 1 : e->runs > 64 ? 64 : e->runs; }

static double median(double *t, int runs)
{
  qsort(t, (size_t)runs, sizeof t[0], cmp_double);
  return t[runs / 2];
}

double bh_time(bh_env *e, const char *label, bh_fn fn, bh_fn reset, void *ctx)
{
  if (e->icount) {
    if (reset) reset(ctx);
    CALLGRIND_ZERO_STATS;
    fn(ctx);
    dump_counts(e, label);
    return 0;
  }
  double t[64];
  int runs = runs_of(e);
  if (reset) reset(ctx);
  fn(ctx); /* warm-up */
  for (int i = 0; i < runs; i++) {
    if (reset) reset(ctx);
    bh_pieces_reset();
    double t0 = now_ns();
    fn(ctx);
    double t1 = now_ns();
    t[i] = bh_pieces_total_ns() > 0 ? bh_pieces_total_ns() : t1 - t0;
  }
  return median(t, runs);
}

static double thread_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One round: fn over every context, resets untimed; the thread CPU ns of the calls. */
static double one_round(bh_fn fn, bh_fn reset, void **ctxs, int n)
{
  double ns = 0;
  for (int i = 0; i < n; i++) {
    if (reset) reset(ctxs[i]);
    double t0 = thread_ns();
    fn(ctxs[i]);
    ns += thread_ns() - t0;
  }
  return ns;
}

static double time_round(bh_env *e, const char *label, bh_fn fn, bh_fn reset, void **ctxs, int n)
{
  one_round(fn, reset, ctxs, n); /* warm-up: the buffers grown, the pages mapped */
  if (e->icount) {
    CALLGRIND_ZERO_STATS;
    one_round(fn, reset, ctxs, n);
    dump_counts(e, label);
    return 0;
  }
  double t[64];
  int runs = runs_of(e);
  for (int i = 0; i < runs; i++) t[i] = one_round(fn, reset, ctxs, n);
  return median(t, runs);
}

void bh_cache_row(bh_env *e, const char *op, bh_fn fn, bh_fn reset, void **ctxs, int n, const char *note)
{
  char label[64];
  snprintf(label, sizeof label, "cache_%s", op);
  double ns = time_round(e, label, fn, reset, ctxs, n);
  bh_row(e, "cache", op, ns / ((double)e->synthetic_tx * n), 0, 0, note);
}

bh_buf *bh_copies(const bh_buf *b, int n)
{
  bh_buf *c = malloc((size_t)n * sizeof *c);
  bh_assert(c != NULL, "out of memory");
  for (int i = 0; i < n; i++) {
    c[i].len = b->len;
    c[i].data = malloc(b->len);
    bh_assert(c[i].data != NULL, "out of memory for %d copies", n);
    memcpy(c[i].data, b->data, b->len);
  }
  return c;
}

void **bh_cache_contexts(bh_env *e, size_t size, void (*init)(void *ctx, bh_env *e, const bh_buf *copy))
{
  int n = e->cache_copies;
  bh_buf *in = bh_copies(&e->synthetic, n);
  void **cv = malloc((size_t)n * sizeof *cv);
  bh_assert(cv != NULL, "out of memory");
  for (int i = 0; i < n; i++) {
    cv[i] = calloc(1, size);
    bh_assert(cv[i] != NULL, "out of memory for %d contexts", n);
    init(cv[i], e, &in[i]);
  }
  return cv;
}

void bh_row(bh_env *e, const char *workload, const char *op, double ns_per_unit, double bytes_per_unit,
            uint64_t sum, const char *note)
{
  printf("%s,%s,%s,%.1f,%.1f,%016llx,%s\n", e->contender, workload, op, ns_per_unit, bytes_per_unit,
         (unsigned long long)sum, note ? note : "");
  fflush(stdout);
}

void bh_na(bh_env *e, const char *workload, const char *op, const char *reason)
{
  printf("%s,%s,%s,,,,%s\n", e->contender, workload, op, reason);
  fflush(stdout);
}

static const uint8_t *get_varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
  uint64_t r = 0;
  for (unsigned sh = 0; sh < 64 && p < end; sh += 7) {
    uint8_t b = *p++;
    r |= (uint64_t)(b & 0x7f) << sh;
    if (b < 0x80) { *v = r; return p; }
  }
  return NULL;
}

bh_range *bh_item_payloads(const bh_buf *block, unsigned field, size_t *n)
{
  const uint8_t *p = block->data, *end = p + block->len;
  size_t cap = 1024;
  bh_range *r = malloc(cap * sizeof *r);
  *n = 0;
  while (p < end) {
    uint64_t tag = 0, len = 0, inner_tag, inner_len;
    p = get_varint(p, end, &tag);
    if (p) p = get_varint(p, end, &len);
    bh_assert(p && tag == 10 && len <= (uint64_t)(end - p), "not a block");
    const uint8_t *q = get_varint(p, p + len, &inner_tag);
    if (q && inner_tag == ((uint64_t)field << 3 | 2) && (q = get_varint(q, p + len, &inner_len))) {
      if (*n == cap) r = realloc(r, (cap *= 2) * sizeof *r);
      r[(*n)++] = (bh_range){ q, (size_t)inner_len };
    }
    p += len;
  }
  return r;
}
