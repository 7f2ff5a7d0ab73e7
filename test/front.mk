# test/front.mk: the front end's tests: lexer, parser and IR pool units and the parse of
# every corpus file (cmocka, under ASan+UBSan), comments against protoc's
# SourceCodeInfo, descriptor sets of the language's corners against protoc's,
# the driver's flags, and --help against the man page.
FRONT       := $(B)/front
FRONT_UNITS := $(FRONT)/lex_test $(FRONT)/parse_test $(FRONT)/corpus_test $(FRONT)/pool_test
FRONT_CORPUS := /usr/include/google/protobuf $(if $(CORPUS_FOUND),$(CORPUS_HAPI))

$(FRONT)/%: test/unit/%.c test/unit/front_util.h $(PBJC_SAN_LIB_OBJS) | deps
	@mkdir -p $(@D)
	$(SAN_CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) -Itest/unit -o $@ $< $(PBJC_SAN_LIB_OBJS) $(PBJC_LIBS) -lcmocka

$(FRONT)/comment_dump: test/front/comment_dump.c $(PBJC_SAN_LIB_OBJS) | deps
	@mkdir -p $(@D)
	$(SAN_CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) -o $@ $< $(PBJC_SAN_LIB_OBJS) $(PBJC_LIBS)

.PHONY: check-front check-front-units check-front-comments check-front-driver check-front-man check-front-parity \
        check-front-fuzz check-front-compare check-front-msgset
check-front-units: $(FRONT_UNITS)
	$(FRONT)/lex_test
	$(FRONT)/parse_test
	$(FRONT)/pool_test
	$(FRONT)/corpus_test $(FRONT_CORPUS)
	$(call corpus_skip,check-front-units: parsing hapi)

check-front-comments: $(FRONT)/comment_dump | deps
	CORPUS="$(CORPUS_FOUND)" test/front/comments.sh $(FRONT)/comment_dump
	$(call corpus_skip,check-front-comments: hapi's comments)

check-front-driver: pbjc | deps
	test/front/driver.sh ./pbjc

check-front-man: pbjc
	test/front/help_man.sh ./pbjc

check-front-parity: pbjc | deps
	test/front/parity.sh ./pbjc

# The parser under libFuzzer (clang), for a short run on each check; the corpus it
# grows stays in $(FRONT)/fuzz-corpus between runs. FUZZ_SECONDS=600 for a long one.
FUZZ_SECONDS ?= 10
FRONT_FUZZ_SRCS := src/ir.c src/irbuild.c src/parser.c src/diag.c src/srcinfo.c src/wire.c $(B)/lex.c $(B)/parse.c src/featureset.c
$(FRONT)/fuzz_parse: test/front/fuzz_parse.c $(FRONT_FUZZ_SRCS) src/irbuild.h src/lex.h src/srcinfo.h | deps
	@mkdir -p $(@D)
	clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(PBJC_CPPFLAGS) -Isrc/pbgen -Irt \
	  -DPBJ_NO_TEXT -o $@ $< $(FRONT_FUZZ_SRCS) -lm

check-front-fuzz: $(FRONT)/fuzz_parse
	@mkdir -p $(FRONT)/fuzz-corpus
	cp test/front/cases/*.proto $(FRONT)/fuzz-corpus/
	$(FRONT)/fuzz_parse -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -close_fd_mask=2 $(FRONT)/fuzz-corpus \
	  >$(FRONT)/fuzz.log 2>&1 || { tail -40 $(FRONT)/fuzz.log; exit 1; }
	@tail -1 $(FRONT)/fuzz.log

# pbj.comparable's M_compare: the generated code of test/front/compare under cmocka, ASan+UBSan, -Werror.
$(FRONT)/compare/compare.pb.c: test/front/compare/compare.proto pbjc | deps
	./pbjc -I test/front/compare -I /usr/include -o $(FRONT)/compare $< /usr/include/google/protobuf/wrappers.proto

$(FRONT)/compare_test: test/front/compare/compare_test.c $(FRONT)/compare/compare.pb.c | deps
	$(CC) $(ALL_CFLAGS) -Werror $(SAN) -Irt -I$(FRONT)/compare -o $@ $^ $(FRONT)/compare/google/protobuf/wrappers.pb.c -lcmocka -lm

check-front-compare: $(FRONT)/compare_test
	$(FRONT)/compare_test

# M_print of message set items another file declares (issue 15 item 4).
check-front-msgset: pbjc | deps
	test/front/msgset/print.sh ./pbjc $(FRONT)/msgset

check-front: check-front-units check-front-comments check-front-driver check-front-man check-front-parity check-front-fuzz \
             check-front-compare check-front-msgset

CHECKS += check-front
