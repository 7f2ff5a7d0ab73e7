/* ref.h: the hand-written reference codec for bench/blockstream.proto: light structs, back-to-front encode, decode, read-every-field. */
#ifndef PBJBENCH_REF_H
#define PBJBENCH_REF_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* A byte slice aliasing the input (decode) or the generator's storage. */
typedef struct { const uint8_t *p; uint32_t n; } rb_bytes;

/* Singular sub-messages are inline; `has` holds bit (1 << field number) when present. */
typedef struct { int64_t seconds; int32_t nanos; } rb_Timestamp;
typedef struct { int64_t seconds; } rb_Duration;
typedef struct { int64_t shard, realm, num; } rb_Id; /* AccountID and TokenID share a shape */
typedef struct { uint64_t value; } rb_UInt64Value;
typedef struct { int32_t major, minor, patch; } rb_SemanticVersion;
typedef struct { uint32_t has; rb_Id token_id; int64_t serial_number; } rb_NftID;
typedef struct { uint32_t has; rb_Timestamp valid_start; rb_Id account_id; bool scheduled; int32_t nonce; } rb_TransactionID;
typedef struct { uint32_t has; rb_Id token_id; rb_Id account_id; } rb_TokenAssociation;

typedef struct { uint32_t has; rb_Id account_id; int64_t amount; bool is_approval; } rb_AccountAmount;
typedef struct { rb_AccountAmount *account_amounts; uint32_t n_account_amounts; } rb_TransferList;
typedef struct { uint32_t has; rb_Id sender, receiver; int64_t serial_number; bool is_approval; } rb_NftTransfer;
typedef struct {
  uint32_t has; rb_Id token;
  rb_AccountAmount *transfers; uint32_t n_transfers;
  rb_NftTransfer *nft_transfers; uint32_t n_nft_transfers;
} rb_TokenTransferList;

typedef struct { rb_bytes pub_key_prefix; uint32_t signature_case; rb_bytes signature; } rb_SignaturePair;
typedef struct { rb_SignaturePair *sig_pair; uint32_t n_sig_pair; } rb_SignatureMap;
typedef struct { uint32_t has; rb_bytes body_bytes; rb_SignatureMap sig_map; } rb_SignedTransaction;

typedef struct { uint32_t has; rb_TransferList transfers; rb_TokenTransferList *token_transfers; uint32_t n_token_transfers; } rb_CryptoTransferBody;
typedef struct { uint32_t has; rb_Id base_token, quote_token; int32_t side; uint64_t price, quantity; } rb_SubmitOrderBody;
typedef struct { rb_bytes *transactions; uint32_t n_transactions; } rb_AtomicBatchBody;
typedef struct {
  uint32_t has; rb_TransactionID transaction_id; rb_Id node_account_id; uint64_t transaction_fee;
  rb_Duration valid_duration; rb_bytes memo;
  uint32_t data_case;
  union { rb_CryptoTransferBody crypto_transfer; rb_SubmitOrderBody submit_order; rb_AtomicBatchBody atomic_batch; } data;
} rb_TransactionBody;

typedef struct {
  uint32_t has; int32_t status; rb_Timestamp consensus_timestamp, parent_consensus_timestamp;
  uint64_t fee_charged; rb_TransferList transfer_list;
  rb_TokenTransferList *token_transfer_lists; uint32_t n_token_transfer_lists;
} rb_TransactionResult;

typedef struct { uint32_t has; rb_Id account_id, token_id; int64_t delta; uint64_t new_balance; } rb_BalanceChange;
typedef struct { uint32_t has; uint64_t order_id; rb_Id owner, token; int32_t side; uint64_t price, quantity; } rb_OrderAdded;
typedef struct { uint32_t has; uint64_t maker_order_id, taker_order_id; rb_Id maker, taker, token; uint64_t price, quantity; } rb_OrderTrade;
typedef struct { uint32_t has; uint64_t order_id; rb_Id token; uint64_t remaining_quantity; } rb_OrderDeleted;
typedef struct {
  uint32_t output_case;
  union { rb_BalanceChange balance_change; rb_OrderAdded order_added; rb_OrderTrade order_trade; rb_OrderDeleted order_deleted; } u;
} rb_TransactionOutput;

typedef struct { uint32_t has; rb_Id account_id; int64_t tinybar_balance; int32_t number_associations, number_positive_balances; rb_Id head_token_id; int64_t expiration_second; } rb_Account;
typedef struct {
  uint32_t has; rb_Id token_id, account_id; int64_t balance; bool frozen, kyc_granted, automatic_association;
  rb_Id previous_token, next_token; uint64_t fees_accrued; rb_Timestamp fee_paid_until;
} rb_TokenRelation;
typedef struct {
  uint32_t has; rb_NftID nft_id; rb_Id owner_id, spender_id; rb_Timestamp mint_time; rb_bytes metadata;
  rb_NftID owner_previous_nft_id, owner_next_nft_id;
} rb_Nft;
typedef struct { uint32_t has; int64_t node_id; rb_TransactionID transaction_id; int32_t status; } rb_TransactionReceiptEntry;
typedef struct { rb_TransactionReceiptEntry *entries; uint32_t n_entries; } rb_TransactionReceiptEntries;
typedef struct { uint32_t key_case; union { rb_Id account_id; rb_TokenAssociation token_relationship; rb_NftID nft_id; } u; } rb_MapChangeKey;
typedef struct { uint32_t value_case; union { rb_Account account; rb_Nft nft; rb_TokenRelation token_relation; } u; } rb_MapChangeValue;
typedef struct { uint32_t has; rb_MapChangeKey key; rb_MapChangeValue value; } rb_MapUpdateChange;
typedef struct { uint32_t has; rb_MapChangeKey key; } rb_MapDeleteChange;
typedef struct { uint32_t value_case; union { rb_UInt64Value entity_number; rb_Timestamp timestamp; } u; } rb_SingletonUpdateChange;
typedef struct { uint32_t value_case; rb_TransactionReceiptEntries receipts; } rb_QueuePushChange;
typedef struct {
  uint32_t state_id; uint32_t op_case;
  union { rb_SingletonUpdateChange singleton_update; rb_MapUpdateChange map_update; rb_MapDeleteChange map_delete; rb_QueuePushChange queue_push; } u;
} rb_StateChange;
typedef struct { uint32_t has; rb_Timestamp consensus_timestamp; rb_StateChange *state_changes; uint32_t n_state_changes; } rb_StateChanges;

