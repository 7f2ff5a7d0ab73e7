/* bench_pbjc.c: pbjc's generated code (model structs, size + encode, decode into an arena) in the harness. */
#include "../harness.h"

#ifndef BENCH_CONTENDER
#define BENCH_CONTENDER "pbjc"        /* "pbjc-max": the same program over code from --performance=max */
#endif

#include <stdio.h>
#include <stdlib.h>
#include <pbj.h>

#include "blockstream.pb.h"
#include "stream/block.pb.h"
#include "replay.h"
#include "produce_synthetic.c"    /* produce_M: a struct through M's writers, field by field */
#include "build_synthetic.c"      /* build_M: a struct's values set field by field into a new one */

/* The sum helper the generated visitors call. */
static inline uint64_t slice_sum(pbj_slice b) { return b.len ? b.len + b.data[0] + b.data[b.len - 1] : 0; }
#include "visit_synthetic.inc"
#include "visit_real.inc"
#include "view_synthetic.inc"
#include "view_real.inc"

/* The bytes an arena has handed out (blocks taken minus what is left in the current one). */
static size_t arena_used(const pbj_arena *a) { return a->allocated - (size_t)(a->end - a->cur); }

/* Room past the encoding in M_encode's buffer, as the reference's harness gives its encoder: with a few hundred
 * bytes to spare (the reverse walk's margins) M_encode writes in one walk (pbjc(1), M_encode). */
enum { OUT_ROOM = 65536 };

/* One workload's decode/encode/visit, as function pointers over its root type. */
typedef struct {
  pbj_status (*decode)(void *m, const uint8_t *buf, size_t len, pbj_arena *a, const pbj_decode_options *o);
  pbj_status (*encode)(void *m, uint8_t *buf, size_t cap, size_t *len);
  uint64_t (*visit)(const void *m);
  pbj_status (*write_reverse)(const void *m, pbj_rbuf *out);
  uint64_t (*scan_views)(const uint8_t *buf, size_t len);   /* pbj.views: every field read from the bytes */
  const pbj_table *table;         /* pbj.json: M_to_json and M_from_json walk it */
} root_ops;

#define ROOT(T, visit_fn, view_fn) \
  static uint64_t T##_scan(const uint8_t *b, size_t n) { T##_view v; return T##_view_init(&v, b, n) == PBJ_OK ? view_fn(&v) : 0; } \
  static pbj_status T##_dec(void *m, const uint8_t *b, size_t n, pbj_arena *a, const pbj_decode_options *o) { return T##_decode(m, b, n, a, o); } \
  static pbj_status T##_enc(void *m, uint8_t *b, size_t cap, size_t *len) { return T##_encode(m, b, cap, len); } \
  static uint64_t T##_vis(const void *m) { return visit_fn(m); } \
  static pbj_status T##_rev(const void *m, pbj_rbuf *out) { return T##_write_reverse(m, out); } \
  static const root_ops T##_ops = { T##_dec, T##_enc, T##_vis, T##_rev, T##_scan, &T##__table };
static uint64_t no_visit(const void *m) { (void)m; return 0; }
#define no_view(v) ((void)(v), (uint64_t)0)
ROOT(pbjbench_Block, visit_pbjbench_Block, visit_view_pbjbench_Block)
ROOT(com_hedera_hapi_block_stream_Block, visit_com_hedera_hapi_block_stream_Block, visit_view_com_hedera_hapi_block_stream_Block)
ROOT(pbjbench_Timestamp, no_visit, no_view)
ROOT(pbjbench_AccountID, no_visit, no_view)
ROOT(pbjbench_TransactionBody, no_visit, no_view)

typedef struct {
  bh_env *e;
  const bh_buf *in;
  const root_ops *ops;
  void *msg;
  pbj_arena arena;
  uint8_t *out; size_t cap, out_len;
  uint64_t sum;
  uint32_t reps;
  pbj_rbuf rbuf;                  /* encode_reverse: reset per run, its grown block kept */
  pbj_text json;                  /* json_encode: emptied per run, its grown buffer kept */
} ctx;

