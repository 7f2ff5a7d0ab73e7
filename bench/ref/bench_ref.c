/* bench_ref.c: the reference codec in the harness: the synthetic block and the small messages. */
#include "../harness.h"
#include "ref.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
  bh_env *e;
  const bh_buf *in;     /* the synthetic block, or one copy of it (the cache rows) */
  rb_pools pl;
  rb_Block block;
  uint8_t *out; size_t cap, out_len;
  uint64_t sum;
  bh_range *txs; size_t n_txs;
  const bh_buf *small;  /* the small message of a small-message operation */
} ctx;

static void reset(void *v) { rb_pools_reset(&((ctx *)v)->pl); }

static void op_encode(void *v)
{
  ctx *c = v;
  uint8_t *s = rb_encode_Block(&c->block, c->out, c->cap);
  c->out_len = s ? (size_t)(c->out + c->cap - s) : 0;
  c->sum = s ? s[0] : 0;
}
static void op_decode(void *v)
{
  ctx *c = v;
  bh_assert(rb_decode_Block(&c->block, c->in->data, c->in->len, &c->pl) == 0, "ref decode");
}
static void op_scan_structs(void *v)
{
  ctx *c = v;
  op_decode(c);
  c->sum = rb_visit_Block(&c->block);
}
static void op_scan_views(void *v)
{
  ctx *c = v;
  bool ok;
  c->sum = rb_scan_Block(c->in->data, c->in->len, &ok);
}
/* Each SignedTransaction, then its TransactionBody from body_bytes. */
static void op_tx_decode(void *v)
{
  ctx *c = v;
  uint64_t s = 0;
  for (size_t i = 0; i < c->n_txs; i++) {
    rb_SignedTransaction st;
    rb_TransactionBody body;
    rb_pools_reset(&c->pl);
    bh_assert(rb_decode_SignedTransaction(&st, c->txs[i].p, c->txs[i].n, &c->pl) == 0, "ref tx decode");
    bh_assert(rb_decode_TransactionBody(&body, st.body_bytes.p, st.body_bytes.n, &c->pl) == 0, "ref body decode");
    s += rb_visit_SignedTransaction(&st) + rb_visit_TransactionBody(&body);
  }
  c->sum = s;
}

static void op_tx_scan_views(void *v)
{
  ctx *c = v;
  uint64_t s = 0;
  bool ok = true;
  for (size_t i = 0; i < c->n_txs && ok; i++) s += rb_scan_Transaction(c->txs[i].p, c->txs[i].n, &ok);
  c->sum = ok ? s : 0;
}

/* Small messages: decode, or encode the decoded message, small_reps times
   (the codec is in another file: no call is hoisted out of the loop). */
