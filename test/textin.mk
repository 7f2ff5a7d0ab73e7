# test/textin.mk: text-format reading (M_from_text, rt/pbj_text_read.h), under ASan+UBSan: (a) each parity schema's
# random batch printed by M_print reads back M_equal and to the same bytes; (b) protoc --encode of that text gives
# those bytes; (c) test/textin/corpus: protoc's less common forms read to protoc --encode's bytes, and malformed
# inputs fail with the errors of test/textin/errors.golden (protoc rejecting each too).
TEXTIN := $(B)/textin
TEXTIN_SCHEMAS := scalars maps nesting wrappers wkt unknown proto2 byvalue

$(TEXTIN)/driver_%: test/textin/driver.c test/parity/wire.h $(B)/parity/obj/%.o $(PARITY_WKT_O)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SAN_CFLAGS) -DPARITY_HEADER='"$*.pb.h"' -DBATCH=parity_$*_Batch -DITEM=parity_$*_$(PARITY_ITEM_$*) \
	  -o $@ $< $(B)/parity/obj/$*.o $(PARITY_WKT_O)

.PHONY: check-textin $(TEXTIN_SCHEMAS:%=check-textin-%)
$(TEXTIN_SCHEMAS:%=check-textin-%): check-textin-%: $(PARITY)/gen $(TEXTIN)/driver_% | deps
	@mkdir -p $(TEXTIN)/run
	$(PARITY)/gen -I test/parity/schemas $(if $(filter proto2,$*),-d 100) test/parity/schemas/$*.proto parity.$*.Batch \
	  canonical $(if $(filter proto2,$*),300,1000) 1 $(TEXTIN)/run/$*
	$(TEXTIN)/driver_$* $(TEXTIN)/run/$*.bin $(TEXTIN)/run/$*.txt $(TEXTIN)/run/$*.pbj.bin
	protoc -I test/parity/schemas --encode=parity.$*.Batch $*.proto < $(TEXTIN)/run/$*.txt > $(TEXTIN)/run/$*.protoc.bin \
	  2>$(TEXTIN)/run/$*.protoc.err || { tail -3 $(TEXTIN)/run/$*.protoc.err; exit 1; }
	cmp $(TEXTIN)/run/$*.pbj.bin $(TEXTIN)/run/$*.protoc.bin
	@echo "textin $*: protoc --encode of the text gives M_from_text's bytes"

# text nested around max_depth: accepted exactly where binary decode accepts it (test/jsonin/depth.c, built by jsonin.mk)
.PHONY: check-textin-depth
check-textin-depth: $(B)/jsonin/depth
	$(B)/jsonin/depth text

check-textin: $(TEXTIN_SCHEMAS:%=check-textin-%) check-textin-depth

CHECKS += check-textin

# (c) the corpus schema's generated code (with any.proto's), its driver, and test/textin/run.sh
TEXTIN_PB := $(TEXTIN)/corpus
$(TEXTIN_PB)/.stamp: pbjc test/textin/corpus.proto test/textin/open.proto
	rm -rf $(@D) && mkdir -p $(@D)
	./pbjc -I test/textin -I /usr/include -o $(@D) test/textin/corpus.proto test/textin/open.proto \
	  /usr/include/google/protobuf/any.proto
	@touch $@

$(TEXTIN)/corpus_driver: test/textin/corpus.c $(TEXTIN_PB)/.stamp $(wildcard rt/*.h) | deps
	$(CC) $(PARITY_SAN_CFLAGS) -I$(TEXTIN_PB) -o $@ $< $(TEXTIN_PB)/corpus.pb.c $(TEXTIN_PB)/open.pb.c \
	  $(TEXTIN_PB)/google/protobuf/any.pb.c -lm

.PHONY: check-textin-corpus
check-textin-corpus: $(TEXTIN)/corpus_driver | deps
	test/textin/run.sh $(TEXTIN)/corpus_driver $(TEXTIN)/run/corpus

check-textin: check-textin-corpus

# fuzz_text: a libFuzzer target beside test/fuzz's (M_from_text of the corpus schema's code; seeds: the corpus). It
# joins make fuzz and check-fuzz through test/fuzz.mk's FUZZ_TARGETS.
$(FUZZ)/fuzz_text: test/fuzz/fuzz_text.c $(TEXTIN_PB)/.stamp $(wildcard rt/*.h) | deps
	@mkdir -p $(@D)
	$(FUZZ_CC) -fsanitize=fuzzer -Irt -I$(TEXTIN_PB) -o $@ $< $(TEXTIN_PB)/corpus.pb.c $(TEXTIN_PB)/open.pb.c \
	  $(TEXTIN_PB)/google/protobuf/any.pb.c -lm

FUZZ_DICT_text  := test/fuzz/text.dict
FUZZ_SEEDS_text := test/textin/corpus