static void reset(void *v) { pbj_arena_reset(&((ctx *)v)->arena); }
static void op_decode(void *v)
{
  ctx *c = v;
  pbj_status st = c->ops->decode(c->msg, c->in->data, c->in->len, &c->arena, NULL);
  bh_assert(st == PBJ_OK, "pbjc decode: %s", pbj_status_str(st));
}
static void op_scan(void *v)
{
  ctx *c = v;
  op_decode(c);
  c->sum = c->ops->visit(c->msg);
}
static void op_scan_views(void *v)
{
  ctx *c = v;
  c->sum = c->ops->scan_views(c->in->data, c->in->len);
}
static void op_encode(void *v)
{
  ctx *c = v;
  pbj_status st = c->ops->encode(c->msg, c->out, c->cap, &c->out_len);
  bh_assert(st == PBJ_OK, "pbjc encode: %s", pbj_status_str(st));
}
static void op_encode_reverse(void *v)
{
  ctx *c = v;
  pbj_rbuf_reset(&c->rbuf);
  pbj_status st = c->ops->write_reverse(c->msg, &c->rbuf);
  bh_assert(st == PBJ_OK, "pbjc write_reverse: %s", pbj_status_str(st));
}
static void op_small_decode(void *v)
{
  ctx *c = v;
  for (uint32_t i = 0; i < c->reps; i++) { pbj_arena_reset(&c->arena); op_decode(c); }
}
static void op_small_encode(void *v)
{
  ctx *c = v;
  for (uint32_t i = 0; i < c->reps; i++) op_encode(c);
}
static void op_small_encode_reverse(void *v)
{
  ctx *c = v;
  for (uint32_t i = 0; i < c->reps; i++) op_encode_reverse(c);
}

/* JSON (pbj.json): the decoded message written by M_to_json into a reused text, and that text read back by
 * M_from_json (arena reset per run). No size limit: a block's JSON is longer than PBJ_DEFAULT_MAX_LENGTH. */
static const pbj_json_options json_options = {.max_size = (size_t)-1};
static void op_json_encode(void *v)
{
  ctx *c = v;
  c->json.len = 0;
  pbj_status st = pbj_json_write(c->ops->table, c->msg, &c->json, &json_options);
  bh_assert(st == PBJ_OK, "pbjc to_json: %s", pbj_status_str(st));
}
static void op_json_decode(void *v)
{
  ctx *c = v;
  pbj_status st = pbj_table_from_json(c->ops->table, c->msg, c->json.data, c->json.len, &c->arena, &json_options);
  bh_assert(st == PBJ_OK, "pbjc from_json: %s", pbj_status_str(st));
}

/* The JSON rows of a decoded block: to_json, then from_json of its text, whose encoding must be the input. */
static void json_rows(ctx *c, const char *workload, double units)
{
  char label[64];
  pbj_text_init(&c->json);
  op_json_encode(c);              /* the text grown once, outside the count */
  snprintf(label, sizeof label, "%s_json_encode", workload);
  double ns = bh_time(c->e, label, op_json_encode, NULL, c);
  char note[96];
  snprintf(note, sizeof note, "M_to_json into a reused text: %.0f bytes of JSON per transaction", (double)c->json.len / units);
  bh_row(c->e, workload, "json_encode", ns / units, 0, 0, note);
  snprintf(label, sizeof label, "%s_json_decode", workload);
  ns = bh_time(c->e, label, op_json_decode, reset, c);
  pbj_arena_reset(&c->arena);
  op_json_decode(c);
  op_encode(c);
  bh_assert_same("pbjc from_json", c->out, c->out_len, c->in);
  bh_row(c->e, workload, "json_decode", ns / units, (double)arena_used(&c->arena) / units, 0,
         "M_from_json, arena reset per run; re-encoded to the input's bytes");
  pbj_text_free(&c->json);
}

/* The row of M_write_reverse into a reused pbj_rbuf (c->msg decoded): timed as label, shown as workload's op. */
static void reverse_row(ctx *c, const char *label, const char *workload, const char *op, void (*fn)(void *), double units)
{
  pbj_rbuf_init(&c->rbuf, NULL, 0);
  op_encode_reverse(c);           /* the block grown once, outside the count (a first write from no block retries) */
  double ns = bh_time(c->e, label, fn, NULL, c);
  bh_assert_same(label, pbj_rbuf_data(&c->rbuf), pbj_rbuf_len(&c->rbuf), c->in);
  bh_row(c->e, workload, op, ns / units, 0, 0, "pbj.fast_write: back to front, no size pass");
  pbj_rbuf_free(&c->rbuf);
}

