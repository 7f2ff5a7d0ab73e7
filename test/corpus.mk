# test/corpus.mk: real schemas pass `pbjc --check` with no error, and protoc accepts the
# same command; the unused-import warnings are the ones protoc gives.
# Sets: the well-known types in /usr/include, and hapi-v0.59.0 with the roots protoc needs
# (services, block, platform and streams together; mirror and sdk each first on their own).
HAPI := ../shared/corpus/hapi-v0.59.0

# check_corpus(name, roots, files): pbjc and protoc on the same command line.
define check_corpus
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	files="$(3)"; roots="$(foreach r,$(2),-I $(r))"; \
	./pbjc --check $$roots $$files 2>"$$tmp/pbjc.err" || { cat "$$tmp/pbjc.err"; echo "FAIL corpus $(1): pbjc --check"; exit 1; }; \
	! grep -q ': error:' "$$tmp/pbjc.err" || { cat "$$tmp/pbjc.err"; exit 1; }; \
	protoc $$roots -o "$$tmp/set.pb" $$files 2>"$$tmp/protoc.err" || { cat "$$tmp/protoc.err"; echo "FAIL corpus $(1): protoc"; exit 1; }; \
	grep -o 'Import [^ ]* is unused' "$$tmp/pbjc.err" | sort > "$$tmp/pbjc.unused" || true; \
	grep -o 'Import [^ ]* is unused' "$$tmp/protoc.err" | sort > "$$tmp/protoc.unused" || true; \
	diff -u "$$tmp/protoc.unused" "$$tmp/pbjc.unused" || { echo "FAIL corpus $(1): unused-import warnings differ from protoc's"; exit 1; }; \
	echo "corpus $(1): $$(echo $$files | wc -w) files pass pbjc --check and protoc"
endef

.PHONY: check-corpus
check-corpus: pbjc | deps
	$(call check_corpus,wkt,/usr/include,$$(find /usr/include/google/protobuf -name '*.proto' | sort))
	$(call check_corpus,hapi,$(HAPI)/services $(HAPI)/block $(HAPI)/platform $(HAPI)/streams,$$(find $(HAPI)/services $(HAPI)/block $(HAPI)/platform $(HAPI)/streams -name '*.proto' | sort))
	$(call check_corpus,hapi-mirror,$(HAPI)/mirror $(HAPI)/services,$$(find $(HAPI)/mirror -name '*.proto' | sort))
	$(call check_corpus,hapi-sdk,$(HAPI)/sdk $(HAPI)/services $(HAPI)/platform,$$(find $(HAPI)/sdk -name '*.proto' | sort))

CHECKS += check-corpus
