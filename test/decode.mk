# test/decode.mk: decode's wire semantics (protobuf C++ 3.21's: wrong wire types, map entries, wrapper
# payloads, the depth limit) and memory limit, on test/decode/decode.proto, under ASan+UBSan; the same
# tests over the max tier's code (small messages' decoders inlined, --performance=max).
DECODE := $(B)/decode

$(DECODE)/%/.stamp: pbjc test/decode/decode.proto
	@mkdir -p $(@D)
	./pbjc $(if $(filter max,$*),--performance=max) -I test/decode -I /usr/include -o $(@D) test/decode/decode.proto \
	  /usr/include/google/protobuf/wrappers.proto
	@touch $@

$(DECODE)/test_decode_%: test/decode/test_decode.c $(DECODE)/%/.stamp $(wildcard rt/*.h) | deps
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) $(if $(filter max,$*),-DDECODE_REVERSE) -Irt -I$(DECODE)/$* -o $@ $< \
	  $(DECODE)/$*/decode.pb.c $(DECODE)/$*/google/protobuf/wrappers.pb.c -lcmocka

.PHONY: check-decode
check-decode: $(DECODE)/test_decode_default $(DECODE)/test_decode_max
	$(DECODE)/test_decode_default
	$(DECODE)/test_decode_max
CHECKS += check-decode
