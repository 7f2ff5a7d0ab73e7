# test/install.mk: `make install` gives a working toolchain: the installed pbjc
# builds the sample against the installed runtime found through pbj.pc.
.PHONY: check-install
CHECKS += check-install

check-install: pbjc | deps
	sh test/install/run.sh
