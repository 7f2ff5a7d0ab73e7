# test/meson.mk: check-meson builds both samples with samples/meson.build (Meson's generator(), ninja) from
# `make install`'s pbjc and pbj.pc, and checks what a touched or changed .proto rebuilds (test/meson/run.sh).
.PHONY: check-meson meson-deps
MESON_DEB := meson ninja-build pkg-config
CHECK_DEB_PKGS += $(MESON_DEB)
meson-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(MESON_DEB)"

CHECKS += check-meson
# the well-known types' library `make install` needs, built before the groups that install side by side
check-meson: pbjc $(WKT_LIB) | deps meson-deps
	sh test/meson/run.sh
