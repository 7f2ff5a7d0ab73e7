/* ref_read.c: read every field of the reference structs (visit) and straight from the bytes (scan), summing as WORKLOAD.md says. */
#include "ref.h"
#include "ref_wire.h"

/* ---- visit: the sum over decoded structs ---- */
#define ADD(v) s += (uint64_t)(v)
#define ADD32(v) s += (uint64_t)(int64_t)(int32_t)(v)
static inline uint64_t bytes_sum(rb_bytes b) { return b.n ? b.n + b.p[0] + b.p[b.n - 1] : 0; }

static inline uint64_t v_Timestamp(const rb_Timestamp *m) { return (uint64_t)m->seconds + (uint64_t)(int64_t)m->nanos; }
static inline uint64_t v_Id(const rb_Id *m) { return (uint64_t)m->shard + (uint64_t)m->realm + (uint64_t)m->num; }
static inline uint64_t v_NftID(const rb_NftID *m) { return v_Id(&m->token_id) + (uint64_t)m->serial_number; }
static uint64_t v_TransactionID(const rb_TransactionID *m)
{ return v_Timestamp(&m->valid_start) + v_Id(&m->account_id) + m->scheduled + (uint64_t)(int64_t)m->nonce; }
static uint64_t v_AccountAmount(const rb_AccountAmount *m) { return v_Id(&m->account_id) + (uint64_t)m->amount + m->is_approval; }
static uint64_t v_TransferList(const rb_TransferList *m)
{
  uint64_t s = 0;
  for (uint32_t i = 0; i < m->n_account_amounts; i++) s += v_AccountAmount(&m->account_amounts[i]);
  return s;
}
static uint64_t v_TokenTransferList(const rb_TokenTransferList *m)
{
  uint64_t s = v_Id(&m->token);
  for (uint32_t i = 0; i < m->n_transfers; i++) s += v_AccountAmount(&m->transfers[i]);
  for (uint32_t i = 0; i < m->n_nft_transfers; i++) {
    const rb_NftTransfer *t = &m->nft_transfers[i];
    s += v_Id(&t->sender) + v_Id(&t->receiver) + (uint64_t)t->serial_number + t->is_approval;
  }
  return s;
}
uint64_t rb_visit_SignedTransaction(const rb_SignedTransaction *m)
{
  uint64_t s = bytes_sum(m->body_bytes);
  for (uint32_t i = 0; i < m->sig_map.n_sig_pair; i++) {
    const rb_SignaturePair *sp = &m->sig_map.sig_pair[i];
    s += bytes_sum(sp->pub_key_prefix);
    if (sp->signature_case) s += sp->signature_case + bytes_sum(sp->signature);
  }
  return s;
}
uint64_t rb_visit_TransactionBody(const rb_TransactionBody *m)
{
  uint64_t s = v_TransactionID(&m->transaction_id) + v_Id(&m->node_account_id) + m->transaction_fee
             + (uint64_t)m->valid_duration.seconds + bytes_sum(m->memo) + m->data_case;
  switch (m->data_case) {
  case 10: {
    const rb_CryptoTransferBody *t = &m->data.crypto_transfer;
    s += v_TransferList(&t->transfers);
    for (uint32_t i = 0; i < t->n_token_transfers; i++) s += v_TokenTransferList(&t->token_transfers[i]);
    break;
  }
  case 11: {
    const rb_SubmitOrderBody *o = &m->data.submit_order;
    s += v_Id(&o->base_token) + v_Id(&o->quote_token) + (uint64_t)(int64_t)o->side + o->price + o->quantity;
    break;
  }
  case 12:
    for (uint32_t i = 0; i < m->data.atomic_batch.n_transactions; i++) s += bytes_sum(m->data.atomic_batch.transactions[i]);
    break;
  default: break;
  }
  return s;
}
static uint64_t v_TransactionResult(const rb_TransactionResult *m)
{
  uint64_t s = (uint64_t)(int64_t)m->status + v_Timestamp(&m->consensus_timestamp) + v_Timestamp(&m->parent_consensus_timestamp)
             + m->fee_charged + v_TransferList(&m->transfer_list);
  for (uint32_t i = 0; i < m->n_token_transfer_lists; i++) s += v_TokenTransferList(&m->token_transfer_lists[i]);
  return s;
}
static uint64_t v_TransactionOutput(const rb_TransactionOutput *m)
{
  uint64_t s = m->output_case;
  switch (m->output_case) {
  case 1: { const rb_BalanceChange *b = &m->u.balance_change;
    ADD(v_Id(&b->account_id) + v_Id(&b->token_id)); ADD(b->delta); ADD(b->new_balance); break; }
  case 2: { const rb_OrderAdded *o = &m->u.order_added;
    ADD(o->order_id); ADD(v_Id(&o->owner) + v_Id(&o->token)); ADD32(o->side); ADD(o->price); ADD(o->quantity); break; }
  case 3: { const rb_OrderTrade *o = &m->u.order_trade;
    ADD(o->maker_order_id); ADD(o->taker_order_id); ADD(v_Id(&o->maker) + v_Id(&o->taker) + v_Id(&o->token));
    ADD(o->price); ADD(o->quantity); break; }
  case 4: { const rb_OrderDeleted *o = &m->u.order_deleted;
    ADD(o->order_id); ADD(v_Id(&o->token)); ADD(o->remaining_quantity); break; }
  default: break;
  }
  return s;
}
static uint64_t v_MapChangeKey(const rb_MapChangeKey *m)
{
  switch (m->key_case) {
  case 1: return 1 + v_Id(&m->u.account_id);
  case 2: return 2 + v_Id(&m->u.token_relationship.token_id) + v_Id(&m->u.token_relationship.account_id);
  case 5: return 5 + v_NftID(&m->u.nft_id);
  default: return 0;
  }
}
static uint64_t v_MapChangeValue(const rb_MapChangeValue *m)
{
  uint64_t s = m->value_case;
  switch (m->value_case) {
  case 1: { const rb_Account *a = &m->u.account;
    ADD(v_Id(&a->account_id)); ADD(a->tinybar_balance); ADD32(a->number_associations); ADD32(a->number_positive_balances);
    ADD(v_Id(&a->head_token_id)); ADD(a->expiration_second); break; }
  case 5: { const rb_Nft *n = &m->u.nft;
    ADD(v_NftID(&n->nft_id) + v_Id(&n->owner_id) + v_Id(&n->spender_id) + v_Timestamp(&n->mint_time));
    ADD(bytes_sum(n->metadata) + v_NftID(&n->owner_previous_nft_id) + v_NftID(&n->owner_next_nft_id)); break; }
  case 12: { const rb_TokenRelation *r = &m->u.token_relation;
    ADD(v_Id(&r->token_id) + v_Id(&r->account_id)); ADD(r->balance); ADD(r->frozen + r->kyc_granted + r->automatic_association);
    ADD(v_Id(&r->previous_token) + v_Id(&r->next_token)); ADD(r->fees_accrued); ADD(v_Timestamp(&r->fee_paid_until)); break; }
  default: break;
  }
  return s;
}
static uint64_t v_StateChange(const rb_StateChange *m)
{
  uint64_t s = m->state_id + m->op_case;
  switch (m->op_case) {
  case 4: { const rb_SingletonUpdateChange *u = &m->u.singleton_update; ADD(u->value_case);
    if (u->value_case == 3) ADD(u->u.entity_number.value); else if (u->value_case == 10) ADD(v_Timestamp(&u->u.timestamp));
    break; }
  case 5: ADD(v_MapChangeKey(&m->u.map_update.key) + v_MapChangeValue(&m->u.map_update.value)); break;
  case 6: ADD(v_MapChangeKey(&m->u.map_delete.key)); break;
  case 7: { const rb_QueuePushChange *q = &m->u.queue_push; ADD(q->value_case);
    for (uint32_t i = 0; i < q->receipts.n_entries; i++) {
      const rb_TransactionReceiptEntry *e = &q->receipts.entries[i];
      ADD(e->node_id); ADD(v_TransactionID(&e->transaction_id)); ADD32(e->status);
    }
    break; }
  default: break;
  }
  return s;
}
static uint64_t v_BlockItem(const rb_BlockItem *m)
{
  uint64_t s = m->item_case;
  switch (m->item_case) {
  case 1: { const rb_BlockHeader *h = &m->u.block_header;
    ADD32(h->hapi_proto_version.major); ADD32(h->hapi_proto_version.minor); ADD32(h->hapi_proto_version.patch);
    ADD(h->number); ADD(bytes_sum(h->previous_block_hash)); ADD(v_Timestamp(&h->first_time)); break; }
  case 4: ADD(rb_visit_SignedTransaction(&m->u.signed_transaction)); break;
  case 5: ADD(v_TransactionResult(&m->u.transaction_result)); break;
  case 6: ADD(v_TransactionOutput(&m->u.transaction_output)); break;
  case 7: { const rb_StateChanges *c = &m->u.state_changes; ADD(v_Timestamp(&c->consensus_timestamp));
    for (uint32_t i = 0; i < c->n_state_changes; i++) ADD(v_StateChange(&c->state_changes[i]));
    break; }
  case 8: { const rb_BlockFooter *f = &m->u.block_footer;
    ADD(bytes_sum(f->block_hash) + bytes_sum(f->state_root_hash)); ADD(f->item_count); break; }
  case 9: { const rb_BlockProof *pr = &m->u.block_proof;
    ADD(pr->block); ADD(bytes_sum(pr->previous_block_root_hash) + bytes_sum(pr->state_root_hash) + bytes_sum(pr->block_signature));
    for (uint32_t i = 0; i < pr->n_sibling_hashes; i++) ADD(bytes_sum(pr->sibling_hashes[i]));
    break; }
  default: break;
  }
  return s;
}
uint64_t rb_visit_Block(const rb_Block *m)
{
  uint64_t s = 0;
  for (uint32_t i = 0; i < m->n_items; i++) s += v_BlockItem(&m->items[i]);
  return s;
}

