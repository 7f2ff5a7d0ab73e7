# samples/samples.mk: `make samples` builds pbjc and runs the shop and gateway samples.
.PHONY: samples check-samples
CLEAN += samples/gen samples/build samples/order_demo samples/order.bin
CLEAN += samples/gateway/gen samples/gateway/build samples/gateway/gateway samples/gateway/out

samples: pbjc
	$(MAKE) -C samples PBJC=$(CURDIR)/pbjc run
	$(MAKE) -C samples/gateway PBJC=$(CURDIR)/pbjc run

CHECKS += check-samples
check-samples: pbjc | deps
	sh test/samples/run.sh $(CURDIR)/pbjc
