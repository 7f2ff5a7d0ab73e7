# test/options.mk: the options phase: cmocka units over hand-built IR (under
# ASan+UBSan), golden runs of `pbjc --explain-options` (test/options/cases),
# and the real hapi schemas resolving with no option error.
OPTIONS_UNIT := $(B)/options/options_test

$(OPTIONS_UNIT): test/options/options_test.c $(PBJC_SAN_LIB_OBJS) | deps
	@mkdir -p $(@D)
	$(SAN_CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) -o $@ $< $(PBJC_SAN_LIB_OBJS) $(PBJC_LIBS) -lcmocka

.PHONY: check-options check-options-units check-options-golden check-options-corpus
check-options-units: $(OPTIONS_UNIT)
	$(OPTIONS_UNIT)

check-options-golden: pbjc
	test/options/run.sh ./pbjc

ifneq ($(CORPUS_FOUND),)
check-options-corpus: pbjc
	CORPUS="$(CORPUS_FOUND)" test/options/corpus.sh ./pbjc
else
check-options-corpus:
	$(call corpus_skip,$@)
endif

check-options: check-options-units check-options-golden check-options-corpus

CHECKS += check-options
