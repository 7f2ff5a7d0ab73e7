# test/json.mk: M_to_json against python protobuf's json_format (MessageToJson, /usr/bin/python3 with
# python3-protobuf 4.21) on random canonical items of every parity schema (test/parity.mk builds the
# generator and the schemas' objects), with the default options and with proto names and defaults.
# Numbers are compared as values (see test/json/oracle.py for where the two may spell them differently).
JSON_T := $(B)/json
JSON_COUNT ?= 300
# parity.mk comes after this file: its names are spelled here for the prerequisites
JSON_SCHEMAS := scalars maps nesting wrappers wkt unknown proto2
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

check-json: $(JSON_SCHEMAS:%=check-json-%)
CHECKS += check-json
