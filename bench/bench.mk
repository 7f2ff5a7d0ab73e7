# bench/bench.mk: `make bench` (WORKLOAD.md): the synthetic block, the real
# block and small messages, for the reference codec, pbjc and the peers.
# Everything is built into $(B)/bench; every contender gets the same -O2.

BB          := $(B)/bench
BENCH_OPT   := -O2 -g -DNDEBUG
PEER_OPT    := $(BENCH_OPT) -Wno-deprecated-declarations
BENCH_CFLAGS = -std=c11 $(WARN) $(BENCH_OPT)
REAL_BLOCK_GZ := $(CORPUS_BLOCK)
HAPI        := $(CORPUS_HAPI)
HAPI_ROOTS  := -I$(HAPI)/services -I$(HAPI)/block -I$(HAPI)/platform -I$(HAPI)/streams
BENCH_DEB   := protobuf-c-compiler libprotobuf-c-dev nanopb libnanopb-dev libprotobuf-dev protobuf-compiler valgrind python3-protobuf

REF_SRCS    := bench/ref/ref_encode.c bench/ref/ref_decode.c bench/ref/ref_read.c
GEN_SRCS    := bench/gen/gen.c
REF_HDRS    := bench/ref/ref.h bench/ref/ref_wire.h bench/gen/gen.h

.PHONY: bench bench-icount bench-deps bench-block bench-visitgen-deps
CLEAN += $(BB)

# bench-deps: the peers' Debian packages, installed when missing.
bench-deps: | deps
	@missing=""; for p in $(BENCH_DEB); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# visitgen.py reads descriptor sets with Debian's python3-protobuf (also all
# that check-bench-pbjc needs beyond `deps`).
bench-visitgen-deps: | deps
	@dpkg -s python3-protobuf >/dev/null 2>&1 || { SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3-protobuf; }

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
# (not remade when visitgen.py changes: the C++ archive of 126 files depends on it)
$(BB)/real.files: $(BB)/real.desc | bench-visitgen-deps
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
$(PBC)/visit_synthetic.inc: $(BB)/synthetic.desc bench/tools/visitgen.py | bench-visitgen-deps
	@mkdir -p $(@D)
	$(VISITGEN) protobufc $< pbjbench.Block,pbjbench.TransactionBody $@
$(PBC)/visit_real.inc: $(BB)/real.desc bench/tools/visitgen.py | bench-visitgen-deps
	@mkdir -p $(@D)
	$(VISITGEN) protobufc $< com.hedera.hapi.block.stream.Block $@
$(PBC)/real.o: $(PBC)/real/all.c
	$(CC) -std=c11 $(PEER_OPT) -I$(PBC)/real -c -o $@ $<
$(BB)/bench-protobuf-c: bench/peers/bench_protobufc.c bench/harness.c bench/harness.h $(PBC)/syn/blockstream.pb-c.c \
		$(PBC)/real.o $(PBC)/visit_synthetic.inc $(PBC)/visit_real.inc
	$(CC) -std=c11 $(PEER_OPT) -I$(PBC) -I$(PBC)/syn -I$(PBC)/real -o $@ bench/peers/bench_protobufc.c bench/harness.c \
		$(PBC)/syn/blockstream.pb-c.c $(PBC)/real.o -lprotobuf-c

# ---- C++ protobuf: protoc --cpp_out, compiled in parallel into an archive ----
CPPB := $(BB)/cpp
BENCH_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
$(CPPB)/syn/blockstream.pb.cc: bench/blockstream.proto | deps
	@mkdir -p $(@D)
	protoc -Ibench --cpp_out=$(@D) blockstream.proto
$(CPPB)/libreal.a: $(BB)/real.files | deps
	@rm -rf $(CPPB)/real; mkdir -p $(CPPB)/real
	protoc $(HAPI_ROOTS) --cpp_out=$(CPPB)/real $$(grep -v '^google/protobuf/' $<)
	cd $(CPPB)/real && find . -name '*.pb.cc' | sed 's/\.cc$$//' | \
	  xargs -P $(BENCH_JOBS) -I{} $(CXX) -std=c++17 $(BENCH_OPT) -I. -c {}.cc -o {}.o
	rm -f $@; find $(CPPB)/real -name '*.pb.o' | xargs ar rcs $@
$(CPPB)/visit_synthetic.inc: $(BB)/synthetic.desc bench/tools/visitgen.py | bench-visitgen-deps
	@mkdir -p $(@D)
	$(VISITGEN) cpp $< pbjbench.Block,pbjbench.TransactionBody $@
