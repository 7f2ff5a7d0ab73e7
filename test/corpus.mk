# test/corpus.mk: real schemas pass `pbjc --check` with no error, and protoc accepts the
# same command; the unused-import warnings are the ones protoc gives.
# Sets: the well-known types in /usr/include, and hapi-v0.59.0 with the roots protoc needs
# (services, block, platform and streams together; mirror and sdk each first on their own),
# each set a target of its own; the hapi ones need the corpus.
HAPI_SETS := hapi hapi-mirror hapi-sdk

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

.PHONY: check-corpus check-corpus-wkt $(HAPI_SETS:%=check-corpus-%)
CHECKS += check-corpus
check-corpus: check-corpus-wkt $(HAPI_SETS:%=check-corpus-%)

check-corpus-wkt: pbjc | deps
	$(call check_corpus,wkt,/usr/include,$$(find /usr/include/google/protobuf -name '*.proto' | sort))

ifneq ($(CORPUS_FOUND),)
check-corpus-hapi: pbjc | deps
	$(call check_corpus,hapi,$(CORPUS_HAPI)/services $(CORPUS_HAPI)/block $(CORPUS_HAPI)/platform $(CORPUS_HAPI)/streams,$$(find $(CORPUS_HAPI)/services $(CORPUS_HAPI)/block $(CORPUS_HAPI)/platform $(CORPUS_HAPI)/streams -name '*.proto' | sort))
check-corpus-hapi-mirror: pbjc | deps
	$(call check_corpus,hapi-mirror,$(CORPUS_HAPI)/mirror $(CORPUS_HAPI)/services,$$(find $(CORPUS_HAPI)/mirror -name '*.proto' | sort))
check-corpus-hapi-sdk: pbjc | deps
	$(call check_corpus,hapi-sdk,$(CORPUS_HAPI)/sdk $(CORPUS_HAPI)/services $(CORPUS_HAPI)/platform,$$(find $(CORPUS_HAPI)/sdk -name '*.proto' | sort))
else
$(HAPI_SETS:%=check-corpus-%):
	$(call corpus_skip,$@)
endif
