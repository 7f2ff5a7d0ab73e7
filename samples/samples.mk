# samples/samples.mk: `make samples` builds pbjc and runs the shop sample.
.PHONY: samples check-samples
CLEAN += samples/gen samples/build samples/order_demo samples/order.bin

samples: pbjc
	$(MAKE) -C samples PBJC=$(CURDIR)/pbjc run

CHECKS += check-samples
check-samples: pbjc | deps
	sh test/samples/run.sh $(CURDIR)/pbjc