$(CPPB)/visit_real.inc: $(BB)/real.desc bench/tools/visitgen.py | bench-visitgen-deps
	@mkdir -p $(@D)
	$(VISITGEN) cpp $< com.hedera.hapi.block.stream.Block $@
$(BB)/bench-cpp: bench/peers/bench_cpp.cc bench/harness.c bench/harness.h $(CPPB)/syn/blockstream.pb.cc $(CPPB)/libreal.a \
		$(CPPB)/visit_synthetic.inc $(CPPB)/visit_real.inc
	$(CC) -std=c11 $(PEER_OPT) -c -o $(CPPB)/harness.o bench/harness.c
	$(CXX) -std=c++17 $(PEER_OPT) -I$(CPPB) -I$(CPPB)/syn -I$(CPPB)/real -o $@ bench/peers/bench_cpp.cc \
		$(CPPB)/syn/blockstream.pb.cc $(CPPB)/harness.o $(CPPB)/libreal.a -lprotobuf -lpthread

# ---- nanopb: the generator from Debian's nanopb, sizes from bench/peers/blockstream.options ----
NPB := $(BB)/nanopb
$(NPB)/blockstream.pb.c: bench/blockstream.proto bench/peers/blockstream.options | bench-deps
	@mkdir -p $(@D)
	nanopb_generator.py -q -D $(@D) -f bench/peers/blockstream.options -I bench bench/blockstream.proto
$(NPB)/visit_synthetic.inc: $(BB)/synthetic.desc bench/tools/visitgen.py | bench-visitgen-deps
	@mkdir -p $(@D)
	$(VISITGEN) nanopb $< pbjbench.Block,pbjbench.TransactionBody $@ pbjbench.Block.items
$(BB)/bench-nanopb: bench/peers/bench_nanopb.c bench/harness.c bench/harness.h $(NPB)/blockstream.pb.c $(NPB)/visit_synthetic.inc
	$(CC) -std=c11 $(PEER_OPT) -I$(NPB) -o $@ bench/peers/bench_nanopb.c bench/harness.c $(NPB)/blockstream.pb.c -lprotobuf-nanopb

# ---- pbjc: its own generated code against rt/ (skipped while it cannot generate yet) ----
# Each pbjc contender's code is generated by pbjc_gen (DIR, FLAGS, protoc's arguments) and depends on the
# compiler, on a file holding its flags (rewritten only when they change: new flags regenerate the code) and,
# once compiled, on the runtime's headers: a contender is never built from code an older pbjc or rt/ left.
PBJC_FLAGS     := --fast-write --views
PBJC_MAX_FLAGS := --performance=max --drop-unknown --views
pbjc_gen   = ./pbjc $(2) -o $(1) $(3)
pbjc_flags = @mkdir -p $(@D); echo '$(1)' | cmp -s - $@ 2>/dev/null || echo '$(1)' > $@
# the real schemas' files, found under their include roots
REAL_PROTOS = $$(for f in $$(cat $(BB)/real.files); do \
  for r in $(HAPI_ROOTS:-I%=%) /usr/include; do [ -f $$r/$$f ] && echo $$r/$$f && break; done; done)
.PHONY: bench-flags-force
bench-flags-force:

PBJB := $(BB)/pbjc
$(PBJB)/flags: bench-flags-force
	$(call pbjc_flags,$(PBJC_FLAGS))
$(PBJB)/syn/blockstream.pb.c: bench/blockstream.proto pbjc $(PBJB)/flags
	@mkdir -p $(@D)
	$(call pbjc_gen,$(@D),$(PBJC_FLAGS) --writers,-Ibench bench/blockstream.proto)
$(PBJB)/real/stamp: $(BB)/real.files pbjc $(PBJB)/flags
	@rm -rf $(@D); mkdir -p $(@D)
	$(call pbjc_gen,$(@D),$(PBJC_FLAGS),$(HAPI_ROOTS) -I/usr/include $(REAL_PROTOS))
	touch $@
$(PBJB)/real/all.c: $(PBJB)/real/stamp $(BB)/real.files
	sed 's/\.proto$$/.pb.c"/; s/^/#include "/' $(BB)/real.files > $@
