// bench_cpp.cc: Google's C++ protobuf (Debian's libprotobuf) in the harness, with an Arena and with a reused message.
#include "../harness.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <google/protobuf/arena.h>
#include <google/protobuf/util/json_util.h>

#include "blockstream.pb.h"
#include "stream/block.pb.h"

// Counts what operator new hands out (the reused-message rows).
static size_t allocated;
void *operator new(size_t n)
{
  allocated += n;
  void *p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  return p;
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }

static inline uint64_t str_sum(const std::string &s)
{
  return s.empty() ? 0 : s.size() + (uint8_t)s[0] + (uint8_t)s[s.size() - 1];
}
#include "visit_synthetic.inc"
#include "visit_real.inc"

template <class M> struct Bench {
  bh_env *e;
  const bh_buf *in;
  uint64_t (*visit)(const M &);
  google::protobuf::Arena *arena = nullptr;
  M *msg = nullptr;        // on the arena, or the reused one
  M reused;
  bool use_arena = true;
  std::string out;
  size_t out_len = 0;
  uint64_t sum = 0;

  void fresh()
  {
    if (!use_arena) { msg = &reused; return; }
    delete arena;
    arena = new google::protobuf::Arena();
    msg = google::protobuf::Arena::CreateMessage<M>(arena);
  }
  void decode()
  {
    if (!use_arena) msg->Clear();
    bh_assert(msg->ParseFromArray(in->data, (int)in->len), "C++ parse");
  }
  void encode()
  {
    size_t n = msg->ByteSizeLong();
    uint8_t *end = msg->SerializeWithCachedSizesToArray((uint8_t *)&out[0]);
    out_len = (size_t)(end - (uint8_t *)&out[0]);
    bh_assert(out_len == n, "C++ size");
  }
};

template <class M> static void op_reset(void *v) { static_cast<Bench<M> *>(v)->fresh(); }
template <class M> static void op_decode(void *v) { static_cast<Bench<M> *>(v)->decode(); }
template <class M> static void op_scan(void *v)
{
  auto *b = static_cast<Bench<M> *>(v);
  b->decode();
  b->sum = b->visit(*b->msg);
}
template <class M> static void op_encode(void *v) { static_cast<Bench<M> *>(v)->encode(); }
// JSON: util::MessageToJsonString of the decoded message into a reused string, JsonStringToMessage of that text.
static std::string json_text;
template <class M> static void op_json_encode(void *v)
{
  json_text.clear();
  bh_assert(google::protobuf::util::MessageToJsonString(*static_cast<Bench<M> *>(v)->msg, &json_text).ok(), "C++ to JSON");
}
template <class M> static void op_json_decode(void *v)
{
  bh_assert(google::protobuf::util::JsonStringToMessage(json_text, static_cast<Bench<M> *>(v)->msg).ok(), "C++ from JSON");
}

template <class M>
static void block(bh_env *e, const char *contender, const char *workload, const bh_buf *in,
                  uint64_t (*visit)(const M &), double units, uint64_t want_sum, bool use_arena)
{
  Bench<M> b;
  b.e = e; b.in = in; b.visit = visit; b.use_arena = use_arena;
  b.out.resize(in->len + 64);
  e->contender = contender;
  char label[64];
  std::snprintf(label, sizeof label, "%s_decode", workload);
  double ns = bh_time(e, label, op_decode<M>, op_reset<M>, &b);
  // what one decode allocates: the arena's blocks, or operator new for the reused message
  b.fresh();
  allocated = 0;
  b.decode();
  double bytes = use_arena ? (double)b.arena->SpaceAllocated() : (double)allocated;
  bh_row(e, workload, "decode", ns / units, bytes / units, 0, use_arena ? "arena per decode" : "one message, Clear() and reparse");
  std::snprintf(label, sizeof label, "%s_encode", workload);
  ns = bh_time(e, label, op_encode<M>, nullptr, &b);
  bh_assert_same("C++ encode", (const uint8_t *)b.out.data(), b.out_len, in);
  bh_row(e, workload, "encode", ns / units, 0, 0, "ByteSizeLong + SerializeWithCachedSizesToArray");
  std::snprintf(label, sizeof label, "%s_scan_structs", workload);
  ns = bh_time(e, label, op_scan<M>, op_reset<M>, &b);
  bh_assert(!want_sum || b.sum == want_sum, "C++ %s sum %016llx", workload, (unsigned long long)b.sum);
  bh_row(e, workload, "scan_structs", ns / units, bytes / units, b.sum, nullptr);
  if (use_arena) {                // the JSON rows once, on the arena's message
    op_json_encode<M>(&b);
    std::snprintf(label, sizeof label, "%s_json_encode", workload);
    ns = bh_time(e, label, op_json_encode<M>, nullptr, &b);
    bh_row(e, workload, "json_encode", ns / units, 0, 0, "util::MessageToJsonString into a reused string");
    std::snprintf(label, sizeof label, "%s_json_decode", workload);
    ns = bh_time(e, label, op_json_decode<M>, op_reset<M>, &b);
    b.fresh();
    op_json_decode<M>(&b);
    b.encode();
    bh_assert_same("C++ from JSON", (const uint8_t *)b.out.data(), b.out_len, in);
    bh_row(e, workload, "json_decode", ns / units, (double)b.arena->SpaceAllocated() / units, 0,
           "util::JsonStringToMessage, arena per run; re-encoded to the input's bytes");
  }
  delete b.arena;
}

