# test/quick.mk: make check-quick, the groups that catch most regressions in about 4 minutes on 2 idle cores (the
# full `make check` takes about 17): the runtime's units, the front end, diagnostics, the golden generated
# code (its diff, API units, field tables and round trips; check-golden also compiles every case at -O1 with gcc and
# clang), generated code against protoc, text and JSON read back, the building helpers, hostile chains,
# the documentation and the samples. It is a subset: `make check` before a release or a merge.
QUICK_GROUPS := check-rt check-front-units check-front-driver check-front-man check-resolve check-errors \
                check-golden-diff check-golden-api check-golden-tables $(GOLDEN_TRIPS:%=check-golden-roundtrip-%) check-gen-kinds \
                check-gen-proto2 check-gen-header check-parity-text \
                check-textin-scalars check-jsonin-scalars check-helpers-unit check-decode \
                check-quick-hostile check-docs check-samples

.PHONY: check-quick check-quick-hostile
check-quick: $(QUICK_GROUPS)
	@echo "make check-quick: passed (a subset: make check runs all $(words $(CHECKS)) groups)"

# hostile's quick part: generated print, equal, copy, merge and encode on hand-built cycles and deep chains
check-quick-hostile: $(HOSTILE)/deep_test
	$(HOSTILE)/deep_test
