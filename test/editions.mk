# test/editions.mk: editions 2023 and 2024 against buf (npm's @bufbuild/buf, a compiler that reads
# editions; protoc 3.21 cannot): descriptor sets byte for byte, error verdicts, wire bytes.
BUF_VERSION ?= 1.75.0
BUF_DIR     := $(B)/cache/buf
BUF         := $(BUF_DIR)/node_modules/.bin/buf
EDITIONS    := $(B)/editions

.PHONY: editions-deps check-editions check-editions-descriptor check-editions-errors check-editions-limits check-editions-generate
# Debian's nodejs and npm, unless an npm is on PATH already (NodeSource's nodejs carries its own)
editions-deps:
	@command -v npm >/dev/null || $(MAKE) --no-print-directory deps DEB_PKGS="nodejs npm"

# buf, installed once into the cache (the package's postinstall script is not needed: npm
# picks the platform's binary package itself)
$(BUF): | editions-deps
	@mkdir -p $(BUF_DIR)
	npm install --prefix $(BUF_DIR) --no-audit --no-fund --no-save @bufbuild/buf@$(BUF_VERSION)
	@touch $@

check-editions-descriptor: pbjc $(BUF)
	test/editions/descriptor.sh ./pbjc $(BUF) $(EDITIONS)/descriptor

check-editions-errors: pbjc $(BUF)
	test/editions/errors.sh ./pbjc $(BUF) $(EDITIONS)/errors

# edition 2026's proto limits: generated schemas one past each bound (test/editions/limits.py), and one opting out
check-editions-limits: pbjc $(BUF)
	rm -rf $(EDITIONS)/limits && test/editions/limits.py $(EDITIONS)/limits $(EDITIONS)/limits_ok.proto
	./pbjc --check -I $(EDITIONS) $(EDITIONS)/limits_ok.proto
	test/editions/errors.sh ./pbjc $(BUF) $(EDITIONS)/limits-out $(EDITIONS)/limits

# buf generate with pbjc as its plugin (it must announce editions): the files pbjc -o writes
check-editions-generate: pbjc $(BUF)
	test/editions/generate.sh ./pbjc $(BUF) $(EDITIONS)/generate

check-editions: check-editions-descriptor check-editions-errors check-editions-limits check-editions-generate

CHECKS += check-editions

# ---- wire bytes: test/parity's schemas rewritten as edition 2023, and editions-only schemas ----
EDITIONS_WIRE     := $(EDITIONS)/wire
# test/parity.mk comes after this file: its names are spelled out here
EDITIONS_PARITY   := $(B)/parity
EDITIONS_REWRITES := scalars maps nesting wrappers wkt unknown proto2
EDITIONS_WKT_O    := $(patsubst %,$(EDITIONS_PARITY)/obj/google/protobuf/%.o,wrappers any duration empty field_mask struct timestamp)
EDITIONS_SPECIAL  := special delimited
EDITIONS_COUNT    ?= 500
PARITY_ITEM_special   := Item
PARITY_ITEM_delimited := Node

$(EDITIONS_WIRE)/2023/%.proto: test/parity/schemas/%.proto test/editions/to2023.py
	@mkdir -p $(@D)
	python3 test/editions/to2023.py $< >$@

EDITIONS_STAMPS_REWRITES := $(EDITIONS_REWRITES:%=$(EDITIONS_WIRE)/pb_%/.stamp)
.SECONDARY: $(EDITIONS_REWRITES:%=$(EDITIONS_WIRE)/2023/%.proto)
EDITIONS_STAMPS_SPECIAL  := $(EDITIONS_SPECIAL:%=$(EDITIONS_WIRE)/pb_%/.stamp)
$(EDITIONS_STAMPS_REWRITES): $(EDITIONS_WIRE)/pb_%/.stamp: $(EDITIONS_WIRE)/2023/%.proto pbjc
$(EDITIONS_STAMPS_SPECIAL): $(EDITIONS_WIRE)/pb_%/.stamp: test/editions/wire/%.proto pbjc
$(EDITIONS_STAMPS_REWRITES) $(EDITIONS_STAMPS_SPECIAL):
	rm -rf $(@D) && mkdir -p $(@D)
	./pbjc -I $(<D) -o $(@D) $<
	@touch $@

