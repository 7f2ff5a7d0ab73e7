#!/bin/sh
# wire.sh SCHEMA_DIR SCHEMA ITEM COUNT SEED: an editions schema's generated code against buf on
# random messages (test/parity's generator and driver), in $B/editions/wire/SCHEMA.
#   ORIGINAL (a proto2/proto3 schema the editions one was rewritten from; optional):
#   1. the generator writes the same bytes for both (it asks the resolved features), and the
#      code generated for the editions schema prints exactly what the original's prints
#   2. pbj's decode then encode gives the input back (canonical, then with unknown fields)
#   3. buf, given the editions schema, reads the batch as pbj does: its re-encoding and its
#      JSON (known fields only: what it did not recognise is lost there; NaN payloads too, so it is
#      compared as pbj prints it) decode, with pbj, to the input's batch; its re-encoding holds the same records as the input (sorted
#      protoc --decode_raw lines: packed and expanded runs, groups and lengths alike)
# Needs $B/parity/gen, $B/editions/wire/driver_SCHEMA and, with ORIGINAL, $B/parity/driver_SCHEMA.
set -eu
dir=$1 s=$2 count=$4 seed=$5
B=${B:-build}
buf=${BUF:-$B/cache/buf/node_modules/.bin/buf}
gen=$B/parity/gen
drv=$B/editions/wire/driver_$s
out=$B/editions/wire/$s.run
batch=parity.$s.Batch
rm -rf "$out" && mkdir -p "$out"
fail() { echo "editions wire $s (seed $seed): $*" >&2; exit 1; }
top=$(pwd)
bufc() { (cd "$dir" && "$top/$buf" convert "$s.proto" --type "$batch" --from "$top/$1" --to "$top/$2") 2>>"$out/buf.err"; }

$gen -I "$dir" "$dir/$s.proto" "$batch" canonical "$count" "$seed" "$out/can"
if [ -n "${ORIGINAL:-}" ]; then
    $gen -I "$(dirname "$ORIGINAL")" "$ORIGINAL" "$batch" canonical "$count" "$seed" "$out/orig"
    cmp -s "$out/orig.bin" "$out/can.bin" || fail "1. the generator's bytes differ between $ORIGINAL and its editions rewrite"
    "$B/parity/driver_$s" print "$out/orig.bin" "$out/orig.txt" || fail "1. the original's code cannot print its batch"
fi
"$drv" roundtrip "$out/can.bin" "$out/can.txt" || fail "2. decode+encode round trip ($out/can.bin)"
if [ -n "${ORIGINAL:-}" ]; then
    cmp -s "$out/orig.txt" "$out/can.txt" || { diff -u "$out/orig.txt" "$out/can.txt" | head -20; fail "1. text differs from the original's code"; }
fi
$gen -I "$dir" "$dir/$s.proto" "$batch" unknown "$count" "$((seed + 1))" "$out/unk"
"$drv" roundtrip "$out/unk.bin" "$out/unk.txt" || fail "2. round trip with unknown fields ($out/unk.bin)"

bufc "$out/can.bin#format=binpb" "$out/buf.binpb#format=binpb" || fail "3. buf cannot read the batch: $(tail -3 "$out/buf.err")"
"$drv" equal "$out/can.bin" "$out/buf.binpb" || fail "3. buf's re-encoding decodes to another batch"
protoc --decode_raw <"$out/can.bin" | LC_ALL=C sort >"$out/can.raw"
protoc --decode_raw <"$out/buf.binpb" | LC_ALL=C sort >"$out/buf.raw"
cmp -s "$out/can.raw" "$out/buf.raw" || { diff "$out/can.raw" "$out/buf.raw" | head -10; fail "3. buf's re-encoding holds other records"; }
if [ -z "${NO_JSON:-}" ]; then
    bufc "$out/can.bin#format=binpb" "$out/buf.json#format=json" || fail "3. buf cannot write JSON: $(tail -3 "$out/buf.err")"
    bufc "$out/buf.json#format=json" "$out/json.binpb#format=binpb" || fail "3. buf cannot read its JSON: $(tail -3 "$out/buf.err")"
    "$drv" print "$out/json.binpb" "$out/json.txt" || fail "3. pbj cannot read buf's bytes from its JSON"
    cmp -s "$out/can.txt" "$out/json.txt" || { diff -u "$out/can.txt" "$out/json.txt" | head -20; fail "3. the batch through buf's JSON prints otherwise"; }
fi
rm -rf "$out"
echo "editions wire $s: ok ($count items, seed $seed)"