/* ---- scan: the same sum straight from the bytes ---- */
/* Each scanner adds the fields of [p, end) to *s; returns 0 or -1. */
#define SCAN(T) static int s_##T(const uint8_t *p, const uint8_t *end, uint64_t *s)
#define BEGIN() while (p < end) { uint64_t tag; \
    if (RB_LIKELY(*p < 0x80)) tag = *p++; else if (!(p = rb_get_varint(p, end, &tag))) return -1; \
    switch (tag) {
#define END() default: if (!(p = rb_skip(p, end, tag))) return -1; } } return 0;
#define SV(num, conv) case RB_TAG(num, 0): { uint64_t v_; if (!(p = rb_get_varint(p, end, &v_))) return -1; *s += (uint64_t)(conv); break; }
#define U(num) SV(num, v_)
#define I32(num) SV(num, (int64_t)(int32_t)v_)
#define S64(num) SV(num, rb_unzigzag(v_))
#define B(num) SV(num, v_ != 0)
#define LEN() uint64_t n_; if (!(p = rb_get_varint(p, end, &n_)) || n_ > (uint64_t)(end - p)) return -1; const uint8_t *q = p + n_;
#define BYTES_ADD() if (n_) *s += n_ + p[0] + q[-1]
#define BY(num) case RB_TAG(num, 2): { LEN(); BYTES_ADD(); p = q; break; }
#define ONEOF_BY(num) case RB_TAG(num, 2): { LEN(); *s += (num); BYTES_ADD(); p = q; break; }
#define M(num, T) case RB_TAG(num, 2): { LEN(); if (s_##T(p, q, s)) return -1; p = q; break; }
#define ONEOF(num, T) case RB_TAG(num, 2): { LEN(); *s += (num); if (s_##T(p, q, s)) return -1; p = q; break; }

SCAN(Timestamp) { BEGIN() U(1) I32(2) END() }
SCAN(Id) { BEGIN() U(1) U(2) U(3) END() }
SCAN(Version) { BEGIN() I32(1) I32(2) I32(3) END() }
SCAN(UInt64Value) { BEGIN() U(1) END() }
SCAN(Empty) { (void)s; BEGIN() END() }
SCAN(NftID) { BEGIN() M(1, Id) U(2) END() }
SCAN(TransactionID) { BEGIN() M(1, Timestamp) M(2, Id) B(3) I32(4) END() }
SCAN(TokenAssociation) { BEGIN() M(1, Id) M(2, Id) END() }
SCAN(AccountAmount) { BEGIN() M(1, Id) S64(2) B(3) END() }
SCAN(TransferList) { BEGIN() M(1, AccountAmount) END() }
SCAN(NftTransfer) { BEGIN() M(1, Id) M(2, Id) U(3) B(4) END() }
SCAN(TokenTransferList) { BEGIN() M(1, Id) M(2, AccountAmount) M(3, NftTransfer) END() }
SCAN(SignaturePair) { BEGIN() BY(1) ONEOF_BY(3) ONEOF_BY(6) END() }
SCAN(SignatureMap) { BEGIN() M(1, SignaturePair) END() }
SCAN(SignedTransaction) { BEGIN() BY(1) M(2, SignatureMap) END() }
SCAN(TransactionResult) { BEGIN() I32(1) M(2, Timestamp) M(3, Timestamp) U(6) M(7, TransferList) M(8, TokenTransferList) END() }
SCAN(BalanceChange) { BEGIN() M(1, Id) M(2, Id) S64(3) U(4) END() }
SCAN(OrderAdded) { BEGIN() U(1) M(2, Id) M(3, Id) I32(4) U(5) U(6) END() }
SCAN(OrderTrade) { BEGIN() U(1) U(2) M(3, Id) M(4, Id) M(5, Id) U(6) U(7) END() }
SCAN(OrderDeleted) { BEGIN() U(1) M(2, Id) U(3) END() }
SCAN(TransactionOutput) { BEGIN() ONEOF(1, BalanceChange) ONEOF(2, OrderAdded) ONEOF(3, OrderTrade) ONEOF(4, OrderDeleted) END() }
SCAN(Account) { BEGIN() M(1, Id) U(2) I32(3) I32(4) M(5, Id) U(6) END() }
SCAN(TokenRelation) { BEGIN() M(1, Id) M(2, Id) U(3) B(4) B(5) B(6) M(7, Id) M(8, Id) U(9) M(10, Timestamp) END() }
SCAN(Nft) { BEGIN() M(1, NftID) M(2, Id) M(3, Id) M(4, Timestamp) BY(5) M(6, NftID) M(7, NftID) END() }
SCAN(ReceiptEntry) { BEGIN() U(1) M(2, TransactionID) I32(3) END() }
SCAN(ReceiptEntries) { BEGIN() M(1, ReceiptEntry) END() }
SCAN(MapChangeKey) { BEGIN() ONEOF(1, Id) ONEOF(2, TokenAssociation) ONEOF(5, NftID) END() }
SCAN(MapChangeValue) { BEGIN() ONEOF(1, Account) ONEOF(5, Nft) ONEOF(12, TokenRelation) END() }
SCAN(MapUpdateChange) { BEGIN() M(1, MapChangeKey) M(2, MapChangeValue) END() }
SCAN(MapDeleteChange) { BEGIN() M(1, MapChangeKey) END() }
SCAN(SingletonUpdateChange) { BEGIN() ONEOF(3, UInt64Value) ONEOF(10, Timestamp) END() }
SCAN(QueuePushChange) { BEGIN() ONEOF(3, ReceiptEntries) END() }
SCAN(StateChange)
{
  BEGIN() U(1) ONEOF(4, SingletonUpdateChange) ONEOF(5, MapUpdateChange) ONEOF(6, MapDeleteChange)
  ONEOF(7, QueuePushChange) ONEOF(8, Empty) END()
}
SCAN(StateChanges) { BEGIN() M(1, Timestamp) M(2, StateChange) END() }
SCAN(BlockHeader) { BEGIN() M(1, Version) U(2) BY(3) M(4, Timestamp) END() }
SCAN(BlockFooter) { BEGIN() BY(1) BY(2) U(3) END() }
SCAN(BlockProof) { BEGIN() U(1) BY(2) BY(3) BY(4) BY(5) END() }
SCAN(BlockItem)
{
  BEGIN() ONEOF(1, BlockHeader) ONEOF(4, SignedTransaction) ONEOF(5, TransactionResult) ONEOF(6, TransactionOutput)
  ONEOF(7, StateChanges) ONEOF(8, BlockFooter) ONEOF(9, BlockProof) END()
}
SCAN(Block) { BEGIN() M(1, BlockItem) END() }

SCAN(Duration) { BEGIN() U(1) END() }
SCAN(CryptoTransferBody) { BEGIN() M(1, TransferList) M(2, TokenTransferList) END() }
SCAN(SubmitOrderBody) { BEGIN() M(1, Id) M(2, Id) I32(3) U(4) U(5) END() }
SCAN(AtomicBatchBody) { BEGIN() BY(1) END() }
SCAN(TransactionBody)
{
  BEGIN() M(1, TransactionID) M(2, Id) U(3) M(4, Duration) BY(5)
  ONEOF(10, CryptoTransferBody) ONEOF(11, SubmitOrderBody) ONEOF(12, AtomicBatchBody) END()
}
/* A SignedTransaction whose body_bytes are read as the TransactionBody they hold. */
SCAN(Transaction)
{
  BEGIN() case RB_TAG(1, 2): { LEN(); BYTES_ADD(); if (s_TransactionBody(p, q, s)) return -1; p = q; break; }
  M(2, SignatureMap) END()
}

uint64_t rb_scan_Transaction(const uint8_t *p, size_t n, bool *ok)
{
  uint64_t s = 0;
  *ok = s_Transaction(p, p + n, &s) == 0;
  return *ok ? s : 0;
}

uint64_t rb_scan_Block(const uint8_t *p, size_t n, bool *ok)
{
  uint64_t s = 0;
  *ok = s_Block(p, p + n, &s) == 0;
  return *ok ? s : 0;
}
