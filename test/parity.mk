# test/parity.mk: parity with protoc: text primitives, generated code on random canonical,
# non-canonical and malformed messages (see test/parity/README.md).
PARITY := $(B)/parity
PARITY_CFLAGS = -std=c11 $(WARN) -Werror -O1 -g -Irt -Itest/parity

# pbj_text.h's primitives against protoc --decode, under ASan+UBSan.
$(PARITY)/text_test: test/parity/text_test.c test/parity/wire.h rt/pbj_text.h | deps
	@mkdir -p $(@D)
	$(CC) $(PARITY_CFLAGS) $(SAN) -o $@ $< -lcmocka -lm

.PHONY: check-parity-text
check-parity-text: $(PARITY)/text_test
	$(PARITY)/text_test

CHECKS += check-parity-text

# ---- generated code against protoc, per schema ----------------------------------------
PARITY_SCHEMAS := scalars maps nesting wrappers wkt unknown proto2 byvalue
PARITY_COUNT   ?= 2000
PARITY_SEED    ?= 1
# each schema's batch item message (the batch is parity.<schema>.Batch)
PARITY_ITEM_scalars  := Scalars
PARITY_ITEM_maps     := Maps
PARITY_ITEM_nesting  := Root
PARITY_ITEM_wrappers := Wrapped
PARITY_ITEM_wkt      := Known
PARITY_ITEM_unknown  := Known
PARITY_ITEM_proto2   := Item
PARITY_ITEM_byvalue  := Item
# proto2's Item nests up to 100 messages (its fields are all written when set): fewer items
PARITY_COUNT_proto2  := 300
# the well-known types the schemas import, linked into every driver
PARITY_WKT   := wrappers any duration empty field_mask struct timestamp
PARITY_WKT_O  = $(PARITY_WKT:%=$(PARITY)/obj/google/protobuf/%.o)
PARITY_SAN_CFLAGS = -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -Irt -I$(PARITY)/pb -Itest/parity

# the random-message generator: pbjc's front end, walking the IR
$(PARITY)/gen: test/parity/gen.c test/parity/wire.h $(PBJC_LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PBJC_CPPFLAGS) -o $@ $< $(PBJC_LIB_OBJS) $(PBJC_LIBS)

