# test/json.mk: M_to_json against python protobuf's json_format (MessageToJson, /usr/bin/python3 with
# python3-protobuf 4.21) on random canonical items of every parity schema (test/parity.mk builds the
# generator and the schemas' objects), with the default options and with proto names and defaults.
# Numbers are compared as values (see test/json/oracle.py for where the two may spell them differently).
JSON_T := $(B)/json
JSON_COUNT ?= 300
# parity.mk comes after this file: its names are spelled here for the prerequisites
JSON_SCHEMAS := scalars maps nesting wrappers wkt unknown proto2 byvalue
JSON_PARITY := $(B)/parity
# the well-known types the driver includes (the parity build's objects)
JSON_WKT_O := $(patsubst %,$(JSON_PARITY)/obj/google/protobuf/%.o,wrappers any duration empty field_mask struct timestamp)

$(JSON_T)/driver_%: test/json/driver.c $(JSON_PARITY)/obj/%.o $(JSON_WKT_O)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SAN_CFLAGS) -I$(PARITY)/pb -DPARITY_HEADER='"$*.pb.h"' -DBATCH=parity_$*_Batch \
	  -DITEM=parity_$*_$(PARITY_ITEM_$*) -o $@ $< $(JSON_PARITY)/obj/$*.o $(JSON_WKT_O)

$(JSON_T)/%.desc: test/parity/schemas/%.proto | deps
	@mkdir -p $(@D)
	protoc -I test/parity/schemas -I /usr/include --include_imports --descriptor_set_out=$@ $<

.PHONY: check-json $(JSON_SCHEMAS:%=check-json-%)
$(JSON_SCHEMAS:%=check-json-%): check-json-%: $(JSON_PARITY)/gen $(JSON_T)/driver_% $(JSON_T)/%.desc
	@mkdir -p $(JSON_T)/run
	$(PARITY)/gen -I test/parity/schemas test/parity/schemas/$*.proto parity.$*.Batch canonical \
	  $(or $(PARITY_COUNT_$*),$(JSON_COUNT)) $(PARITY_SEED) $(JSON_T)/run/$*
	for mode in default names_defaults; do \
	  $(JSON_T)/driver_$* $(JSON_T)/run/$*.bin $$mode >$(JSON_T)/run/$*.$$mode.jsonl && \
	  /usr/bin/python3 test/json/oracle.py $(JSON_T)/$*.desc parity.$*.Batch $(JSON_T)/run/$*.bin $$mode \
	    $(JSON_T)/run/$*.$$mode.jsonl || exit 1; done

# M_to_json of a proto2 string that is not UTF-8 (test/json/utf8.c): PBJ_ERR_UTF8, or U+FFFD with utf8_replace
$(JSON_T)/utf8: test/json/utf8.c $(JSON_PARITY)/obj/proto2.o $(JSON_WKT_O)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SAN_CFLAGS) -o $@ $^ -lm

.PHONY: check-json-utf8
check-json-utf8: $(JSON_T)/utf8
	$(JSON_T)/utf8

check-json: $(JSON_SCHEMAS:%=check-json-%) check-json-utf8
CHECKS += check-json

# proto2 extensions as "[pkg.ext]" keys: random items of test/json/schemas/ext.proto (made by test/json/ext.py,
# every extension shape, a foreign extendee, a json_name needing escapes) written by M_to_json against python's
# json_format (test/json/oracle.py), and python's JSON of them read by M_from_json (test/jsonin/driver.c) to python's bytes.
JSON_EXT := $(JSON_T)/ext
JSON_EXT_COUNT ?= 200
$(JSON_EXT)/pb/.stamp: pbjc test/json/schemas/ext.proto test/json/schemas/ext_other.proto
	@mkdir -p $(@D)
	./pbjc -I test/json/schemas -o $(@D) test/json/schemas/ext.proto test/json/schemas/ext_other.proto
	@touch $@

