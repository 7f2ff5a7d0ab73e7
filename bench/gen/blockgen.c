/* blockgen.c: writes the synthetic block, or (--check) asserts its shape, determinism, hash and the reference codec's round trip. */
#include "gen.h"
#include "../ref/ref_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

typedef struct {
  double items_per_tx, state_changes_per_tx, bytes_per_state_item, bytes_per_tx, batch_fraction;
  double balances_per_tx, added_per_tx, trades_per_tx, deleted_per_tx, ecdsa_fraction, body_bytes_single;
  unsigned min_inner, max_inner;
} shape;

static int failures;
static void expect_near(const char *what, double got, double want, double tolerance)
{
  bool ok = got >= want - tolerance && got <= want + tolerance;
  printf("  %-28s %9.3f  (want %g +- %g)%s\n", what, got, want, tolerance, ok ? "" : "  FAIL");
  if (!ok) failures++;
}
static void expect(const char *what, bool ok)
{
  printf("  %-28s %s\n", what, ok ? "ok" : "FAIL");
  if (!ok) failures++;
}

/* Measures the block from its bytes, through the reference decoder. */
static int measure(const uint8_t *buf, size_t len, uint32_t ntx, shape *sh)
{
  rb_pools pl;
  rb_Block b;
  if (rb_pools_init(&pl, len) || rb_decode_Block(&b, buf, len, &pl)) return -1;
  memset(sh, 0, sizeof *sh);
  sh->min_inner = ~0u;
  double state_items = 0, state_bytes = 0, batches = 0, ecdsa = 0, sigs = 0, single_bodies = 0, single_body_bytes = 0;
  const uint8_t *p = buf, *end = buf + len;
  for (uint32_t i = 0; i < b.n_items; i++) { /* walk the top level for each item's size */
    uint64_t tag = 0, n = 0;
    p = rb_get_varint(p, end, &tag); p = rb_get_varint(p, end, &n);
    const rb_BlockItem *it = &b.items[i];
    if (it->item_case == 7) { state_items++; state_bytes += (double)n; sh->state_changes_per_tx += it->u.state_changes.n_state_changes; }
    if (it->item_case == 6) {
      uint32_t c = it->u.transaction_output.output_case;
      sh->balances_per_tx += c == 1; sh->added_per_tx += c == 2; sh->trades_per_tx += c == 3; sh->deleted_per_tx += c == 4;
    }
    if (it->item_case == 4) {
      const rb_SignedTransaction *t = &it->u.signed_transaction;
      for (uint32_t k = 0; k < t->sig_map.n_sig_pair; k++, sigs++) ecdsa += t->sig_map.sig_pair[k].signature_case == 6;
      rb_TransactionBody body;
      if (rb_decode_TransactionBody(&body, t->body_bytes.p, t->body_bytes.n, &pl)) return -1;
      if (body.data_case == 12) {
        batches++;
        unsigned inner = body.data.atomic_batch.n_transactions;
        if (inner < sh->min_inner) sh->min_inner = inner;
        if (inner > sh->max_inner) sh->max_inner = inner;
      } else { single_bodies++; single_body_bytes += t->body_bytes.n; }
    }
    p += n;
  }
  sh->items_per_tx = (b.n_items - 3.0) / ntx;
  sh->state_changes_per_tx /= ntx;
  sh->bytes_per_state_item = state_bytes / state_items;
  sh->bytes_per_tx = (double)len / ntx;
  sh->batch_fraction = batches / ntx;
  sh->balances_per_tx /= ntx; sh->added_per_tx /= ntx; sh->trades_per_tx /= ntx; sh->deleted_per_tx /= ntx;
  sh->ecdsa_fraction = ecdsa / sigs;
  sh->body_bytes_single = single_body_bytes / single_bodies;
  rb_pools_free(&pl);
  return 0;
}

