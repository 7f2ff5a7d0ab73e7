# test/front.mk: the front end's tests: lexer and parser units and the parse of
# every corpus file (cmocka, under ASan+UBSan), comments against protoc's
# SourceCodeInfo, descriptor sets of the language's corners against protoc's,
# the driver's flags, and --help against the man page.
FRONT       := $(B)/front
FRONT_UNITS := $(FRONT)/lex_test $(FRONT)/parse_test $(FRONT)/corpus_test
FRONT_CORPUS := /usr/include/google/protobuf ../shared/corpus/hapi-v0.59.0

$(FRONT)/%: test/unit/%.c test/unit/front_util.h $(PBJC_SAN_LIB_OBJS) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) -Itest/unit -o $@ $< $(PBJC_SAN_LIB_OBJS) $(PBJC_LIBS) -lcmocka

$(FRONT)/comment_dump: test/front/comment_dump.c $(PBJC_SAN_LIB_OBJS) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) -o $@ $< $(PBJC_SAN_LIB_OBJS) $(PBJC_LIBS)

.PHONY: check-front check-front-units check-front-comments check-front-driver check-front-man check-front-parity
check-front-units: $(FRONT_UNITS)
	$(FRONT)/lex_test
	$(FRONT)/parse_test
	$(FRONT)/corpus_test $(FRONT_CORPUS)

check-front-comments: $(FRONT)/comment_dump | deps
	test/front/comments.sh $(FRONT)/comment_dump

check-front-driver: pbjc | deps
	test/front/driver.sh ./pbjc

check-front-man: pbjc
	test/front/help_man.sh ./pbjc

check-front-parity: pbjc | deps
	test/front/parity.sh ./pbjc

check-front: check-front-units check-front-comments check-front-driver check-front-man check-front-parity

CHECKS += check-front
