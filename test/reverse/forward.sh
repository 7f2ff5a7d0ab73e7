#!/bin/sh
# forward.sh: each golden case's message (test/golden/CASE/<message>.txt, as protoc encodes it) through
# test/reverse/forward.c, on the case generated with --fast-write: M_encode's forward walk gives the size pass's
# status, length and bytes on it, its prefixes and mutations, in buffers of every size.
# usage (from the repo top): test/reverse/forward.sh PBJC OUTDIR CC CFLAGS...
set -eu
pbjc=$1 out=$2 cc=$3
shift 3
SYSTEM=/usr/include
n=0
for t in test/golden/*/*.txt; do
    c=$(basename "$(dirname "$t")")
    m=$(basename "$t" .txt)
    root=test/golden/$c roots="-I $root" shared=""
    [ "$c" = sample ] && root=samples/proto roots="-I samples/proto"
    if [ -f "test/golden/$c/include.protos" ]; then shared=$(cat "test/golden/$c/include.protos"); roots="$roots -I $SYSTEM"; fi
    protos="$(find "$root" -name '*.proto' -not -path '*/expected/*' | LC_ALL=C sort) $(for p in $shared; do echo "$SYSTEM/$p"; done)"
    flags=""
    [ -f "test/golden/$c/pbjc.flags" ] && flags=$(cat "test/golden/$c/pbjc.flags")
    w=$out/$c
    rm -rf "$w" && mkdir -p "$w/pb"
    # shellcheck disable=SC2086
    "$pbjc" $flags --fast-write $roots -o "$w/pb" $protos
    (cd "$w/pb" && find . -name '*.pb.h' | LC_ALL=C sort | sed 's|^\./|#include "|; s|$|"|') > "$w/all.h"
    # shellcheck disable=SC2086
    "$cc" "$@" -I"$w/pb" -I"$w" -DHEADER='"all.h"' -DMSG="$(echo "$m" | tr . _)" -o "$w/forward" \
        test/reverse/forward.c $(find "$w/pb" -name '*.pb.c' | LC_ALL=C sort)
    # shellcheck disable=SC2086
    protoc $roots --deterministic_output --encode="$m" $protos < "$t" > "$w/in.bin"
    "$w/forward" "$w/in.bin" || { echo "FAIL forward: golden $c: $m"; exit 1; }
    n=$((n + 1))
done
echo "check-reverse-forward: $n golden messages: M_encode = the size pass"
