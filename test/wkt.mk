# test/wkt.mk: the well-known types compiled into pbjc (test/wkt/run.sh; strace comes from Debian).
.PHONY: check-wkt wkt-deps
CHECKS += check-wkt

wkt-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="strace"

check-wkt: pbjc $(WKT_LIB) | deps wkt-deps
	sh test/wkt/run.sh ./pbjc $(B)/wkt/test $(WKT_LIB)
