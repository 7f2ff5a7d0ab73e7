# src/wkt/wkt.mk: the well-known types' .proto files become C string literals ($(B)/wkt/files.inc,
# by our own src/tools/wkt2c) that src/wkt.c includes, so pbjc needs no copy of them on disk; and
# src/proto's newer descriptor.proto ($(B)/wkt/schema.inc), the schema standard options are read against.
WKT_PROTOS := $(sort $(shell find src/wkt -name '*.proto'))
WKT_INC    := $(B)/wkt/files.inc
WKT_SCHEMA := src/proto/google/protobuf/descriptor.proto
WKT_SCHEMA_INC := $(B)/wkt/schema.inc

$(B)/tools/wkt2c: src/tools/wkt2c.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $<

$(WKT_INC): $(B)/tools/wkt2c $(WKT_PROTOS)
	@mkdir -p $(@D)
	$(B)/tools/wkt2c $@ wkt_files src/wkt $(WKT_PROTOS)

$(WKT_SCHEMA_INC): $(B)/tools/wkt2c $(WKT_SCHEMA)
	@mkdir -p $(@D)
	$(B)/tools/wkt2c $@ wkt_schema_files src/proto $(WKT_SCHEMA)

$(B)/wkt.o: $(WKT_INC) $(WKT_SCHEMA_INC)

# ---- install: the well-known types' generated C ---------------------------------------------
# `make install` puts their headers in $(PREFIX)/include/pbj/google/protobuf/ (so the generated
# `#include "google/protobuf/timestamp.pb.h"` of a schema importing one finds them through pbj.pc's
# -I$(PREFIX)/include/pbj, and `#include <pbj/google/protobuf/timestamp.pb.h>` works) and their
# compiled .pb.c in $(PREFIX)/lib/libpbj_wkt.a (pkg-config pbj-wkt; CMake's pbj::wkt), made with the
# default pbj options by this pbjc from its compiled-in copies.
WKT_NAMES  := $(patsubst src/wkt/%.proto,%,$(WKT_PROTOS))
WKT_GEN    := $(B)/wkt/gen
WKT_LIB    := $(B)/wkt/libpbj_wkt.a
WKT_OBJS   := $(WKT_NAMES:%=$(B)/wkt/obj/%.o)

$(WKT_GEN)/.stamp: pbjc
	@mkdir -p $(@D) $(B)/wkt/noroot
	./pbjc -I $(B)/wkt/noroot -o $(WKT_GEN) $(WKT_NAMES:%=%.proto)
	touch $@

$(WKT_GEN)/%.pb.c: $(WKT_GEN)/.stamp ;

$(B)/wkt/obj/%.o: $(WKT_GEN)/%.pb.c $(wildcard rt/*.h)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Irt -I$(WKT_GEN) -c -o $@ $<

$(WKT_LIB): $(WKT_OBJS)
	rm -f $@
	ar rcs $@ $^

.PHONY: install-wkt
install: install-wkt
install-wkt: $(WKT_LIB)
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/pbj/google/protobuf/compiler
	for n in $(WKT_NAMES); do install -m 644 $(WKT_GEN)/$$n.pb.h $(DESTDIR)$(PREFIX)/include/pbj/$$n.pb.h || exit 1; done
	install -m 644 $(WKT_LIB) $(DESTDIR)$(PREFIX)/lib/libpbj_wkt.a
	printf 'prefix=%s\nlibdir=$${prefix}/lib\n\nName: pbj-wkt\nDescription: the well-known types (google/protobuf/*.proto) compiled by pbjc\nVersion: %s\nRequires: pbj\nLibs: -L$${libdir} -lpbj_wkt -lm\n' \
	  '$(PREFIX)' '$(PBJC_VERSION)' > $(DESTDIR)$(PREFIX)/lib/pkgconfig/pbj-wkt.pc

# Built once here, before the groups that install side by side (make -j) would both build it.
check-install check-cmake: $(WKT_LIB)
.PRECIOUS: $(WKT_GEN)/%.pb.c
