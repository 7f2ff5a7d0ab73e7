# test/views.mk: views (pbj.views) against decode: every message of the parity schemas read through views
# prints what its decoded struct prints (random canonical and unknown-field batches), truncations and
# mutations under ASan+UBSan, no allocation (test/views/driver.c counts PBJ_MALLOC).
VIEWS       := $(B)/views
VIEWS_COUNT ?= 300
VIEWS_SEED  ?= 1
VIEWS_WKT_C  = $(PARITY_WKT:%=$(VIEWS)/pb/google/protobuf/%.pb.c)

# every schema and the well-known types in one run: the views closure reaches them
$(VIEWS)/pb/.stamp: pbjc $(wildcard test/parity/schemas/*.proto)
	@mkdir -p $(@D)
	./pbjc --views -I test/parity/schemas -I /usr/include -o $(VIEWS)/pb $(wildcard test/parity/schemas/*.proto) \
	  $(PARITY_WKT:%=/usr/include/google/protobuf/%.proto)
	@touch $@

$(VIEWS)/driver_%: test/views/driver.c $(VIEWS)/pb/.stamp $(wildcard rt/*.h)
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -Irt -I$(VIEWS)/pb \
	  -DVIEWS_HEADER='"$*.pb.h"' -DBATCH=parity_$*_Batch -DITEM=parity_$*_$(PARITY_ITEM_$*) \
	  -o $@ $< $(VIEWS)/pb/$*.pb.c $(VIEWS_WKT_C)

.PHONY: check-views $(PARITY_SCHEMAS:%=check-views-%)
$(PARITY_SCHEMAS:%=check-views-%): check-views-%: $(PARITY)/gen $(VIEWS)/driver_% | deps
	@mkdir -p $(VIEWS)/run
	$(PARITY)/gen -I test/parity/schemas test/parity/schemas/$*.proto parity.$*.Batch canonical \
	  $(or $(PARITY_COUNT_$*),$(VIEWS_COUNT)) $(VIEWS_SEED) $(VIEWS)/run/$*.can
	$(VIEWS)/driver_$* parity $(VIEWS)/run/$*.can.bin
	$(PARITY)/gen -I test/parity/schemas test/parity/schemas/$*.proto parity.$*.Batch unknown \
	  $(or $(PARITY_COUNT_$*),$(VIEWS_COUNT)) $(VIEWS_SEED) $(VIEWS)/run/$*.unk
	$(VIEWS)/driver_$* parity $(VIEWS)/run/$*.unk.bin
	$(VIEWS)/driver_$* malformed $(VIEWS)/run/$*.can.bin 20 $(VIEWS_SEED)

# views reaching a file the run does not generate: the error names it; given the file, the run succeeds
.PHONY: check-views-closure
check-views-closure: pbjc
	@mkdir -p $(VIEWS)/closure
	cd test/views/closure && ! $(CURDIR)/pbjc -o $(CURDIR)/$(VIEWS)/closure root.proto 2> $(CURDIR)/$(VIEWS)/closure/got.err
	diff -u test/views/closure/expected.err $(VIEWS)/closure/got.err
	cd test/views/closure && $(CURDIR)/pbjc -o $(CURDIR)/$(VIEWS)/closure root.proto leaf.proto

# extension accessors on views against decode and the struct's accessors (random records of three proto2 schemas,
# truncations, mutations), and oneof members written in a row: test/views/units.c under ASan+UBSan
VIEWS_UNITS := $(VIEWS)/units
VIEWS_UNITS_PROTOS := test/golden/extensions/extensions.proto test/golden/message_set/message_set.proto test/views/ext/more.proto \
  test/parity/schemas/scalars.proto test/views/ext/foreign_base.proto test/views/ext/foreign_ext.proto

$(VIEWS_UNITS)/.stamp: pbjc $(VIEWS_UNITS_PROTOS)
	@mkdir -p $(@D)
	./pbjc --views -I test/golden/extensions -I test/golden/message_set -I test/views/ext -I test/parity/schemas -o $(VIEWS_UNITS) $(VIEWS_UNITS_PROTOS)
	@touch $@

$(VIEWS_UNITS)/units: test/views/units.c test/parity/wire.h $(VIEWS_UNITS)/.stamp $(wildcard rt/*.h)
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -Irt -Itest/parity -I$(VIEWS_UNITS) -o $@ $< \
	  $(VIEWS_UNITS)/extensions.pb.c $(VIEWS_UNITS)/message_set.pb.c $(VIEWS_UNITS)/more.pb.c $(VIEWS_UNITS)/scalars.pb.c \
	  $(VIEWS_UNITS)/foreign_base.pb.c $(VIEWS_UNITS)/foreign_ext.pb.c

.PHONY: check-views-units
check-views-units: $(VIEWS_UNITS)/units
	$(VIEWS_UNITS)/units extensions $(VIEWS_COUNT) $(VIEWS_SEED)
	$(VIEWS_UNITS)/units oneofs

# views refuse nesting (messages, groups in unknown fields) and read 10-byte varints as decode does: test/views/limits.c
# (nesting.pb.c without its run's home: a static copy of the runtime, PBJ__RUN_SHARED 0)
# (and test/views/depth.proto's, in a run of its own)
$(VIEWS)/depth/.stamp: pbjc test/views/depth.proto
	@mkdir -p $(@D)
	./pbjc --views -I test/views -I /usr/include -o $(@D) depth.proto google/protobuf/wrappers.proto
	@touch $@

$(VIEWS)/limits: test/views/limits.c $(VIEWS)/pb/.stamp $(VIEWS)/depth/.stamp $(wildcard rt/*.h)
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -DPBJ__RUN_SHARED=0 -Irt -I$(VIEWS)/pb -I$(VIEWS)/depth -o $@ $< \
	  $(VIEWS)/pb/nesting.pb.c $(VIEWS)/depth/depth.pb.c $(VIEWS)/depth/google/protobuf/wrappers.pb.c

.PHONY: check-views-limits
check-views-limits: $(VIEWS)/limits
	$(VIEWS)/limits

check-views: check-views-closure check-views-units check-views-limits $(PARITY_SCHEMAS:%=check-views-%)
CHECKS += check-views

# hapi's objects are shared with reverse and writers (test/hapi.mk: -O0 without sanitizers: with them this
# one compile took 356 s of CI's CPU); the parity schemas' malformed steps run the same view code under
# ASan+UBSan.
$(VIEWS)/hapi_hooks.o: test/hapi/hooks.c test/hapi/alloc.h
	@mkdir -p $(@D)
	$(call hapi_hooks,$@,malloc,free)
$(VIEWS)/driver_hapi: test/views/driver.c $(VIEWS)/hapi_hooks.o $(HAPI_ALL_UNITS)
	$(CC) -std=c11 $(WARN) -Werror -O0 -Irt -I$(HAPI_ALL) \
	  -DVIEWS_HEADER='"hapi.pb.h"' -DBATCH=parity_hapi_Batch -DITEM=com_hedera_hapi_block_stream_Block \
	  -o $@ $< $(VIEWS)/hapi_hooks.o $(HAPI_ALL_UNITS)

.PHONY: check-views-hapi
ifneq ($(CORPUS_FOUND),)
check-views-hapi: $(PARITY)/gen $(VIEWS)/driver_hapi | deps
	@mkdir -p $(VIEWS)/run
	$(PARITY)/gen $(PARITY_HAPI_ROOTS:%=-I %) -d 16 -m 300 test/parity/corpus/hapi.proto parity.hapi.Batch canonical \
	  1000 $(VIEWS_SEED) $(VIEWS)/run/hapi.can
	$(VIEWS)/driver_hapi parity $(VIEWS)/run/hapi.can.bin
	$(PARITY)/gen $(PARITY_HAPI_ROOTS:%=-I %) -d 16 -m 300 test/parity/corpus/hapi.proto parity.hapi.Batch unknown \
	  1000 $(VIEWS_SEED) $(VIEWS)/run/hapi.unk
	$(VIEWS)/driver_hapi parity $(VIEWS)/run/hapi.unk.bin
	$(VIEWS)/driver_hapi malformed $(VIEWS)/run/hapi.can.bin 5 $(VIEWS_SEED)
	gzip -dc $(CORPUS_BLOCK) > $(VIEWS)/run/real.item
	$(PARITY)/gen wrap $(VIEWS)/run/real.item $(VIEWS)/run/real.bin
	$(VIEWS)/driver_hapi parity $(VIEWS)/run/real.bin
else
check-views-hapi:
	$(call corpus_skip,$@)
endif

check-views: check-views-hapi