static inline int dec_Timestamp(rb_Timestamp *m, const uint8_t *p, size_t n, rb_pools *pl) { (void)pl; return rb_decode_Timestamp(m, p, n); }
static inline int dec_AccountID(rb_Id *m, const uint8_t *p, size_t n, rb_pools *pl) { (void)pl; return rb_decode_AccountID(m, p, n); }
#define SMALL_OPS(name, T, DEC, ENC) \
  static void op_##name##_decode(void *v) \
  { \
    ctx *c = v; T t; uint64_t s = 0; \
    for (uint32_t i = 0; i < c->e->small_reps; i++) { rb_pools_reset(&c->pl); s += DEC(&t, c->small->data, c->small->len, &c->pl) == 0; } \
    c->sum = s; \
  } \
  static void op_##name##_encode(void *v) \
  { \
    ctx *c = v; T t; uint8_t buf[1024]; uint64_t s = 0; \
    rb_pools_reset(&c->pl); \
    bh_assert(DEC(&t, c->small->data, c->small->len, &c->pl) == 0, #name); \
    for (uint32_t i = 0; i < c->e->small_reps; i++) s += (uint64_t)(buf + sizeof buf - ENC(&t, buf, sizeof buf)); \
    c->sum = s; \
  }
SMALL_OPS(timestamp, rb_Timestamp, dec_Timestamp, rb_encode_Timestamp)
SMALL_OPS(account_id, rb_Id, dec_AccountID, rb_encode_AccountID)
SMALL_OPS(tx_body, rb_TransactionBody, rb_decode_TransactionBody, rb_encode_TransactionBody)

/* Small-message rows: the encode must give the input's bytes. */
static void small(bh_env *e, ctx *c, const char *name, const bh_buf *msg, bh_fn dec, bh_fn enc, size_t enc_len)
{
  char op[64];
  c->small = msg;
  snprintf(op, sizeof op, "%s_decode", name);
  double ns = bh_time(e, op, dec, NULL, c);
  bh_assert(c->sum == e->small_reps, "ref %s decode", name);
  bh_row(e, "small", op, ns / e->small_reps, 0, 0, NULL);
  snprintf(op, sizeof op, "%s_encode", name);
  ns = bh_time(e, op, enc, NULL, c);
  bh_assert(c->sum == (uint64_t)e->small_reps * enc_len, "ref %s encode length", name);
  bh_row(e, "small", op, ns / e->small_reps, 0, 0, NULL);
}

/* The cache rows (--cache N): decode, encode and scan_views over N copies of the synthetic block, each with
 * its own pools and buffer; a round is one call per copy (bench/cache.sh). */
static void cache_init(void *v, bh_env *e, const bh_buf *in)
{
  ctx *c = v;
  c->e = e;
  c->in = in;
  bh_assert(rb_pools_init(&c->pl, in->len) == 0, "pools");
  c->cap = in->len + 65536;
  c->out = malloc(c->cap);
}

static void cache_rows(bh_env *e)
{
  int n = e->cache_copies;
  void **cv = bh_cache_contexts(e, sizeof(ctx), cache_init);
  bh_cache_row(e, "decode", op_decode, reset, cv, n, "pools sized once, reused");
  bh_cache_row(e, "encode", op_encode, NULL, cv, n, "back to front");
  bh_cache_row(e, "scan_views", op_scan_views, NULL, cv, n, "in-order read of the bytes");
  for (int i = 0; i < n; i++) {
    ctx *c = cv[i];
    bh_assert_same("ref cache encode", c->out + c->cap - c->out_len, c->out_len, c->in);
    bh_assert(c->sum == e->synthetic_sum, "ref cache scan_views sum");
  }
}

int main(int argc, char **argv)
{
  bh_env e;
  ctx c = { 0 };
  bh_init(&e, "ref", argc, argv);
  if (e.cache_copies) {
    cache_rows(&e);
    return 0;
  }
  c.e = &e;
  c.in = &e.synthetic;
  bh_assert(rb_pools_init(&c.pl, e.synthetic.len) == 0, "pools");
  c.cap = e.synthetic.len + 65536;
  c.out = malloc(c.cap);
  c.txs = e.txs; c.n_txs = e.n_txs;
  double tx = e.synthetic_tx;

  /* decode first: encode re-encodes the decoded structs */
  double ns = bh_time(&e, "synthetic_decode", op_decode, reset, &c);
  bh_row(&e, "synthetic", "decode", ns / tx, 0, 0, "pools sized once, reused");
  ns = bh_time(&e, "synthetic_encode", op_encode, NULL, &c);
  bh_assert_same("ref encode", c.out + c.cap - c.out_len, c.out_len, &e.synthetic);
  bh_row(&e, "synthetic", "encode", ns / tx, 0, 0, "back to front");
  ns = bh_time(&e, "synthetic_scan_structs", op_scan_structs, reset, &c);
  bh_assert(c.sum == e.synthetic_sum, "ref scan_structs sum");
  bh_row(&e, "synthetic", "scan_structs", ns / tx, 0, c.sum, NULL);
  ns = bh_time(&e, "synthetic_scan_views", op_scan_views, NULL, &c);
  bh_assert(c.sum == e.synthetic_sum, "ref scan_views sum");
  bh_row(&e, "synthetic", "scan_views", ns / tx, 0, c.sum, "in-order read of the bytes");
  ns = bh_time(&e, "synthetic_tx_decode", op_tx_decode, NULL, &c);
  bh_assert(c.sum == e.tx_sum, "ref tx_decode sum");
  bh_row(&e, "synthetic", "tx_decode", ns / (double)c.n_txs, 0, c.sum, NULL);
  ns = bh_time(&e, "synthetic_tx_scan_views", op_tx_scan_views, NULL, &c);
  bh_assert(c.sum == e.tx_sum, "ref tx_scan_views sum");
  bh_row(&e, "synthetic", "tx_scan_views", ns / (double)c.n_txs, 0, c.sum, NULL);
  bh_na(&e, "real", "decode", "the reference covers only bench/blockstream.proto");

  small(&e, &c, "timestamp", &e.timestamp, op_timestamp_decode, op_timestamp_encode, e.timestamp.len);
  small(&e, &c, "account_id", &e.account_id, op_account_id_decode, op_account_id_encode, e.account_id.len);
  small(&e, &c, "tx_body", &e.tx_body, op_tx_body_decode, op_tx_body_encode, e.tx_body.len);
  return 0;
}
