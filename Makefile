# Makefile: builds pbjc, its tests and benchmarks. Each area adds its rules in a
# fragment of its own (src/build.mk, test/*.mk, bench/bench.mk, samples/...).

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
CXX     ?= c++
B       := build

WARN     := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wpointer-arith -Wcast-qual -Wwrite-strings -Wformat=2 -Wundef
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS)
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# Fragments append to these.
CHECKS   :=
CLEAN    := $(B)

.PHONY: all check clean install deps
all: pbjc

include src/build.mk
-include rt/rt.mk
-include gen-templates/templates.mk
-include $(sort $(wildcard test/*.mk))
-include bench/bench.mk
-include samples/samples.mk

check: $(CHECKS)
	@echo "make check: all $(words $(CHECKS)) test groups passed"

clean:
	rm -rf $(CLEAN) pbjc

# deps: install what the build and tests need from Debian's packages, if missing.
DEB_PKGS := re2c lemon libcmocka-dev libxxhash-dev protobuf-compiler libprotobuf-dev libprotoc-dev pkg-config clang libclang-rt-dev python3-protobuf
deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
