# test/jsonin.mk: M_from_json (rt/pbj_json_read.h, gen-templates/json_read.tmpl) against protobuf 4.21's python
# json_format (test/jsonin/oracle.py), under ASan+UBSan: random messages of each parity schema printed to JSON by
# python (names both ways, compact and indented, with defaults) read back to python's bytes, every prefix of them
# rejected; and the tables test/jsonin/SCHEMA.txt of malformed and edge inputs, each with python's verdict.
# This fragment is read before test/parity.mk: its lists are spelled here (as there) for the prerequisites.
JSONIN := $(B)/jsonin
JSONIN_SCHEMAS := scalars maps nesting wrappers wkt proto2 byvalue
JSONIN_TABLES := $(patsubst test/jsonin/%.txt,%,$(wildcard test/jsonin/*.txt))
JSONIN_WKT_O := $(patsubst %,$(B)/parity/obj/google/protobuf/%.o,wrappers any duration empty field_mask struct timestamp)
JSONIN_COUNT ?= 200

$(JSONIN)/driver_%: test/jsonin/driver.c $(B)/parity/obj/%.o $(JSONIN_WKT_O)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SAN_CFLAGS) -DPARITY_HEADER='"$*.pb.h"' -DITEM=parity_$*_$(PARITY_ITEM_$*) \
	  -o $@ $< $(B)/parity/obj/$*.o $(JSONIN_WKT_O) -lm

# every schema and the well-known types it imports, for python's descriptor pool
$(JSONIN)/%.ds: test/parity/schemas/%.proto | deps
	@mkdir -p $(@D)
	protoc -I test/parity/schemas -I /usr/include --include_imports --descriptor_set_out=$@ $<

.PHONY: check-jsonin $(JSONIN_SCHEMAS:%=check-jsonin-%) $(JSONIN_TABLES:%=check-jsonin-table-%)
$(JSONIN_SCHEMAS:%=check-jsonin-%): check-jsonin-%: $(B)/parity/gen $(JSONIN)/driver_% $(JSONIN)/%.ds | deps
	@mkdir -p $(JSONIN)/run
	$(PARITY)/gen -I test/parity/schemas $(if $(filter proto2,$*),-d 20) test/parity/schemas/$*.proto parity.$*.Batch \
	  canonical $(JSONIN_COUNT) 1 $(JSONIN)/run/$*
	/usr/bin/python3 test/jsonin/oracle.py random $(JSONIN)/$*.ds parity.$*.Batch $(JSONIN)/run/$*.bin $(JSONIN)/run/$*.cases
	$(JSONIN)/driver_$* $(JSONIN)/run/$*.cases

$(JSONIN_TABLES:%=check-jsonin-table-%): check-jsonin-table-%: test/jsonin/%.txt $(JSONIN)/driver_% $(JSONIN)/%.ds | deps
	@mkdir -p $(JSONIN)/run
	/usr/bin/python3 test/jsonin/oracle.py table $(JSONIN)/$*.ds parity.$*.$(PARITY_ITEM_$*) $< $(JSONIN)/run/$*.table
	$(JSONIN)/driver_$* $(JSONIN)/run/$*.table

# one depth rule (test/jsonin/depth.c): JSON (and, from check-textin, text) nested around max_depth is accepted exactly
# where binary decode accepts the same message. To have that binary it encodes messages deeper than the walks take by
# default: its generated code is compiled with PBJ_MAX_ENCODE_DEPTH raised to decode's cap (the macro's documented use)
JSONIN_DEEP   := -DPBJ_MAX_ENCODE_DEPTH='(PBJ_MAX_DEPTH_CAP + 1)'
JSONIN_DEEP_O := $(patsubst %,$(JSONIN)/deep/%.o,nesting wkt \
                 $(addprefix google/protobuf/,wrappers any duration empty field_mask struct timestamp))
$(JSONIN)/deep/%.o: $(B)/parity/pb/.stamp $(wildcard rt/*.h)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SAN_CFLAGS) $(JSONIN_DEEP) -c -o $@ $(B)/parity/pb/$*.pb.c
$(JSONIN)/depth: test/jsonin/depth.c $(JSONIN_DEEP_O)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SAN_CFLAGS) $(JSONIN_DEEP) -o $@ $^ -lm

.PHONY: check-jsonin-depth
check-jsonin-depth: $(JSONIN)/depth
	$(JSONIN)/depth json

check-jsonin: $(JSONIN_SCHEMAS:%=check-jsonin-%) $(JSONIN_TABLES:%=check-jsonin-table-%) check-jsonin-depth

CHECKS += check-jsonin
