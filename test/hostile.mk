# test/hostile.mk: schemas built to make the compiler slow or big (issue 14 item 8).
# check-hostile: duplicates found by sorting report what the quadratic scan reported
# (dups3.expected), and 100,000 fields or enum values check within a memory bound (they took
# 18 GB); generated print, equal, copy, merge, sort_maps, encode and missing on hand-built chains and cycles (deep_test.c, under
# ASan+UBSan); TestAllTypesProto3 through each recursive operation at its depth bound in an 8 MiB stack, and one level
# past it for its status (stack_test.c, gcc and clang at -O0 with ASan+UBSan); pbjc itself under ASan+UBSan (test/descriptor's pbjc_san) writes every golden case as
# checked in (item 6: it stopped on qsort(NULL, 0) for messages with no fields or extension ranges).
# (bench/bench.mk's bench-hostile times pbjc -o beside protoc -o on such schemas.)
HOSTILE     := $(B)/hostile
HOSTILE_GEN := test/hostile/gen_schema.py
# virtual memory (KB) allowed for 100,000 enum values (once 18 GB: the old checks die at this bound; now about 70 MB
# resident), and for 100,000 fields, whose check now plans the message's code (--check reports the C name clashes -o
# would): the plan takes about 6 KB a field, 630 MB resident (bench/PERF_LOG.md)
HOSTILE_VMEM ?= 400000
HOSTILE_PLAN_VMEM ?= 1000000

$(HOSTILE)/%.proto: $(HOSTILE_GEN)
	@mkdir -p $(@D)
	$(HOSTILE_GEN) $(subst _, ,$*) $@

$(HOSTILE)/deep_test: test/hostile/deep_test.c test/hostile/deep.proto test/hostile/deep2.proto pbjc $(wildcard rt/*.h) | deps
	@mkdir -p $(@D)
	./pbjc -I test/hostile -I /usr/include -o $(HOSTILE) test/hostile/deep.proto test/hostile/deep2.proto \
	  /usr/include/google/protobuf/descriptor.proto
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -Irt -I$(HOSTILE) -o $@ $< $(HOSTILE)/deep.pb.c $(HOSTILE)/deep2.pb.c \
	  $(HOSTILE)/google/protobuf/descriptor.pb.c
# the same with pbj.fast_write and every message's M_encode forward (PBJ__FORWARD_WINDOW 0): its depth limit and its
# status on chains and cycles are the size pass's
$(HOSTILE)/deep_test_fw: test/hostile/deep_test.c test/hostile/deep.proto test/hostile/deep2.proto pbjc $(wildcard rt/*.h) | deps
	@mkdir -p $(HOSTILE)/fw
	./pbjc --fast-write -I test/hostile -I /usr/include -o $(HOSTILE)/fw test/hostile/deep.proto test/hostile/deep2.proto \
	  /usr/include/google/protobuf/descriptor.proto
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -DPBJ__FORWARD_WINDOW=0 -Irt -I$(HOSTILE)/fw -o $@ $< \
	  $(HOSTILE)/fw/deep.pb.c $(HOSTILE)/fw/deep2.pb.c $(HOSTILE)/fw/google/protobuf/descriptor.pb.c

# stack_test.c on protobuf 3.21.12's TestAllTypesProto3 (when PROTOBUF_SRC holds it: make protobuf-src), built with
# gcc and with clang at -O0 with ASan+UBSan: a chain through each recursive operation (readers, print, JSON, size and
# encode, the reverse encoder, writer_from, copy, merge, sort_maps, equal) at its bound in an 8 MiB stack, then one
# level deeper
HOSTILE_T3 := google/protobuf/test_messages_proto3.proto $(patsubst %,google/protobuf/%.proto,any duration field_mask struct timestamp wrappers)
$(HOSTILE)/t3/.stamp: pbjc
	rm -rf $(@D) && mkdir -p $(@D)
	./pbjc --fast-write --writers -I $(PROTOBUF_SRC) -o $(@D) $(HOSTILE_T3)
	@touch $@
$(HOSTILE)/stack_test_%: test/hostile/stack_test.c $(HOSTILE)/t3/.stamp $(wildcard rt/*.h) | deps
	$* -std=c11 $(WARN) -Werror -O0 -g $(SAN) -D_DEFAULT_SOURCE -Irt -I$(HOSTILE)/t3 -I$(HOSTILE)/t3/google/protobuf \
	  -o $@ $< $(HOSTILE)/t3/google/protobuf/*.pb.c -lpthread

.PHONY: check-hostile-stack
check-hostile-stack:
	@if [ -d "$(PROTOBUF_SRC)/google/protobuf" ]; then \
	  $(MAKE) --no-print-directory $(HOSTILE)/stack_test_gcc $(HOSTILE)/stack_test_clang && \
	  $(HOSTILE)/stack_test_gcc && $(HOSTILE)/stack_test_clang; \
	else echo "check-hostile-stack: skipped: $(PROTOBUF_SRC) not found (make protobuf-src fetches it)"; fi


# no default memory cap refuses a valid message; max_memory refuses exactly past its bytes (memory_test.c)
$(HOSTILE)/memory_test: test/hostile/memory_test.c $(HOSTILE)/deep_test
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -Irt -I$(HOSTILE) -o $@ $< $(HOSTILE)/google/protobuf/descriptor.pb.c

.PHONY: check-hostile
check-hostile: pbjc $(HOSTILE)/fields_100000.proto $(HOSTILE)/enum_100000.proto $(HOSTILE)/deep_test $(HOSTILE)/deep_test_fw $(HOSTILE)/memory_test $(DESC)/pbjc_san check-hostile-stack
	$(HOSTILE)/deep_test
	$(HOSTILE)/deep_test_fw
	$(HOSTILE)/memory_test
	test/golden/run.sh check $(DESC)/pbjc_san $(HOSTILE)/golden-san >$(HOSTILE)/golden-san.log 2>&1 || \
	  { tail -30 $(HOSTILE)/golden-san.log; echo "FAIL hostile: pbjc under ASan+UBSan"; exit 1; }
	./pbjc --check -I test/hostile test/hostile/dups3.proto 2>&1 | grep -E ': (error|warning):' | \
	  diff -u test/hostile/dups3.expected -
	for f in fields_100000:$(HOSTILE_PLAN_VMEM) enum_100000:$(HOSTILE_VMEM); do \
	  (ulimit -v $${f#*:}; ./pbjc --check -I $(HOSTILE) $(HOSTILE)/$${f%:*}.proto) || \
	  { echo "FAIL hostile: $${f%:*}.proto does not check within $${f#*:} KB"; exit 1; }; \
	done
	@echo "hostile: duplicates as before; 100,000 fields within $(HOSTILE_PLAN_VMEM) KB and 100,000 enum values within $(HOSTILE_VMEM) KB; pbjc clean under ASan+UBSan on the golden cases"

CHECKS += check-hostile
