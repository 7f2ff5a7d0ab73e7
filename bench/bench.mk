# bench/bench.mk: `make bench` (WORKLOAD.md): the synthetic block, the real
# block and small messages, for the reference codec, pbjc and the peers.
# Everything is built into $(B)/bench; every contender gets the same -O2.

BB          := $(B)/bench
BENCH_OPT   := -O2 -g -DNDEBUG
BENCH_CFLAGS = -std=c11 $(WARN) $(BENCH_OPT)
REAL_BLOCK_GZ := ../shared/corpus/blocks/000000000000000000000000000000497558.blk.gz
HAPI        := ../shared/corpus/hapi-v0.59.0
HAPI_ROOTS  := -I$(HAPI)/services -I$(HAPI)/block -I$(HAPI)/platform -I$(HAPI)/streams
BENCH_DEB   := protobuf-c-compiler libprotobuf-c-dev nanopb libnanopb-dev libprotobuf-dev protobuf-compiler valgrind

REF_SRCS    := bench/ref/ref_encode.c bench/ref/ref_decode.c bench/ref/ref_read.c
GEN_SRCS    := bench/gen/gen.c
REF_HDRS    := bench/ref/ref.h bench/ref/ref_wire.h bench/gen/gen.h

.PHONY: bench bench-icount bench-deps bench-block
CLEAN += $(BB)

# bench-deps: the peers' Debian packages, installed when missing.
bench-deps: | deps
	@missing=""; for p in $(BENCH_DEB); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

$(BB)/blockgen: bench/gen/blockgen.c $(GEN_SRCS) $(REF_SRCS) $(REF_HDRS) | deps
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/gen/blockgen.c $(GEN_SRCS) $(REF_SRCS) -lxxhash

$(BB)/synthetic.blk: $(BB)/blockgen
	$(BB)/blockgen -o $@

$(BB)/real.blk: $(REAL_BLOCK_GZ)
	@mkdir -p $(@D)
	gunzip -c $< > $@

bench-block: $(BB)/synthetic.blk $(BB)/real.blk $(BB)/real.tx

$(BB)/real.tx: $(BB)/real.blk $(BB)/blockgen
	$(BB)/blockgen --count-results $< $@

# ---- descriptors and read-every-field visitors (bench/tools/visitgen.py) ----
VISITGEN := /usr/bin/python3 bench/tools/visitgen.py
$(BB)/synthetic.desc: bench/blockstream.proto | deps
	@mkdir -p $(@D)
	protoc -Ibench --include_imports -o $@ $<
$(BB)/real.desc: | deps
	@mkdir -p $(@D)
	protoc $(HAPI_ROOTS) --include_imports -o $@ stream/block.proto
$(BB)/real.files: $(BB)/real.desc bench/tools/visitgen.py
	$(VISITGEN) files $< > $@

# ---- protobuf-c: protoc-c code, one unity file per schema ----
PBC := $(BB)/protobuf-c
$(PBC)/syn/blockstream.pb-c.c: bench/blockstream.proto | bench-deps
	@mkdir -p $(@D)
	protoc-c -Ibench --c_out=$(@D) blockstream.proto
$(PBC)/real/all.c: $(BB)/real.files | bench-deps
	@rm -rf $(@D); mkdir -p $(@D)
	protoc-c $(HAPI_ROOTS) -I/usr/include --c_out=$(@D) $$(cat $<)
	sed 's/\.proto$$/.pb-c.c"/; s/^/#include "/' $< > $@
$(PBC)/visit_synthetic.inc: $(BB)/synthetic.desc bench/tools/visitgen.py
	@mkdir -p $(@D)
	$(VISITGEN) protobufc $< pbjbench.Block $@
$(PBC)/visit_real.inc: $(BB)/real.desc bench/tools/visitgen.py
	@mkdir -p $(@D)
	$(VISITGEN) protobufc $< com.hedera.hapi.block.stream.Block $@
$(PBC)/real.o: $(PBC)/real/all.c
	$(CC) -std=c11 $(BENCH_OPT) -I$(PBC)/real -c -o $@ $<
$(BB)/bench-protobuf-c: bench/peers/bench_protobufc.c bench/harness.c bench/harness.h $(PBC)/syn/blockstream.pb-c.c \
		$(PBC)/real.o $(PBC)/visit_synthetic.inc $(PBC)/visit_real.inc
	$(CC) -std=c11 $(BENCH_OPT) -I$(PBC) -I$(PBC)/syn -I$(PBC)/real -o $@ bench/peers/bench_protobufc.c bench/harness.c \
		$(PBC)/syn/blockstream.pb-c.c $(PBC)/real.o -lprotobuf-c
