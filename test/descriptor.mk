# test/descriptor.mk: --descriptor_set_out against protoc: the writer on hand-built IR
# (cmocka, ASan+UBSan), then whole-corpus parity with ./pbjc and with a sanitized pbjc.
DESC := $(B)/descriptor

$(DESC)/test_descriptor: test/descriptor/unit/test_descriptor.c $(PBJC_SAN_LIB_OBJS) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) -o $@ $< $(PBJC_SAN_LIB_OBJS) $(PBJC_LIBS) -lcmocka

$(DESC)/pbjc_san: $(PBJC_SAN_LIB_OBJS) $(B)/san/main.o
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(PBJC_LIBS)

.PHONY: check-descriptor
check-descriptor: $(DESC)/test_descriptor $(DESC)/pbjc_san pbjc | deps
	$(DESC)/test_descriptor $(DESC)
	CORPUS="$(CORPUS_FOUND)" test/descriptor/parity.sh ./pbjc $(DESC)/plain
	CORPUS="$(CORPUS_FOUND)" test/descriptor/parity.sh $(DESC)/pbjc_san $(DESC)/san
	$(call corpus_skip,check-descriptor: the hapi sets)

CHECKS += check-descriptor