$(JSON_EXT)/%.o: $(JSON_EXT)/pb/.stamp $(wildcard rt/*.h)
	$(CC) $(PARITY_SAN_CFLAGS) -I$(JSON_EXT)/pb -c -o $@ $(JSON_EXT)/pb/$*.pb.c

JSON_EXT_O := $(JSON_EXT)/ext.o $(JSON_EXT)/ext_other.o $(JSON_WKT_O)
JSON_EXT_FLAGS := -I$(JSON_EXT)/pb -DPARITY_HEADER='"ext.pb.h"' -DBATCH=parity_ext_Batch -DITEM=parity_ext_Item
$(JSON_EXT)/driver_out: test/json/driver.c $(JSON_EXT_O)
	$(CC) $(PARITY_SAN_CFLAGS) $(JSON_EXT_FLAGS) -o $@ $< $(JSON_EXT_O)

$(JSON_EXT)/driver_in: test/jsonin/driver.c $(JSON_EXT_O)
	$(CC) $(PARITY_SAN_CFLAGS) $(JSON_EXT_FLAGS) -o $@ $< $(JSON_EXT_O) -lm

$(JSON_EXT)/ext.desc: test/json/schemas/ext.proto test/json/schemas/ext_other.proto | deps
	@mkdir -p $(@D)
	protoc -I test/json/schemas --include_imports --descriptor_set_out=$@ $<

.PHONY: check-json-ext
check-json-ext: $(JSON_EXT)/driver_out $(JSON_EXT)/driver_in $(JSON_EXT)/ext.desc
	/usr/bin/python3 test/json/ext.py gen $(JSON_EXT)/ext.desc $(JSON_EXT_COUNT) $(PARITY_SEED) $(JSON_EXT)/ext.bin
	for mode in default names_defaults; do \
	  $(JSON_EXT)/driver_out $(JSON_EXT)/ext.bin $$mode >$(JSON_EXT)/ext.$$mode.jsonl && \
	  /usr/bin/python3 test/json/oracle.py $(JSON_EXT)/ext.desc parity.ext.Batch $(JSON_EXT)/ext.bin $$mode \
	    $(JSON_EXT)/ext.$$mode.jsonl || exit 1; done
	/usr/bin/python3 test/json/ext.py cases $(JSON_EXT)/ext.desc $(JSON_EXT)/ext.bin $(JSON_EXT)/ext.cases
	$(JSON_EXT)/driver_in $(JSON_EXT)/ext.cases

check-json: check-json-ext

# JSON against buf 1.75 (`buf convert`, Go's protojson; installed as check-editions installs it): small random
# batches of every parity schema, of ext.proto and of hapi's Block (the corpus). pbjc's JSON of a batch equals buf's
# as values (test/json/bufcmp.py: fields and map keys in any order, numbers by value), and buf's JSON read by
# M_from_json encodes to the batch's bytes. buf reads each schema from protoc's descriptor set (editions schemas, which
# protoc 3.21 cannot read: from the .proto; their batches and ext.proto's need no fixing, they hold no Any).
JSON_BUF := $(JSON_T)/buf
JSON_BUF_COUNT ?= 40
JSON_BUF_SCHEMAS := scalars maps nesting wrappers wkt proto2
# buf_fix(name, descriptor set, batch type): the batch $(JSON_BUF)/NAME.bin made one JSON carries, NAME.fixed.bin
buf_fix = /usr/bin/python3 test/json/bufcmp.py fix $(2) $(3) $(JSON_BUF)/$(1).bin $(JSON_BUF)/$(1).fixed.bin
# buf_convert(name, buf's schema input, batch type): buf's JSON of NAME.fixed.bin, NAME.buf.json (absolute paths)
buf_convert = $(abspath $(BUF)) convert $(2) --type $(3) --from $(abspath $(JSON_BUF))/$(1).fixed.bin\#format=binpb \
	  --to $(abspath $(JSON_BUF))/$(1).buf.json\#format=json
# buf_check(name, driver, buf's schema input, batch type): the comparison of one batch, NAME.fixed.bin
buf_check = $(call buf_convert,$(1),$(3),$(4)) && $(call buf_compare,$(1),$(2))
buf_compare = $(2) tojson $(JSON_BUF)/$(1).fixed.bin >$(JSON_BUF)/$(1).ours.json && \
	/usr/bin/python3 test/json/bufcmp.py same $(JSON_BUF)/$(1).ours.json $(JSON_BUF)/$(1).buf.json && \
	$(2) fromjson $(JSON_BUF)/$(1).buf.json $(JSON_BUF)/$(1).fixed.bin

$(JSON_BUF)/driver_%: test/json/buf.c $(JSON_PARITY)/obj/%.o $(JSON_WKT_O)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SAN_CFLAGS) -DWKT -DPARITY_HEADER='"$*.pb.h"' -DBATCH=parity_$*_Batch -o $@ $< $(JSON_PARITY)/obj/$*.o \
	  $(JSON_WKT_O) -lm

$(JSON_BUF)/driver_ext: test/json/buf.c $(JSON_EXT_O)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SAN_CFLAGS) -DWKT $(JSON_EXT_FLAGS) -o $@ $< $(JSON_EXT_O) -lm

.PHONY: check-json-buf $(JSON_BUF_SCHEMAS:%=check-json-buf-%) check-json-buf-ext check-json-buf-hapi
$(JSON_BUF_SCHEMAS:%=check-json-buf-%): check-json-buf-%: $(JSON_PARITY)/gen $(JSON_BUF)/driver_% $(JSON_T)/%.desc $(BUF)
	$(PARITY)/gen -I test/parity/schemas test/parity/schemas/$*.proto parity.$*.Batch canonical $(JSON_BUF_COUNT) \
	  $(PARITY_SEED) $(JSON_BUF)/$*
	$(call buf_fix,$*,$(JSON_T)/$*.desc,parity.$*.Batch)
	$(call buf_check,$*,$(JSON_BUF)/driver_$*,$(JSON_T)/$*.desc\#format=binpb,parity.$*.Batch)

check-json-buf-ext: $(JSON_BUF)/driver_ext $(JSON_EXT)/ext.desc $(BUF)
	@mkdir -p $(JSON_BUF)
	/usr/bin/python3 test/json/ext.py gen $(JSON_EXT)/ext.desc $(JSON_BUF_COUNT) $(PARITY_SEED) $(JSON_BUF)/ext.bin
	cp $(JSON_BUF)/ext.bin $(JSON_BUF)/ext.fixed.bin
	$(call buf_check,ext,$(JSON_BUF)/driver_ext,$(JSON_EXT)/ext.desc\#format=binpb,parity.ext.Batch)

ifneq ($(CORPUS_FOUND),)
# hapi's generated code as test/parity builds it (no sanitizers, -O0)
JSON_HAPI_O := $(JSON_PARITY)/hapi/unit_1.o $(JSON_PARITY)/hapi/unit_2.o
$(JSON_BUF)/driver_hapi: test/json/buf.c $(JSON_HAPI_O)
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) -Werror -O0 -Irt -Itest/parity -I$(PARITY_HAPI_PB) -DPARITY_HEADER='"hapi.pb.h"' -DBATCH=parity_hapi_Batch \
	  -o $@ $< $(JSON_HAPI_O) -lm

$(JSON_BUF)/hapi.desc: test/parity/corpus/hapi.proto | deps
	@mkdir -p $(@D)
	protoc $(PARITY_HAPI_ROOTS:%=-I %) -I /usr/include --include_imports --descriptor_set_out=$@ $<

check-json-buf-hapi: $(JSON_PARITY)/gen $(JSON_BUF)/driver_hapi $(JSON_BUF)/hapi.desc $(BUF)
	$(PARITY)/gen $(PARITY_HAPI_ROOTS:%=-I %) -d 16 -m 300 test/parity/corpus/hapi.proto parity.hapi.Batch canonical \
	  $(JSON_BUF_COUNT) $(PARITY_SEED) $(JSON_BUF)/hapi
	$(call buf_fix,hapi,$(JSON_BUF)/hapi.desc,parity.hapi.Batch)
	$(call buf_check,hapi,$(JSON_BUF)/driver_hapi,$(JSON_BUF)/hapi.desc\#format=binpb,parity.hapi.Batch)
else
check-json-buf-hapi:
	$(call corpus_skip,$@)
endif

# editions (test/editions.mk's code and schemas): DELIMITED messages, group-like fields of proto2's 2023 rewrite
JSON_BUF_EDITIONS := delimited special proto2
json_ed_dir = $(if $(filter delimited special,$(1)),test/editions/wire,$(EDITIONS_WIRE)/2023)
$(JSON_BUF)/driver_ed_%: test/json/buf.c $(EDITIONS_WIRE)/pb_%/.stamp $(JSON_WKT_O)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SAN_CFLAGS) -I$(EDITIONS_WIRE)/pb_$* -DWKT -DPARITY_HEADER='"$*.pb.h"' -DBATCH=parity_$*_Batch -o $@ $< \
	  $(EDITIONS_WIRE)/pb_$*/$*.pb.c $(JSON_WKT_O) -lm

.PHONY: $(JSON_BUF_EDITIONS:%=check-json-buf-ed-%)
$(JSON_BUF_EDITIONS:%=check-json-buf-ed-%): check-json-buf-ed-%: $(JSON_PARITY)/gen $(JSON_BUF)/driver_ed_% $(BUF)
	$(JSON_PARITY)/gen -I $(call json_ed_dir,$*) $(call json_ed_dir,$*)/$*.proto parity.$*.Batch canonical $(JSON_BUF_COUNT) \
	  $(PARITY_SEED) $(JSON_BUF)/ed_$*
	cp $(JSON_BUF)/ed_$*.bin $(JSON_BUF)/ed_$*.fixed.bin
	cd $(call json_ed_dir,$*) && $(call buf_convert,ed_$*,$*.proto,parity.$*.Batch)
	$(call buf_compare,ed_$*,$(JSON_BUF)/driver_ed_$*)

check-json-buf: $(JSON_BUF_SCHEMAS:%=check-json-buf-%) check-json-buf-ext check-json-buf-hapi \
                $(JSON_BUF_EDITIONS:%=check-json-buf-ed-%)
check-json: check-json-buf