# generated code of every schema (and of the wrappers they import)
$(PARITY)/pb/.stamp: pbjc $(wildcard test/parity/schemas/*.proto)
	@mkdir -p $(@D)
	./pbjc -I test/parity/schemas -o $(PARITY)/pb $(wildcard test/parity/schemas/*.proto)
	./pbjc -I /usr/include -o $(PARITY)/pb $(PARITY_WKT:%=/usr/include/google/protobuf/%.proto)
	@touch $@

# each generated file compiled once, with ASan+UBSan; generated code must compile with -Werror
$(PARITY)/obj/%.o: $(PARITY)/pb/.stamp $(wildcard rt/*.h)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SAN_CFLAGS) -c -o $@ $(PARITY)/pb/$*.pb.c

# one driver per schema (its objects kept for the next run)
.SECONDARY: $(PARITY_WKT_O) $(PARITY_SCHEMAS:%=$(PARITY)/obj/%.o)
$(PARITY)/driver_%: test/parity/driver.c test/parity/wire.h $(PARITY)/obj/%.o $(PARITY_WKT_O)
	$(CC) $(PARITY_SAN_CFLAGS) -DPARITY_HEADER='"$*.pb.h"' -DBATCH=parity_$*_Batch -DITEM=parity_$*_$(PARITY_ITEM_$*) \
	  -o $@ $< $(PARITY)/obj/$*.o $(PARITY_WKT_O)

.PHONY: check-parity $(PARITY_SCHEMAS:%=check-parity-%)
# schemas where a mutation cannot reach one of pbj's departures from protoc (see README)
PARITY_ACCEPTED := scalars unknown

$(PARITY_SCHEMAS:%=check-parity-%): check-parity-%: $(PARITY)/gen $(PARITY)/driver_% | deps
	B=$(B) PARITY_ACCEPTED=$(filter $*,$(PARITY_ACCEPTED)) test/parity/run.sh $* $(or $(PARITY_COUNT_$*),$(PARITY_COUNT)) $(PARITY_SEED)

# ---- a real schema: random Blocks of the block stream (the corpus) ------------------------
# Its 128 generated files are built at -O0 without sanitizers (with them the build alone
# takes minutes), in two units built side by side; the malformed-input step still runs,
# catching crashes.
PARITY_HAPI_ROOTS := test/parity/corpus $(CORPUS_HAPI)/services $(CORPUS_HAPI)/block \
                     $(CORPUS_HAPI)/platform $(CORPUS_HAPI)/streams
PARITY_HAPI_PB    := $(PARITY)/hapi
PARITY_HAPI_UNITS := 1 2

# hapi.proto and every file it imports (pbjc -M lists them); the units share the .pb.c files out
$(PARITY_HAPI_PB)/.stamp: pbjc test/parity/corpus/hapi.proto
	rm -rf $(PARITY_HAPI_PB) && mkdir -p $(PARITY_HAPI_PB)
	./pbjc -M $(PARITY_HAPI_ROOTS:%=-I %) -I /usr/include -o $(PARITY_HAPI_PB) test/parity/corpus/hapi.proto \
	  | tr -d '\\' | tr ' ' '\n' | grep '\.proto$$' > $(PARITY_HAPI_PB)/inputs
	./pbjc $(PARITY_HAPI_ROOTS:%=-I %) -I /usr/include -o $(PARITY_HAPI_PB) $$(cat $(PARITY_HAPI_PB)/inputs) \
	  2>$(PARITY_HAPI_PB)/pbjc.err || { cat $(PARITY_HAPI_PB)/pbjc.err; exit 1; }   # unused-import warnings kept out
	cd $(PARITY_HAPI_PB) && find . -name '*.pb.c' | LC_ALL=C sort | \
	  awk '{ print "#include \"" substr($$0, 3) "\"" > ("unit_" (NR % $(words $(PARITY_HAPI_UNITS)) + 1) ".c") }'
	@touch $@

$(PARITY_HAPI_PB)/unit_%.o: $(PARITY_HAPI_PB)/.stamp $(wildcard rt/*.h)
	$(CC) -std=c11 $(WARN) -Werror -O0 -DPBJ__RUN_SHARED=0 -Irt -I$(PARITY_HAPI_PB) -c -o $@ $(PARITY_HAPI_PB)/unit_$*.c

$(PARITY)/driver_hapi: test/parity/driver.c test/parity/wire.h $(PARITY_HAPI_UNITS:%=$(PARITY_HAPI_PB)/unit_%.o)
	$(CC) -std=c11 $(WARN) -Werror -O0 -Irt -I$(PARITY_HAPI_PB) -Itest/parity \
	  -DPARITY_HEADER='"hapi.pb.h"' -DBATCH=parity_hapi_Batch -DITEM=com_hedera_hapi_block_stream_Block \
	  -o $@ $< $(PARITY_HAPI_UNITS:%=$(PARITY_HAPI_PB)/unit_%.o)

.PHONY: check-parity-hapi
ifneq ($(CORPUS_FOUND),)
check-parity-hapi: $(PARITY)/gen $(PARITY)/driver_hapi | deps
	B=$(B) PARITY_ROOTS="$(PARITY_HAPI_ROOTS)" PARITY_GEN_FLAGS="-d 16 -m 300" PARITY_REAL=$(CORPUS_BLOCK) \
	  test/parity/run.sh hapi 6000 $(PARITY_SEED)
else
check-parity-hapi:
	$(call corpus_skip,$@)
endif

# ---- the same schemas generated with --performance=size: size, encode, decode walk the tables ----------
PARITY_SIZE := $(B)/parity-size
PARITY_SIZE_COUNT ?= 300   # fewer than the default tier's: the walker has no per-schema code to cover
PARITY_SIZE_WKT_O = $(PARITY_WKT:%=$(PARITY_SIZE)/obj/google/protobuf/%.o)
PARITY_SIZE_CFLAGS = $(subst -I$(PARITY)/pb,-I$(PARITY_SIZE)/pb,$(PARITY_SAN_CFLAGS))

$(PARITY_SIZE)/pb/.stamp: pbjc $(wildcard test/parity/schemas/*.proto)
	@mkdir -p $(@D)
	./pbjc --performance=size -I test/parity/schemas -o $(PARITY_SIZE)/pb $(wildcard test/parity/schemas/*.proto)
	./pbjc --performance=size -I /usr/include -o $(PARITY_SIZE)/pb $(PARITY_WKT:%=/usr/include/google/protobuf/%.proto)
	@touch $@

$(PARITY_SIZE)/obj/%.o: $(PARITY_SIZE)/pb/.stamp $(wildcard rt/*.h)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SIZE_CFLAGS) -c -o $@ $(PARITY_SIZE)/pb/$*.pb.c

.SECONDARY: $(PARITY_SIZE_WKT_O) $(PARITY_SCHEMAS:%=$(PARITY_SIZE)/obj/%.o)
$(PARITY_SIZE)/driver_%: test/parity/driver.c test/parity/wire.h $(PARITY_SIZE)/obj/%.o $(PARITY_SIZE_WKT_O)
	$(CC) $(PARITY_SIZE_CFLAGS) -DPARITY_HEADER='"$*.pb.h"' -DBATCH=parity_$*_Batch -DITEM=parity_$*_$(PARITY_ITEM_$*) \
	  -o $@ $< $(PARITY_SIZE)/obj/$*.o $(PARITY_SIZE_WKT_O)

.PHONY: $(PARITY_SCHEMAS:%=check-parity-size-%)
$(PARITY_SCHEMAS:%=check-parity-size-%): check-parity-size-%: $(PARITY)/gen $(PARITY_SIZE)/driver_% $(PARITY)/driver_% | deps
	B=$(B) PARITY_DRIVER=$(PARITY_SIZE)/driver_$* PARITY_TWIN=$(PARITY)/driver_$* PARITY_ACCEPTED=$(filter $*,$(PARITY_ACCEPTED)) \
	  test/parity/run.sh $* $(PARITY_SIZE_COUNT) $(PARITY_SEED)

check-parity: check-parity-text $(PARITY_SCHEMAS:%=check-parity-%) check-parity-hapi $(PARITY_SCHEMAS:%=check-parity-size-%)

CHECKS += $(PARITY_SCHEMAS:%=check-parity-%) check-parity-hapi $(PARITY_SCHEMAS:%=check-parity-size-%)
