# test/writers.mk: the generated writers (pbj.writers) against the structs' encoder, per schema, under
# ASan+UBSan (hapi at -O0 without them, as check-parity-hapi builds it), and their unit tests.
WRITERS := $(B)/writers
WRITERS_SAN := $(SAN_OPT) -g $(SAN)

$(WRITERS)/replay_gen: test/writers/replay_gen.c $(PBJC_LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PBJC_CPPFLAGS) -o $@ $< $(PBJC_LIB_OBJS) $(PBJC_LIBS)

WRITERS_DEPS := pbjc $(WRITERS)/replay_gen $(PARITY)/gen test/writers/run.sh test/writers/driver.c test/writers/replay.h \
                test/writers/count.h $(wildcard rt/*.h)
WRITERS_PARITY := $(PARITY_SCHEMAS)

.PHONY: check-writers check-writers-unit check-writers-hapi $(WRITERS_PARITY:%=check-writers-%) check-writers-w3

check-writers-w3: $(WRITERS_DEPS) | deps
	B=$(B) test/writers/run.sh w3 test/writers/w3.proto w3_All 300 1 "$(WRITERS_SAN)" test/writers

$(WRITERS_PARITY:%=check-writers-%): check-writers-%: $(WRITERS_DEPS) | deps
	B=$(B) GEN_FLAGS="$(if $(filter proto2,$*),-d 100)" test/writers/run.sh $* test/parity/schemas/$*.proto \
	  parity_$*_$(PARITY_ITEM_$*) $(if $(filter proto2,$*),100,300) 1 "$(WRITERS_SAN)" test/parity/schemas

ifneq ($(CORPUS_FOUND),)
# hapi's objects are shared with reverse and views (test/hapi.mk: -O0, no sanitizers)
$(WRITERS)/hapi_hooks.o: test/hapi/hooks.c test/hapi/alloc.h
	@mkdir -p $(@D)
	$(call hapi_hooks,$@,wtest_malloc,wtest_free)
check-writers-hapi: $(WRITERS_DEPS) $(WRITERS)/hapi_hooks.o $(HAPI_ALL_UNITS) | deps
	B=$(B) GEN_FLAGS="-d 16 -m 300" PB_DIR=$(HAPI_ALL) PB_OBJS="$(WRITERS)/hapi_hooks.o $(HAPI_ALL_UNITS)" \
	  test/writers/run.sh hapi test/parity/corpus/hapi.proto \
	  com_hedera_hapi_block_stream_Block 300 1 "-O0" $(PARITY_HAPI_ROOTS)
else
check-writers-hapi:
	$(call corpus_skip,$@)
endif

check-writers: check-writers-w3 $(WRITERS_PARITY:%=check-writers-%) check-writers-hapi

CHECKS += check-writers

# the rules one by one (test/writers/unit.c) on w3.proto and w2.proto, and pbjc's errors: a closure
# reaching a file not generated, a writer name two declarations give
$(WRITERS)/unit/.stamp: pbjc test/writers/w3.proto test/writers/w2.proto
	rm -rf $(@D) && mkdir -p $(@D)
	./pbjc --writers -I test/writers -I /usr/include -o $(@D) test/writers/w3.proto test/writers/w2.proto \
	  /usr/include/google/protobuf/wrappers.proto
	@touch $@

# test_deepest nests PBJ_WRITER_DEPTH writers and a struct below them, deeper than the walks (size, writer_from)
# take by default: the unit's generated code is compiled with PBJ_MAX_ENCODE_DEPTH raised to match
$(WRITERS)/unit/unit: test/writers/unit.c $(WRITERS)/unit/.stamp $(wildcard rt/*.h)
	$(CC) -std=c11 $(WARN) -Werror $(WRITERS_SAN) -DPBJ_WRITER_DEPTH=128 -DPBJ_MAX_ENCODE_DEPTH='(PBJ_WRITER_DEPTH + 1)' -Irt -I$(@D) -o $@ $< \
	  $(@D)/w3.pb.c $(@D)/w2.pb.c \
	  $(@D)/google/protobuf/wrappers.pb.c

# the same source at gcc -Os, where the writers' ends are inlined into a top-level end: no warning there either
$(WRITERS)/unit/unit-Os.o: test/writers/unit.c $(WRITERS)/unit/.stamp $(wildcard rt/*.h)
	$(CC) -std=c11 $(WARN) -Werror -Os -DPBJ_WRITER_DEPTH=128 -DPBJ_MAX_ENCODE_DEPTH='(PBJ_WRITER_DEPTH + 1)' -Irt -I$(@D) -c -o $@ $<

check-writers-unit: $(WRITERS)/unit/unit $(WRITERS)/unit/unit-Os.o pbjc
	$(WRITERS)/unit/unit
	sh test/writers/errors.sh $(WRITERS)/unit

check-writers: check-writers-unit
