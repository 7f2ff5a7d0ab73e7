#!/bin/sh
# test/deb/run.sh: debian/ builds the pbjc and libpbj-dev packages (dpkg-buildpackage -b, in a copy of the tree, so
# the checkout's build/ is left alone) with no lintian error; unpacked into a scratch root (dpkg -x, never the
# machine's /), pbjc runs from there and generates the sample, the man page is the project's, libpbj-dev holds
# every runtime header, and the sample and a schema importing every well-known type compile and run against
# that root found through its own pkg-config files (PKG_CONFIG_SYSROOT_DIR, PKG_CONFIG_LIBDIR).
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL deb: $*"; exit 1; }
top=$PWD
mkdir "$work/src" "$work/root"
tar -c --exclude-vcs --exclude-vcs-ignores . | tar -x -C "$work/src"
rm -rf "$work/src/debian/tmp" "$work/src/build" "$work/src/pbjc"

# -O0 (noopt) and no debug-symbol package: the test needs what is packaged, not its optimisation
if ! (cd "$work/src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL DEB_BUILD_OPTIONS="noopt nocheck noddebs parallel=2" \
        dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1); then
    tail -25 "$work/build.log"
    fail "dpkg-buildpackage -us -uc -b"
fi
ver=$(dpkg-parsechangelog -l debian/changelog -S Version)
arch=$(dpkg --print-architecture)
changes="$work/pbjc_${ver}_$arch.changes"
lintian --fail-on error "$changes" > "$work/lintian.txt" 2>&1 || { cat "$work/lintian.txt"; fail "lintian reports errors"; }
for p in pbjc libpbj-dev; do
    deb="$work/${p}_${ver}_$arch.deb"
    [ -f "$deb" ] || fail "no package $p"
    dpkg -x "$deb" "$work/root"
done
root="$work/root"

# What each package must hold: the runtime's every header as in rt/, the well-known types' headers and library,
# pbjc, its plugin link and the man page as in man/.
for h in rt/*.h; do
    cmp -s "$h" "$root/usr/include/pbj/${h#rt/}" || fail "libpbj-dev: usr/include/pbj/${h#rt/} missing or not rt/'s"
done
for w in $(cd src/wkt && find . -name '*.proto' | sed 's|^\./||; s|\.proto$||'); do
    [ -f "$root/usr/include/pbj/$w.pb.h" ] || fail "libpbj-dev: usr/include/pbj/$w.pb.h missing"
done
[ -f "$root/usr/lib/libpbj_wkt.a" ] || fail "libpbj-dev: usr/lib/libpbj_wkt.a missing"
[ -f "$root/usr/lib/cmake/pbj/pbjConfig.cmake" ] || fail "libpbj-dev: the CMake package missing"
man="$root/usr/share/man/man1/pbjc.1.gz"
[ -f "$man" ] && gzip -dc "$man" | cmp -s - man/pbjc.1 || fail "pbjc: usr/share/man/man1/pbjc.1.gz missing or not man/pbjc.1"
[ "$(readlink "$root/usr/bin/protoc-gen-pbj")" = pbjc ] || fail "pbjc: usr/bin/protoc-gen-pbj is not a link to pbjc"
pbjc="$root/usr/bin/pbjc"
[ "$("$pbjc" --version | head -1)" = "pbjc $ver" ] || fail "pbjc --version is not 'pbjc $ver': $("$pbjc" --version | head -1)"

# The headers through the scratch root's pbj.pc, the well-known types' library through its pbj-wkt.pc.
export PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$root/usr/lib/pkgconfig"
cflags=$(pkg-config --cflags pbj | sed 's/ *$//') || fail "pkg-config pbj"
[ "$cflags" = "-I$root/usr/include/pbj" ] || fail "pkg-config --cflags pbj gave '$cflags'"
wlibs=$(pkg-config --libs pbj-wkt) || fail "pkg-config pbj-wkt"

sample="$work/sample"
mkdir "$sample"
cp -r samples/proto samples/Makefile samples/pbj.mk samples/order_demo.c "$sample"/
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$sample" PBJC="$pbjc" PBJ_CFLAGS="$cflags" run > "$sample/out.txt" \
    || fail "the sample does not build with the packaged pbjc and headers"
grep -qx "decoded equal to the original: yes" "$sample/out.txt" || fail "the sample does not round-trip"

wkt="$work/wkt"
mkdir "$wkt"
cp test/wkt/uses_all.proto test/wkt/main.c "$wkt"/
(cd "$wkt" && "$pbjc" -o gen uses_all.proto) || fail "the packaged pbjc on uses_all.proto"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror $cflags -I"$wkt/gen" -o "$wkt/main" "$wkt/main.c" "$wkt/gen/uses_all.pb.c" $wlibs \
    || fail "uses_all does not build against the packaged well-known types"
"$wkt/main" | grep -q 'parameter: "views"' || fail "uses_all does not round-trip with the packaged well-known types"
echo "deb: ok (pbjc_$ver and libpbj-dev_$ver build, lintian finds no error; from a scratch root: every header, the man page, pbjc generates the sample, which builds and runs through pbj.pc; the well-known types through pbj-wkt.pc)"
