# src/wkt/wkt.mk: the well-known types' .proto files become C string literals ($(B)/wkt/files.inc,
# by our own src/tools/wkt2c) that src/wkt.c includes, so pbjc needs no copy of them on disk.
WKT_PROTOS := $(sort $(shell find src/wkt -name '*.proto'))
WKT_INC    := $(B)/wkt/files.inc

$(B)/tools/wkt2c: src/tools/wkt2c.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $<

$(WKT_INC): $(B)/tools/wkt2c $(WKT_PROTOS)
	@mkdir -p $(@D)
	$(B)/tools/wkt2c $@ src/wkt $(WKT_PROTOS)

$(B)/wkt.o: $(WKT_INC)
