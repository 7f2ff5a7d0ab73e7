# rt/rt.mk: the header-only runtime's tests (cmocka units, multiple inclusion as C11 and C++), plain and under $(SAN).
RT_HDRS := $(wildcard rt/*.h)
RT_TEST_CFLAGS = -std=c11 -Wall -Wextra -Wpedantic -Werror -Wshadow -Wcast-qual -Wundef -O1 -g -Irt
RT_UNIT_CFLAGS = $(RT_TEST_CFLAGS) -DPBJ_NO_TEXT

$(B)/rt/test_rt: test/rt/test_rt.c $(RT_HDRS) | deps
	@mkdir -p $(@D)
	$(CC) $(RT_UNIT_CFLAGS) -o $@ $< -lcmocka

$(B)/rt/test_rt_san: test/rt/test_rt.c $(RT_HDRS) | deps
	@mkdir -p $(@D)
	$(CC) $(RT_UNIT_CFLAGS) $(SAN) -o $@ $< -lcmocka

$(B)/rt/multi_c: test/rt/multi_include.c $(RT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(RT_TEST_CFLAGS) $(SAN) -o $@ $<

$(B)/rt/multi_cxx: test/rt/multi_include.c $(RT_HDRS)
	@mkdir -p $(@D)
	$(CXX) -std=c++11 -Wall -Wextra -Wpedantic -Werror -O1 -g -Irt -x c++ -o $@ $<

# Each header included first and alone, as C11 and as C++: none may lean on another's being included before it.
RT_ALONE := $(patsubst rt/%.h,$(B)/rt/alone/%.ok,$(RT_HDRS))
$(B)/rt/alone/%.ok: rt/%.h $(RT_HDRS)
	@mkdir -p $(@D)
	printf '#include "%s"\nint main(void) { return 0; }\n' $(<F) >$(@:.ok=.c)
	$(CC) $(RT_TEST_CFLAGS) -fsyntax-only $(@:.ok=.c)
	$(CXX) -std=c++11 -Wall -Wextra -Wpedantic -Werror -Irt -x c++ -fsyntax-only $(@:.ok=.c)
	@touch $@

.PHONY: check-rt
check-rt: $(B)/rt/test_rt $(B)/rt/test_rt_san $(B)/rt/multi_c $(B)/rt/multi_cxx $(RT_ALONE)
	$(B)/rt/test_rt
	$(B)/rt/test_rt_san
	$(B)/rt/multi_c
	$(B)/rt/multi_cxx

CHECKS += check-rt