typedef struct { uint32_t has; rb_SemanticVersion hapi_proto_version; uint64_t number; rb_bytes previous_block_hash; rb_Timestamp first_time; } rb_BlockHeader;
typedef struct { rb_bytes block_hash, state_root_hash; uint64_t item_count; } rb_BlockFooter;
typedef struct { uint64_t block; rb_bytes previous_block_root_hash, state_root_hash, block_signature; rb_bytes *sibling_hashes; uint32_t n_sibling_hashes; } rb_BlockProof;
typedef struct {
  uint32_t item_case;
  union {
    rb_BlockHeader block_header; rb_SignedTransaction signed_transaction; rb_TransactionResult transaction_result;
    rb_TransactionOutput transaction_output; rb_StateChanges state_changes; rb_BlockFooter block_footer; rb_BlockProof block_proof;
  } u;
} rb_BlockItem;
typedef struct { rb_BlockItem *items; uint32_t n_items; } rb_Block;

/* Pools: one array per element type of a repeated field, filled front to back.
   Elements of one type never nest another array of the same type, so each
   repeated field's elements stay contiguous in its pool. Decode allocates
   nothing: the caller sizes the pools once (rb_pools_init) and resets them. */
#define RB_POOL_TYPES(X) \
  X(rb_BlockItem, items) X(rb_StateChange, state_changes) X(rb_AccountAmount, account_amounts) \
  X(rb_TokenTransferList, token_transfer_lists) X(rb_NftTransfer, nft_transfers) \
  X(rb_SignaturePair, sig_pairs) X(rb_bytes, bytes) X(rb_TransactionReceiptEntry, receipts)
typedef struct {
#define RB_POOL_MEMBER(T, name) T *name; size_t name##_used, name##_cap;
  RB_POOL_TYPES(RB_POOL_MEMBER)
#undef RB_POOL_MEMBER
} rb_pools;

/* Capacities for a block of at most `items` items and `bytes` encoded bytes. */
int rb_pools_init(rb_pools *pl, size_t encoded_bytes);
void rb_pools_reset(rb_pools *pl);
void rb_pools_free(rb_pools *pl);
size_t rb_pools_bytes_used(const rb_pools *pl);

/* Encode back to front into buf[0..cap): returns the start of the encoding
   (its end is buf + cap), or NULL when cap is too small. */
uint8_t *rb_encode_Block(const rb_Block *m, uint8_t *buf, size_t cap);
uint8_t *rb_encode_TransactionBody(const rb_TransactionBody *m, uint8_t *buf, size_t cap);
uint8_t *rb_encode_SignedTransaction(const rb_SignedTransaction *m, uint8_t *buf, size_t cap);
uint8_t *rb_encode_Timestamp(const rb_Timestamp *m, uint8_t *buf, size_t cap);
uint8_t *rb_encode_AccountID(const rb_Id *m, uint8_t *buf, size_t cap);

/* Decode into structs whose bytes fields alias the input. 0 on success. */
int rb_decode_Block(rb_Block *m, const uint8_t *p, size_t n, rb_pools *pl);
int rb_decode_SignedTransaction(rb_SignedTransaction *m, const uint8_t *p, size_t n, rb_pools *pl);
int rb_decode_TransactionBody(rb_TransactionBody *m, const uint8_t *p, size_t n, rb_pools *pl);
int rb_decode_Timestamp(rb_Timestamp *m, const uint8_t *p, size_t n);
int rb_decode_AccountID(rb_Id *m, const uint8_t *p, size_t n);

/* Read every field (WORKLOAD.md): numbers, bools, enums and oneof field numbers
   added; bytes add length, first and last byte. */
uint64_t rb_visit_Block(const rb_Block *m);
uint64_t rb_visit_TransactionBody(const rb_TransactionBody *m);
uint64_t rb_visit_SignedTransaction(const rb_SignedTransaction *m);
/* The same sum straight from the bytes, in order, no structs (returns 0 and
   sets *ok = false on malformed input). */
uint64_t rb_scan_Block(const uint8_t *p, size_t n, bool *ok);
/* A SignedTransaction and the TransactionBody in its body_bytes, scanned:
   rb_visit_SignedTransaction + rb_visit_TransactionBody of their decodes. */
uint64_t rb_scan_Transaction(const uint8_t *p, size_t n, bool *ok);

#endif