$(PBJB)/real.o: $(PBJB)/real/all.c $(wildcard rt/*.h)
	$(CC) -std=c11 $(PEER_OPT) -DPBJ__RUN_SHARED=0 -Irt -I$(PBJB)/real -c -o $@ $<   # one unit: its own copy
$(PBJB)/visit_synthetic.inc: $(BB)/synthetic.desc bench/tools/visitgen.py | bench-visitgen-deps
	@mkdir -p $(@D)
	$(VISITGEN) pbjc $< pbjbench.Block,pbjbench.TransactionBody $@
$(PBJB)/visit_real.inc: $(BB)/real.desc bench/tools/visitgen.py | bench-visitgen-deps
	@mkdir -p $(@D)
	$(VISITGEN) pbjc $< com.hedera.hapi.block.stream.Block $@
$(PBJB)/view_synthetic.inc: $(BB)/synthetic.desc bench/tools/visitgen.py | bench-visitgen-deps
	@mkdir -p $(@D)
	$(VISITGEN) pbjc-views $< pbjbench.Block,pbjbench.TransactionBody $@
$(PBJB)/view_real.inc: $(BB)/real.desc bench/tools/visitgen.py | bench-visitgen-deps
	@mkdir -p $(@D)
	$(VISITGEN) pbjc-views $< com.hedera.hapi.block.stream.Block $@
# produce_writers: the synthetic block's structs walked field by field through the writers (test/writers' replay_gen)
$(PBJB)/produce_synthetic.c: bench/blockstream.proto $(B)/writers/replay_gen
	$(B)/writers/replay_gen --produce -I bench $@ bench/blockstream.proto
# produce_structs: the same values set field by field into new structs, then encoded
$(PBJB)/build_synthetic.c: bench/blockstream.proto $(B)/writers/replay_gen
	$(B)/writers/replay_gen --structs -I bench $@ bench/blockstream.proto
$(BB)/bench-pbjc: bench/pbjc/bench_pbjc.c bench/harness.c bench/harness.h $(PBJB)/syn/blockstream.pb.c $(PBJB)/real.o \
		$(PBJB)/visit_synthetic.inc $(PBJB)/visit_real.inc $(PBJB)/view_synthetic.inc $(PBJB)/view_real.inc \
		$(PBJB)/produce_synthetic.c $(PBJB)/build_synthetic.c $(wildcard rt/*.h)
	$(CC) -std=c11 $(PEER_OPT) -Irt -I$(PBJB) -I$(PBJB)/syn -I$(PBJB)/real -Itest/writers -o $@ bench/pbjc/bench_pbjc.c bench/harness.c \
		$(PBJB)/syn/blockstream.pb.c $(PBJB)/real.o

# ---- pbjc-max: the same program over the schemas compiled with --performance=max and --drop-unknown
# (the layout without unknown-field slices: what a reader that wants the least memory sets; no tier implies it) ----
PBJM := $(BB)/pbjc-max
$(PBJM)/flags: bench-flags-force
	$(call pbjc_flags,$(PBJC_MAX_FLAGS))
$(PBJM)/syn/blockstream.pb.c: bench/blockstream.proto pbjc $(PBJM)/flags
	@mkdir -p $(@D)
	$(call pbjc_gen,$(@D),$(PBJC_MAX_FLAGS) --writers,-Ibench bench/blockstream.proto)
$(PBJM)/real/stamp: $(BB)/real.files pbjc $(PBJM)/flags
	@rm -rf $(@D); mkdir -p $(@D)
	$(call pbjc_gen,$(@D),$(PBJC_MAX_FLAGS),$(HAPI_ROOTS) -I/usr/include $(REAL_PROTOS))
	touch $@
$(PBJM)/real/all.c: $(PBJM)/real/stamp $(BB)/real.files
	sed 's/\.proto$$/.pb.c"/; s/^/#include "/' $(BB)/real.files > $@
$(PBJM)/real.o: $(PBJM)/real/all.c $(wildcard rt/*.h)
	$(CC) -std=c11 $(PEER_OPT) -DPBJ__RUN_SHARED=0 -Irt -I$(PBJM)/real -c -o $@ $<   # one unit: its own copy
$(BB)/bench-pbjc-max: bench/pbjc/bench_pbjc.c bench/harness.c bench/harness.h $(PBJM)/syn/blockstream.pb.c $(PBJM)/real.o \
		$(PBJB)/visit_synthetic.inc $(PBJB)/visit_real.inc $(PBJB)/view_synthetic.inc $(PBJB)/view_real.inc \
		$(PBJB)/produce_synthetic.c $(PBJB)/build_synthetic.c $(wildcard rt/*.h)
	$(CC) -std=c11 $(PEER_OPT) -DBENCH_CONTENDER='"pbjc-max"' -Irt -I$(PBJB) -I$(PBJM)/syn -I$(PBJM)/real -Itest/writers \
		-o $@ bench/pbjc/bench_pbjc.c bench/harness.c $(PBJM)/syn/blockstream.pb.c $(PBJM)/real.o

# ---- the runs ----
BENCH_PEERS := $(BB)/bench-ref $(BB)/bench-protobuf-c $(BB)/bench-nanopb $(BB)/bench-cpp
$(BB)/bench-ref: bench/ref/bench_ref.c bench/harness.c bench/harness.h $(REF_SRCS) $(REF_HDRS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/ref/bench_ref.c bench/harness.c $(REF_SRCS)

# pbjc's rows appear once it generates code that builds; until then they say what they wait on.
bench-pbjc-try:
	@$(MAKE) --no-print-directory $(BB)/bench-pbjc || { rm -f $(BB)/bench-pbjc; echo "bench: pbjc's generated code does not build yet: its rows wait"; }
	@$(MAKE) --no-print-directory $(BB)/bench-pbjc-max || { rm -f $(BB)/bench-pbjc-max; echo "bench: pbjc-max does not build: its rows wait"; }

# `make bench`: every contender, results in $(BB)/results.csv and on the terminal.
bench: bench-deps bench-block $(BENCH_PEERS) bench-pbjc-try
	bench/run.sh $(BB)

# `make bench-icount`: instruction counts under callgrind, a 1,000-transaction block.
$(BB)/icount/synthetic.blk: $(BB)/blockgen $(BB)/real.blk $(BB)/real.tx
	@mkdir -p $(@D)
	$(BB)/blockgen -n 1000 -o $@
	ln -sf ../real.blk $(@D)/real.blk; cp $(BB)/real.tx $(@D)/real.tx
bench-icount: bench-deps bench-block $(BENCH_PEERS) bench-pbjc-try $(BB)/icount/synthetic.blk
	bench/icount.sh $(BB)
.PHONY: bench-pbjc-try

# `make bench-cache`: the same operations out of cache (bench/cache.sh): callgrind's cache simulation (misses per
# transaction) and thread CPU time over copies of the block adding up to 4x the last-level cache, beside ref and C++.
.PHONY: bench-cache
bench-cache: bench-deps bench-block $(BENCH_PEERS) bench-pbjc-try $(BB)/icount/synthetic.blk
	bench/cache.sh $(BB)

# `make bench-hostile`: pbjc -o and protoc -o on a message of 100,000 int64 fields and an enum of 50,000
# values (bench/hostile.sh: CPU seconds, peak RSS, the ratios; the target is within 2x of protoc's). Not a test.
.PHONY: bench-hostile
bench-hostile: pbjc | deps
	bench/hostile.sh ./pbjc $(BB)/hostile

# `make bench-size`: generated bytes, pbjc -o CPU and memory and gcc -O2 compile CPU on the HAPI files beside
# protoc-c, and the linked size of a Cortex-M4 program beside nanopb and protobuf-c (bench/size.sh; issue 27's
# targets). COMPILE=0 skips the minutes of gcc. The peers' runtime sources come from Debian's source packages
# (`make peer-src`: apt-get source with the private lists of test/descriptor.mk; no root needed).
PEER_SRC := $(PROTOBUF_CACHE)/peers
SIZE_DEB := protobuf-c-compiler nanopb gcc-arm-none-eabi libnewlib-arm-none-eabi
.PHONY: bench-size peer-src
peer-src: apt-src-lists
	@mkdir -p $(PEER_SRC)
	cd $(PEER_SRC) && apt-get $(APT_PRIVATE) source --download-only nanopb protobuf-c
	cd $(PEER_SRC) && for t in nanopb_*.orig.tar.gz protobuf-c_*.orig.tar.gz; do tar xzf $$t; done
bench-size: pbjc | deps
	@$(MAKE) --no-print-directory bench-deps BENCH_DEB="$(SIZE_DEB)"
	@ls -d $(PEER_SRC)/nanopb-* $(PEER_SRC)/protobuf-c-* >/dev/null 2>&1 || $(MAKE) --no-print-directory peer-src
	bench/size.sh ./pbjc $(BB)/size $(PEER_SRC)
