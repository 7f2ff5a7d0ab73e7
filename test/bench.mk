# test/bench.mk: checks of the benchmark: the synthetic block's shape, its
# determinism and hash, and the reference codec against protoc (the oracle).

# xxh64 of the synthetic block: changes only when the generator or schema does.
BENCH_BLOCK_XXH64 := 1e30c5b95a1d1fe4

.PHONY: check-bench-block check-bench-protoc check-bench-pbjc
CHECKS += check-bench-block check-bench-protoc check-bench-pbjc

check-bench-block: $(B)/bench/blockgen
	$(B)/bench/blockgen --check $(BENCH_BLOCK_XXH64)

# protoc decodes the block with our schema, and encodes its own text back to
# exactly the reference encoder's bytes (the canonical encoding).
check-bench-protoc: $(B)/bench/synthetic.blk | deps
	protoc -Ibench --decode=pbjbench.Block bench/blockstream.proto < $(B)/bench/synthetic.blk > $(B)/bench/synthetic.txt
	protoc -Ibench --encode=pbjbench.Block bench/blockstream.proto < $(B)/bench/synthetic.txt > $(B)/bench/synthetic.protoc.blk
	cmp $(B)/bench/synthetic.blk $(B)/bench/synthetic.protoc.blk
	@echo "check-bench-protoc: protoc re-encodes the synthetic block to the same bytes"

# pbjc's generated code encodes both blocks to their exact bytes and reads the
# same sums as the reference (the harness asserts both; --quick: no timing), also in make bench-cache's
# rows (--cache 2: two copies, each decoded, encoded both ways and scanned through its own buffers).
# The real block and its schema are the corpus's ($(CORPUS_BLOCK) and $(CORPUS_HAPI) in bench/bench.mk).
# The check builds the program at -O0 with assertions on, in its own directory: it asserts bytes and
# sums, not speed, and the real block's 4.4 MB of generated C takes ~6x the CPU at the bench's -O2 -g.
ifneq ($(CORPUS_FOUND),)
check-bench-pbjc: pbjc $(B)/writers/replay_gen $(B)/bench/synthetic.blk $(B)/bench/real.tx
	$(MAKE) --no-print-directory BB=$(B)/bench-check BENCH_OPT=-O0 $(B)/bench-check/bench-pbjc
	$(B)/bench-check/bench-pbjc --dir $(B)/bench --quick > /dev/null
	$(B)/bench-check/bench-pbjc --dir $(B)/bench --cache 2 --quick > /dev/null
	@echo "check-bench-pbjc: pbjc writes the synthetic and real blocks byte for byte, sums equal the reference's"
else
check-bench-pbjc:
	$(call corpus_skip,$@)
endif
