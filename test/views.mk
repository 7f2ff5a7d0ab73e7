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
	$(CC) -std=c11 $(WARN) -Werror -O1 -g $(SAN) -Irt -I$(VIEWS)/pb \
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

check-views: $(PARITY_SCHEMAS:%=check-views-%)
CHECKS += check-views
