# test/plugin.mk: pbjc as protoc's plugin (test/plugin/run.sh: protoc --plugin=protoc-gen-pbj writes
# pbjc -o's files; errors). Also: the checked-in code of plugin.proto and descriptor.proto (src/pbgen)
# is what this pbjc writes, and `make install` links protoc-gen-pbj (the set runs through that link).
# Reuses ./pbjc and check-descriptor's sanitized pbjc; one protoc run per schema set. First irdesc.c's units.
PLUGIN := $(B)/plugin

.PHONY: check-plugin check-plugin-units
CHECKS += check-plugin

# irdesc.c's units (cmocka, ASan+UBSan): descriptors of small schemas give the parser's IR; broken ones, errors.
IRDESC_TEST := $(B)/plugin-units/irdesc_test
$(IRDESC_TEST): test/plugin/irdesc_test.c test/unit/front_util.h test/unit/temp_dir.h $(PBJC_SAN_LIB_OBJS) | deps
	@mkdir -p $(@D)
	$(SAN_CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) -Itest/unit -o $@ $< $(PBJC_SAN_LIB_OBJS) $(PBJC_LIBS) -lcmocka

check-plugin-units: $(IRDESC_TEST)
	$(IRDESC_TEST)

check-plugin: pbjc $(DESC)/pbjc_san check-plugin-units | deps
	rm -rf $(PLUGIN) && mkdir -p $(PLUGIN)/san
	./pbjc $(PBGEN_FLAGS) -o $(PLUGIN)/pbgen $(PBGEN_PROTOS)
	diff -r src/pbgen $(PLUGIN)/pbgen || { echo "check-plugin: src/pbgen is not what this pbjc writes: make pbgen-update, then commit it"; exit 1; }
	env -u MAKEFLAGS -u MAKELEVEL $(MAKE) -s install PREFIX=$(abspath $(PLUGIN))/inst >/dev/null
	test -L $(PLUGIN)/inst/bin/protoc-gen-pbj || { echo "check-plugin: make install made no protoc-gen-pbj link"; exit 1; }
	ln -s $(abspath $(DESC)/pbjc_san) $(PLUGIN)/san/protoc-gen-pbj
	test/plugin/run.sh $(PLUGIN)/inst/bin/protoc-gen-pbj $(PLUGIN)/san/protoc-gen-pbj ./pbjc $(PLUGIN)/out $(CORPUS_FOUND)
