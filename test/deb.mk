# test/deb.mk: check-deb builds the Debian packages of debian/ (pbjc, libpbj-dev) in a copy of the tree, lints
# them and uses them from a scratch root (test/deb/run.sh).
.PHONY: check-deb deb-deps
DEB_DEB := debhelper dpkg-dev lintian pkg-config
CHECK_DEB_PKGS += $(DEB_DEB)
deb-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_DEB)"

CHECKS += check-deb
check-deb: | deps deb-deps
	sh test/deb/run.sh