/* Decode, re-encode, visit and scan: the same bytes and the same sum. */
static void round_trip(const uint8_t *buf, size_t len)
{
  rb_pools pl;
  rb_Block b;
  bool ok = rb_pools_init(&pl, len) == 0 && rb_decode_Block(&b, buf, len, &pl) == 0;
  expect("reference decode", ok);
  if (!ok) return;
  uint8_t *out = malloc(len + 4096);
  uint8_t *s = rb_encode_Block(&b, out, len + 4096);
  expect("reference re-encode equal", s && (size_t)(out + len + 4096 - s) == len && memcmp(s, buf, len) == 0);
  expect("reference encode into too small a buffer fails", rb_encode_Block(&b, out, len - 1) == NULL);
  bool scanned;
  uint64_t visit = rb_visit_Block(&b), scan = rb_scan_Block(buf, len, &scanned);
  printf("  read-every-field sum        %016llx (visit) %016llx (scan)\n", (unsigned long long)visit, (unsigned long long)scan);
  expect("visit sum == scan sum", scanned && visit == scan && visit != 0);
  expect("decode of a truncated block fails", rb_decode_Block(&b, buf, len - 1, &pl) != 0);
  free(out);
  rb_pools_free(&pl);
}

static bool write_path(const char *path, const void *data, size_t len)
{
  FILE *f = fopen(path, "wb");
  bool ok = f && fwrite(data, 1, len, f) == len;
  if (f && fclose(f)) ok = false;
  if (!ok) fprintf(stderr, "blockgen: cannot write %s\n", path);
  return ok;
}

static bool write_file(const char *dir, const char *name, const void *data, size_t len)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return write_path(path, data, len);
}

/* The small messages, the transaction count and the read-every-field sum,
   beside the block for the harness. */
static bool write_extras(const char *dir, const uint8_t *buf, size_t len, uint32_t ntx)
{
  rb_pools pl;
  rb_Block b;
  if (rb_pools_init(&pl, len) || rb_decode_Block(&b, buf, len, &pl)) return false;
  uint8_t out[256];
  rb_Timestamp ts = { 1736208621, 122917143 };
  rb_Id id = { 0, 0, 1001 };
  uint8_t *s = rb_encode_Timestamp(&ts, out, sizeof out);
  bool ok = s && write_file(dir, "small.timestamp.bin", s, (size_t)(out + sizeof out - s));
  s = rb_encode_AccountID(&id, out, sizeof out);
  ok = ok && s && write_file(dir, "small.account_id.bin", s, (size_t)(out + sizeof out - s));
  const rb_BlockItem *first_tx = &b.items[1]; /* the first transaction's body: a short TransactionBody */
  ok = ok && first_tx->item_case == 4;
  ok = ok && write_file(dir, "small.tx_body.bin", first_tx->u.signed_transaction.body_bytes.p, first_tx->u.signed_transaction.body_bytes.n);
  char num[64];
  int n = snprintf(num, sizeof num, "%u\n", ntx);
  ok = ok && write_file(dir, "synthetic.tx", num, (size_t)n);
  n = snprintf(num, sizeof num, "0x%016llx\n", (unsigned long long)rb_visit_Block(&b));
  ok = ok && write_file(dir, "synthetic.sum", num, (size_t)n);
  uint64_t tx_sum = 0; /* tx_decode's sum: each SignedTransaction and its TransactionBody */
  for (uint32_t i = 0; i < b.n_items; i++) {
    if (b.items[i].item_case != 4) continue;
    const rb_SignedTransaction *st = &b.items[i].u.signed_transaction;
    rb_TransactionBody body;
    ok = ok && rb_decode_TransactionBody(&body, st->body_bytes.p, st->body_bytes.n, &pl) == 0;
    tx_sum += rb_visit_SignedTransaction(st) + rb_visit_TransactionBody(&body);
  }
  n = snprintf(num, sizeof num, "0x%016llx\n", (unsigned long long)tx_sum);
  ok = ok && write_file(dir, "synthetic.txsum", num, (size_t)n);
  rb_pools_free(&pl);
  return ok;
}

/* Counts the transaction results among a block's items (any schema whose
   Block is `repeated BlockItem items = 1` with transaction_result = 5). */
