# test/reverse.mk: the reverse encoder (pbj.fast_write): M_write_reverse gives M_encode's bytes and statuses on random
# batches of every test schema and of the block stream, on the real block, from any buffer (test/reverse/driver.c).
REV       := $(B)/reverse
REV_COUNT ?= 300
REV_SEED  ?= 1
REV_CFLAGS = -std=c11 $(WARN) -Werror -g -include test/reverse/alloc.h -Irt -Itest/parity

# every test schema generated with --fast-write: parity's, test/gen's, and the batches of test/gen's messages
REV_GEN_PROTOS := $(wildcard test/gen/proto/*.proto) test/reverse/batches.proto
REV_PB_NAMES   := $(PARITY_SCHEMAS) $(notdir $(REV_GEN_PROTOS:.proto=)) $(PARITY_WKT:%=google/protobuf/%)
$(REV)/pb/.stamp: pbjc $(wildcard test/parity/schemas/*.proto) $(REV_GEN_PROTOS)
	rm -rf $(REV)/pb && mkdir -p $(REV)/pb
	./pbjc --fast-write -I test/parity/schemas -o $(REV)/pb $(PARITY_SCHEMAS:%=test/parity/schemas/%.proto)
	./pbjc --fast-write -I test/gen/proto -I test/reverse -o $(REV)/pb $(REV_GEN_PROTOS)
	./pbjc --fast-write -I /usr/include -o $(REV)/pb $(PARITY_WKT:%=/usr/include/google/protobuf/%.proto)
	@touch $@

# compiled once (ASan+UBSan, -Werror, gcc or clang as CC), linked into every driver
$(REV)/obj/%.o: $(REV)/pb/.stamp $(wildcard rt/*.h) test/reverse/alloc.h
	@mkdir -p $(@D)
	$(CC) $(REV_CFLAGS) $(SAN_OPT) $(SAN) -I$(REV)/pb -c -o $@ $(REV)/pb/$*.pb.c
REV_OBJS := $(REV_PB_NAMES:%=$(REV)/obj/%.o)
.SECONDARY: $(REV_OBJS)

# batch types: parity's schemas (p_<schema>) and test/reverse/batches.proto's (r_<Name>: rev.<Name>Batch of ITEM)
REV_ITEM_Mixed    := rev_Mixed
REV_ITEM_Kinds    := pbjtest_Kinds
REV_ITEM_Kinds2   := pbjtest2_Item
REV_ITEM_Opts     := pbjopts_Root
REV_ITEM_P2       := p2_Root
REV_ITEM_Defaults := p2_Defaults
REV_ITEM_Set      := p2_HasSet
REV_ITEM_Cycle    := rev_CycleA
REV_OWN := Mixed Kinds Kinds2 Opts P2 Defaults Set Cycle

$(REV)/driver_p_%: test/reverse/driver.c test/reverse/alloc.c $(REV_OBJS)
	$(CC) $(REV_CFLAGS) $(SAN_OPT) $(SAN) -I$(REV)/pb -DREV_HEADER='"$*.pb.h"' -DBATCH=parity_$*_Batch \
	  -DITEM=parity_$*_$(PARITY_ITEM_$*) -o $@ $< test/reverse/alloc.c $(REV_OBJS)
$(REV)/driver_r_%: test/reverse/driver.c test/reverse/alloc.c $(REV_OBJS)
	$(CC) $(REV_CFLAGS) $(SAN_OPT) $(SAN) -I$(REV)/pb -DREV_HEADER='"batches.pb.h"' -DBATCH=rev_$*Batch \
	  -DITEM=$(REV_ITEM_$*) -o $@ $< test/reverse/alloc.c $(REV_OBJS)

# the block stream: hapi's objects shared with views and writers (test/hapi.mk: --fast-write, -O0, no sanitizers)
$(REV)/hapi_hooks.o: test/hapi/hooks.c test/hapi/alloc.h
	@mkdir -p $(@D)
	$(call hapi_hooks,$@,rev_malloc,rev_free)
$(REV)/driver_hapi: test/reverse/driver.c test/reverse/alloc.c $(REV)/hapi_hooks.o $(HAPI_ALL_UNITS) test/reverse/alloc.h
	$(CC) $(REV_CFLAGS) -O0 -I$(HAPI_ALL) -DREV_HEADER='"hapi.pb.h"' -DBATCH=parity_hapi_Batch \
	  -DITEM=com_hedera_hapi_block_stream_Block -o $@ $< test/reverse/alloc.c $(REV)/hapi_hooks.o $(HAPI_ALL_UNITS)

# rt/pbj_rbuf.h alone
$(REV)/rbuf_test: test/reverse/rbuf_test.c test/reverse/alloc.c $(wildcard rt/*.h) test/reverse/alloc.h
	@mkdir -p $(@D)
	$(CC) $(REV_CFLAGS) $(SAN_OPT) $(SAN) -o $@ $< test/reverse/alloc.c

# required fields (test/reverse/batches.proto's Mixed holding a Slow)
$(REV)/required_test: test/reverse/required_test.c test/reverse/alloc.c $(REV_OBJS)
	$(CC) $(REV_CFLAGS) $(SAN_OPT) $(SAN) -I$(REV)/pb -o $@ $< test/reverse/alloc.c $(REV_OBJS)

.PHONY: check-reverse check-reverse-rbuf check-reverse-schemas check-reverse-hapi check-reverse-forward
check-reverse-rbuf: $(REV)/rbuf_test $(REV)/required_test
	$(REV)/rbuf_test
	$(REV)/required_test

check-reverse-schemas: $(PARITY)/gen $(PARITY_SCHEMAS:%=$(REV)/driver_p_%) $(REV_OWN:%=$(REV)/driver_r_%) | deps
	set -e; for s in $(PARITY_SCHEMAS); do \
	  B=$(B) test/reverse/run.sh p_$$s test/parity/schemas/$$s.proto parity.$$s.Batch \
	    $(or $(PARITY_COUNT_$$s),$(REV_COUNT)) $(REV_SEED); done
	set -e; for s in $(REV_OWN); do \
	  B=$(B) REV_ROOTS="test/reverse test/gen/proto" test/reverse/run.sh r_$$s test/reverse/batches.proto \
	    rev.$${s}Batch $(REV_COUNT) $(REV_SEED); done

ifneq ($(CORPUS_FOUND),)
check-reverse-hapi: $(PARITY)/gen $(REV)/driver_hapi | deps
	B=$(B) REV_ROOTS="$(PARITY_HAPI_ROOTS)" REV_GEN_FLAGS="-d 16 -m 300" REV_REAL=$(CORPUS_BLOCK) \
	  test/reverse/run.sh hapi test/parity/corpus/hapi.proto parity.hapi.Batch 1000 $(REV_SEED)
else
check-reverse-hapi:
	$(call corpus_skip,$@)
endif

# the golden cases' messages, generated with --fast-write: M_encode's forward walk (pbj__encode_forward) against the
# size pass, in buffers of every size (test/reverse/forward.sh, forward.c); every message forward, however short
check-reverse-forward: pbjc | deps
	test/reverse/forward.sh ./pbjc $(REV)/forward $(CC) -std=c11 $(WARN) -Werror -g -Irt -O1 $(SAN) -DPBJ__FORWARD_WINDOW=0

check-reverse: check-reverse-rbuf check-reverse-schemas check-reverse-hapi check-reverse-forward

CHECKS += check-reverse
