/* ref_encode.c: the reference encoder: back to front from light structs, no size pass, no allocation. */
#include "ref.h"
#include "ref_wire.h"

#include <stdbool.h>

/* Room checks: every message checks for MARGIN bytes on entry and on exit, so
   its own scalars, tags and lengths between two nested calls always fit. On
   overflow the rest is written into a spill area and the result is failure. */
#define MARGIN 128
typedef struct { uint8_t *lo; bool fail; uint8_t spill[2048]; } enc;

__attribute__((cold, noinline)) static uint8_t *overflow(enc *c)
{
  c->fail = true;
  c->lo = c->spill;
  return c->spill + sizeof c->spill;
}

static inline uint8_t *room(enc *c, uint8_t *p, size_t need)
{
  return RB_LIKELY((size_t)(p - c->lo) >= need) ? p : overflow(c);
}

static inline uint8_t *put_bytes(enc *c, uint8_t *p, rb_bytes b)
{
  p = room(c, p, b.n + MARGIN);
  if (RB_UNLIKELY(c->fail && b.n > MARGIN)) return p; /* spilled: contents are lost anyway */
  p -= b.n;
  memcpy(p, b.p, b.n);
  return p;
}

#define VARINT(num, v) do { uint64_t v_ = (uint64_t)(v); if (v_) { p = rb_put_varint_rev(p, v_); *--p = RB_TAG(num, 0); } } while (0)
#define INT32(num, v) VARINT(num, (int64_t)(v))
#define SINT64(num, v) VARINT(num, rb_zigzag(v))
#define BOOL(num, v) do { if (v) { *--p = 1; *--p = RB_TAG(num, 0); } } while (0)
#define BYTES(num, b) do { rb_bytes b_ = (b); if (b_.n) { p = put_bytes(c, p, b_); p = rb_put_varint_rev(p, b_.n); *--p = RB_TAG(num, 2); } } while (0)
#define MSG(num, fn, ptr) do { uint8_t *e_ = p; p = fn(c, p, ptr); p = rb_put_varint_rev(p, (uint64_t)(e_ - p)); *--p = RB_TAG(num, 2); } while (0)
#define OPT_MSG(num, fn, ptr) do { if (m->has & (1u << (num))) MSG(num, fn, ptr); } while (0)
#define REPEATED(num, fn, arr, n) do { for (uint32_t i_ = (n); i_-- > 0;) MSG(num, fn, &(arr)[i_]); } while (0)
#define ENTER() p = room(c, p, MARGIN)
#define LEAVE() return room(c, p, MARGIN)


