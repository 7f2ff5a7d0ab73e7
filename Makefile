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
# pbjc's own sanitizer build (build/san, the units that link it, pbjc_san) is clang's: gcc's UBSan does not see
# NULL + 0 (an empty slice's data plus its length), which clang's reports
SAN_CC   ?= clang
# a sanitizer's report ends the program with SIGABRT (exit 134), never with exit 1: the tests read 1 as
# pbjc's "errors in the input", and a report must fail them whatever they expect
export UBSAN_OPTIONS ?= print_stacktrace=1:abort_on_error=1
export ASAN_OPTIONS  ?= abort_on_error=1
# the tests' sanitizer builds at -O0: ASan and UBSan see as much, the runs are short, and the compile takes
# about half the CPU of -O1 (CI's 30 minutes); check-golden and the strict compiles keep -O1 for gcc's flow warnings
SAN_OPT  := -O0

# The corpus of real schemas and blocks in ../shared (SHARED=dir looks elsewhere). Without it
# the checks, or the parts of checks, that need it say they are skipped instead of failing.
SHARED       ?= ../shared
CORPUS       := $(SHARED)/corpus
CORPUS_FOUND := $(if $(wildcard $(CORPUS)/hapi-v0.59.0),$(CORPUS))
CORPUS_HAPI  := $(CORPUS)/hapi-v0.59.0
CORPUS_BLOCK := $(CORPUS)/blocks/000000000000000000000000000000497558.blk.gz
# corpus_skip(what): a recipe line saying WHAT is skipped, when the corpus is missing
corpus_skip   = $(if $(CORPUS_FOUND),,@echo "$(1): skipped: $(CORPUS) not found")

# Fragments append to these.
CHECKS   :=
CLEAN    := $(B)
CHECK_DEB_PKGS = $(DEB_PKGS)

.PHONY: all check clean install deps
all: pbjc

include src/build.mk
-include rt/rt.mk
-include gen-templates/templates.mk
-include src/wkt/wkt.mk
-include $(sort $(wildcard test/*.mk))
-include bench/bench.mk
-include samples/samples.mk
-include cmake/cmake.mk

check: $(CHECKS)
	@echo "make check: all $(words $(CHECKS)) test groups passed$(if $(CORPUS_FOUND),,; the parts that need $(CORPUS) were skipped (named above))"

clean:
	rm -rf $(CLEAN) pbjc

# deps: install what the build and tests need from Debian's packages, if missing.
DEB_PKGS := re2c lemon libcmocka-dev libxxhash-dev protobuf-compiler libprotobuf-dev libprotoc-dev pkg-config clang libclang-rt-dev python3-protobuf
# check-deps: every package any test group installs (fragments append to CHECK_DEB_PKGS; npm's
# nodejs only when no npm is on PATH), in one apt-get run: .ci/run calls it first, so the groups'
# own installs find nothing missing and never queue on each other's apt lock.
.PHONY: check-deps
check-deps:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(CHECK_DEB_PKGS)$(if $(shell command -v npm),, nodejs npm)"

deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
