/* ref_decode.c: the reference decoder: bytes into light structs, bytes aliased, repeated fields in caller-sized pools. */
#include "ref.h"
#include "ref_wire.h"

#include <stdlib.h>

/* Each decoder parses [p, end) into *m, which the caller zeroed (so a repeated
   occurrence of a singular message merges); returns 0 or -1. */
#define BEGIN() while (p < end) { uint64_t tag; \
    if (RB_LIKELY(*p < 0x80)) tag = *p++; else if (!(p = rb_get_varint(p, end, &tag))) return -1; \
    switch (tag) {
#define END() default: if (!(p = rb_skip(p, end, tag))) return -1; } } return 0;
#define V(num, dst, conv) case RB_TAG(num, 0): { uint64_t v_; if (!(p = rb_get_varint(p, end, &v_))) return -1; dst = conv(v_); break; }
#define U64(num, dst) V(num, dst, (uint64_t))
#define I64(num, dst) V(num, dst, (int64_t))
#define I32(num, dst) V(num, dst, (int32_t))
#define U32(num, dst) V(num, dst, (uint32_t))
#define S64(num, dst) V(num, dst, rb_unzigzag)
#define BOOL(num, dst) V(num, dst, 0 !=)
/* Length-delimited payload [p, q). */
#define LEN() uint64_t n_; if (!(p = rb_get_varint(p, end, &n_)) || n_ > (uint64_t)(end - p)) return -1; const uint8_t *q = p + n_;
#define BYTES(num, dst) case RB_TAG(num, 2): { LEN(); (dst).p = p; (dst).n = (uint32_t)n_; p = q; break; }
#define MSG(num, fn, dst) case RB_TAG(num, 2): { LEN(); CALL(fn(dst, p, q, pl)); m->has |= 1u << (num); p = q; break; }
/* A oneof alternative: zero the member when the case changes, then merge. */
#define ONEOF(num, casefield, fn, member) case RB_TAG(num, 2): { LEN(); \
    if (casefield != (num)) { memset(member, 0, sizeof *(member)); casefield = (num); } \
    CALL(fn(member, p, q, pl)); p = q; break; }
/* A repeated message: the next element of its pool, contiguous with the earlier ones. */
#define REP(num, fn, arr, cnt, pool) case RB_TAG(num, 2): { LEN(); \
    if (!push((void **)&(arr), &(cnt), (void *)pl->pool, &pl->pool##_used, pl->pool##_cap, sizeof *pl->pool)) return -1; \
    memset(&(arr)[(cnt) - 1], 0, sizeof *(arr)); \
    CALL(fn(&(arr)[(cnt) - 1], p, q, pl)); p = q; break; }
#define REP_BYTES(num, arr, cnt) case RB_TAG(num, 2): { LEN(); \
    if (!push((void **)&(arr), &(cnt), (void *)pl->bytes, &pl->bytes_used, pl->bytes_cap, sizeof *pl->bytes)) return -1; \
    (arr)[(cnt) - 1].p = p; (arr)[(cnt) - 1].n = (uint32_t)n_; p = q; break; }
#define CALL(e) do { if (e) return -1; } while (0)
#define DEC(T) static int d_##T(rb_##T *m, const uint8_t *p, const uint8_t *end, rb_pools *pl)

/* Appends one element to a repeated field; fails when the pool is full or
   the field's elements would not be contiguous (non-canonical interleaving). */
static inline bool push(void **arr, uint32_t *cnt, void *base, size_t *used, size_t cap, size_t size)
{
  if (RB_UNLIKELY(*used >= cap)) return false;
  uint8_t *next = (uint8_t *)base + *used * size;
  if (*cnt == 0) *arr = next;
  else if (RB_UNLIKELY((uint8_t *)*arr + (size_t)*cnt * size != next)) return false;
  ++*used; ++*cnt;
  return true;
}

