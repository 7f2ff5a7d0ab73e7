/* gen.c: generates the synthetic block: one flat stream of PRNG draws, in one fixed order, shaped by WORKLOAD.md. */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: a small, well-mixed PRNG of our own, the same on every host. */
typedef struct { uint64_t s; } prng;
static uint64_t next(prng *r)
{
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static uint64_t below(prng *r, uint64_t n) { return next(r) % n; }
static bool percent(prng *r, unsigned pct) { return below(r, 100) < pct; }
/* A value whose varint takes lo..hi bytes (each length equally likely). */
static uint64_t varint_sized(prng *r, unsigned lo, unsigned hi)
{
  unsigned k = lo + (unsigned)below(r, hi - lo + 1);
  uint64_t min = k == 1 ? 1 : 1ull << (7 * (k - 1));
  return min + below(r, (1ull << (7 * k)) - min);
}

typedef struct {
  prng r; gen_store *st; bool fail;
  int64_t seconds; int32_t nanos;   /* consensus clock */
  int64_t next_serial; uint64_t next_order; uint64_t entity_number;
} gen;

/* Storage: typed elements from the pools, bytes from the byte store. */
static void *pool_take(gen *g, void *base, size_t *used, size_t cap, size_t size, size_t n)
{
  if (*used + n > cap) { g->fail = true; *used = 0; }
  void *p = (uint8_t *)base + *used * size;
  memset(p, 0, n * size);
  *used += n;
  return p;
}
#define TAKE(g, pool, n) pool_take(g, (g)->st->pools.pool, &(g)->st->pools.pool##_used, (g)->st->pools.pool##_cap, sizeof *(g)->st->pools.pool, n)
static rb_bytes random_bytes(gen *g, uint32_t n)
{
  gen_store *st = g->st;
  if (st->bytes_used + n > st->bytes_cap) { g->fail = true; st->bytes_used = 0; }
  uint8_t *p = st->bytes + st->bytes_used;
  for (uint32_t i = 0; i < n; i++) p[i] = (uint8_t)next(&g->r);
  st->bytes_used += n;
  return (rb_bytes){ p, n };
}
static rb_bytes copy_bytes(gen *g, const uint8_t *src, uint32_t n)
{
  rb_bytes b = random_bytes(g, 0);
  if (g->st->bytes_used + n > g->st->bytes_cap) { g->fail = true; return b; }
  memcpy(g->st->bytes + g->st->bytes_used, src, n);
  g->st->bytes_used += n;
  b.n = n;
  return b;
}

/* Value shapes of WORKLOAD.md. */
static rb_Id account(gen *g) /* 2 bytes for the 50 hot accounts, 3 for the rest */
{
  int64_t num = percent(&g->r, 80) ? 1001 + (int64_t)below(&g->r, 50) : 20000 + (int64_t)below(&g->r, 2000000);
  return (rb_Id){ 0, 0, num };
}
static rb_Id token(gen *g) /* 1 or 2 bytes */
{
  int64_t num = percent(&g->r, 50) ? 1 + (int64_t)below(&g->r, 120) : 200 + (int64_t)below(&g->r, 16000);
  return (rb_Id){ 0, 0, num };
}
static rb_Id node(gen *g) { return (rb_Id){ 0, 0, 3 + (int64_t)below(&g->r, 7) }; }
static int64_t balance(gen *g) { return (int64_t)varint_sized(&g->r, 5, 8); }
static uint64_t quantity(gen *g) { return varint_sized(&g->r, 2, 5); }
static uint64_t price(gen *g) { return varint_sized(&g->r, 3, 6); }
static uint64_t fee(gen *g) { return varint_sized(&g->r, 4, 5); }
static rb_Timestamp tick(gen *g) /* the consensus clock moves on a little */
{
  g->nanos += 1000 + (int32_t)below(&g->r, 50000);
  if (g->nanos >= 1000000000) { g->nanos -= 1000000000; g->seconds++; }
  return (rb_Timestamp){ g->seconds, g->nanos };
}
static rb_NftID nft_id(gen *g, rb_Id tok) { return (rb_NftID){ 1u << 1, tok, g->next_serial++ }; }
/* An older NFT. Draws are sequenced one per statement: the order of
   evaluation inside an initializer is unspecified, and the bytes must not
   depend on the compiler. */
static rb_NftID old_nft_id(gen *g)
{
  rb_Id tok = token(g);
  int64_t serial = 7000000000 + (int64_t)below(&g->r, 1000000);
  return (rb_NftID){ 1u << 1, tok, serial };
}

static rb_TransactionID transaction_id(gen *g, rb_Id payer)
{
  rb_TransactionID id = { (1u << 1) | (1u << 2), { g->seconds - 5, (int32_t)below(&g->r, 1000000000) }, payer, false, 0 };
  return id;
}

/* One transaction body; inner transactions of a batch are order submissions. */
static rb_bytes body_bytes(gen *g, rb_Id payer, unsigned inner_count, bool inner)
{
  rb_TransactionBody b;
  memset(&b, 0, sizeof b);
  b.has = 1u << 1;
  b.transaction_id = transaction_id(g, payer);
  if (!inner) { /* inner transactions take the batch's node and duration */
    b.has |= (1u << 2) | (1u << 4);
    b.node_account_id = node(g);
    b.valid_duration.seconds = 120;
  }
  b.transaction_fee = fee(g);
  if (inner_count) {
    b.data_case = 12;
    b.data.atomic_batch.transactions = TAKE(g, bytes, inner_count);
    b.data.atomic_batch.n_transactions = inner_count;
    for (unsigned i = 0; i < inner_count; i++) {
      rb_SignedTransaction one = { 0, body_bytes(g, account(g), 0, true), { NULL, 0 } };
      uint8_t buf[1024];
      uint8_t *s = rb_encode_SignedTransaction(&one, buf, sizeof buf);
      if (!s) { g->fail = true; return (rb_bytes){ NULL, 0 }; }
      b.data.atomic_batch.transactions[i] = copy_bytes(g, s, (uint32_t)(buf + sizeof buf - s));
    }
  } else if (percent(&g->r, 80)) {
    rb_SubmitOrderBody *o = &b.data.submit_order;
    b.data_case = 11;
    o->has = 1u << 1;
    o->base_token = token(g);
    if (percent(&g->r, 50)) { o->has |= 1u << 2; o->quote_token = token(g); } /* else quoted in the native coin */
    o->side = (int32_t)below(&g->r, 2); o->price = price(g); o->quantity = quantity(g);
  } else {
    rb_CryptoTransferBody *t = &b.data.crypto_transfer;
    b.data_case = 10;
    t->has = 1u << 1;
    t->transfers.account_amounts = TAKE(g, account_amounts, 2);
    t->transfers.n_account_amounts = 2;
    int64_t amount = (int64_t)quantity(g);
    t->transfers.account_amounts[0] = (rb_AccountAmount){ 1u << 1, payer, -amount, false };
    t->transfers.account_amounts[1] = (rb_AccountAmount){ 1u << 1, account(g), amount, false };
  }
  uint8_t buf[8192];
  uint8_t *s = rb_encode_TransactionBody(&b, buf, sizeof buf);
  if (!s) { g->fail = true; return (rb_bytes){ NULL, 0 }; }
  return copy_bytes(g, s, (uint32_t)(buf + sizeof buf - s));
}

static void signed_transaction(gen *g, rb_BlockItem *it, rb_Id payer, bool batch)
{
  it->item_case = 4;
  rb_SignedTransaction *t = &it->u.signed_transaction;
  t->has = 1u << 2;
  unsigned inner = 0;
  if (batch) { /* 2..20 inner transactions, small batches more likely */
    unsigned a = (unsigned)below(&g->r, 19), b = (unsigned)below(&g->r, 19), c = (unsigned)below(&g->r, 19);
    inner = 2 + a * b * c / (18 * 18);
  }
  t->body_bytes = body_bytes(g, payer, inner, false);
  rb_SignaturePair *sp = TAKE(g, sig_pairs, 1);
  t->sig_map = (rb_SignatureMap){ sp, 1 };
  bool ecdsa = percent(&g->r, 80);
  sp->pub_key_prefix = random_bytes(g, ecdsa ? 33 : 32);
  sp->signature_case = ecdsa ? 6 : 3;
  sp->signature = random_bytes(g, 64);
}

static rb_BlockItem *output(rb_BlockItem *it, uint32_t output_case)
{
  it->item_case = 6;
  it->u.transaction_output.output_case = output_case;
  return it;
}

/* The state changes of one transaction (a batch draws the mix five times). */
static uint32_t map_update(rb_StateChange *c, uint32_t state_id, uint32_t key_case, uint32_t value_case)
{
  c->state_id = state_id; c->op_case = 5;
  c->u.map_update.has = (1u << 1) | (1u << 2);
  c->u.map_update.key.key_case = key_case;
  c->u.map_update.value.value_case = value_case;
  return 1;
}
static uint32_t state_mix(gen *g, rb_StateChange *c, rb_Id payer, const rb_TransactionID *txid)
{
  uint32_t n = 0;
  if (percent(&g->r, 90)) { /* entity-id singleton */
    c[n].state_id = 1; c[n].op_case = 4;
    c[n].u.singleton_update.value_case = 3;
    c[n++].u.singleton_update.u.entity_number.value = ++g->entity_number;
  }
  for (unsigned i = 0; i < 2; i++) { /* account balances */
    n += map_update(&c[n], 2, 1, 1);
    rb_Id id = i == 0 ? payer : account(g);
    c[n - 1].u.map_update.key.u.account_id = id;
    rb_Account *a = &c[n - 1].u.map_update.value.u.account;
    a->has = 1u << 1;
    a->account_id = id; a->tinybar_balance = balance(g);
    if (percent(&g->r, 10)) {
      a->number_associations = 1 + (int32_t)below(&g->r, 100);
      a->has |= 1u << 5; a->head_token_id = token(g);
    }
  }
  unsigned nft_full = percent(&g->r, 60), nft_private = percent(&g->r, 70), nft_delete = percent(&g->r, 30);
  for (unsigned i = 0; i < nft_full + nft_private; i++) { /* full NFTs, then private ones (no metadata, no links) */
    bool full = i < nft_full;
    n += map_update(&c[n], 8, 5, 5);
    rb_Nft *nf = &c[n - 1].u.map_update.value.u.nft;
    rb_Id tok = token(g);
    nf->nft_id = nft_id(g, tok);
    c[n - 1].u.map_update.key.u.nft_id = nf->nft_id;
    nf->has = (1u << 1) | (1u << 2) | (1u << 4);
    nf->owner_id = account(g);
    nf->mint_time.seconds = g->seconds - (int64_t)below(&g->r, 100000);
    nf->mint_time.nanos = (int32_t)below(&g->r, 1000000000);
    if (full) {
      char meta[32];
      unsigned edition = (unsigned)below(&g->r, 1000);
      unsigned total = 10000 + (unsigned)below(&g->r, 5000);
      int len = snprintf(meta, sizeof meta, "NFT %u/%u", edition, total);
      nf->metadata = copy_bytes(g, (const uint8_t *)meta, (uint32_t)len);
      if (percent(&g->r, 10)) { nf->has |= 1u << 3; nf->spender_id = account(g); }
      if (percent(&g->r, 10)) { nf->has |= 1u << 6; nf->owner_previous_nft_id = old_nft_id(g); }
      if (percent(&g->r, 15)) { nf->has |= 1u << 7; nf->owner_next_nft_id = old_nft_id(g); }
    }
  }
  if (nft_delete) { /* NFT delete */
    c[n].state_id = 8; c[n].op_case = 6;
    c[n].u.map_delete.has = 1u << 1;
    c[n].u.map_delete.key.key_case = 5;
    c[n++].u.map_delete.key.u.nft_id = old_nft_id(g);
  }
  unsigned rels = 1 + (unsigned)below(&g->r, 3); /* token relations */
  for (unsigned i = 0; i < rels; i++) {
    n += map_update(&c[n], 9, 2, 12);
    rb_TokenRelation *r = &c[n - 1].u.map_update.value.u.token_relation;
    rb_TokenAssociation *k = &c[n - 1].u.map_update.key.u.token_relationship;
    r->token_id = token(g); r->account_id = i == 0 ? payer : account(g);
    *k = (rb_TokenAssociation){ (1u << 1) | (1u << 2), r->token_id, r->account_id };
    r->has = (1u << 1) | (1u << 2);
    r->balance = (int64_t)quantity(g); r->kyc_granted = percent(&g->r, 30); r->frozen = percent(&g->r, 2);
    r->automatic_association = percent(&g->r, 10);
    if (percent(&g->r, 25)) { r->has |= 1u << 7; r->previous_token = token(g); }
    if (percent(&g->r, 25)) { r->has |= 1u << 8; r->next_token = token(g); }
    if (percent(&g->r, 10)) { /* fee state */
      r->fees_accrued = fee(g);
      r->has |= 1u << 10; r->fee_paid_until = (rb_Timestamp){ g->seconds + 86400, 0 };
    }
  }
  /* the receipt queue: push this transaction's receipt, pop an old one */
  c[n].state_id = 126; c[n].op_case = 7;
  rb_QueuePushChange *q = &c[n++].u.queue_push;
  q->value_case = 3;
  q->receipts.entries = TAKE(g, receipts, 1);
  q->receipts.n_entries = 1;
  q->receipts.entries[0] = (rb_TransactionReceiptEntry){ 1u << 2, 3 + (int64_t)below(&g->r, 7), *txid, 22 };
  c[n].state_id = 126; c[n++].op_case = 8;
  return n;
}

static void transaction(gen *g, rb_BlockItem *items, uint32_t *n_items)
{
  uint32_t n = *n_items;
  rb_Id payer = account(g);
  bool batch = percent(&g->r, 12);
  signed_transaction(g, &items[n++], payer, batch);
  rb_TransactionID txid = transaction_id(g, payer);
  rb_Timestamp now = tick(g);
  uint64_t charged = fee(g);

  rb_TransactionResult *res = &items[n].u.transaction_result; /* its result */
  items[n++].item_case = 5;
  res->has = 1u << 2; res->status = percent(&g->r, 98) ? 22 : 10;
  res->consensus_timestamp = now; res->fee_charged = charged;

  unsigned balances = batch ? 5 + (unsigned)below(&g->r, 11) : 1 + (unsigned)below(&g->r, 3);
  for (unsigned i = 0; i < balances; i++) {
    rb_BalanceChange *b = &output(&items[n++], 1)->u.transaction_output.u.balance_change;
    b->has = 1u << 1; b->account_id = account(g);
    if (percent(&g->r, 50)) { b->has |= 1u << 2; b->token_id = token(g); }
    b->delta = percent(&g->r, 50) ? (int64_t)quantity(g) : -(int64_t)quantity(g);
    if (percent(&g->r, 30)) b->new_balance = (uint64_t)balance(g);
  }
  unsigned added = 1 + percent(&g->r, 16), trades = percent(&g->r, 51), deleted = percent(&g->r, 96);
  for (unsigned i = 0; i < added; i++) {
    rb_OrderAdded *o = &output(&items[n++], 2)->u.transaction_output.u.order_added;
    o->has = (1u << 2) | (1u << 3); o->order_id = g->next_order++; o->owner = payer; o->token = token(g);
    o->side = (int32_t)below(&g->r, 2); o->price = price(g); o->quantity = quantity(g);
  }
  for (unsigned i = 0; i < trades; i++) {
    rb_OrderTrade *o = &output(&items[n++], 3)->u.transaction_output.u.order_trade;
    o->has = (1u << 3) | (1u << 4) | (1u << 5);
    o->maker_order_id = g->next_order - 1 - below(&g->r, 5000); o->taker_order_id = g->next_order - 1;
    o->maker = account(g); o->taker = payer; o->token = token(g); o->price = price(g); o->quantity = quantity(g);
  }
  for (unsigned i = 0; i < deleted; i++) {
    rb_OrderDeleted *o = &output(&items[n++], 4)->u.transaction_output.u.order_deleted;
    o->has = 1u << 2; o->order_id = g->next_order - 1 - below(&g->r, 5000); o->token = token(g);
    o->remaining_quantity = percent(&g->r, 60) ? quantity(g) : 0;
  }

  rb_TransactionResult *anon = &items[n].u.transaction_result; /* the anonymous result: fee distribution */
  items[n++].item_case = 5;
  anon->has = (1u << 2) | (1u << 7); anon->status = 22;
  anon->consensus_timestamp = tick(g);
  rb_AccountAmount *aa = TAKE(g, account_amounts, 3);
  anon->transfer_list = (rb_TransferList){ aa, 3 };
  int64_t to_node = (int64_t)charged / 10;
  aa[0] = (rb_AccountAmount){ 1u << 1, payer, -(int64_t)charged, false };
  aa[1] = (rb_AccountAmount){ 1u << 1, node(g), to_node, false };
  aa[2] = (rb_AccountAmount){ 1u << 1, { 0, 0, 98 }, (int64_t)charged - to_node, false };

  rb_StateChanges *sc = &items[n].u.state_changes; /* its state changes */
  items[n++].item_case = 7;
  sc->has = 1u << 1; sc->consensus_timestamp = now;
  rb_StateChange tmp[200];
  uint32_t changes = 0;
  for (unsigned round = 0; round < (batch ? 5u : 1u); round++) {
    memset(tmp + changes, 0, 40 * sizeof *tmp); /* one mix makes at most 14 changes */
    changes += state_mix(g, tmp + changes, payer, &txid);
  }
  sc->state_changes = TAKE(g, state_changes, changes);
  memcpy(sc->state_changes, tmp, changes * sizeof *tmp);
  sc->n_state_changes = changes;
  *n_items = n;
}

int gen_block(rb_Block *block, gen_store *st, uint32_t ntx, uint64_t seed)
{
  size_t estimate = (size_t)ntx * 1200 + 65536;
  if (rb_pools_init(&st->pools, estimate)) return -1;
  st->bytes_cap = estimate; st->bytes_used = 0;
  if (!(st->bytes = malloc(st->bytes_cap))) return -1;
  gen g = { { seed }, st, false, 1736208621, 0, 7000000000, 1000000, 5000000 };

  size_t max_items = 3 + (size_t)ntx * 40;
  rb_BlockItem *items = TAKE(&g, items, max_items);
  uint32_t n = 0;
  rb_BlockHeader *h = &items[n++].u.block_header; /* framing: header */
  items[0].item_case = 1;
  h->has = (1u << 1) | (1u << 4);
  h->hapi_proto_version = (rb_SemanticVersion){ 0, 59, 0 };
  h->number = 497558; h->previous_block_hash = random_bytes(&g, 48);
  h->first_time = (rb_Timestamp){ g.seconds, g.nanos };
  for (uint32_t i = 0; i < ntx && !g.fail; i++) transaction(&g, items, &n);
  items[n].item_case = 8; /* footer and proof */
  rb_BlockFooter *f = &items[n++].u.block_footer;
  f->block_hash = random_bytes(&g, 48); f->state_root_hash = random_bytes(&g, 48); f->item_count = n + 1;
  items[n].item_case = 9;
  rb_BlockProof *pr = &items[n++].u.block_proof;
  pr->block = 497558; pr->previous_block_root_hash = random_bytes(&g, 48);
  pr->state_root_hash = random_bytes(&g, 48); pr->block_signature = random_bytes(&g, 96);
  pr->sibling_hashes = TAKE(&g, bytes, 3); pr->n_sibling_hashes = 3;
  for (unsigned i = 0; i < 3; i++) pr->sibling_hashes[i] = random_bytes(&g, 48);
  block->items = items; block->n_items = n;
  return g.fail ? -1 : 0;
}

void gen_store_free(gen_store *st)
{
  rb_pools_free(&st->pools);
  free(st->bytes);
}

uint8_t *gen_block_bytes(uint32_t ntx, uint64_t seed, size_t *len)
{
  gen_store st;
  rb_Block block;
  uint8_t *out = NULL;
  if (gen_block(&block, &st, ntx, seed) == 0) {
    size_t cap = (size_t)ntx * 4096 + 65536;
    uint8_t *buf = malloc(cap);
    uint8_t *s = buf ? rb_encode_Block(&block, buf, cap) : NULL;
    if (s) {
      *len = (size_t)(buf + cap - s);
      out = malloc(*len ? *len : 1);
      if (out) memcpy(out, s, *len);
    }
    free(buf);
  }
  gen_store_free(&st);
  return out;
}