/* Each SignedTransaction's view, then its TransactionBody's from body_bytes: no allocation at all. */
static void op_tx_scan_views(void *v)
{
  ctx *c = v;
  uint64_t s = 0;
  for (size_t i = 0; i < c->e->n_txs; i++) {
    pbjbench_SignedTransaction_view st;
    pbjbench_TransactionBody_view body;
    pbj_status r = pbjbench_SignedTransaction_view_init(&st, c->e->txs[i].p, c->e->txs[i].n);
    pbj_slice b = pbjbench_SignedTransaction_view_body_bytes(&st);
    if (r == PBJ_OK) r = pbjbench_TransactionBody_view_init(&body, b.data, b.len);
    bh_assert(r == PBJ_OK, "pbjc tx views: %s", pbj_status_str(r));
    s += visit_view_pbjbench_SignedTransaction(&st) + visit_view_pbjbench_TransactionBody(&body);
  }
  c->sum = s;
}

/* Each SignedTransaction, then its TransactionBody from body_bytes; the arena reset per transaction. */
static void op_tx_decode(void *v)
{
  ctx *c = v;
  uint64_t s = 0;
  pbjbench_SignedTransaction st;
  pbjbench_TransactionBody body;
  for (size_t i = 0; i < c->e->n_txs; i++) {
    pbj_arena_reset(&c->arena);
    pbj_status r = pbjbench_SignedTransaction_decode(&st, c->e->txs[i].p, c->e->txs[i].n, &c->arena, NULL);
    if (r == PBJ_OK) r = pbjbench_TransactionBody_decode(&body, st.body_bytes.data, st.body_bytes.len, &c->arena, NULL);
    bh_assert(r == PBJ_OK, "pbjc tx decode: %s", pbj_status_str(r));
    s += visit_pbjbench_SignedTransaction(&st) + visit_pbjbench_TransactionBody(&body);
  }
  c->sum = s;
}

/* The decoded synthetic block through the writers: a child writer per message (ended explicitly), a
 * packable array in one call. */
typedef struct {
  pbjbench_Block *block;
  pbj_wbuf buf;
  pbj_arena arena;                    /* produce_structs: the new structs, reset per run */
  uint8_t *out; size_t cap, len;
} produce_ctx;

static void op_produce_writers(void *v)
{
  produce_ctx *c = v;
  pbjbench_Block_writer w;
  pbj_wbuf_reset(&c->buf);
  int st = pbjbench_Block_writer_start(&w, &c->buf);
  if (!st) st = produce_pbjbench_Block(&w, c->block);
  if (!st) st = pbjbench_Block_writer_end(&w);
  bh_assert(st == 0, "pbjc produce_writers: %d", st);
}

/* The same values set field by field into new structs (arena reset per run), then encoded (size + write). */
static void op_produce_structs(void *v)
{
  produce_ctx *c = v;
  pbj_arena_reset(&c->arena);
  pbjbench_Block *m = (pbjbench_Block *)pbj_arena_alloc(&c->arena, sizeof *m);
  build_pbjbench_Block(&c->arena, m, c->block);
  pbj_status st = pbjbench_Block_encode(m, c->out, c->cap, &c->len);
  bh_assert(st == PBJ_OK, "pbjc produce_structs: %s", pbj_status_str(st));
}

