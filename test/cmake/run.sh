#!/bin/sh
# test/cmake/run.sh: the CMake package from `make install` builds the shop sample with the Ninja and Unix
# Makefiles generators: it runs; a second build runs nothing; a touched .proto runs pbjc once and
# compiles nothing whose input did not change; a changed import regenerates its importer and recompiles it.
set -eu
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL cmake ($gen): $*"; exit 1; }
gen=install
env -u MAKEFLAGS -u MAKELEVEL make -s install PREFIX="$prefix" >/dev/null
[ -f "$prefix/lib/cmake/pbj/pbjConfig.cmake" ] || fail "pbjConfig.cmake not installed"
# pbjc through a wrapper that logs each run
cat > "$prefix/pbjc-logged" <<EOS
#!/bin/sh
echo "\$*" >> "$prefix/runs"
exec "$prefix/bin/pbjc" "\$@"
EOS
chmod +x "$prefix/pbjc-logged"
runs() { cat "$prefix/runs" 2>/dev/null | wc -l; }
mtime() { stat -c %Y "$1"; }

for gen in Ninja "Unix Makefiles"; do
    src="$prefix/src" bin="$prefix/build"
    rm -rf "$src" "$bin" "$prefix/runs"
    mkdir -p "$src"
    cp -r samples/proto samples/order_demo.c samples/CMakeLists.txt "$src"/
    cmake -S "$src" -B "$bin" -G "$gen" -DCMAKE_PREFIX_PATH="$prefix" -DPBJ_PBJC="$prefix/pbjc-logged" \
        -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Werror" >/dev/null || fail "configure"
    build() { env -u MAKEFLAGS -u MAKELEVEL cmake --build "$bin" >/dev/null || fail "build"; }
    build
    [ "$(runs)" = 2 ] || fail "the first build ran pbjc $(runs) times, not 2"
    (cd "$bin" && ./order_demo order.bin) | grep -qx "decoded equal to the original: yes" || fail "order_demo"
    build
    [ "$(runs)" = 2 ] || fail "a second build ran pbjc"
    obj=$(find "$bin" -name 'order.pb.c.o')
    before=$(mtime "$obj")
    sleep 1
    touch "$src/proto/shop/order.proto"
    build
    [ "$(runs)" = 3 ] || fail "touching order.proto ran pbjc $(($(runs) - 2)) times, not once"
    [ "$(mtime "$obj")" = "$before" ] || fail "an unchanged order.pb.c was compiled again"
    build
    [ "$(runs)" = 3 ] || fail "a build after the touch ran pbjc again"
    sleep 1
    sed -i 's/int32 nanos = 2;/int32 nanos = 2;\n  string zone = 3;/' "$src/proto/shop/common.proto"
    build
    tail -2 "$prefix/runs" | grep -q 'shop/order.proto' || fail "changing common.proto did not regenerate order.proto's code"
    [ "$(mtime "$obj")" != "$before" ] || fail "order.pb.c.o not recompiled after its import changed"
    build
    [ "$(runs)" = 5 ] || fail "the build after the import change was not the last to run pbjc"
    gw="$prefix/gateway"                        # the gateway sample, with the same package
    rm -rf "$gw" && mkdir -p "$gw"
    cp -r samples/gateway/proto samples/gateway/gateway.c samples/gateway/CMakeLists.txt "$gw"/
    cmake -S "$gw" -B "$gw/build" -G "$gen" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null || fail "configure the gateway"
    env -u MAKEFLAGS -u MAKELEVEL cmake --build "$gw/build" >/dev/null || fail "build the gateway"
    mkdir -p "$gw/out" && "$gw/build/gateway" "$gw/out" | grep -qx "read 4 readings" || fail "the gateway sample"
done
gen=wkt                                         # a schema importing every well-known type, with pbj::wkt
wk="$prefix/wkt"
rm -rf "$wk" && mkdir -p "$wk"
cp test/wkt/uses_all.proto test/wkt/main.c "$wk"/
cat > "$wk/CMakeLists.txt" <<EOS
cmake_minimum_required(VERSION 3.20)
project(uses_all C)
find_package(pbj REQUIRED)
add_executable(uses_all main.c)
pbj_generate(uses_all PROTOS uses_all.proto)
target_link_libraries(uses_all PRIVATE pbj::wkt)
EOS
cmake -S "$wk" -B "$wk/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >/dev/null ||
    fail "configure"
env -u MAKEFLAGS -u MAKELEVEL cmake --build "$wk/build" >/dev/null || fail "build with pbj::wkt"
"$wk/build/uses_all" | grep -q 'parameter: "views"' || fail "uses_all with pbj::wkt"
echo "cmake: ok (find_package(pbj), pbj_generate with Ninja and Unix Makefiles: no rerun, depfiles follow imports; pbj::wkt)"
