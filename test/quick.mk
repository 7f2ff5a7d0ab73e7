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

# Two groups at a time unless make was given -j itself (read in the recipe: MAKEFLAGS has -j only then).
QUICK_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j2)

.PHONY: check-quick check-quick-groups check-quick-hostile
check-quick:
	@$(MAKE) --no-print-directory $(QUICK_JOBS) check-quick-groups
	@echo "make check-quick: passed (a subset: make check runs all $(words $(CHECKS)) groups)"
check-quick-groups: $(QUICK_GROUPS)

# hostile's quick part: generated print, equal, copy, merge and encode on hand-built cycles and deep chains
check-quick-hostile: $(HOSTILE)/deep_test
	$(HOSTILE)/deep_test
