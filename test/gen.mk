# test/gen.mk: generated code against protoc, a target per section of test/gen/run.sh so that -j
# runs them side by side: field kinds, proto2, descriptor sets, header comments and name collisions
# (round-trips, text, limits, malformed input under $(SAN)); with the corpus, the real schemas
# compile cleanly (one unit of 120k lines, built by gcc and by clang at once) and the real block.
GEN          := $(B)/gen
GEN_RUN       = SAN="$(SAN)" SAN_OPT="$(SAN_OPT)" CC="$(CC)" CORPUS="$(CORPUS_FOUND)" test/gen/run.sh ./pbjc $(B)
GEN_SECTIONS := kinds proto2 descriptor header
GEN_CORPUS   := corpus sdk mirror block
GEN_STRICT   := -std=c11 -Wall -Wextra -Wpedantic -Werror

.PHONY: check-gen $(GEN_SECTIONS:%=check-gen-%) $(GEN_CORPUS:%=check-gen-%)
CHECKS += check-gen
check-gen: $(GEN_SECTIONS:%=check-gen-%) $(GEN_CORPUS:%=check-gen-%)

$(GEN_SECTIONS:%=check-gen-%): check-gen-%: pbjc | deps
	$(GEN_RUN) $*

ifneq ($(CORPUS_FOUND),)
$(GEN)/corpus/all_generated.c: pbjc | deps
	$(GEN_RUN) corpus

# at -O0 (a third of -O1's CPU on 120k lines): check-golden compiles every template's output at -O1 for
# gcc's flow warnings; this unit checks that the real schemas compile cleanly
$(GEN)/corpus/all_%.o: $(GEN)/corpus/all_generated.c $(wildcard rt/*.h)
	$* $(GEN_STRICT) -O0 -DPBJ__RUN_SHARED=0 -Irt -I$(GEN)/corpus -c -o $@ $<   # one unit of several runs: its own copy

check-gen-corpus: $(GEN)/corpus/all_gcc.o $(GEN)/corpus/all_clang.o
	@echo "ok   the $$(grep -c . $(GEN)/corpus/all_generated.c) generated files compile with gcc and clang, $(GEN_STRICT)"

check-gen-sdk check-gen-mirror: check-gen-%: $(GEN)/corpus/all_generated.c
	$(GEN_RUN) $*

check-gen-block: $(GEN)/corpus/all_gcc.o
	$(GEN_RUN) block
else
$(GEN_CORPUS:%=check-gen-%):
	$(call corpus_skip,$@)
endif