template <class M> struct Small {
  bh_env *e; const bh_buf *in; M msg; std::string out; size_t out_len = 0; uint64_t sum = 0; bool use_arena;
};
template <class M> static void small_decode(void *v)
{
  auto *s = static_cast<Small<M> *>(v);
  uint64_t sum = 0;
  for (uint32_t i = 0; i < s->e->small_reps; i++) {
    if (s->use_arena) {
      google::protobuf::Arena arena;
      M *m = google::protobuf::Arena::CreateMessage<M>(&arena);
      sum += m->ParseFromArray(s->in->data, (int)s->in->len);
    } else {
      s->msg.Clear();
      sum += s->msg.ParseFromArray(s->in->data, (int)s->in->len);
    }
  }
  s->sum = sum;
}
template <class M> static void small_encode(void *v)
{
  auto *s = static_cast<Small<M> *>(v);
  uint64_t sum = 0;
  for (uint32_t i = 0; i < s->e->small_reps; i++) {
    size_t n = s->msg.ByteSizeLong();
    uint8_t *end = s->msg.SerializeWithCachedSizesToArray((uint8_t *)&s->out[0]);
    sum += (uint64_t)(end - (uint8_t *)&s->out[0]) + (n & 0);
    s->out_len = (size_t)(end - (uint8_t *)&s->out[0]);
  }
  s->sum = sum;
}
template <class M> static void small(bh_env *e, const char *contender, const char *name, const bh_buf *in, bool use_arena)
{
  Small<M> s;
  s.e = e; s.in = in; s.use_arena = use_arena;
  s.out.resize(in->len + 64);
  e->contender = contender;
  char op[64];
  std::snprintf(op, sizeof op, "%s_decode", name);
  double ns = bh_time(e, op, small_decode<M>, nullptr, &s);
  allocated = 0;
  double bytes;
  if (use_arena) {
    google::protobuf::Arena arena;
    M *m = google::protobuf::Arena::CreateMessage<M>(&arena);
    bh_assert(m->ParseFromArray(in->data, (int)in->len), "parse");
    bytes = (double)arena.SpaceAllocated();
  } else {
    s.msg.Clear();
    bh_assert(s.msg.ParseFromArray(in->data, (int)in->len), "parse");
    bytes = (double)allocated;
  }
  bh_row(e, "small", op, ns / e->small_reps, bytes, 0, use_arena ? "a new arena per message" : "one message, Clear() and reparse");
  bh_assert(s.msg.ParseFromArray(in->data, (int)in->len), "parse");
  std::snprintf(op, sizeof op, "%s_encode", name);
  ns = bh_time(e, op, small_encode<M>, nullptr, &s);
  bh_assert_same(op, (const uint8_t *)s.out.data(), s.out_len, in);
  bh_row(e, "small", op, ns / e->small_reps, 0, 0, nullptr);
}

