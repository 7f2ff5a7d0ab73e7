# test/descriptor.mk: --descriptor_set_out against protoc: the writer on hand-built IR
# (cmocka, ASan+UBSan), then whole-corpus parity with ./pbjc and with a sanitized pbjc.
DESC := $(B)/descriptor

$(DESC)/test_descriptor: test/descriptor/unit/test_descriptor.c $(PBJC_SAN_LIB_OBJS) | deps
	@mkdir -p $(@D)
	$(SAN_CC) $(ALL_CFLAGS) $(SAN) $(PBJC_CPPFLAGS) -o $@ $< $(PBJC_SAN_LIB_OBJS) $(PBJC_LIBS) -lcmocka

$(DESC)/pbjc_san: $(PBJC_SAN_LIB_OBJS) $(PBJC_SAN_DIR)/main.o
	@mkdir -p $(@D)
	$(SAN_CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(PBJC_LIBS)

.PHONY: check-descriptor
check-descriptor: $(DESC)/test_descriptor $(DESC)/pbjc_san pbjc | deps
	$(DESC)/test_descriptor $(DESC)
	CORPUS="$(CORPUS_FOUND)" test/descriptor/parity.sh ./pbjc $(DESC)/plain
	CORPUS="$(CORPUS_FOUND)" test/descriptor/parity.sh $(DESC)/pbjc_san $(DESC)/san
	$(call corpus_skip,check-descriptor: the hapi sets)

# Parity on protobuf 3.21.12's own test schemas (the version of Debian's protoc), when their sources are
# in PROTOBUF_SRC: `make protobuf-src` fetches Debian's source package there (apt-get source with a
# private deb-src list under $(B)/cache; no root needed, nothing in /etc touched); offline the group
# says it skipped. A CI run with network access does `make protobuf-src check`.
PROTOBUF_CACHE ?= $(B)/cache
PROTOBUF_SRC   ?= $(PROTOBUF_CACHE)/protobuf-3.21.12/src
APT_DIR        = $(abspath $(PROTOBUF_CACHE))/apt
APT_PRIVATE    = -o Dir::Etc::SourceList=$(APT_DIR)/none -o Dir::Etc::SourceParts=$(APT_DIR)/etc \
                  -o Dir::State::Lists=$(APT_DIR)/lists -o Dir::Cache=$(APT_DIR)/cache \
                  -o Debug::NoLocking=1

.PHONY: protobuf-src check-descriptor-protobuf
# apt-src-lists: the private deb-src lists (Debian's source packages: protobuf here, the peers' in bench.mk)
.PHONY: apt-src-lists
apt-src-lists:
	@mkdir -p $(APT_DIR)/etc $(APT_DIR)/lists/partial $(APT_DIR)/cache/archives/partial && touch $(APT_DIR)/none
	printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	  >$(APT_DIR)/etc/src.sources
	apt-get $(APT_PRIVATE) update

protobuf-src: apt-src-lists
	cd $(PROTOBUF_CACHE) && apt-get $(APT_PRIVATE) source --download-only protobuf
	cd $(PROTOBUF_CACHE) && tar xzf protobuf_3.21.12.orig.tar.gz protobuf-3.21.12/src

check-descriptor-protobuf: pbjc | deps
	@if [ -d "$(PROTOBUF_SRC)/google/protobuf" ]; then \
	  test/descriptor/protobuf_src.sh ./pbjc $(PROTOBUF_SRC) $(DESC)/protobuf; \
	else echo "check-descriptor-protobuf: skipped: $(PROTOBUF_SRC) not found (make protobuf-src fetches it)"; fi

check-descriptor: check-descriptor-protobuf

CHECKS += check-descriptor
