# test/embedded.mk: the runtime and generated code for a microcontroller (arm-none-eabi-gcc, Cortex-M4,
# newlib): the default build (text printing included) compiles; with PBJ_NO_TEXT, PBJ_NO_STDIO and a
# PBJ_MALLOC that always fails, test/embedded/main.c links, and the objects need nothing of the C library
# but memcpy, memmove, memset, memcmp and strlen (and libgcc's helpers: what libgcc.a defines): no __assert_func
# (newlib's pulls in printf and malloc), no printf, no malloc. The default build with NDEBUG needs no assert.
EMBEDDED := $(B)/embedded
ARM_CC := arm-none-eabi-gcc
ARM_CFLAGS := -mcpu=cortex-m4 -mthumb -Os -std=c11 -Wall -Wextra -Wpedantic -Werror -ffunction-sections -fdata-sections
ARM_BARE := -DPBJ_NO_TEXT -DPBJ_NO_STDIO '-DPBJ_MALLOC(n)=((void)(n), (void *)0)' '-DPBJ_FREE(p)=((void)(p))'
ARM_LIBC_USED := memcpy memmove memset memcmp strlen

.PHONY: check-embedded embedded-deps
EMBEDDED_DEB := gcc-arm-none-eabi libnewlib-arm-none-eabi
CHECK_DEB_PKGS += $(EMBEDDED_DEB)
embedded-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(EMBEDDED_DEB)"

check-embedded: pbjc $(wildcard rt/*.h) test/embedded/main.c | embedded-deps
	rm -rf $(EMBEDDED) && mkdir -p $(EMBEDDED)/default $(EMBEDDED)/bare
	./pbjc -I samples/proto -o $(EMBEDDED)/gen samples/proto/shop/order.proto samples/proto/shop/common.proto
	for f in order common; do \
	  $(ARM_CC) $(ARM_CFLAGS) -DNDEBUG -Irt -I$(EMBEDDED)/gen -c -o $(EMBEDDED)/default/$$f.ndebug.o $(EMBEDDED)/gen/shop/$$f.pb.c && \
	  $(ARM_CC) $(ARM_CFLAGS) -Irt -I$(EMBEDDED)/gen -c -o $(EMBEDDED)/default/$$f.o $(EMBEDDED)/gen/shop/$$f.pb.c && \
	  $(ARM_CC) $(ARM_CFLAGS) $(ARM_BARE) -Irt -I$(EMBEDDED)/gen -c -o $(EMBEDDED)/bare/$$f.o $(EMBEDDED)/gen/shop/$$f.pb.c \
	  || exit 1; done
	$(ARM_CC) $(ARM_CFLAGS) $(ARM_BARE) -Irt -I$(EMBEDDED)/gen -c -o $(EMBEDDED)/bare/main.o test/embedded/main.c
	$(ARM_CC) $(ARM_CFLAGS) --specs=nosys.specs -Wl,--gc-sections -o $(EMBEDDED)/main.elf $(EMBEDDED)/bare/*.o
	arm-none-eabi-ld -r -o $(EMBEDDED)/all.o $(EMBEDDED)/bare/*.o
	@used=$$(arm-none-eabi-nm -u $(EMBEDDED)/all.o | awk 'NF == 2 { print $$2 }' | sort -u); \
	libgcc=" $$(arm-none-eabi-nm -g --defined-only $$($(ARM_CC) $(ARM_CFLAGS) -print-libgcc-file-name) | awk 'NF == 3 { print $$3 }' | tr '\n' ' ')"; \
	for s in $$used; do case " $(ARM_LIBC_USED) " in *" $$s "*) ;; *) case "$$libgcc" in *" $$s "*) continue;; esac; \
	  echo "FAIL embedded: the bare objects need $$s"; exit 1;; esac; done; \
	if arm-none-eabi-nm -u $(EMBEDDED)/default/*.ndebug.o | grep -w __assert_func; then \
	  echo "FAIL embedded: the default build with NDEBUG needs assert"; exit 1; fi; \
	echo "embedded: ok (arm-none-eabi: default build compiles; bare build links, using only: $$(echo $$used))"

CHECKS += check-embedded
