#!/bin/sh
# run.sh NAME PROTO BATCH COUNT SEED: M_write_reverse against M_encode on random batches of one batch type (canonical,
# with unknown fields, non-canonical), by $(B)/reverse/driver_NAME. REV_ROOTS: the -I roots (default: the proto's
# directory); REV_GEN_FLAGS: the generator's bounds; REV_REAL: a gzipped encoded item, checked byte for byte too.
set -eu
name=$1 proto=$2 batch=$3 count=$4 seed=$5
R=${B:-build}/reverse
inc=$(for r in ${REV_ROOTS:-$(dirname "$proto")}; do printf ' -I %s' "$r"; done)
gen=${B:-build}/parity/gen
drv=$R/driver_$name
out=$R/run/$name.$$
rm -rf "$out"
mkdir -p "$out"
fail() { echo "reverse $name (seed $seed): $*" >&2; exit 1; }

# canonical and unknown-field batches decode and encode to their own bytes (-exact); non-canonical ones do not
$gen $inc ${REV_GEN_FLAGS:-} "$proto" "$batch" canonical "$count" "$seed" "$out/can"
$gen $inc ${REV_GEN_FLAGS:-} "$proto" "$batch" unknown "$count" "$((seed + 1))" "$out/unk"
$gen $inc ${REV_GEN_FLAGS:-} "$proto" "$batch" noncanonical "$count" "$((seed + 2))" "$out/non"
$drv check -exact "$out/can.bin" "$out/unk.bin" || fail "canonical or unknown-field batch, see $out"
$drv check "$out/non.bin" || fail "non-canonical batch, see $out"
if [ -n "${REV_REAL:-}" ]; then
    gzip -dc "$REV_REAL" > "$out/real.item"
    $gen wrap "$out/real.item" "$out/real.bin"
    $drv check -exact "$out/real.bin" || fail "$REV_REAL"
fi
rm -rf "$out"
