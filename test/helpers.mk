# test/helpers.mk: the building helpers, copy, merge and streams (rt/pbj_build.h, rt/pbj_stream.h), under
# ASan+UBSan: each parity schema's random batches (merge against decoding two encodings one after the other),
# and the units of test/helpers/unit.c on test/helpers/h.proto (h2.proto, h3.proto).
# This fragment is read before test/parity.mk: its lists are spelled here (as there) for the prerequisites.
HELPERS := $(B)/helpers
HELPERS_SCHEMAS := scalars maps nesting wrappers wkt unknown proto2 byvalue
HELPERS_WKT_O := $(patsubst %,$(B)/parity/obj/google/protobuf/%.o,wrappers any duration empty field_mask struct timestamp)

$(HELPERS)/driver_%: test/helpers/driver.c test/parity/wire.h $(B)/parity/obj/%.o $(HELPERS_WKT_O)
	@mkdir -p $(@D)
	$(CC) $(PARITY_SAN_CFLAGS) -DPARITY_HEADER='"$*.pb.h"' -DBATCH=parity_$*_Batch -DITEM=parity_$*_$(PARITY_ITEM_$*) \
	  -o $@ $< $(B)/parity/obj/$*.o $(HELPERS_WKT_O)

.PHONY: check-helpers check-helpers-unit $(HELPERS_SCHEMAS:%=check-helpers-%)
$(HELPERS_SCHEMAS:%=check-helpers-%): check-helpers-%: $(B)/parity/gen $(HELPERS)/driver_% | deps
	@mkdir -p $(HELPERS)/run
	$(PARITY)/gen -I test/parity/schemas $(if $(filter proto2,$*),-d 100) test/parity/schemas/$*.proto parity.$*.Batch \
	  canonical 300 1 $(HELPERS)/run/$*.can
	$(PARITY)/gen -I test/parity/schemas $(if $(filter proto2,$*),-d 100) test/parity/schemas/$*.proto parity.$*.Batch \
	  unknown 300 2 $(HELPERS)/run/$*.unk
	$(HELPERS)/driver_$* $(HELPERS)/run/$*.can.bin
	$(HELPERS)/driver_$* $(HELPERS)/run/$*.unk.bin

check-helpers: $(HELPERS_SCHEMAS:%=check-helpers-%)

CHECKS += check-helpers

# the units, on test/helpers/h.proto, h2.proto and h3.proto
$(HELPERS)/unit/.stamp: pbjc test/helpers/h.proto test/helpers/h2.proto test/helpers/h3.proto test/helpers/h4.proto
	rm -rf $(@D) && mkdir -p $(@D)
	./pbjc -I test/helpers -o $(@D) test/helpers/h.proto test/helpers/h2.proto test/helpers/h3.proto test/helpers/h4.proto
	@touch $@

$(HELPERS)/unit/unit: test/helpers/unit.c $(HELPERS)/unit/.stamp $(wildcard rt/*.h) | deps
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -Irt -I$(@D) -o $@ $< $(@D)/h.pb.c $(@D)/h2.pb.c $(@D)/h3.pb.c -lcmocka

check-helpers-unit: $(HELPERS)/unit/unit
	$(HELPERS)/unit/unit $(HELPERS)/unit/scratch.bin

check-helpers: check-helpers-unit