# the parity driver on the editions schema's code (the imported well-known types: test/parity's)
$(EDITIONS_WIRE)/driver_%: test/parity/driver.c test/parity/wire.h $(EDITIONS_WIRE)/pb_%/.stamp $(EDITIONS_WKT_O) $(wildcard rt/*.h)
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -Irt -I$(EDITIONS_WIRE)/pb_$* -I$(EDITIONS_PARITY)/pb -Itest/parity \
	  -DPARITY_HEADER='"$*.pb.h"' -DBATCH=parity_$*_Batch -DITEM=parity_$*_$(PARITY_ITEM_$*) \
	  -o $@ $< $(EDITIONS_WIRE)/pb_$*/$*.pb.c $(EDITIONS_WKT_O)

.PHONY: check-editions-wire $(EDITIONS_REWRITES:%=check-editions-wire-%) $(EDITIONS_SPECIAL:%=check-editions-wire-%)
$(EDITIONS_REWRITES:%=check-editions-wire-%): check-editions-wire-%: $(EDITIONS_PARITY)/gen $(EDITIONS_PARITY)/driver_% $(EDITIONS_WIRE)/driver_% $(BUF)
	B=$(B) BUF=$(BUF) ORIGINAL=test/parity/schemas/$*.proto $(if $(filter wkt,$*),NO_JSON=1) \
	  test/editions/wire.sh $(EDITIONS_WIRE)/2023 $* $(PARITY_ITEM_$*) $(EDITIONS_COUNT) $(PARITY_SEED)
$(EDITIONS_SPECIAL:%=check-editions-wire-%): check-editions-wire-%: $(EDITIONS_PARITY)/gen $(EDITIONS_WIRE)/driver_% $(BUF)
	B=$(B) BUF=$(BUF) test/editions/wire.sh test/editions/wire $* $(PARITY_ITEM_$*) $(EDITIONS_COUNT) $(PARITY_SEED)

check-editions-wire: $(EDITIONS_REWRITES:%=check-editions-wire-%) $(EDITIONS_SPECIAL:%=check-editions-wire-%)
check-editions: check-editions-wire

# ---- invalid UTF-8: NONE strings kept by every API, VERIFY ones refused; buf convert agrees ----
EDITIONS_UTF8 := $(EDITIONS)/utf8
$(EDITIONS_UTF8)/.stamp: test/editions/wire/special.proto pbjc
	rm -rf $(@D) && mkdir -p $(@D)
	./pbjc --views --writers -I test/editions/wire -o $(@D) $<
	@touch $@
$(EDITIONS_UTF8)/utf8: test/editions/utf8.c $(EDITIONS_UTF8)/.stamp $(wildcard rt/*.h)
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -Irt -I$(EDITIONS_UTF8) -o $@ $< $(EDITIONS_UTF8)/special.pb.c

EDITIONS_CONVERT = cd test/editions/wire && $(CURDIR)/$(BUF) convert special.proto --type parity.special.Batch \
	  --from $(CURDIR)/$(EDITIONS_UTF8)/$(1).bin\#format=binpb --to $(CURDIR)/$(EDITIONS_UTF8)/$(1).buf.binpb\#format=binpb
.PHONY: check-editions-utf8
check-editions-utf8: $(EDITIONS_UTF8)/utf8 $(BUF)
	$(EDITIONS_UTF8)/utf8 write $(EDITIONS_UTF8)
	$(call EDITIONS_CONVERT,none)
	cmp $(EDITIONS_UTF8)/none.bin $(EDITIONS_UTF8)/none.buf.binpb
	! ($(call EDITIONS_CONVERT,verify)) 2>$(EDITIONS_UTF8)/verify.err
	grep -q 'implicit_str contains invalid UTF-8' $(EDITIONS_UTF8)/verify.err
	$(EDITIONS_UTF8)/utf8 check
check-editions: check-editions-utf8
