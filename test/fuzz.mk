# test/fuzz.mk: libFuzzer targets (clang, ASan+UBSan): the .proto parser (test/front's
# fuzz_parse) and generated decode, through test/fuzz/fuzz_decode.c, of test/parity's proto2
# schema with test/golden's extensions and message sets (and test/encode's extwire and extforeign), of its proto3 schemas, of
# descriptor.proto's FileDescriptorSet and of hapi's Block (with the corpus), generated with every API (the reverse
# encoder, writers and views must agree with decode and encode); M_from_json of the proto3 schemas (fuzz_json.c);
# pbjc against libprotobuf's C++ on protobuf's TestAllTypesProto2/3, bytes and JSON (fuzz_diff.cc, with protobuf-src).
# `make fuzz` builds them; `make fuzz FUZZ_SECONDS=N` also runs each for N seconds, growing
# $(FUZZ)/corpus-<target>; check-fuzz runs each for FUZZ_RUNS inputs from its seeds.
# check-fuzz builds its targets at -O0 (a few thousand inputs each: compile time is what counts), in
# build/fuzz-O0; `make fuzz` builds them at -O1 for long runs, in build/fuzz-O1
FUZZ_OPT    ?= $(if $(filter fuzz fuzz-run-%,$(MAKECMDGOALS)),-O1,-O0)
FUZZ        := $(B)/fuzz$(FUZZ_OPT)
FUZZ_RUNS   ?= 3000
FUZZ_RUNS_parse ?= 300
# the differential targets run C++ beside pbjc on each input: a few seconds each in check-fuzz
FUZZ_RUNS_diff ?= 1000
FUZZ_RUNS_diff_json ?= 1000
# extra libFuzzer flags for long runs, e.g. FUZZ_FLAGS='-fork=1 -ignore_crashes=1' to go on past a crash
FUZZ_FLAGS  ?=
FUZZ_CC     := clang -std=c11 $(WARN) -Werror -g $(FUZZ_OPT) -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_SCHEMA := $(addprefix test/parity/schemas/,proto2 byvalue scalars maps nesting wrappers wkt) \
               test/golden/extensions/extensions test/golden/message_set/message_set test/encode/extwire \
               test/encode/extforeign
FUZZ_WKT    := $(addprefix google/protobuf/,wrappers any duration empty field_mask struct timestamp descriptor)
FUZZ_APIS   := --fast-write --writers --views
FUZZ_DECODE := proto2 proto3 descriptor $(if $(CORPUS_FOUND),hapi)
# the differential targets (below) need protobuf 3.21.12's sources (`make protobuf-src`): skipped without them
DIFF_FOUND   := $(wildcard $(PROTOBUF_SRC)/google/protobuf/test_messages_proto3.proto)
# the same decode targets with the code generated with --performance=size (the table walker)
FUZZ_SIZE    := proto2_size proto3_size
FUZZ_TARGETS := parse $(FUZZ_DECODE) $(FUZZ_SIZE) text json $(if $(DIFF_FOUND),diff diff_json)
FUZZ_DICT_parse  := test/fuzz/proto.dict
FUZZ_SEEDS_parse := test/front/cases
FUZZ_DICT_json   := test/fuzz/json.dict
FUZZ_DICT_diff_json := test/fuzz/json.dict
FUZZ_SEEDS_proto2_size := test/fuzz/seeds/proto2
FUZZ_SEEDS_proto3_size := test/fuzz/seeds/proto3
# objects each decode target links; every one links the run's home (extwire.pb.c, the input the most import: it holds
# the run's one copy of the runtime, README "One copy of the runtime per pbjc run")
FUZZ_HOME            := $(FUZZ)/obj/extwire.o
FUZZ_OBJS_proto2     := $(FUZZ)/obj/proto2.o $(FUZZ)/obj/byvalue.o $(FUZZ)/obj/extensions.o $(FUZZ)/obj/message_set.o $(FUZZ_HOME) \
                        $(FUZZ)/obj/extforeign.o
FUZZ_OBJS_proto3     := $(addprefix $(FUZZ)/obj/,$(addsuffix .o,scalars maps nesting wrappers wkt \
                        $(filter-out %/descriptor,$(FUZZ_WKT)))) $(FUZZ_HOME)