// Each SignedTransaction, then its TransactionBody from body_bytes: an arena
// per transaction, or two reused messages.
struct TxBench { bh_env *e; bool use_arena; pbjbench::SignedTransaction st; pbjbench::TransactionBody body; uint64_t sum = 0; };
static void tx_decode(void *v)
{
  auto *t = static_cast<TxBench *>(v);
  uint64_t s = 0;
  for (size_t i = 0; i < t->e->n_txs; i++) {
    if (t->use_arena) {
      google::protobuf::Arena arena;
      auto *st = google::protobuf::Arena::CreateMessage<pbjbench::SignedTransaction>(&arena);
      auto *body = google::protobuf::Arena::CreateMessage<pbjbench::TransactionBody>(&arena);
      bh_assert(st->ParseFromArray(t->e->txs[i].p, (int)t->e->txs[i].n), "tx parse");
      bh_assert(body->ParseFromString(st->body_bytes()), "body parse");
      s += visit_pbjbench_SignedTransaction(*st) + visit_pbjbench_TransactionBody(*body);
    } else {
      t->st.Clear(); t->body.Clear();
      bh_assert(t->st.ParseFromArray(t->e->txs[i].p, (int)t->e->txs[i].n), "tx parse");
      bh_assert(t->body.ParseFromString(t->st.body_bytes()), "body parse");
      s += visit_pbjbench_SignedTransaction(t->st) + visit_pbjbench_TransactionBody(t->body);
    }
  }
  t->sum = s;
}

using SynBlock = pbjbench::Block;
using RealBlock = com::hedera::hapi::block::stream::Block;
static uint64_t visit_syn(const SynBlock &m) { return visit_pbjbench_Block(m); }
static uint64_t visit_real(const RealBlock &m) { return visit_com_hedera_hapi_block_stream_Block(m); }

// The cache rows (--cache N): decode (an arena per decode) and encode over N copies of the synthetic block,
// each with its own message and output; a round is one call per copy (bench/cache.sh).
static void cache_rows(bh_env *e)
{
  int n = e->cache_copies;
  bh_buf *in = bh_copies(&e->synthetic, n);
  Bench<SynBlock> *b = new Bench<SynBlock>[n];
  void **cv = new void *[n];
  for (int i = 0; i < n; i++) {
    b[i].e = e; b[i].in = &in[i]; b[i].visit = visit_syn;
    b[i].out.resize(in[i].len + 64);
    cv[i] = &b[i];
  }
  bh_cache_row(e, "decode", op_decode<SynBlock>, op_reset<SynBlock>, cv, n, "arena per decode");
  bh_cache_row(e, "encode", op_encode<SynBlock>, nullptr, cv, n, "ByteSizeLong + SerializeWithCachedSizesToArray");
  for (int i = 0; i < n; i++) {
    bh_assert_same("C++ cache encode", (const uint8_t *)b[i].out.data(), b[i].out_len, &in[i]);
    delete b[i].arena;
  }
}

int main(int argc, char **argv)
{
  bh_env e;
  bh_init(&e, "c++arena", argc, argv);
  if (e.cache_copies) {
    cache_rows(&e);
    return 0;
  }
  for (int reuse = 0; reuse < 2; reuse++) {
    const char *who = reuse ? "c++reuse" : "c++arena";
    block<SynBlock>(&e, who, "synthetic", &e.synthetic, visit_syn, e.synthetic_tx, e.synthetic_sum, !reuse);
    block<RealBlock>(&e, who, "real", &e.real, visit_real, e.real_tx, 0, !reuse);
    TxBench t;
    t.e = &e; t.use_arena = !reuse;
    double ns = bh_time(&e, "synthetic_tx_decode", tx_decode, nullptr, &t);
    bh_assert(t.sum == e.tx_sum, "C++ tx_decode sum");
    bh_row(&e, "synthetic", "tx_decode", ns / (double)e.n_txs, 0, t.sum, reuse ? "two reused messages" : "an arena per transaction");
    small<pbjbench::Timestamp>(&e, who, "timestamp", &e.timestamp, !reuse);
    small<pbjbench::AccountID>(&e, who, "account_id", &e.account_id, !reuse);
    small<pbjbench::TransactionBody>(&e, who, "tx_body", &e.tx_body, !reuse);
  }
  return 0;
}
