# test/resolve.mk: the resolver's scoping, loading and default-value units (cmocka,
# under ASan+UBSan), and the broken-.proto diagnostics of test/errors/.
RESOLVE_TEST := $(B)/resolve/resolve_test

$(RESOLVE_TEST): test/resolve/resolve_test.c test/unit/temp_dir.h $(PBJC_SAN_LIB_OBJS) | deps
	@mkdir -p $(@D)
	$(SAN_CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) -o $@ $< $(PBJC_SAN_LIB_OBJS) $(PBJC_LIBS) -lcmocka

.PHONY: check-resolve check-errors
check-resolve: $(RESOLVE_TEST)
	$(RESOLVE_TEST)

check-errors: pbjc | deps
	test/errors/run.sh ./pbjc

CHECKS += check-resolve check-errors
