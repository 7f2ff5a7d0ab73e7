# test/parity.mk: parity with protoc: text primitives, generated code on random canonical,
# non-canonical and malformed messages (see test/parity/README.md).
PARITY := $(B)/parity
PARITY_CFLAGS = -std=c11 $(WARN) -O1 -g -Irt -Itest/parity

# pbj_text.h's primitives against protoc --decode, under ASan+UBSan.
$(PARITY)/text_test: test/parity/text_test.c test/parity/wire.h rt/pbj_text.h | deps
	@mkdir -p $(@D)
	$(CC) $(PARITY_CFLAGS) $(SAN) -o $@ $< -lcmocka -lm

.PHONY: check-parity-text
check-parity-text: $(PARITY)/text_test
	$(PARITY)/text_test

CHECKS += check-parity-text
