#!/bin/sh
# test/install/run.sh: install into a fresh prefix, then use only what was installed.
set -eu
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL install: $*"; exit 1; }
env -u MAKEFLAGS -u MAKELEVEL make -s install PREFIX="$prefix" >/dev/null
for f in bin/pbjc include/pbj/pbj.h include/pbj/pbj_text.h share/man/man1/pbjc.1 lib/pkgconfig/pbj.pc; do
    [ -f "$prefix/$f" ] || fail "$f not installed"
done
[ -x "$prefix/bin/pbjc" ] || fail "bin/pbjc not executable"
cflags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags pbj | sed "s/ *$//")
[ "$cflags" = "-I$prefix/include/pbj" ] || fail "pkg-config --cflags pbj gave '$cflags'"
"$prefix/bin/pbjc" --version | grep -q '^pbjc ' || fail "installed pbjc --version"

# The sample, built with the installed pbjc and runtime only (no -I into the repository).
work="$prefix/sample"
mkdir -p "$work"
cp -r samples/proto samples/Makefile samples/pbj.mk samples/order_demo.c "$work"/
env -u MAKEFLAGS -u MAKELEVEL make -s -C "$work" PBJC="$prefix/bin/pbjc" PBJ_CFLAGS="$cflags" run > "$work/out.txt" \
    || fail "the sample does not build against the installed runtime"
grep -qx "decoded equal to the original: yes" "$work/out.txt" || fail "the installed sample does not round-trip"
echo "install: ok (pbjc, runtime, man page and pbj.pc; the sample builds from the install alone)"