static int d_Timestamp(rb_Timestamp *m, const uint8_t *p, const uint8_t *end, rb_pools *pl)
{ (void)pl; BEGIN() I64(1, m->seconds) I32(2, m->nanos) END() }
static int d_Duration(rb_Duration *m, const uint8_t *p, const uint8_t *end, rb_pools *pl)
{ (void)pl; BEGIN() I64(1, m->seconds) END() }
static int d_Id(rb_Id *m, const uint8_t *p, const uint8_t *end, rb_pools *pl)
{ (void)pl; BEGIN() I64(1, m->shard) I64(2, m->realm) I64(3, m->num) END() }
static int d_UInt64Value(rb_UInt64Value *m, const uint8_t *p, const uint8_t *end, rb_pools *pl)
{ (void)pl; BEGIN() U64(1, m->value) END() }
static int d_SemanticVersion(rb_SemanticVersion *m, const uint8_t *p, const uint8_t *end, rb_pools *pl)
{ (void)pl; BEGIN() I32(1, m->major) I32(2, m->minor) I32(3, m->patch) END() }
DEC(NftID) { BEGIN() MSG(1, d_Id, &m->token_id) I64(2, m->serial_number) END() }
DEC(TransactionID)
{ BEGIN() MSG(1, d_Timestamp, &m->valid_start) MSG(2, d_Id, &m->account_id) BOOL(3, m->scheduled) I32(4, m->nonce) END() }
DEC(TokenAssociation) { BEGIN() MSG(1, d_Id, &m->token_id) MSG(2, d_Id, &m->account_id) END() }
DEC(AccountAmount) { BEGIN() MSG(1, d_Id, &m->account_id) S64(2, m->amount) BOOL(3, m->is_approval) END() }
DEC(TransferList) { BEGIN() REP(1, d_AccountAmount, m->account_amounts, m->n_account_amounts, account_amounts) END() }
DEC(NftTransfer)
{ BEGIN() MSG(1, d_Id, &m->sender) MSG(2, d_Id, &m->receiver) I64(3, m->serial_number) BOOL(4, m->is_approval) END() }
DEC(TokenTransferList)
{
  BEGIN() MSG(1, d_Id, &m->token) REP(2, d_AccountAmount, m->transfers, m->n_transfers, account_amounts)
  REP(3, d_NftTransfer, m->nft_transfers, m->n_nft_transfers, nft_transfers) END()
}
DEC(SignaturePair)
{
  (void)pl;
  BEGIN() BYTES(1, m->pub_key_prefix)
  case RB_TAG(3, 2): case RB_TAG(6, 2): { LEN(); m->signature_case = (uint32_t)(tag >> 3); m->signature.p = p; m->signature.n = (uint32_t)n_; p = q; break; }
  END()
}
DEC(SignatureMap) { BEGIN() REP(1, d_SignaturePair, m->sig_pair, m->n_sig_pair, sig_pairs) END() }
DEC(SignedTransaction) { BEGIN() BYTES(1, m->body_bytes) MSG(2, d_SignatureMap, &m->sig_map) END() }
DEC(CryptoTransferBody)
{
  BEGIN() MSG(1, d_TransferList, &m->transfers)
  REP(2, d_TokenTransferList, m->token_transfers, m->n_token_transfers, token_transfer_lists) END()
}
DEC(SubmitOrderBody)
{
  BEGIN() MSG(1, d_Id, &m->base_token) MSG(2, d_Id, &m->quote_token) I32(3, m->side)
  U64(4, m->price) U64(5, m->quantity) END()
}
DEC(AtomicBatchBody) { BEGIN() REP_BYTES(1, m->transactions, m->n_transactions) END() }
DEC(TransactionBody)
{
  BEGIN() MSG(1, d_TransactionID, &m->transaction_id) MSG(2, d_Id, &m->node_account_id)
  U64(3, m->transaction_fee) MSG(4, d_Duration, &m->valid_duration) BYTES(5, m->memo)
  ONEOF(10, m->data_case, d_CryptoTransferBody, &m->data.crypto_transfer)
  ONEOF(11, m->data_case, d_SubmitOrderBody, &m->data.submit_order)
  ONEOF(12, m->data_case, d_AtomicBatchBody, &m->data.atomic_batch)
  END()
}
DEC(TransactionResult)
{
  BEGIN() I32(1, m->status) MSG(2, d_Timestamp, &m->consensus_timestamp)
  MSG(3, d_Timestamp, &m->parent_consensus_timestamp) U64(6, m->fee_charged)
  MSG(7, d_TransferList, &m->transfer_list)
  REP(8, d_TokenTransferList, m->token_transfer_lists, m->n_token_transfer_lists, token_transfer_lists) END()
}
DEC(BalanceChange)
{ BEGIN() MSG(1, d_Id, &m->account_id) MSG(2, d_Id, &m->token_id) S64(3, m->delta) U64(4, m->new_balance) END() }
DEC(OrderAdded)
{
  BEGIN() U64(1, m->order_id) MSG(2, d_Id, &m->owner) MSG(3, d_Id, &m->token) I32(4, m->side)
  U64(5, m->price) U64(6, m->quantity) END()
}
DEC(OrderTrade)
{
  BEGIN() U64(1, m->maker_order_id) U64(2, m->taker_order_id) MSG(3, d_Id, &m->maker) MSG(4, d_Id, &m->taker)
  MSG(5, d_Id, &m->token) U64(6, m->price) U64(7, m->quantity) END()
}
DEC(OrderDeleted) { BEGIN() U64(1, m->order_id) MSG(2, d_Id, &m->token) U64(3, m->remaining_quantity) END() }
DEC(TransactionOutput)
{
  BEGIN() ONEOF(1, m->output_case, d_BalanceChange, &m->u.balance_change)
  ONEOF(2, m->output_case, d_OrderAdded, &m->u.order_added) ONEOF(3, m->output_case, d_OrderTrade, &m->u.order_trade)
  ONEOF(4, m->output_case, d_OrderDeleted, &m->u.order_deleted) END()
}
DEC(Account)
{
  BEGIN() MSG(1, d_Id, &m->account_id) I64(2, m->tinybar_balance) I32(3, m->number_associations)
  I32(4, m->number_positive_balances) MSG(5, d_Id, &m->head_token_id) I64(6, m->expiration_second) END()
}
DEC(TokenRelation)
{
  BEGIN() MSG(1, d_Id, &m->token_id) MSG(2, d_Id, &m->account_id) I64(3, m->balance) BOOL(4, m->frozen)
  BOOL(5, m->kyc_granted) BOOL(6, m->automatic_association) MSG(7, d_Id, &m->previous_token)
  MSG(8, d_Id, &m->next_token) U64(9, m->fees_accrued) MSG(10, d_Timestamp, &m->fee_paid_until) END()
}
DEC(Nft)
{
  BEGIN() MSG(1, d_NftID, &m->nft_id) MSG(2, d_Id, &m->owner_id) MSG(3, d_Id, &m->spender_id)
  MSG(4, d_Timestamp, &m->mint_time) BYTES(5, m->metadata) MSG(6, d_NftID, &m->owner_previous_nft_id)
  MSG(7, d_NftID, &m->owner_next_nft_id) END()
}
DEC(TransactionReceiptEntry)
{ BEGIN() I64(1, m->node_id) MSG(2, d_TransactionID, &m->transaction_id) I32(3, m->status) END() }
DEC(TransactionReceiptEntries) { BEGIN() REP(1, d_TransactionReceiptEntry, m->entries, m->n_entries, receipts) END() }
DEC(MapChangeKey)
{
  BEGIN() ONEOF(1, m->key_case, d_Id, &m->u.account_id) ONEOF(2, m->key_case, d_TokenAssociation, &m->u.token_relationship)
  ONEOF(5, m->key_case, d_NftID, &m->u.nft_id) END()
}
DEC(MapChangeValue)
{
  BEGIN() ONEOF(1, m->value_case, d_Account, &m->u.account) ONEOF(5, m->value_case, d_Nft, &m->u.nft)
  ONEOF(12, m->value_case, d_TokenRelation, &m->u.token_relation) END()
}
DEC(MapUpdateChange) { BEGIN() MSG(1, d_MapChangeKey, &m->key) MSG(2, d_MapChangeValue, &m->value) END() }
DEC(MapDeleteChange) { BEGIN() MSG(1, d_MapChangeKey, &m->key) END() }
DEC(SingletonUpdateChange)
{ BEGIN() ONEOF(3, m->value_case, d_UInt64Value, &m->u.entity_number) ONEOF(10, m->value_case, d_Timestamp, &m->u.timestamp) END() }
DEC(QueuePushChange) { BEGIN() ONEOF(3, m->value_case, d_TransactionReceiptEntries, &m->receipts) END() }
static int d_QueuePop(rb_StateChange *m, const uint8_t *p, const uint8_t *end, rb_pools *pl)
{ (void)m; (void)pl; BEGIN() END() }
DEC(StateChange)
{
  BEGIN() U32(1, m->state_id)
  ONEOF(4, m->op_case, d_SingletonUpdateChange, &m->u.singleton_update)
  ONEOF(5, m->op_case, d_MapUpdateChange, &m->u.map_update) ONEOF(6, m->op_case, d_MapDeleteChange, &m->u.map_delete)
  ONEOF(7, m->op_case, d_QueuePushChange, &m->u.queue_push)
  case RB_TAG(8, 2): { LEN(); m->op_case = 8; CALL(d_QueuePop(m, p, q, pl)); p = q; break; }
  END()
}
DEC(StateChanges)
{
  BEGIN() MSG(1, d_Timestamp, &m->consensus_timestamp)
  REP(2, d_StateChange, m->state_changes, m->n_state_changes, state_changes) END()
}
DEC(BlockHeader)
{
  BEGIN() MSG(1, d_SemanticVersion, &m->hapi_proto_version) U64(2, m->number) BYTES(3, m->previous_block_hash)
  MSG(4, d_Timestamp, &m->first_time) END()
}
DEC(BlockFooter)
{ (void)pl; BEGIN() BYTES(1, m->block_hash) BYTES(2, m->state_root_hash) U64(3, m->item_count) END() }
DEC(BlockProof)
{
  BEGIN() U64(1, m->block) BYTES(2, m->previous_block_root_hash) BYTES(3, m->state_root_hash)
  BYTES(4, m->block_signature) REP_BYTES(5, m->sibling_hashes, m->n_sibling_hashes) END()
}
DEC(BlockItem)
{
  BEGIN() ONEOF(1, m->item_case, d_BlockHeader, &m->u.block_header)
  ONEOF(4, m->item_case, d_SignedTransaction, &m->u.signed_transaction)
  ONEOF(5, m->item_case, d_TransactionResult, &m->u.transaction_result)
  ONEOF(6, m->item_case, d_TransactionOutput, &m->u.transaction_output)
  ONEOF(7, m->item_case, d_StateChanges, &m->u.state_changes)
  ONEOF(8, m->item_case, d_BlockFooter, &m->u.block_footer)
  ONEOF(9, m->item_case, d_BlockProof, &m->u.block_proof) END()
}
/* Only the case is zeroed per item: ONEOF zeroes the one member it fills. */
DEC(Block)
{
  BEGIN() case RB_TAG(1, 2): { LEN();
    if (!push((void **)&m->items, &m->n_items, (void *)pl->items, &pl->items_used, pl->items_cap, sizeof *pl->items)) return -1;
    rb_BlockItem *it = &m->items[m->n_items - 1]; it->item_case = 0;
    CALL(d_BlockItem(it, p, q, pl)); p = q; break; }
  END()
}

