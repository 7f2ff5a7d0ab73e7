#!/bin/sh
# test/golden/run.sh: generates every case of test/golden with PBJC and compares the result with
# the case's checked-in expected/ (check), or rewrites expected/ with it (update).
# A case is a directory: its .proto files (rooted there) are the inputs; the sample's are samples/proto's;
# include.protos, when there, names more, one a line, from protoc's own copies in /usr/include
# (google/protobuf/descriptor.proto: the tree keeps no copy of its own);
# pbjc.flags, when there, holds the project options it is generated with (--fast-write --writers --views).
# With roundtrip, each CASE/<message>.txt goes through DRIVER (test/gen/roundtrip.c built on the
# checked-in code): protoc's encoding decodes, encodes back to the same bytes and prints as protoc --decode.
# Usage (from the repo top): test/golden/run.sh check PBJC OUTDIR | update PBJC | roundtrip CASE DRIVER OUTDIR
set -eu
usage='usage: run.sh check PBJC OUTDIR | update PBJC | roundtrip CASE DRIVER OUTDIR'
mode=${1:?$usage}

SYSTEM=/usr/include
root() { if [ "$1" = sample ]; then echo samples/proto; else echo "test/golden/$1"; fi; }
shared() { if [ -f "test/golden/$1/include.protos" ]; then cat "test/golden/$1/include.protos"; fi; }
protos() {
    find "$(root "$1")" -name '*.proto' -not -path '*/expected/*' | LC_ALL=C sort
    for p in $(shared "$1"); do echo "$SYSTEM/$p"; done
}
# the -I roots of CASE: its own, and /usr/include when it takes files from there
roots() { echo "-I $(root "$1")"; [ -z "$(shared "$1")" ] || echo "-I $SYSTEM"; }

# generate CASE DIR: pbjc on the case's inputs, into DIR (emptied first), with the flags in CASE/pbjc.flags if any
generate() {
    rm -rf "$2"
    flags=""
    [ -f "test/golden/$1/pbjc.flags" ] && flags=$(cat "test/golden/$1/pbjc.flags")
    "$PBJC" $flags $(roots "$1") -o "$2" $(protos "$1")
}

# roundtrip CASE DRIVER DIR: every CASE/<message>.txt through DRIVER, work files in DIR
roundtrip() {
    mkdir -p "$3"
    for t in "test/golden/$1"/*.txt; do
        m=$(basename "$t" .txt)
        w=$3/$m
        protoc $(roots "$1") --deterministic_output --encode="$m" $(protos "$1") < "$t" > "$w.bin"
        protoc $(roots "$1") --decode="$m" $(protos "$1") < "$w.bin" > "$w.want.txt"
        "$2" "$w.bin" "$w.got.bin" "$w.got.txt" || { echo "FAIL golden $1: $m: decode/encode"; return 1; }
        cmp "$w.bin" "$w.got.bin" || { echo "FAIL golden $1: $m: bytes differ from protoc's"; return 1; }
        diff -u "$w.want.txt" "$w.got.txt" || { echo "FAIL golden $1: $m: text differs from protoc --decode"; return 1; }
        echo "golden: $1: $m round-trips through the checked-in code"
    done
}

if [ "$mode" = roundtrip ]; then roundtrip "${2:?$usage}" "${3:?$usage}" "${4:?$usage}"; exit; fi
PBJC=${2:?$usage}
OUT=${3:-}

cases=$(cd test/golden && for d in */; do echo "${d%/}"; done)
fail=0
for c in $cases; do
    case $mode in
    update) generate "$c" "test/golden/$c/expected"; echo "golden: $c: test/golden/$c/expected rewritten" ;;
    check)
        generate "$c" "$OUT/$c"
        if diff -ruN "test/golden/$c/expected" "$OUT/$c"; then echo "golden: $c: ok"; else fail=1; fi ;;
    *) echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
    esac
done
if [ $fail != 0 ]; then
    echo "check-golden: pbjc's output changed (above: - checked in, + generated now)."
    echo "If the change is intended, accept it with \`make golden-update\` and commit test/golden."
    exit 1
fi