FUZZ_OBJS_descriptor := $(FUZZ)/obj/google/protobuf/descriptor.o $(FUZZ_HOME)
# hapi's generated files with every API, split in two units by test/hapi.mk (its HAPI_ALL: read after this file)
FUZZ_HAPI_PB   := $(B)/hapi-all
FUZZ_OBJS_hapi := $(FUZZ)/hapi_unit_1.o $(FUZZ)/hapi_unit_2.o

$(FUZZ)/pb/.stamp: pbjc $(FUZZ_SCHEMA:%=%.proto)
	@mkdir -p $(@D)
	./pbjc $(FUZZ_APIS) -I test/parity/schemas -I test/golden/extensions -I test/golden/message_set -I test/encode \
	  -I /usr/include -o $(FUZZ)/pb $(FUZZ_SCHEMA:%=%.proto) $(FUZZ_WKT:%=/usr/include/%.proto)
	@touch $@

.SECONDARY: $(foreach t,$(FUZZ_DECODE),$(FUZZ_OBJS_$(t)))
$(FUZZ)/obj/%.o: $(FUZZ)/pb/.stamp $(wildcard rt/*.h) | deps
	@mkdir -p $(@D)
	$(FUZZ_CC) -fsanitize=fuzzer-no-link -Irt -I$(FUZZ)/pb -c -o $@ $(FUZZ)/pb/$*.pb.c

# hapi's generated files as test/hapi.mk writes them, at -O0 (with sanitizers -O1 takes minutes)
$(FUZZ)/hapi_unit_%.o: $(FUZZ_HAPI_PB)/.stamp $(wildcard rt/*.h) | deps
	@mkdir -p $(@D)
	$(FUZZ_CC) -O0 -fsanitize=fuzzer-no-link -DPBJ__RUN_SHARED=0 -Irt -I$(FUZZ_HAPI_PB) -c -o $@ $(FUZZ_HAPI_PB)/unit_$*.c

$(FUZZ)/fuzz_parse: $(FRONT)/fuzz_parse
	@mkdir -p $(@D)
	cp $< $@

$(foreach t,proto2 proto3 descriptor hapi,$(eval $(FUZZ)/fuzz_$(t): $(FUZZ_OBJS_$(t)) test/fuzz/$(t).h))
# M_from_json (test/fuzz/fuzz_json.c) of the proto3 schemas and of the extensions and message set
FUZZ_OBJS_json := $(FUZZ_OBJS_proto3) $(FUZZ)/obj/extensions.o $(FUZZ)/obj/message_set.o
$(FUZZ)/fuzz_json: test/fuzz/fuzz_json.c $(FUZZ_OBJS_json) | deps
	$(FUZZ_CC) -fsanitize=fuzzer -Irt -I$(FUZZ)/pb -o $@ $< $(FUZZ_OBJS_json) -lm

# the size tier: every message's size, encode and decode walk its table (--fast-write still generates the reverse
# encoder, which must agree with it)
$(FUZZ)/pb-size/.stamp: pbjc $(FUZZ_SCHEMA:%=%.proto)
	@mkdir -p $(@D)
	./pbjc --performance=size $(FUZZ_APIS) -I test/parity/schemas -I test/golden/extensions -I test/golden/message_set \
	  -I test/encode -I /usr/include -o $(FUZZ)/pb-size $(FUZZ_SCHEMA:%=%.proto) $(FUZZ_WKT:%=/usr/include/%.proto)
	@touch $@

FUZZ_OBJS_proto2_size := $(subst $(FUZZ)/obj/,$(FUZZ)/obj-size/,$(FUZZ_OBJS_proto2))
FUZZ_OBJS_proto3_size := $(subst $(FUZZ)/obj/,$(FUZZ)/obj-size/,$(FUZZ_OBJS_proto3))
.SECONDARY: $(FUZZ_OBJS_proto2_size) $(FUZZ_OBJS_proto3_size)
$(FUZZ)/obj-size/%.o: $(FUZZ)/pb-size/.stamp $(wildcard rt/*.h) | deps
	@mkdir -p $(@D)
	$(FUZZ_CC) -fsanitize=fuzzer-no-link -Irt -I$(FUZZ)/pb-size -c -o $@ $(FUZZ)/pb-size/$*.pb.c

$(FUZZ)/fuzz_proto2_size: $(FUZZ_OBJS_proto2_size) test/fuzz/proto2.h
$(FUZZ)/fuzz_proto3_size: $(FUZZ_OBJS_proto3_size) test/fuzz/proto3.h
$(FUZZ)/fuzz_proto2_size $(FUZZ)/fuzz_proto3_size: $(FUZZ)/fuzz_%_size: test/fuzz/fuzz_decode.c test/parity/wire.h | deps
	$(FUZZ_CC) -fsanitize=fuzzer -Irt -Itest/fuzz -Itest/parity -I$(FUZZ)/pb-size -DFUZZ_TARGET='"$*.h"' \
	  -o $@ $< $(FUZZ_OBJS_$*_size)

$(FUZZ)/fuzz_%: test/fuzz/fuzz_decode.c test/parity/wire.h | deps
	$(FUZZ_CC) -fsanitize=fuzzer -Irt -Itest/fuzz -Itest/parity -I$(FUZZ)/pb -I$(FUZZ_HAPI_PB) -DFUZZ_TARGET='"$*.h"' \
	  -o $@ $< $(FUZZ_OBJS_$*)

# The differential targets (test/fuzz/fuzz_diff.cc): pbjc's code (test/fuzz/diff_pbj.c) against libprotobuf's C++
# (libprotobuf-dev) on protobuf's TestAllTypesProto2/3 (test_messages_proto2/3.proto of protobuf 3.21.12's sources);
# fuzz_diff reads bytes, fuzz_diff_json JSON. C++ only here, in the test.
DIFF        := $(FUZZ)/diff
DIFF_PROTOS := google/protobuf/test_messages_proto2.proto google/protobuf/test_messages_proto3.proto
DIFF_WKT    := $(addprefix google/protobuf/,any duration field_mask struct timestamp wrappers)
DIFF_OBJS   := $(addprefix $(DIFF)/obj/,$(DIFF_PROTOS:.proto=.pb.o) $(DIFF_WKT:%=%.pb.o) diff_pbj.o) \
               $(addprefix $(DIFF)/cpp/,$(DIFF_PROTOS:.proto=.pb.o))
FUZZ_CXX    := clang++ -std=c++17 -Wall -Wextra -Werror -g $(FUZZ_OPT) -fsanitize=address,undefined -fno-sanitize-recover=all

$(DIFF)/.stamp: pbjc | deps
	@mkdir -p $(DIFF)/pb
	./pbjc -I $(PROTOBUF_SRC) -o $(DIFF)/pb $(DIFF_PROTOS) $(DIFF_WKT:%=%.proto)
	@touch $@
# protoc's C++ of the two schemas (it does not change with pbjc)
$(DIFF)/cpp/.stamp: | deps
	@mkdir -p $(@D)
	protoc -I $(PROTOBUF_SRC) --cpp_out=$(@D) $(DIFF_PROTOS)
	@touch $@

.SECONDARY: $(DIFF_OBJS)
$(DIFF)/obj/diff_pbj.o: test/fuzz/diff_pbj.c test/fuzz/diff_pbj.h $(DIFF)/.stamp $(wildcard rt/*.h)
	$(FUZZ_CC) -fsanitize=fuzzer-no-link -Irt -I$(DIFF)/pb -c -o $@ $<
$(DIFF)/obj/%.pb.o: $(DIFF)/.stamp $(wildcard rt/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) -fsanitize=fuzzer-no-link -Irt -I$(DIFF)/pb -c -o $@ $(DIFF)/pb/$*.pb.c
$(DIFF)/cpp/%.pb.o: $(DIFF)/cpp/.stamp
	$(FUZZ_CXX) -w -fsanitize=fuzzer-no-link -I$(DIFF)/cpp -c -o $@ $(DIFF)/cpp/$*.pb.cc

$(FUZZ)/fuzz_diff $(FUZZ)/fuzz_diff_json: $(FUZZ)/fuzz_%: test/fuzz/fuzz_diff.cc test/fuzz/diff_pbj.h $(DIFF_OBJS) $(DIFF)/cpp/.stamp | deps
	$(FUZZ_CXX) -fsanitize=fuzzer $(if $(filter diff_json,$*),-DDIFF_JSON) -Itest/fuzz -I$(DIFF)/cpp -o $@ $< $(DIFF_OBJS) -lprotobuf -lm

# fuzz_run(target, libFuzzer flags, corpus dir): the target on its corpus and its seeds
fuzz_run = $(FUZZ)/fuzz_$(1) $(2) -max_len=$(if $(filter hapi descriptor,$(1)),65536,8192) \
	  -dict=$(or $(FUZZ_DICT_$(1)),test/fuzz/wire.dict) -close_fd_mask=2 -artifact_prefix=$(FUZZ)/$(1)- \
	  $(3) $(or $(FUZZ_SEEDS_$(1)),test/fuzz/seeds/$(1)) >$(FUZZ)/$(1).log 2>&1 || { tail -40 $(FUZZ)/$(1).log; exit 1; }

.PHONY: fuzz check-fuzz $(FUZZ_TARGETS:%=check-fuzz-%) $(FUZZ_TARGETS:%=fuzz-run-%)
fuzz: $(FUZZ_TARGETS:%=$(FUZZ)/fuzz_%) $(if $(filter command line environment,$(origin FUZZ_SECONDS)),$(FUZZ_TARGETS:%=fuzz-run-%))
	$(call corpus_skip,fuzz: hapi's Block)

$(FUZZ_TARGETS:%=fuzz-run-%): fuzz-run-%: $(FUZZ)/fuzz_%
	@mkdir -p $(FUZZ)/corpus-$*
	$(call fuzz_run,$*,-max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS),$(FUZZ)/corpus-$*)
	@grep -E '^Done|^#[0-9]+.*DONE' $(FUZZ)/$*.log | tail -1

# a short fixed run: the seeds, then FUZZ_RUNS inputs from seed 1 into a fresh corpus
$(FUZZ_TARGETS:%=check-fuzz-%): check-fuzz-%: $(FUZZ)/fuzz_%
	rm -rf $(FUZZ)/check-$* && mkdir -p $(FUZZ)/check-$*
	$(call fuzz_run,$*,-runs=$(or $(FUZZ_RUNS_$*),$(FUZZ_RUNS)) -seed=1,$(FUZZ)/check-$*)
	@echo "fuzz $*: $$(grep -E '^Done' $(FUZZ)/$*.log)"
	$(if $(filter $*,$(FUZZ_SIZE)),$(call fuzz_twin,$(*:%_size=%)))

# the size tier's twin check, after its run: every input of its corpus and seeds decoded (under four option sets),
# encoded and printed by the walker and by the default tier's generated code (FUZZ_TWIN_LOG), the logs the same;
# no leak check: libFuzzer runs an input a second time when it suspects a leak, which would log it twice
$(foreach t,$(FUZZ_SIZE),$(eval check-fuzz-$(t): $(FUZZ)/fuzz_$(t:%_size=%)))
fuzz_twin = find $(FUZZ)/check-$(1)_size $(FUZZ_SEEDS_$(1)_size) -type f | sort >$(FUZZ)/twin-$(1).list && \
	rm -f $(FUZZ)/twin-$(1).walker $(FUZZ)/twin-$(1).code && \
	FUZZ_TWIN_LOG=$(FUZZ)/twin-$(1).walker xargs $(FUZZ)/fuzz_$(1)_size -detect_leaks=0 <$(FUZZ)/twin-$(1).list >$(FUZZ)/twin-$(1).log 2>&1 && \
	FUZZ_TWIN_LOG=$(FUZZ)/twin-$(1).code xargs $(FUZZ)/fuzz_$(1) -detect_leaks=0 <$(FUZZ)/twin-$(1).list >>$(FUZZ)/twin-$(1).log 2>&1 && \
	cmp $(FUZZ)/twin-$(1).walker $(FUZZ)/twin-$(1).code && \
	echo "fuzz $(1)_size: $$(wc -l <$(FUZZ)/twin-$(1).list) inputs decode, encode and print the same as the default tier's"

check-fuzz: $(FUZZ_TARGETS:%=check-fuzz-%)
	$(call corpus_skip,check-fuzz: hapi's Block)
	$(if $(DIFF_FOUND),,@echo "check-fuzz: the differential targets: skipped: $(PROTOBUF_SRC) not found (make protobuf-src fetches it)")

CHECKS += check-fuzz