int rb_decode_Block(rb_Block *m, const uint8_t *p, size_t n, rb_pools *pl)
{ memset(m, 0, sizeof *m); return d_Block(m, p, p + n, pl); }
int rb_decode_SignedTransaction(rb_SignedTransaction *m, const uint8_t *p, size_t n, rb_pools *pl)
{ memset(m, 0, sizeof *m); return d_SignedTransaction(m, p, p + n, pl); }
int rb_decode_TransactionBody(rb_TransactionBody *m, const uint8_t *p, size_t n, rb_pools *pl)
{ memset(m, 0, sizeof *m); return d_TransactionBody(m, p, p + n, pl); }
int rb_decode_Timestamp(rb_Timestamp *m, const uint8_t *p, size_t n)
{ memset(m, 0, sizeof *m); return d_Timestamp(m, p, p + n, NULL); }
int rb_decode_AccountID(rb_Id *m, const uint8_t *p, size_t n)
{ memset(m, 0, sizeof *m); return d_Id(m, p, p + n, NULL); }

/* Pool capacities: every element needs at least 2 encoded bytes (tag and length). */
int rb_pools_init(rb_pools *pl, size_t encoded_bytes)
{
  size_t cap = encoded_bytes / 2 + 16;
  memset(pl, 0, sizeof *pl);
#define RB_POOL_ALLOC(T, name) pl->name##_cap = cap; if (!(pl->name = calloc(cap, sizeof(T)))) return -1;
  RB_POOL_TYPES(RB_POOL_ALLOC)
#undef RB_POOL_ALLOC
  return 0;
}
void rb_pools_reset(rb_pools *pl)
{
#define RB_POOL_RESET(T, name) pl->name##_used = 0;
  RB_POOL_TYPES(RB_POOL_RESET)
#undef RB_POOL_RESET
}
void rb_pools_free(rb_pools *pl)
{
#define RB_POOL_FREE(T, name) free(pl->name);
  RB_POOL_TYPES(RB_POOL_FREE)
#undef RB_POOL_FREE
}
size_t rb_pools_bytes_used(const rb_pools *pl)
{
  size_t total = 0;
#define RB_POOL_USED(T, name) total += pl->name##_used * sizeof(T);
  RB_POOL_TYPES(RB_POOL_USED)
#undef RB_POOL_USED
  return total;
}
