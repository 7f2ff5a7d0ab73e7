/* bench_protobufc.c: protobuf-c (protoc-c generated code, Debian's libprotobuf-c) in the harness: synthetic, real and small. */
#include "../harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <protobuf-c/protobuf-c.h>

#include "blockstream.pb-c.h"
#include "stream/block.pb-c.h"

/* The sum helpers the generated visitors call. */
static inline uint64_t bin_sum(ProtobufCBinaryData b) { return b.len ? b.len + b.data[0] + b.data[b.len - 1] : 0; }
static inline uint64_t cstr_sum(const char *s)
{
  size_t n = s ? strlen(s) : 0;
  return n ? n + (uint8_t)s[0] + (uint8_t)s[n - 1] : 0;
}
#include "visit_synthetic.inc"
#include "visit_real.inc"

/* Counts what protobuf-c's allocator hands out. */
static size_t allocated;
static void *count_alloc(void *data, size_t size) { (void)data; allocated += size; return malloc(size); }
static void count_free(void *data, void *p) { (void)data; free(p); }
static ProtobufCAllocator counting = { count_alloc, count_free, NULL };

typedef struct {
  bh_env *e;
  const bh_buf *in;
  const ProtobufCMessageDescriptor *desc;
  ProtobufCMessage *msg;
  uint64_t (*visit)(const ProtobufCMessage *);
  uint8_t *out; size_t out_len;
  uint64_t sum;
  uint32_t reps;
} ctx;

static uint64_t visit_syn(const ProtobufCMessage *m) { return visit_pbjbench_Block((const Pbjbench__Block *)m); }
static uint64_t visit_real(const ProtobufCMessage *m)
{ return visit_com_hedera_hapi_block_stream_Block((const Com__Hedera__Hapi__Block__Stream__Block *)m); }

static void release(void *v)
{
  ctx *c = v;
  if (c->msg) protobuf_c_message_free_unpacked(c->msg, &counting);
  c->msg = NULL;
}
static void op_decode(void *v)
{
  ctx *c = v;
  c->msg = protobuf_c_message_unpack(c->desc, &counting, c->in->len, c->in->data);
  bh_assert(c->msg != NULL, "protobuf-c unpack");
}
static void op_scan(void *v)
{
  ctx *c = v;
  op_decode(c);
  c->sum = c->visit(c->msg);
}
/* A user sizes the buffer first: the size pass is part of the encode. */
static void op_encode(void *v)
{
  ctx *c = v;
  size_t n = protobuf_c_message_get_packed_size(c->msg);
  c->out_len = protobuf_c_message_pack(c->msg, c->out);
  bh_assert(n == c->out_len, "packed size");
}
static void op_small_decode(void *v)
{
  ctx *c = v;
  uint64_t s = 0;
  for (uint32_t i = 0; i < c->reps; i++) {
    ProtobufCMessage *m = protobuf_c_message_unpack(c->desc, &counting, c->in->len, c->in->data);
    s += m != NULL;
    protobuf_c_message_free_unpacked(m, &counting);
  }
  c->sum = s;
}
static void op_small_encode(void *v)
{
  ctx *c = v;
  uint64_t s = 0;
  for (uint32_t i = 0; i < c->reps; i++) {
    size_t n = protobuf_c_message_get_packed_size(c->msg);
    s += protobuf_c_message_pack(c->msg, c->out) + (n & 0);
  }
  c->sum = s;
}

/* Each SignedTransaction, then its TransactionBody from body_bytes (free included). */
static void op_tx_decode(void *v)
{
  ctx *c = v;
  uint64_t s = 0;
  for (size_t i = 0; i < c->e->n_txs; i++) {
    Pbjbench__SignedTransaction *st = pbjbench__signed_transaction__unpack(&counting, c->e->txs[i].n, c->e->txs[i].p);
    bh_assert(st != NULL, "protobuf-c tx unpack");
    Pbjbench__TransactionBody *body = pbjbench__transaction_body__unpack(&counting, st->body_bytes.len, st->body_bytes.data);
    bh_assert(body != NULL, "protobuf-c body unpack");
    s += visit_pbjbench_SignedTransaction(st) + visit_pbjbench_TransactionBody(body);
    pbjbench__transaction_body__free_unpacked(body, &counting);
    pbjbench__signed_transaction__free_unpacked(st, &counting);
  }
  c->sum = s;
}

