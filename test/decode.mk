# test/decode.mk: decode's wire semantics (protobuf C++ 3.21's: wrong wire types, map entries, wrapper
# payloads, the depth limit) and memory limit, on test/decode/decode.proto, under ASan+UBSan; the same
# tests over the max tier's code (small messages' decoders inlined, --performance=max); pbj.drop_unknown
# (test_drop, on test/decode/drop.proto with --fast-write) in both tiers.
DECODE := $(B)/decode

$(DECODE)/%/.stamp: pbjc test/decode/decode.proto test/decode/drop.proto
	@mkdir -p $(@D)
	./pbjc $(if $(filter max,$*),--performance=max) -I test/decode -I /usr/include -o $(@D) test/decode/decode.proto \
	  /usr/include/google/protobuf/wrappers.proto
	./pbjc $(if $(filter max,$*),--performance=max) --fast-write -I test/decode -o $(@D) test/decode/drop.proto
	@touch $@

$(DECODE)/test_decode_%: test/decode/test_decode.c test/decode/unhex.h $(DECODE)/%/.stamp $(wildcard rt/*.h) | deps
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) $(if $(filter max,$*),-DDECODE_REVERSE) -Irt -I$(DECODE)/$* -o $@ $< \
	  $(DECODE)/$*/decode.pb.c $(DECODE)/$*/google/protobuf/wrappers.pb.c -lcmocka

$(DECODE)/test_drop_%: test/decode/test_drop.c test/decode/unhex.h $(DECODE)/%/.stamp $(wildcard rt/*.h) | deps
	$(CC) -std=c11 $(WARN) -Werror $(SAN_OPT) -g $(SAN) -Irt -I$(DECODE)/$* -o $@ $< $(DECODE)/$*/drop.pb.c -lcmocka

.PHONY: check-decode
check-decode: $(DECODE)/test_decode_default $(DECODE)/test_decode_max $(DECODE)/test_drop_default $(DECODE)/test_drop_max
	$(DECODE)/test_decode_default
	$(DECODE)/test_decode_max
	@# the max tier decodes small scalar-only messages inline in their parents (Leaf's decoder always inline); the default does not
	grep -q '^PBJ_HOT_INLINE pbj_status dec_Leaf__decode_leaf(' $(DECODE)/max/decode.pb.c
	grep -q 'dec_Leaf__decode_leaf(&m->list.data' $(DECODE)/max/decode.pb.c
	! grep -q '__decode_leaf' $(DECODE)/default/decode.pb.c
	@# a scalar-only message keeps no depth count in either tier (its check only); Top and map entries keep theirs
	grep -A4 '^pbj_status dec_Leaf__decode(' $(DECODE)/default/decode.pb.c | grep -q 'nothing nested inside'
	grep -A5 '^pbj_status dec_Top__decode(' $(DECODE)/default/decode.pb.c | grep -q 'd->depth_left = depth_left - 1'
	grep -A5 '^pbj_status dec_Top_NamesEntry__decode(' $(DECODE)/default/decode.pb.c | grep -q 'd->depth_left = depth_left - 1'
	$(DECODE)/test_drop_default
	$(DECODE)/test_drop_max
# TestAllTypesProto3's limits (test/decode/limits3.c) on the conformance suite's objects of protobuf's
# test_messages_proto3.proto (test/conformance.mk); skipped, saying so, until `make protobuf-src` fetches them
DECODE_LIMITS3_O = $(CONF)/obj/google/protobuf/test_messages_proto3.pb.o $(CONF_WKT:%=$(CONF)/obj/google/protobuf/%.pb.o)
$(DECODE)/limits3: test/decode/limits3.c $(DECODE_LIMITS3_O)
	@mkdir -p $(@D)
	$(CC) $(CONF_CFLAGS) -o $@ $^ -lm

.PHONY: check-decode-limits3
check-decode-limits3: $(if $(CONF_HAVE),$(DECODE)/limits3)
	@if [ -n "$(CONF_HAVE)" ]; then $(DECODE)/limits3; \
	else echo "check-decode-limits3: skipped: $(CONF_TOP) not found (make protobuf-src fetches it)"; fi

check-decode: check-decode-limits3
CHECKS += check-decode