static uint8_t *e_Timestamp(enc *c, uint8_t *p, const rb_Timestamp *m) { ENTER(); INT32(2, m->nanos); VARINT(1, m->seconds); LEAVE(); }
static uint8_t *e_Duration(enc *c, uint8_t *p, const rb_Duration *m) { ENTER(); VARINT(1, m->seconds); LEAVE(); }
static uint8_t *e_Id(enc *c, uint8_t *p, const rb_Id *m) { ENTER(); VARINT(3, m->num); VARINT(2, m->realm); VARINT(1, m->shard); LEAVE(); }
static uint8_t *e_UInt64Value(enc *c, uint8_t *p, const rb_UInt64Value *m) { ENTER(); VARINT(1, m->value); LEAVE(); }
static uint8_t *e_SemanticVersion(enc *c, uint8_t *p, const rb_SemanticVersion *m)
{ ENTER(); INT32(3, m->patch); INT32(2, m->minor); INT32(1, m->major); LEAVE(); }
static uint8_t *e_NftID(enc *c, uint8_t *p, const rb_NftID *m)
{ ENTER(); VARINT(2, m->serial_number); OPT_MSG(1, e_Id, &m->token_id); LEAVE(); }
static uint8_t *e_TransactionID(enc *c, uint8_t *p, const rb_TransactionID *m)
{
  ENTER(); INT32(4, m->nonce); BOOL(3, m->scheduled);
  OPT_MSG(2, e_Id, &m->account_id); OPT_MSG(1, e_Timestamp, &m->valid_start); LEAVE();
}
static uint8_t *e_TokenAssociation(enc *c, uint8_t *p, const rb_TokenAssociation *m)
{ ENTER(); OPT_MSG(2, e_Id, &m->account_id); OPT_MSG(1, e_Id, &m->token_id); LEAVE(); }
static uint8_t *e_AccountAmount(enc *c, uint8_t *p, const rb_AccountAmount *m)
{ ENTER(); BOOL(3, m->is_approval); SINT64(2, m->amount); OPT_MSG(1, e_Id, &m->account_id); LEAVE(); }
static uint8_t *e_TransferList(enc *c, uint8_t *p, const rb_TransferList *m)
{ ENTER(); REPEATED(1, e_AccountAmount, m->account_amounts, m->n_account_amounts); LEAVE(); }
static uint8_t *e_NftTransfer(enc *c, uint8_t *p, const rb_NftTransfer *m)
{
  ENTER(); BOOL(4, m->is_approval); VARINT(3, m->serial_number);
  OPT_MSG(2, e_Id, &m->receiver); OPT_MSG(1, e_Id, &m->sender); LEAVE();
}
static uint8_t *e_TokenTransferList(enc *c, uint8_t *p, const rb_TokenTransferList *m)
{
  ENTER(); REPEATED(3, e_NftTransfer, m->nft_transfers, m->n_nft_transfers);
  REPEATED(2, e_AccountAmount, m->transfers, m->n_transfers); OPT_MSG(1, e_Id, &m->token); LEAVE();
}
static uint8_t *e_SignaturePair(enc *c, uint8_t *p, const rb_SignaturePair *m)
{
  ENTER();
  if (m->signature_case) { p = put_bytes(c, p, m->signature); p = rb_put_varint_rev(p, m->signature.n); *--p = RB_TAG(m->signature_case, 2); }
  BYTES(1, m->pub_key_prefix); LEAVE();
}
static uint8_t *e_SignatureMap(enc *c, uint8_t *p, const rb_SignatureMap *m)
{ ENTER(); REPEATED(1, e_SignaturePair, m->sig_pair, m->n_sig_pair); LEAVE(); }
static uint8_t *e_SignedTransaction(enc *c, uint8_t *p, const rb_SignedTransaction *m)
{ ENTER(); OPT_MSG(2, e_SignatureMap, &m->sig_map); BYTES(1, m->body_bytes); LEAVE(); }
static uint8_t *e_CryptoTransferBody(enc *c, uint8_t *p, const rb_CryptoTransferBody *m)
{
  ENTER(); REPEATED(2, e_TokenTransferList, m->token_transfers, m->n_token_transfers);
  OPT_MSG(1, e_TransferList, &m->transfers); LEAVE();
}
static uint8_t *e_SubmitOrderBody(enc *c, uint8_t *p, const rb_SubmitOrderBody *m)
{
  ENTER(); VARINT(5, m->quantity); VARINT(4, m->price); INT32(3, m->side);
  OPT_MSG(2, e_Id, &m->quote_token); OPT_MSG(1, e_Id, &m->base_token); LEAVE();
}
static uint8_t *e_AtomicBatchBody(enc *c, uint8_t *p, const rb_AtomicBatchBody *m)
{
  ENTER();
  for (uint32_t i = m->n_transactions; i-- > 0;) {
    p = put_bytes(c, p, m->transactions[i]); p = rb_put_varint_rev(p, m->transactions[i].n); *--p = RB_TAG(1, 2);
  }
  LEAVE();
}
static uint8_t *e_TransactionBody_(enc *c, uint8_t *p, const rb_TransactionBody *m)
{
  ENTER();
  switch (m->data_case) {
  case 10: MSG(10, e_CryptoTransferBody, &m->data.crypto_transfer); break;
  case 11: MSG(11, e_SubmitOrderBody, &m->data.submit_order); break;
  case 12: MSG(12, e_AtomicBatchBody, &m->data.atomic_batch); break;
  default: break;
  }
  BYTES(5, m->memo); OPT_MSG(4, e_Duration, &m->valid_duration); VARINT(3, m->transaction_fee);
  OPT_MSG(2, e_Id, &m->node_account_id); OPT_MSG(1, e_TransactionID, &m->transaction_id); LEAVE();
}
static uint8_t *e_TransactionResult(enc *c, uint8_t *p, const rb_TransactionResult *m)
{
  ENTER(); REPEATED(8, e_TokenTransferList, m->token_transfer_lists, m->n_token_transfer_lists);
  OPT_MSG(7, e_TransferList, &m->transfer_list); VARINT(6, m->fee_charged);
  OPT_MSG(3, e_Timestamp, &m->parent_consensus_timestamp); OPT_MSG(2, e_Timestamp, &m->consensus_timestamp);
  INT32(1, m->status); LEAVE();
}
static uint8_t *e_BalanceChange(enc *c, uint8_t *p, const rb_BalanceChange *m)
{
  ENTER(); VARINT(4, m->new_balance); SINT64(3, m->delta);
  OPT_MSG(2, e_Id, &m->token_id); OPT_MSG(1, e_Id, &m->account_id); LEAVE();
}
static uint8_t *e_OrderAdded(enc *c, uint8_t *p, const rb_OrderAdded *m)
{
  ENTER(); VARINT(6, m->quantity); VARINT(5, m->price); INT32(4, m->side);
  OPT_MSG(3, e_Id, &m->token); OPT_MSG(2, e_Id, &m->owner); VARINT(1, m->order_id); LEAVE();
}
static uint8_t *e_OrderTrade(enc *c, uint8_t *p, const rb_OrderTrade *m)
{
  ENTER(); VARINT(7, m->quantity); VARINT(6, m->price); OPT_MSG(5, e_Id, &m->token);
  OPT_MSG(4, e_Id, &m->taker); OPT_MSG(3, e_Id, &m->maker);
  VARINT(2, m->taker_order_id); VARINT(1, m->maker_order_id); LEAVE();
}
static uint8_t *e_OrderDeleted(enc *c, uint8_t *p, const rb_OrderDeleted *m)
{ ENTER(); VARINT(3, m->remaining_quantity); OPT_MSG(2, e_Id, &m->token); VARINT(1, m->order_id); LEAVE(); }
static uint8_t *e_TransactionOutput(enc *c, uint8_t *p, const rb_TransactionOutput *m)
{
  ENTER();
  switch (m->output_case) {
  case 1: MSG(1, e_BalanceChange, &m->u.balance_change); break;
  case 2: MSG(2, e_OrderAdded, &m->u.order_added); break;
  case 3: MSG(3, e_OrderTrade, &m->u.order_trade); break;
  case 4: MSG(4, e_OrderDeleted, &m->u.order_deleted); break;
  default: break;
  }
  LEAVE();
}
static uint8_t *e_Account(enc *c, uint8_t *p, const rb_Account *m)
{
  ENTER(); VARINT(6, m->expiration_second); OPT_MSG(5, e_Id, &m->head_token_id);
  INT32(4, m->number_positive_balances); INT32(3, m->number_associations);
  VARINT(2, m->tinybar_balance); OPT_MSG(1, e_Id, &m->account_id); LEAVE();
}
static uint8_t *e_TokenRelation(enc *c, uint8_t *p, const rb_TokenRelation *m)
{
  ENTER(); OPT_MSG(10, e_Timestamp, &m->fee_paid_until); VARINT(9, m->fees_accrued);
  OPT_MSG(8, e_Id, &m->next_token); OPT_MSG(7, e_Id, &m->previous_token);
  BOOL(6, m->automatic_association); BOOL(5, m->kyc_granted); BOOL(4, m->frozen); VARINT(3, m->balance);
  OPT_MSG(2, e_Id, &m->account_id); OPT_MSG(1, e_Id, &m->token_id); LEAVE();
}
static uint8_t *e_Nft(enc *c, uint8_t *p, const rb_Nft *m)
{
  ENTER(); OPT_MSG(7, e_NftID, &m->owner_next_nft_id); OPT_MSG(6, e_NftID, &m->owner_previous_nft_id);
  BYTES(5, m->metadata); OPT_MSG(4, e_Timestamp, &m->mint_time); OPT_MSG(3, e_Id, &m->spender_id);
  OPT_MSG(2, e_Id, &m->owner_id); OPT_MSG(1, e_NftID, &m->nft_id); LEAVE();
}
static uint8_t *e_TransactionReceiptEntry(enc *c, uint8_t *p, const rb_TransactionReceiptEntry *m)
{ ENTER(); INT32(3, m->status); OPT_MSG(2, e_TransactionID, &m->transaction_id); VARINT(1, m->node_id); LEAVE(); }
static uint8_t *e_TransactionReceiptEntries(enc *c, uint8_t *p, const rb_TransactionReceiptEntries *m)
{ ENTER(); REPEATED(1, e_TransactionReceiptEntry, m->entries, m->n_entries); LEAVE(); }
static uint8_t *e_MapChangeKey(enc *c, uint8_t *p, const rb_MapChangeKey *m)
{
  ENTER();
  switch (m->key_case) {
  case 1: MSG(1, e_Id, &m->u.account_id); break;
  case 2: MSG(2, e_TokenAssociation, &m->u.token_relationship); break;
  case 5: MSG(5, e_NftID, &m->u.nft_id); break;
  default: break;
  }
  LEAVE();
}
static uint8_t *e_MapChangeValue(enc *c, uint8_t *p, const rb_MapChangeValue *m)
{
  ENTER();
  switch (m->value_case) {
  case 1: MSG(1, e_Account, &m->u.account); break;
  case 5: MSG(5, e_Nft, &m->u.nft); break;
  case 12: MSG(12, e_TokenRelation, &m->u.token_relation); break;
  default: break;
  }
  LEAVE();
}
static uint8_t *e_MapUpdateChange(enc *c, uint8_t *p, const rb_MapUpdateChange *m)
{ ENTER(); OPT_MSG(2, e_MapChangeValue, &m->value); OPT_MSG(1, e_MapChangeKey, &m->key); LEAVE(); }
static uint8_t *e_MapDeleteChange(enc *c, uint8_t *p, const rb_MapDeleteChange *m)
{ ENTER(); OPT_MSG(1, e_MapChangeKey, &m->key); LEAVE(); }
static uint8_t *e_SingletonUpdateChange(enc *c, uint8_t *p, const rb_SingletonUpdateChange *m)
{
  ENTER();
  if (m->value_case == 3) MSG(3, e_UInt64Value, &m->u.entity_number);
  else if (m->value_case == 10) MSG(10, e_Timestamp, &m->u.timestamp);
  LEAVE();
}
static uint8_t *e_QueuePushChange(enc *c, uint8_t *p, const rb_QueuePushChange *m)
{ ENTER(); if (m->value_case == 3) MSG(3, e_TransactionReceiptEntries, &m->receipts); LEAVE(); }
static uint8_t *e_StateChange(enc *c, uint8_t *p, const rb_StateChange *m)
{
  ENTER();
  switch (m->op_case) {
  case 4: MSG(4, e_SingletonUpdateChange, &m->u.singleton_update); break;
  case 5: MSG(5, e_MapUpdateChange, &m->u.map_update); break;
  case 6: MSG(6, e_MapDeleteChange, &m->u.map_delete); break;
  case 7: MSG(7, e_QueuePushChange, &m->u.queue_push); break;
  case 8: *--p = 0; *--p = RB_TAG(8, 2); break; /* QueuePopChange has no fields */
  default: break;
  }
  VARINT(1, m->state_id); LEAVE();
}
static uint8_t *e_StateChanges(enc *c, uint8_t *p, const rb_StateChanges *m)
{
  ENTER(); REPEATED(2, e_StateChange, m->state_changes, m->n_state_changes);
  OPT_MSG(1, e_Timestamp, &m->consensus_timestamp); LEAVE();
}
static uint8_t *e_BlockHeader(enc *c, uint8_t *p, const rb_BlockHeader *m)
{
  ENTER(); OPT_MSG(4, e_Timestamp, &m->first_time); BYTES(3, m->previous_block_hash);
  VARINT(2, m->number); OPT_MSG(1, e_SemanticVersion, &m->hapi_proto_version); LEAVE();
}
static uint8_t *e_BlockFooter(enc *c, uint8_t *p, const rb_BlockFooter *m)
{ ENTER(); VARINT(3, m->item_count); BYTES(2, m->state_root_hash); BYTES(1, m->block_hash); LEAVE(); }
static uint8_t *e_BlockProof(enc *c, uint8_t *p, const rb_BlockProof *m)
{
  ENTER();
  for (uint32_t i = m->n_sibling_hashes; i-- > 0;) {
    p = put_bytes(c, p, m->sibling_hashes[i]); p = rb_put_varint_rev(p, m->sibling_hashes[i].n); *--p = RB_TAG(5, 2);
  }
  BYTES(4, m->block_signature); BYTES(3, m->state_root_hash); BYTES(2, m->previous_block_root_hash);
  VARINT(1, m->block); LEAVE();
}
static uint8_t *e_BlockItem(enc *c, uint8_t *p, const rb_BlockItem *m)
{
  ENTER();
  switch (m->item_case) {
  case 1: MSG(1, e_BlockHeader, &m->u.block_header); break;
  case 4: MSG(4, e_SignedTransaction, &m->u.signed_transaction); break;
  case 5: MSG(5, e_TransactionResult, &m->u.transaction_result); break;
  case 6: MSG(6, e_TransactionOutput, &m->u.transaction_output); break;
  case 7: MSG(7, e_StateChanges, &m->u.state_changes); break;
  case 8: MSG(8, e_BlockFooter, &m->u.block_footer); break;
  case 9: MSG(9, e_BlockProof, &m->u.block_proof); break;
  default: break;
  }
  LEAVE();
}
static uint8_t *e_Block(enc *c, uint8_t *p, const rb_Block *m)
{ ENTER(); REPEATED(1, e_BlockItem, m->items, m->n_items); return p; }

/* Runs one top-level encoder over buf[0..cap). */
#define TOP(fn, m, buf, cap) do { \
    enc c_; c_.lo = (buf); c_.fail = false; \
    if ((cap) < MARGIN) return NULL; \
    uint8_t *s_ = fn(&c_, (buf) + (cap), (m)); \
    return c_.fail ? NULL : s_; } while (0)

uint8_t *rb_encode_Block(const rb_Block *m, uint8_t *buf, size_t cap) { TOP(e_Block, m, buf, cap); }
uint8_t *rb_encode_TransactionBody(const rb_TransactionBody *m, uint8_t *buf, size_t cap) { TOP(e_TransactionBody_, m, buf, cap); }
uint8_t *rb_encode_SignedTransaction(const rb_SignedTransaction *m, uint8_t *buf, size_t cap) { TOP(e_SignedTransaction, m, buf, cap); }
uint8_t *rb_encode_Timestamp(const rb_Timestamp *m, uint8_t *buf, size_t cap) { TOP(e_Timestamp, m, buf, cap); }
uint8_t *rb_encode_AccountID(const rb_Id *m, uint8_t *buf, size_t cap) { TOP(e_Id, m, buf, cap); }
