/* bench_nanopb.c: nanopb (Debian's generator and libprotobuf-nanopb) in the harness: synthetic block and small messages. */
#include "../harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pb_decode.h>
#include <pb_encode.h>

#include "blockstream.pb.h"

/* The sum helpers the generated visitor calls. */
static inline uint64_t bin_sum(size_t n, const uint8_t *b) { return n ? n + b[0] + b[n - 1] : 0; }
static inline uint64_t cstr_sum(const char *s)
{
  size_t n = strlen(s);
  return n ? n + (uint8_t)s[0] + (uint8_t)s[n - 1] : 0;
}
#include "visit_synthetic.inc"

/* Static structs: one BlockItem is sizeof(pbjbench_BlockItem) bytes (the
   largest item at its max_count/max_size), so a 200,000-item block cannot be
   held at once: decode streams the items through one struct (the Block.items
   callback), encode writes chunks of CHUNK items decoded beforehand. */
#define CHUNK 64
static pbjbench_BlockItem item, chunk[CHUNK];

typedef struct {
  bh_env *e;
  const bh_buf *in;
  bool visit;
  uint64_t sum;
  uint8_t *out; size_t out_len;
  bh_range *items; size_t n_items;
} ctx;

static bool on_item(pb_istream_t *stream, const pb_field_iter_t *field, void **arg)
{
  (void)field;
  ctx *c = *arg;
  if (!pb_decode(stream, pbjbench_BlockItem_fields, &item)) return false;
  if (c->visit) c->sum += visit_pbjbench_BlockItem(&item);
  return true;
}
static void op_decode(void *v)
{
  ctx *c = v;
  pbjbench_Block b = pbjbench_Block_init_zero;
  b.items.funcs.decode = on_item;
  b.items.arg = c;
  c->sum = 0;
  pb_istream_t s = pb_istream_from_buffer(c->in->data, c->in->len);
  bh_assert(pb_decode(&s, pbjbench_Block_fields, &b), "nanopb decode: %s", PB_GET_ERROR(&s));
}
/* The block's items, CHUNK at a time: decoded untimed, encoded timed. */
static void op_encode(void *v)
{
  ctx *c = v;
  pb_ostream_t os = pb_ostream_from_buffer(c->out, c->in->len + 64);
  for (size_t at = 0; at < c->n_items; at += CHUNK) {
    size_t n = c->n_items - at < CHUNK ? c->n_items - at : CHUNK;
    for (size_t i = 0; i < n; i++) {
      pb_istream_t is = pb_istream_from_buffer(c->items[at + i].p, c->items[at + i].n);
      bh_assert(pb_decode(&is, pbjbench_BlockItem_fields, &chunk[i]), "nanopb item decode");
    }
    bh_piece_start();
    for (size_t i = 0; i < n; i++)
      if (!pb_encode_tag(&os, PB_WT_STRING, pbjbench_Block_items_tag) || !pb_encode_submessage(&os, pbjbench_BlockItem_fields, &chunk[i]))
        bh_assert(false, "nanopb encode: %s", PB_GET_ERROR(&os));
    bh_piece_stop();
  }
  c->out_len = os.bytes_written;
}

/* Each SignedTransaction, then its TransactionBody from body_bytes. */
static pbjbench_SignedTransaction tx;
static pbjbench_TransactionBody tx_body;
static void op_tx_decode(void *v)
{
  ctx *c = v;
  uint64_t s = 0;
  for (size_t i = 0; i < c->e->n_txs; i++) {
    pb_istream_t is = pb_istream_from_buffer(c->e->txs[i].p, c->e->txs[i].n);
    bh_assert(pb_decode(&is, pbjbench_SignedTransaction_fields, &tx), "nanopb tx decode");
    is = pb_istream_from_buffer(tx.body_bytes.bytes, tx.body_bytes.size);
    bh_assert(pb_decode(&is, pbjbench_TransactionBody_fields, &tx_body), "nanopb body decode");
    s += visit_pbjbench_SignedTransaction(&tx) + visit_pbjbench_TransactionBody(&tx_body);
  }
  c->sum = s;
}

/* The top-level items of the block (Block.items = 1). */
static bh_range *all_items(const bh_buf *b, size_t *n)
{
  bh_range *r = malloc(b->len / 2 * sizeof *r);
  pb_istream_t s = pb_istream_from_buffer(b->data, b->len);
  *n = 0;
  while (s.bytes_left) {
    pb_wire_type_t wt; uint32_t tag; bool eof; uint32_t len;
    bh_assert(pb_decode_tag(&s, &wt, &tag, &eof) && tag == 1 && wt == PB_WT_STRING && pb_decode_varint32(&s, &len), "block");
    r[(*n)++] = (bh_range){ b->data + (b->len - s.bytes_left), len };
    bh_assert(pb_read(&s, NULL, len), "block");
  }
  return r;
}

