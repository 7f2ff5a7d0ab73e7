/* gen.h: the deterministic generator of the synthetic block (fixed seed, own PRNG) as reference structs. */
#ifndef PBJBENCH_GEN_H
#define PBJBENCH_GEN_H

#include "../ref/ref.h"

#define GEN_SEED 0x70626a62656e6368ull /* "pbjbench" */
#define GEN_TX_COUNT 20000u

/* Everything the generated block points into. */
typedef struct {
  rb_pools pools;
  uint8_t *bytes; size_t bytes_used, bytes_cap; /* keys, signatures, bodies, hashes */
} gen_store;

/* Builds a block of ntx transactions into *block (storage in *st); 0 on success. */
int gen_block(rb_Block *block, gen_store *st, uint32_t ntx, uint64_t seed);
void gen_store_free(gen_store *st);

/* Generates the block and encodes it with the reference encoder: a malloc'd
   buffer of *len bytes (NULL on failure). */
uint8_t *gen_block_bytes(uint32_t ntx, uint64_t seed, size_t *len);

#endif
