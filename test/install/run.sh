#!/bin/sh
# test/install/run.sh: install into a fresh prefix, then use only what was installed.
set -eu
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL install: $*"; exit 1; }
env -u MAKEFLAGS -u MAKELEVEL make -s install PREFIX="$prefix" >/dev/null
for f in bin/pbjc include/pbj/pbj.h include/pbj/pbj_core.h include/pbj/pbj_text.h share/man/man1/pbjc.1 lib/pkgconfig/pbj.pc; do
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

# The well-known types: headers, libpbj_wkt.a and pbj-wkt.pc. A schema importing each of them, generated
# by the installed pbjc alone, compiles with pbj.pc's flags (its includes find the installed headers
# before /usr/include's C++ ones) and links with pbj-wkt's library.
for n in any api duration empty field_mask source_context struct timestamp type wrappers descriptor compiler/plugin; do
    [ -f "$prefix/include/pbj/google/protobuf/$n.pb.h" ] || fail "google/protobuf/$n.pb.h not installed"
done
[ -f "$prefix/lib/libpbj_wkt.a" ] || fail "lib/libpbj_wkt.a not installed"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
wlibs=$(pkg-config --libs pbj-wkt) || fail "pkg-config pbj-wkt"
wkt="$prefix/wkt"
mkdir -p "$wkt"
cp test/wkt/uses_all.proto test/wkt/main.c "$wkt"/
(cd "$wkt" && "$prefix/bin/pbjc" -o gen uses_all.proto) || fail "the installed pbjc on uses_all.proto"
[ ! -e "$wkt/gen/google" ] || fail "pbjc generated the well-known types unasked"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror $cflags -I"$wkt/gen" -o "$wkt/main" "$wkt/main.c" "$wkt/gen/uses_all.pb.c" $wlibs \
    || fail "uses_all does not build against the installed well-known types"
"$wkt/main" | grep -q 'parameter: "views"' || fail "uses_all does not round-trip with the installed well-known types"
printf '#include <pbj/google/protobuf/timestamp.pb.h>\nint main(void) { google_protobuf_Timestamp t; google_protobuf_Timestamp_init(&t); return (int)t.seconds; }\n' \
    > "$wkt/ts.c"
cc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$prefix/include" $cflags -o "$wkt/ts" "$wkt/ts.c" $wlibs && "$wkt/ts" \
    || fail "#include <pbj/google/protobuf/timestamp.pb.h>"
echo "install: ok (pbjc, runtime, man page and pbj.pc; the sample builds from the install alone; the well-known types' headers and libpbj_wkt.a)"
