# test/encode.mk: encode's promises (test/encode/unit.c: exact bytes, threads encoding one const message, NULL message
# members, message sets, depth limits, extension values that fail to encode) under
# ASan+UBSan with PBJ_ASSERT on, and message sets re-encoded as protobuf's C++ runtime does (test/encode/msgset.sh);
# extension records of every kind, of the right and wrong wire types, accepted or rejected and re-encoded as
# protobuf's C++ runtime does (test/encode/extwire.sh); message extensions declared in another file than their
# extendee's (test/encode/extforeign.proto) kept by decode and passed by by text and JSON.
ENCODE := $(B)/encode

$(ENCODE)/encode.pb.c: test/encode/encode.proto test/golden/message_set/message_set.proto test/encode/extwire.proto \
                      test/encode/extforeign.proto pbjc
	@mkdir -p $(@D)
	./pbjc --fast-write --writers -I test/encode -o $(ENCODE) test/encode/encode.proto
	./pbjc --fast-write -I test/golden/message_set -o $(ENCODE) test/golden/message_set/message_set.proto
	./pbjc --fast-write -I test/encode -o $(ENCODE) test/encode/extwire.proto test/encode/extforeign.proto

$(ENCODE)/unit: test/encode/unit.c $(ENCODE)/encode.pb.c $(wildcard rt/*.h) | deps
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -Irt -I$(ENCODE) -o $@ $< -lcmocka -lpthread

.PHONY: check-encode
check-encode: $(ENCODE)/unit test/encode/msgset.sh test/encode/extwire.sh test/encode/oracle.py | deps
	$(ENCODE)/unit
	test/encode/msgset.sh $(ENCODE)
	test/encode/extwire.sh $(ENCODE)

CHECKS += check-encode
