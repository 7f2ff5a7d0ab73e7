# src/build.mk: the compiler. Every src/*.c is part of pbjc; lex.re and
# parse.y are turned into C in $(B)/ by re2c and lemon.

LEMON_TEMPLATE ?= /usr/share/lemon/lempar.c
PBJC_VERSION   ?= 0.1.0
PBJC_SRCS     := $(sort $(wildcard src/*.c))
PBJC_OBJS     := $(PBJC_SRCS:src/%.c=$(B)/%.o) $(B)/lex.o $(B)/parse.o
PBJC_LIB_OBJS := $(filter-out $(B)/main.o,$(PBJC_OBJS))
PBJC_LIBS     := -lxxhash -lm
PBJC_CPPFLAGS := -Isrc -I$(B) -D_POSIX_C_SOURCE=200809L -DPBJC_VERSION='"$(PBJC_VERSION)"'

pbjc: $(PBJC_OBJS)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(PBJC_OBJS) $(PBJC_LIBS)

$(B)/.dir:
	@mkdir -p $(B) && touch $@

$(B)/lex.c: src/lex.re $(B)/parse.h | $(B)/.dir deps
	re2c -W --no-generation-date -o $@ $<

# lemon writes parse.c, parse.h and parse.out next to its input: run it on a copy in $(B),
# once for both outputs (a grouped target: with -j a plain rule would run twice at once).
$(B)/parse.c $(B)/parse.h &: src/parse.y | $(B)/.dir deps
	cp src/parse.y $(B)/parse.y
	cd $(B) && lemon -q -T$(LEMON_TEMPLATE) parse.y

# Generated code: lempar.c has unused parameters/variables and a missing
# prototype for its Parse* entry points, which the project's WARN flags catch;
# only those warnings (and the unused variable its ARG_FETCH leaves) are relaxed, and only for the generated parser.
LEMON_RELAXED := -Wno-unused-parameter -Wno-unused-variable -Wno-missing-prototypes
$(B)/parse.o: $(B)/parse.c src/irbuild.h src/ir.h
	$(CC) $(ALL_CFLAGS) $(PBJC_CPPFLAGS) $(LEMON_RELAXED) -c -o $@ $<

$(B)/lex.o: $(B)/lex.c src/lex.h src/ir.h src/diag.h
	$(CC) $(ALL_CFLAGS) $(PBJC_CPPFLAGS) -c -o $@ $<

$(B)/%.o: src/%.c $(wildcard src/*.h) $(B)/parse.h | $(B)/.dir
	$(CC) $(ALL_CFLAGS) $(PBJC_CPPFLAGS) -c -o $@ $<

# The same objects built with $(SAN) (ASan+UBSan), for unit tests. Each is
# compiled after its plain object, so generated headers exist by then.
PBJC_SAN_LIB_OBJS := $(PBJC_LIB_OBJS:$(B)/%.o=$(B)/san/%.o)
$(B)/san/%.o: $(B)/%.o
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) $(if $(filter parse,$*),$(LEMON_RELAXED)) -c -o $@ \
	  $(if $(filter lex parse,$*),$(B)/$*.c,src/$*.c)

# ---- install ------------------------------------------------------------------
# Layout: $(PREFIX)/bin/pbjc, $(PREFIX)/include/pbj/*.h (the runtime; include
# as <pbj/pbj.h>, or add -I$(PREFIX)/include/pbj, which pbj.pc's Cflags do),
# $(PREFIX)/share/man/man1/pbjc.1, $(PREFIX)/lib/pkgconfig/pbj.pc.
.PHONY: install
install: pbjc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/pbj \
	           $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 pbjc $(DESTDIR)$(PREFIX)/bin/pbjc
	$(if $(wildcard rt/*.h),install -m 644 $(wildcard rt/*.h) $(DESTDIR)$(PREFIX)/include/pbj/)
	install -m 644 man/pbjc.1 $(DESTDIR)$(PREFIX)/share/man/man1/pbjc.1
	printf 'prefix=%s\nincludedir=$${prefix}/include\n\nName: pbj\nDescription: runtime of the C code pbjc generates from .proto files (header-only)\nVersion: %s\nCflags: -I$${includedir}/pbj\n' \
	  '$(PREFIX)' '$(PBJC_VERSION)' > $(DESTDIR)$(PREFIX)/lib/pkgconfig/pbj.pc
