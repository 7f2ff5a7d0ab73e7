# test/editions.mk: editions 2023 and 2024 against buf (npm's @bufbuild/buf, a compiler that reads
# editions; protoc 3.21 cannot): descriptor sets byte for byte, error verdicts, wire bytes.
BUF_VERSION ?= 1.75.0
BUF_DIR     := $(B)/cache/buf
BUF         := $(BUF_DIR)/node_modules/.bin/buf
EDITIONS    := $(B)/editions

.PHONY: editions-deps check-editions check-editions-descriptor check-editions-errors
# Debian's nodejs and npm, unless an npm is on PATH already (NodeSource's nodejs carries its own)
editions-deps:
	@command -v npm >/dev/null || $(MAKE) --no-print-directory deps DEB_PKGS="nodejs npm"

# buf, installed once into the cache (the package's postinstall script is not needed: npm
# picks the platform's binary package itself)
$(BUF): | editions-deps
	@mkdir -p $(BUF_DIR)
	npm install --prefix $(BUF_DIR) --no-audit --no-fund --no-save @bufbuild/buf@$(BUF_VERSION)
	@touch $@

check-editions-descriptor: pbjc $(BUF)
	test/editions/descriptor.sh ./pbjc $(BUF) $(EDITIONS)/descriptor

check-editions-errors: pbjc $(BUF)
	test/editions/errors.sh ./pbjc $(BUF) $(EDITIONS)/errors

check-editions: check-editions-descriptor check-editions-errors

CHECKS += check-editions
