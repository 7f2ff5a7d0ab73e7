# cmake/cmake.mk: `make install` also installs the CMake package (lib/cmake/pbj: find_package(pbj),
# pbj_generate); check-cmake builds the samples with it through the Ninja and Unix Makefiles generators.
.PHONY: install-cmake check-cmake cmake-deps
install: install-cmake
install-cmake:
	install -d $(DESTDIR)$(PREFIX)/lib/cmake/pbj
	install -m 644 cmake/pbjConfig.cmake $(DESTDIR)$(PREFIX)/lib/cmake/pbj/pbjConfig.cmake
	sed 's/@PBJC_VERSION@/$(PBJC_VERSION)/' cmake/pbjConfigVersion.cmake.in > $(DESTDIR)$(PREFIX)/lib/cmake/pbj/pbjConfigVersion.cmake

# its Debian packages, through the top Makefile's deps rule
CMAKE_DEB := cmake ninja-build
CHECK_DEB_PKGS += $(CMAKE_DEB)
cmake-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(CMAKE_DEB)"

CHECKS += check-cmake
check-cmake: pbjc | deps cmake-deps
	sh test/cmake/run.sh
