# test/single.mk: where the runtime's out-of-line functions are compiled: one copy per pbjc run (the default),
# a static copy per object (files generated one run each), and the single-definition mode (PBJ_SINGLE_DEFINITION
# + one PBJ_IMPLEMENTATION file): test/single/run.sh builds the shop sample's code each way (and the size tier's),
# with gcc, clang and as C++, and checks with nm where each out-of-line runtime function is defined, and that the
# program prints what the default build prints.
SINGLE := $(B)/single

.PHONY: check-single
check-single: pbjc $(wildcard rt/*.h) test/single/leaf.proto test/single/main.c test/single/runtime.c test/single/run.sh | deps
	rm -rf $(SINGLE) && mkdir -p $(SINGLE)
	./pbjc --views --writers -I samples/proto -I test/single -o $(SINGLE)/gen samples/proto/shop/order.proto \
	  samples/proto/shop/common.proto test/single/leaf.proto
	./pbjc -I samples/proto -o $(SINGLE)/gen1 samples/proto/shop/order.proto
	./pbjc -I samples/proto -o $(SINGLE)/gen1 samples/proto/shop/common.proto
	./pbjc --views --writers --performance=size -I samples/proto -o $(SINGLE)/gensize samples/proto/shop/order.proto samples/proto/shop/common.proto
	CFLAGS_C="-std=c11 $(WARN) -Werror" test/single/run.sh $(SINGLE)

CHECKS += check-single
