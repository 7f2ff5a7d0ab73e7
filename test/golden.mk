# test/golden.mk: pbjc's output for a few schemas is checked in (test/golden/CASE/expected, see
# test/golden/run.sh), so every generator change is reviewed as a diff of generated C.
# check-golden fails with that diff when ./pbjc's output changes (`make golden-update` accepts
# it); the checked-in code also compiles with gcc and clang at -Werror and round-trips the
# case's one CASE/<message>.txt as protoc encodes it (under ASan+UBSan).
GOLDEN        := $(B)/golden
GOLDEN_CASES  := $(patsubst test/golden/%/,%,$(wildcard test/golden/*/))
GOLDEN_FILES  := $(shell find test/golden -path '*/expected/*.pb.[ch]' | LC_ALL=C sort)
GOLDEN_C      := $(filter %.c,$(GOLDEN_FILES))
GOLDEN_TRIPS  := $(patsubst test/golden/%/,%,$(sort $(dir $(wildcard test/golden/*/*.txt))))
GOLDEN_CFLAGS := -std=c11 $(WARN) -Werror -O1 -g -Irt
golden_case    = $(firstword $(subst /, ,$(1)))

.PHONY: check-golden check-golden-diff golden-update $(GOLDEN_TRIPS:%=check-golden-roundtrip-%)
CHECKS += check-golden

check-golden-diff: pbjc
	test/golden/run.sh check ./pbjc $(GOLDEN)/gen

golden-update: pbjc
	test/golden/run.sh update ./pbjc

# each checked-in .pb.c compiles on its own, with gcc and with clang
define golden_compile
$(GOLDEN)/$(1)/%.o: test/golden/%.c $(wildcard rt/*.h) | deps
	@mkdir -p $$(@D)
	$(1) $(GOLDEN_CFLAGS) -Itest/golden/$$(call golden_case,$$*)/expected -c -o $$@ $$<
endef
$(foreach cc,gcc clang,$(eval $(call golden_compile,$(cc))))
GOLDEN_OBJS := $(foreach cc,gcc clang,$(GOLDEN_C:test/golden/%.c=$(GOLDEN)/$(cc)/%.o))

# a case's round-trip driver: test/gen/roundtrip.c on the case's checked-in code, for the
# message its .txt names (HEADER, rt/CASE.h, includes every header of the case)
$(GOLDEN)/rt/%: test/gen/roundtrip.c $(wildcard rt/*.h) $(GOLDEN_FILES) | deps
	@mkdir -p $(@D)
	cd test/golden/$*/expected && find . -name '*.pb.h' | LC_ALL=C sort | sed 's|^\./|#include "|; s|$$|"|' > $(CURDIR)/$@.h
	$(CC) $(GOLDEN_CFLAGS) $(SAN) -Itest/golden/$*/expected -I$(@D) -DHEADER='"$*.h"' \
	  -DMSG=$(subst .,_,$(basename $(notdir $(wildcard test/golden/$*/*.txt)))) \
	  -o $@ test/gen/roundtrip.c $(filter test/golden/$*/%,$(GOLDEN_C))

$(GOLDEN_TRIPS:%=check-golden-roundtrip-%): check-golden-roundtrip-%: $(GOLDEN)/rt/%
	test/golden/run.sh roundtrip $* $< $(GOLDEN)/out/$*

# the header's user-facing names (M_f_array, M_f_tag) used as a user would, on the sample's code
$(GOLDEN)/api: test/golden/api.c $(wildcard rt/*.h) $(filter test/golden/sample/%,$(GOLDEN_FILES)) | deps
	@mkdir -p $(@D)
	$(CC) $(GOLDEN_CFLAGS) $(SAN) -Itest/golden/sample/expected -o $@ $< $(filter test/golden/sample/%.c,$(GOLDEN_C))

.PHONY: check-golden-api
check-golden-api: $(GOLDEN)/api
	$(GOLDEN)/api

check-golden: check-golden-diff $(GOLDEN_OBJS) $(GOLDEN_TRIPS:%=check-golden-roundtrip-%) check-golden-api check-golden-tables
	@echo "check-golden: $(words $(GOLDEN_CASES)) cases: generated code as checked in, compiles with gcc and clang, round-trips"

# every field table of a case against its code (test/golden/tables.c): TABLES lists T(M) for each message
$(GOLDEN)/tables/%: test/golden/tables.c $(wildcard rt/*.h) $(GOLDEN_FILES) | deps
	@mkdir -p $(@D)
	cd test/golden/$*/expected && find . -name '*.pb.h' | LC_ALL=C sort | sed 's|^\./|#include "|; s|$$|"|' > $(CURDIR)/$@.h
	{ printf '#define TABLE_LIST'; cat $$(find test/golden/$*/expected -name '*.pb.h' | LC_ALL=C sort) | \
	  sed -n 's/^extern const pbj_table \(.*\)__table;.*/ T(\1)/p' | tr -d '\n'; echo; } > $@.list.h
	$(CC) $(GOLDEN_CFLAGS) $(SAN) -Itest/golden/$*/expected -I$(@D) -DHEADER='"$*.h"' -DTABLES='"$*.list.h"' \
	  -o $@ $< $(filter test/golden/$*/%,$(GOLDEN_C))

.PHONY: check-golden-tables $(GOLDEN_CASES:%=check-golden-tables-%)
$(GOLDEN_CASES:%=check-golden-tables-%): check-golden-tables-%: $(GOLDEN)/tables/%
	$<
check-golden-tables: $(GOLDEN_CASES:%=check-golden-tables-%)