typedef struct { bh_env *e; const bh_buf *in; const pb_msgdesc_t *fields; void *msg; uint8_t out[2048]; size_t out_len; uint64_t sum; } small_ctx;
static void small_decode(void *v)
{
  small_ctx *c = v;
  uint64_t s = 0;
  for (uint32_t i = 0; i < c->e->small_reps; i++) {
    pb_istream_t is = pb_istream_from_buffer(c->in->data, c->in->len);
    s += pb_decode(&is, c->fields, c->msg);
  }
  c->sum = s;
}
static void small_encode(void *v)
{
  small_ctx *c = v;
  uint64_t s = 0;
  for (uint32_t i = 0; i < c->e->small_reps; i++) {
    pb_ostream_t os = pb_ostream_from_buffer(c->out, sizeof c->out);
    s += pb_encode(&os, c->fields, c->msg);
    c->out_len = os.bytes_written;
  }
  c->sum = s;
}
static void small(bh_env *e, const char *name, const bh_buf *in, const pb_msgdesc_t *fields, void *msg, size_t size)
{
  small_ctx c = { e, in, fields, msg, { 0 }, 0, 0 };
  char op[64];
  snprintf(op, sizeof op, "%s_decode", name);
  double ns = bh_time(e, op, small_decode, NULL, &c);
  bh_row(e, "small", op, ns / e->small_reps, 0, 0, NULL);
  snprintf(op, sizeof op, "%s_encode", name);
  ns = bh_time(e, op, small_encode, NULL, &c);
  bh_assert_same(op, c.out, c.out_len, in);
  char note[64];
  snprintf(note, sizeof note, "static struct of %zu B", size);
  bh_row(e, "small", op, ns / e->small_reps, 0, 0, note);
}

int main(int argc, char **argv)
{
  bh_env e;
  bh_init(&e, "nanopb", argc, argv);
  ctx c = { &e, &e.synthetic, false, 0, malloc(e.synthetic.len + 64), 0, NULL, 0 };
  c.items = all_items(&e.synthetic, &c.n_items);
  double tx = e.synthetic_tx;
  char note[128];
  snprintf(note, sizeof note, "items streamed through one static %zu B BlockItem", sizeof item);
  double ns = bh_time(&e, "synthetic_decode", op_decode, NULL, &c);
  bh_row(&e, "synthetic", "decode", ns / tx, 0, 0, note);
  ns = bh_time(&e, "synthetic_encode", op_encode, NULL, &c);
  bh_assert_same("nanopb encode", c.out, c.out_len, &e.synthetic);
  snprintf(note, sizeof note, "items %d at a time from static structs (timed in pieces)", CHUNK);
  bh_row(&e, "synthetic", "encode", ns / tx, 0, 0, note);
  c.visit = true;
  ns = bh_time(&e, "synthetic_scan_structs", op_decode, NULL, &c);
  bh_assert(c.sum == e.synthetic_sum, "nanopb sum %016llx", (unsigned long long)c.sum);
  bh_row(&e, "synthetic", "scan_structs", ns / tx, 0, c.sum, NULL);
  ns = bh_time(&e, "synthetic_tx_decode", op_tx_decode, NULL, &c);
  bh_assert(c.sum == e.tx_sum, "nanopb tx_decode sum");
  bh_row(&e, "synthetic", "tx_decode", ns / (double)e.n_txs, 0, c.sum, "static structs");
  const char *why = "static structs cannot hold the recursive Key/KeyList of the real schema";
  bh_na(&e, "real", "decode", why);
  bh_na(&e, "real", "encode", why);
  bh_na(&e, "real", "scan_structs", why);

  static pbjbench_Timestamp ts;
  static pbjbench_AccountID id;
  static pbjbench_TransactionBody body;
  small(&e, "timestamp", &e.timestamp, pbjbench_Timestamp_fields, &ts, sizeof ts);
  small(&e, "account_id", &e.account_id, pbjbench_AccountID_fields, &id, sizeof id);
  small(&e, "tx_body", &e.tx_body, pbjbench_TransactionBody_fields, &body, sizeof body);
  return 0;
}