static void produce(bh_env *e)
{
  produce_ctx c = { calloc(1, sizeof(pbjbench_Block)), { 0 }, { 0 }, malloc(e->synthetic.len + OUT_ROOM), e->synthetic.len + OUT_ROOM, 0 };
  pbj_arena arena = { 0 };
  pbj_status st = pbjbench_Block_decode(c.block, e->synthetic.data, e->synthetic.len, &arena, NULL);
  bh_assert(st == PBJ_OK, "pbjc decode: %s", pbj_status_str(st));
  pbj_wbuf_init(&c.buf, NULL, 0);
  op_produce_writers(&c);             /* the buffer grown and the lengths learnt once, outside the count */
  double ns = bh_time(e, "synthetic_produce_writers", op_produce_writers, NULL, &c);
  bh_assert_same("pbjc produce_writers", c.buf.data, c.buf.len, &e->synthetic);
  double moves[3];                    /* bodies moved per transaction, once warm, per reservation strategy */
  for (int r = 0; r < 3; r++) {
    pbj_wbuf_set_reserve(&c.buf, (pbj_reserve)r);
    op_produce_writers(&c);
    size_t before = c.buf.moves;
    op_produce_writers(&c);
    moves[r] = (double)(c.buf.moves - before) / e->synthetic_tx;
  }
  char note[160];
  snprintf(note, sizeof note, "decoded structs walked through the writers; moves/tx adaptive %.2f per-type %.2f one-byte %.2f",
           moves[0], moves[1], moves[2]);
  bh_row(e, "synthetic", "produce_writers", ns / e->synthetic_tx, 0, 0, note);
  op_produce_structs(&c);             /* the arena grown once, outside the count */
  ns = bh_time(e, "synthetic_produce_structs", op_produce_structs, NULL, &c);
  bh_assert_same("pbjc produce_structs", c.out, c.len, &e->synthetic);
  bh_row(e, "synthetic", "produce_structs", ns / e->synthetic_tx, 0, 0, "values set into new structs (arena), then size + encode");
  pbj_arena_free(&c.arena);
  free(c.out);
  pbj_wbuf_free(&c.buf);
  pbj_arena_free(&arena);
  free(c.block);
}

static void block(bh_env *e, const char *workload, const bh_buf *in, const root_ops *ops, size_t msg_size,
                  double units, uint64_t want_sum)
{
  ctx c = { e, in, ops, calloc(1, msg_size), { 0 }, malloc(in->len + OUT_ROOM), in->len + OUT_ROOM, 0, 0, 0, { 0 }, { 0 } };
  char label[64];
  snprintf(label, sizeof label, "%s_decode", workload);
  double ns = bh_time(e, label, op_decode, reset, &c);
  pbj_arena_free(&c.arena);
  op_decode(&c);
  double bytes = (double)arena_used(&c.arena);
  bh_row(e, workload, "decode", ns / units, bytes / units, 0, "arena reset per run; strings copied");
  snprintf(label, sizeof label, "%s_encode", workload);
  ns = bh_time(e, label, op_encode, NULL, &c);
  bh_assert_same("pbjc encode", c.out, c.out_len, in);
  bh_row(e, workload, "encode", ns / units, 0, 0, "size + encode");
  c.cap = in->len;                /* a buffer of exactly M_size bytes (the walk's end sized exactly, no move) */
  snprintf(label, sizeof label, "%s_encode_exact", workload);
  ns = bh_time(e, label, op_encode, NULL, &c);
  bh_assert_same("pbjc encode_exact", c.out, c.out_len, in);
  bh_row(e, workload, "encode_exact", ns / units, 0, 0, "M_encode into exactly M_size bytes");
  c.cap = in->len + OUT_ROOM;
  snprintf(label, sizeof label, "%s_encode_reverse", workload);
  reverse_row(&c, label, workload, "encode_reverse", op_encode_reverse, units);
  snprintf(label, sizeof label, "%s_scan_structs", workload);
  ns = bh_time(e, label, op_scan, reset, &c);
  bh_assert(!want_sum || c.sum == want_sum, "pbjc %s sum %016llx", workload, (unsigned long long)c.sum);
  bh_row(e, workload, "scan_structs", ns / units, bytes / units, c.sum, NULL);
  snprintf(label, sizeof label, "%s_scan_views", workload);
  ns = bh_time(e, label, op_scan_views, NULL, &c);
  bh_assert(!want_sum || c.sum == want_sum, "pbjc %s views sum %016llx", workload, (unsigned long long)c.sum);
  bh_row(e, workload, "scan_views", ns / units, 0, c.sum, "pbj.views: no allocation");
  json_rows(&c, workload, units);
  pbj_arena_free(&c.arena);
  free(c.msg);
  free(c.out);
}

