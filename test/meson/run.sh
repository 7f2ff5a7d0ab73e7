#!/bin/sh
# test/meson/run.sh: samples/meson.build (both samples, one generator() rule) with `make install`'s pbjc and pbj.pc,
# configured by Meson and built by ninja: both programs run; a second build does nothing; a touched .proto runs
# pbjc for it and its importers only and compiles nothing; a changed .proto recompiles exactly the objects that
# include what it generates, directly or through an import, and nothing of the other sample.
set -eu
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL meson: $*"; exit 1; }
# README.md's Meson rule is the one tested here: each of its lines (comments and spaces aside) is in samples/meson.build
squeeze() { sed 's/ *#.*//; s/[[:space:]]//g; /^$/d'; }
squeeze < samples/meson.build > "$prefix/sample.txt"
sed -n '/^```meson$/,/^```$/p' README.md | sed '1d;$d' | squeeze > "$prefix/readme.txt"
[ -s "$prefix/readme.txt" ] || fail "README.md has no Meson example"
while read -r line; do
    grep -qxF "$line" "$prefix/sample.txt" || fail "README.md's Meson line '$line' is not in samples/meson.build"
done < "$prefix/readme.txt"
env -u MAKEFLAGS -u MAKELEVEL make -s install PREFIX="$prefix" >/dev/null
# pbjc, found by find_program('pbjc') first on PATH, through a wrapper that logs each run's .proto
mkdir "$prefix/logged"
cat > "$prefix/logged/pbjc" <<EOS
#!/bin/sh
for a; do :; done
echo "\$a" >> "$prefix/runs"
exec "$prefix/bin/pbjc" "\$@"
EOS
chmod +x "$prefix/logged/pbjc"
export PATH="$prefix/logged:$PATH" PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
src="$prefix/src" bin="$prefix/build"
cp -r samples "$src"
rm -rf "$src/gen" "$src/build" "$src/gateway/gen" "$src/gateway/build"
meson setup "$bin" "$src" > "$prefix/setup.log" 2>&1 || { cat "$prefix/setup.log"; fail "meson setup"; }
build() { env -u MAKEFLAGS -u MAKELEVEL ninja -C "$bin" > "$prefix/ninja.log" 2>&1 || { cat "$prefix/ninja.log"; fail "ninja: $1"; }; }
runs() { cat "$prefix/runs" 2>/dev/null | wc -l; }
# the .proto files of pbjc's runs after the first $1, as proto/DIR/NAME.proto, sorted, on one line
ran_on() { tail -n "+$(($1 + 1))" "$prefix/runs" | sed 's|.*/proto/|proto/|' | sort | tr '\n' ' ' | sed 's/ $//'; }
# each object file with its modification time (to the nanosecond), one a line
objects() { find "$bin" -name '*.o' -exec stat -c '%n %y' {} + | sort; }
# the objects whose time changed since the list in $1, by name below the build directory
recompiled() { objects | diff "$1" - | sed -n "s|^> $bin/\([^ ]*\) .*|\1|p" | tr '\n' ' ' | sed 's/ $//'; }

build "the first build"
[ "$(runs)" = 4 ] || fail "the first build ran pbjc $(runs) times, not 4"
(cd "$prefix" && "$bin/order_demo" order.bin) | grep -qx "decoded equal to the original: yes" || fail "order_demo"
mkdir "$prefix/out" && "$bin/gateway/gateway" "$prefix/out" | grep -qx "read 4 readings" || fail "the gateway"
env -u MAKEFLAGS -u MAKELEVEL ninja -C "$bin" -n | grep -q 'no work to do' || fail "a second build has work to do"

objects > "$prefix/before"
touch "$src/gateway/proto/gw/device.proto"          # imported by reading.proto
build "after a touch"
[ "$(ran_on 4)" = "proto/gw/device.proto proto/gw/reading.proto" ] || fail "touching device.proto ran pbjc on: $(ran_on 4)"
[ -z "$(recompiled "$prefix/before")" ] || fail "touching device.proto compiled $(recompiled "$prefix/before")"
env -u MAKEFLAGS -u MAKELEVEL ninja -C "$bin" -n | grep -q 'no work to do' || fail "the build after the touch has work to do"

objects > "$prefix/before"
sed -i 's/int32 nanos = 2;/int32 nanos = 2;\n  string zone = 3;/' "$src/proto/shop/common.proto"
build "after a change to common.proto"
[ "$(ran_on 6)" = "proto/shop/common.proto proto/shop/order.proto" ] || fail "changing common.proto ran pbjc on: $(ran_on 6)"
want="order_demo.p/meson-generated_shop_common.pb.c.o order_demo.p/meson-generated_shop_order.pb.c.o order_demo.p/order_demo.c.o"
[ "$(recompiled "$prefix/before")" = "$want" ] ||
    fail "changing common.proto recompiled '$(recompiled "$prefix/before")', not '$want'"
grep -q zone "$bin/order_demo.p/shop/common.pb.h" || fail "common.pb.h not regenerated"
(cd "$prefix" && "$bin/order_demo" order.bin) | grep -qx "decoded equal to the original: yes" || fail "order_demo after the change"
echo "meson: ok (samples/meson.build's generator(): both samples build and run; nothing to do twice; a touch runs pbjc on the .proto and its importers and compiles nothing; a change recompiles only what includes its code)"
