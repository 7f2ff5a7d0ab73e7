# test/resolve.mk: the resolver's scoping, loading and default-value units (cmocka,
# under ASan+UBSan), and the broken-.proto diagnostics of test/errors/.
RESOLVE_TEST := $(B)/resolve/resolve_test
RESOLVE_SAN_OBJS := $(PBJC_LIB_OBJS:$(B)/%.o=$(B)/resolve/san/%.o)

# The compiler's objects again, instrumented, for the unit test.
$(B)/resolve/san/%.o: $(B)/%.o
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) -Wno-unused-parameter -Wno-unused-variable \
	  -Wno-missing-prototypes -c -o $@ $(if $(filter lex parse,$*),$(B)/$*.c,src/$*.c)

$(RESOLVE_TEST): test/resolve/resolve_test.c $(RESOLVE_SAN_OBJS) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) -o $@ $< $(RESOLVE_SAN_OBJS) $(PBJC_LIBS) -lcmocka

.PHONY: check-resolve check-errors
check-resolve: $(RESOLVE_TEST)
	$(RESOLVE_TEST)

check-errors: pbjc | deps
	test/errors/run.sh ./pbjc

CHECKS += check-resolve check-errors