static int count_results(const char *in, const char *out)
{
  FILE *f = fopen(in, "rb");
  if (!f) { fprintf(stderr, "blockgen: cannot open %s\n", in); return 1; }
  fseek(f, 0, SEEK_END);
  size_t len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc(len + 1);
  if (!buf || fread(buf, 1, len, f) != len) { fprintf(stderr, "blockgen: cannot read %s\n", in); return 1; }
  fclose(f);
  const uint8_t *p = buf, *end = buf + len;
  unsigned results = 0;
  while (p < end) {
    uint64_t tag, n, inner;
    if (!(p = rb_get_varint(p, end, &tag)) || tag != RB_TAG(1, 2) || !(p = rb_get_varint(p, end, &n)) || n > (uint64_t)(end - p)) {
      fprintf(stderr, "blockgen: %s is not a block\n", in);
      return 1;
    }
    if (n && rb_get_varint(p, p + n, &inner) && inner == RB_TAG(5, 2)) results++;
    p += n;
  }
  free(buf);
  char num[32];
  int k = snprintf(num, sizeof num, "%u\n", results);
  printf("blockgen: %s: %u transaction results\n", in, results);
  return write_path(out, num, (size_t)k) ? 0 : 1;
}

int main(int argc, char **argv)
{
  if (argc == 4 && !strcmp(argv[1], "--count-results")) return count_results(argv[2], argv[3]);
  const char *out = NULL, *expect_hash = NULL;
  uint32_t ntx = GEN_TX_COUNT;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "--check") && i + 1 < argc) expect_hash = argv[++i];
    else if (!strcmp(argv[i], "-n") && i + 1 < argc) ntx = (uint32_t)strtoul(argv[++i], NULL, 10);
    else { fprintf(stderr, "usage: blockgen [-n TX] [-o FILE] [--check XXH64] | --count-results BLOCK OUT\n"); return 2; }
  }
  size_t len;
  uint8_t *buf = gen_block_bytes(ntx, GEN_SEED, &len);
  if (!buf) { fprintf(stderr, "blockgen: generation failed\n"); return 1; }
  char hash[32];
  snprintf(hash, sizeof hash, "%016llx", (unsigned long long)XXH64(buf, len, 0));
  if (out) {
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) { fprintf(stderr, "blockgen: cannot write %s\n", out); return 1; }
    printf("blockgen: %s: %zu bytes, %u transactions, xxh64 %s\n", out, len, ntx, hash);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", out);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0; else strcpy(dir, ".");
    if (!write_extras(dir, buf, len, ntx)) return 1;
  }
  if (expect_hash) {
    size_t len2;
    uint8_t *again = gen_block_bytes(ntx, GEN_SEED, &len2);
    printf("synthetic block: %zu bytes, xxh64 %s\n", len, hash);
    expect("two runs give identical bytes", again && len2 == len && memcmp(again, buf, len) == 0);
    expect("xxh64 is the recorded one", !strcmp(hash, expect_hash));
    free(again);
    shape sh;
    expect("measured", measure(buf, len, ntx, &sh) == 0);
    expect_near("items per transaction", sh.items_per_tx, 9.6, 0.3);
    expect_near("state changes per tx", sh.state_changes_per_tx, 12.6, 0.6);
    expect_near("bytes per state-changes item", sh.bytes_per_state_item, 430, 40);
    expect_near("bytes per transaction", sh.bytes_per_tx, 800, 80);
    expect_near("batch fraction", sh.batch_fraction, 0.12, 0.015);
    expect_near("balance changes per tx", sh.balances_per_tx, 2.94, 0.15);
    expect_near("orders added per tx", sh.added_per_tx, 1.16, 0.05);
    expect_near("trades per tx", sh.trades_per_tx, 0.51, 0.05);
    expect_near("orders deleted per tx", sh.deleted_per_tx, 0.96, 0.05);
    expect_near("ECDSA signature fraction", sh.ecdsa_fraction, 0.80, 0.02);
    expect_near("body bytes (single tx)", sh.body_bytes_single, 53, 6);
    expect("batch inner transactions 2..20", sh.min_inner == 2 && sh.max_inner <= 20 && sh.max_inner >= 15);
    round_trip(buf, len);
    printf("%s\n", failures ? "blockgen --check: FAILED" : "blockgen --check: ok");
  }
  free(buf);
  return failures ? 1 : 0;
}