static void small(bh_env *e, const char *name, const bh_buf *in, const root_ops *ops, size_t msg_size)
{
  ctx c = { e, in, ops, calloc(1, msg_size), { 0 }, malloc(in->len + OUT_ROOM), in->len + OUT_ROOM, 0, 0, e->small_reps, { 0 }, { 0 } };
  char op[64];
  snprintf(op, sizeof op, "%s_decode", name);
  double ns = bh_time(e, op, op_small_decode, NULL, &c);
  pbj_arena_free(&c.arena);
  op_decode(&c);
  bh_row(e, "small", op, ns / c.reps, (double)arena_used(&c.arena), 0, "arena reset per message");
  snprintf(op, sizeof op, "%s_encode", name);
  ns = bh_time(e, op, op_small_encode, NULL, &c);
  bh_assert_same(op, c.out, c.out_len, in);
  bh_row(e, "small", op, ns / c.reps, 0, 0, NULL);
  snprintf(op, sizeof op, "%s_encode_reverse", name);
  reverse_row(&c, op, "small", op, op_small_encode_reverse, c.reps);
  pbj_arena_free(&c.arena);
  free(c.msg);
  free(c.out);
}

/* The cache rows (--cache N): decode, encode, encode_reverse and scan_views over N copies of the synthetic
 * block, each with its own struct, arena and buffers; a round is one call per copy (bench/cache.sh). */
static void cache_init(void *v, bh_env *e, const bh_buf *in)
{
  ctx *c = v;
  *c = (ctx){ e, in, &pbjbench_Block_ops, calloc(1, sizeof(pbjbench_Block)), { 0 }, malloc(in->len + OUT_ROOM), in->len + OUT_ROOM,
              0, 0, 0, { 0 }, { 0 } };
  pbj_rbuf_init(&c->rbuf, NULL, 0);
}

static void cache_rows(bh_env *e)
{
  int n = e->cache_copies;
  void **cv = bh_cache_contexts(e, sizeof(ctx), cache_init);
  bh_cache_row(e, "decode", op_decode, reset, cv, n, "arena reset per run; strings copied");
  bh_cache_row(e, "encode", op_encode, NULL, cv, n, "size + encode");
  bh_cache_row(e, "encode_reverse", op_encode_reverse, NULL, cv, n, "pbj.fast_write: back to front, no size pass");
  bh_cache_row(e, "scan_views", op_scan_views, NULL, cv, n, "pbj.views: no allocation");
  for (int i = 0; i < n; i++) {
    ctx *c = cv[i];
    bh_assert_same("pbjc cache encode", c->out, c->out_len, c->in);
    bh_assert_same("pbjc cache encode_reverse", pbj_rbuf_data(&c->rbuf), pbj_rbuf_len(&c->rbuf), c->in);
    bh_assert(c->sum == e->synthetic_sum, "pbjc cache scan_views sum");
  }
}

int main(int argc, char **argv)
{
  bh_env e;
  bh_init(&e, BENCH_CONTENDER, argc, argv);
  if (e.cache_copies) {
    cache_rows(&e);
    return 0;
  }
  block(&e, "synthetic", &e.synthetic, &pbjbench_Block_ops, sizeof(pbjbench_Block), e.synthetic_tx, e.synthetic_sum);
  block(&e, "real", &e.real, &com_hedera_hapi_block_stream_Block_ops, sizeof(com_hedera_hapi_block_stream_Block), e.real_tx, 0);
  produce(&e);
  ctx c = { &e, NULL, NULL, NULL, { 0 }, NULL, 0, 0, 0, 0, { 0 }, { 0 } };
  double ns = bh_time(&e, "synthetic_tx_decode", op_tx_decode, NULL, &c);
  bh_assert(c.sum == e.tx_sum, "pbjc tx_decode sum");
  bh_row(&e, "synthetic", "tx_decode", ns / (double)e.n_txs, 0, c.sum, "arena reset per transaction");
  ns = bh_time(&e, "synthetic_tx_scan_views", op_tx_scan_views, NULL, &c);
  bh_assert(c.sum == e.tx_sum, "pbjc tx_scan_views sum");
  bh_row(&e, "synthetic", "tx_scan_views", ns / (double)e.n_txs, 0, c.sum, "pbj.views: no allocation");
  pbj_arena_free(&c.arena);
  small(&e, "timestamp", &e.timestamp, &pbjbench_Timestamp_ops, sizeof(pbjbench_Timestamp));
  small(&e, "account_id", &e.account_id, &pbjbench_AccountID_ops, sizeof(pbjbench_AccountID));
  small(&e, "tx_body", &e.tx_body, &pbjbench_TransactionBody_ops, sizeof(pbjbench_TransactionBody));
  return 0;
}
