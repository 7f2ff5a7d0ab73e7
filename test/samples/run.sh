#!/bin/sh
# test/samples/run.sh PBJC: the sample builds and prints what protoc prints for
# its bytes, and its Makefile's -MD rules rebuild what an imported .proto
# change reaches (and no more).
set -eu
pbjc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r samples/proto samples/Makefile samples/pbj.mk samples/order_demo.c "$work"/
fail() { echo "FAIL samples: $*"; exit 1; }
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$work" PBJC="$pbjc" PBJ_CFLAGS="-I$PWD/rt" "$@"; }

mk run > "$work/out.txt"
sed -n '3,$p' "$work/out.txt" > "$work/text.txt"       # after "encoded"/"decoded" lines
grep -qx "decoded equal to the original: yes" "$work/out.txt" || fail "decode is not equal"
protoc -I "$work/proto" --decode=shop.Order shop/order.proto < "$work/order.bin" > "$work/protoc.txt"
diff -u "$work/protoc.txt" "$work/text.txt" || fail "print differs from protoc --decode"

# Nothing to do when nothing changed.
mk -q order_demo || fail "a second make is not a no-op"

# A real change to the imported common.proto regenerates common.pb.h and
# recompiles order.pb.c, which includes it.
sleep 1
sed -i 's/int32 nanos = 2;/int32 nanos = 2;\n  string zone = 3;/' "$work/proto/shop/common.proto"
mk -q order_demo && fail "changing an import left the build up to date"
mk order_demo >/dev/null
[ "$work/build/shop/order.pb.o" -nt "$work/proto/shop/common.proto" ] || fail "order.pb.o not rebuilt after its import changed"
grep -q 'zone' "$work/gen/shop/common.pb.h" || fail "common.pb.h not regenerated"

# Touching order.proto runs pbjc once (its order.pb.d is remade), and pbjc leaves outputs whose bytes
# did not change as they were (same mtime), so nothing that includes them is compiled again.
before=$(stat -c %Y "$work/gen/shop/order.pb.c")
deps=$(stat -c %Y "$work/gen/shop/order.pb.d")
sleep 1
touch "$work/proto/shop/order.proto"
obj=$(stat -c %Y "$work/build/shop/order.pb.o")
mk order_demo >/dev/null
[ "$(stat -c %Y "$work/gen/shop/order.pb.c")" = "$before" ] || fail "pbjc rewrote an unchanged order.pb.c"
[ "$(stat -c %Y "$work/gen/shop/order.pb.d")" != "$deps" ] || fail "touching order.proto did not run pbjc"
[ "$(stat -c %Y "$work/build/shop/order.pb.o")" = "$obj" ] || fail "an unchanged order.pb.c was compiled again"
mk -q order_demo || fail "touching order.proto regenerates more than once"

# A generated file deleted is generated again; clean runs no pbjc.
rm "$work/gen/shop/common.pb.h"
mk order_demo >/dev/null
[ -f "$work/gen/shop/common.pb.h" ] || fail "a deleted common.pb.h is not generated again"
mk clean
[ ! -d "$work/gen" ] || fail "clean generated code"
echo "samples: ok (print equals protoc --decode; -MD rebuilds follow imports)"

# The gateway sample: streams, copy and merge; what it prints of the merged reading is what protoc
# prints of merged.bin, and it read back every reading it wrote.
gw=$(mktemp -d)
trap 'rm -rf "$work" "$gw"' EXIT
mkdir "$gw/sub"                                    # its Makefile includes ../pbj.mk
cp samples/pbj.mk "$gw"/
cp -r samples/gateway/proto samples/gateway/Makefile samples/gateway/gateway.c "$gw/sub"/
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$gw/sub" PBJC="$pbjc" PBJ_CFLAGS="-I$PWD/rt" run > "$gw/out.txt" \
    || fail "the gateway sample does not build or run"
grep -qx "read 4 readings" "$gw/out.txt" || fail "gateway: not every reading read back"
sed -n '/^merged:$/,/^rpc /p' "$gw/out.txt" | sed '1d;$d' > "$gw/merged.txt"
protoc -I "$gw/sub/proto" --decode=gw.Reading gw/reading.proto < "$gw/sub/out/merged.bin" > "$gw/protoc.txt"
diff -u "$gw/protoc.txt" "$gw/merged.txt" || fail "gateway: print differs from protoc --decode"
grep -qx "rpc /gw.Gateway/Watch (gw.Device) returns (stream gw.Reading)" "$gw/out.txt" || fail "gateway: the service table"
echo "samples: gateway ok (streams read back, merged print equals protoc --decode, service table)"