/* decode, scan, encode of one block; the encoding must be the input's bytes. */
static void block(bh_env *e, const char *workload, const bh_buf *in, const ProtobufCMessageDescriptor *desc,
                  uint64_t (*visit)(const ProtobufCMessage *), double units, uint64_t want_sum)
{
  ctx c = { e, in, desc, NULL, visit, malloc(in->len + 64), 0, 0, 0 };
  char label[64];
  snprintf(label, sizeof label, "%s_decode", workload);
  double ns = bh_time(e, label, op_decode, release, &c);
  allocated = 0;
  release(&c); op_decode(&c);
  double bytes = (double)allocated;
  bh_row(e, workload, "decode", ns / units, bytes / units, 0, "malloc per message; free not timed");
  snprintf(label, sizeof label, "%s_encode", workload);
  ns = bh_time(e, label, op_encode, NULL, &c);
  bh_assert_same("protobuf-c encode", c.out, c.out_len, in);
  bh_row(e, workload, "encode", ns / units, 0, 0, "get_packed_size + pack");
  snprintf(label, sizeof label, "%s_scan_structs", workload);
  ns = bh_time(e, label, op_scan, release, &c);
  bh_assert(!want_sum || c.sum == want_sum, "protobuf-c %s sum %016llx", workload, (unsigned long long)c.sum);
  bh_row(e, workload, "scan_structs", ns / units, bytes / units, c.sum, NULL);
  release(&c);
  free(c.out);
}

static void small(bh_env *e, const char *name, const bh_buf *in, const ProtobufCMessageDescriptor *desc)
{
  ctx c = { e, in, desc, NULL, NULL, malloc(in->len + 64), 0, 0, e->small_reps };
  char op[64];
  snprintf(op, sizeof op, "%s_decode", name);
  double ns = bh_time(e, op, op_small_decode, NULL, &c);
  allocated = 0;
  c.msg = protobuf_c_message_unpack(desc, &counting, in->len, in->data);
  bh_row(e, "small", op, ns / c.reps, (double)allocated, 0, "unpack + free_unpacked");
  snprintf(op, sizeof op, "%s_encode", name);
  ns = bh_time(e, op, op_small_encode, NULL, &c);
  bh_assert_same(op, c.out, protobuf_c_message_pack(c.msg, c.out), in);
  bh_row(e, "small", op, ns / c.reps, 0, 0, NULL);
  release(&c);
  free(c.out);
}

int main(int argc, char **argv)
{
  bh_env e;
  bh_init(&e, "protobuf-c", argc, argv);
  block(&e, "synthetic", &e.synthetic, &pbjbench__block__descriptor, visit_syn, e.synthetic_tx, e.synthetic_sum);
  block(&e, "real", &e.real, &com__hedera__hapi__block__stream__block__descriptor, visit_real, e.real_tx, 0);
  ctx c = { &e, NULL, NULL, NULL, NULL, NULL, 0, 0, 0 };
  double ns = bh_time(&e, "synthetic_tx_decode", op_tx_decode, NULL, &c);
  bh_assert(c.sum == e.tx_sum, "protobuf-c tx_decode sum");
  bh_row(&e, "synthetic", "tx_decode", ns / (double)e.n_txs, 0, c.sum, "unpack + free_unpacked");
  small(&e, "timestamp", &e.timestamp, &pbjbench__timestamp__descriptor);
  small(&e, "account_id", &e.account_id, &pbjbench__account_id__descriptor);
  small(&e, "tx_body", &e.tx_body, &pbjbench__transaction_body__descriptor);
  return 0;
}
