#!/bin/sh
# run.sh SCHEMA COUNT SEED: one schema's generated code against protoc on random canonical, unknown-field, non-canonical and malformed messages.
# Needs $(B)/parity/gen and $(B)/parity/driver_SCHEMA (test/parity.mk builds them); run from the repo top.
# PARITY_ROOTS (the -I roots; default test/parity/schemas, the first holds SCHEMA.proto) and
# PARITY_GEN_FLAGS (the generator's -d/-m bounds) serve schemas elsewhere; PARITY_REAL
# (a gzipped encoded item) adds a real message to the checks.
set -eu
s=$1 count=$2 seed=$3
P=${B:-build}/parity
roots=${PARITY_ROOTS:-test/parity/schemas}
dir=${roots%% *}
inc=$(for r in $roots; do printf ' -I %s' "$r"; done)
out=$P/run/$s.$$                  # one directory per run: parallel runs do not meet
gen=$P/gen
drv=${PARITY_DRIVER:-$P/driver_$s}   # PARITY_DRIVER: another build of it (the size tier)
batch=parity.$s.Batch
rm -rf "$out"
mkdir -p "$out"

# protoc's warnings (deprecated fields in text) go to a file, shown when a step fails
decode() { protoc $inc --decode="$batch" "$s.proto" 2>>"$out/protoc.err"; }
encode() { protoc $inc --encode="$batch" --deterministic_output "$s.proto" 2>>"$out/protoc.err"; }
fail() {
    echo "parity $s (seed $seed): $*" >&2
    [ -s "$out/protoc.err" ] && tail -5 "$out/protoc.err" >&2
    exit 1
}

# Two texts must be equal: else the first hunk of diff -u and the item it is in.
same_text() {   # want got what
    cmp -s "$1" "$2" && return 0
    line=$(cmp "$1" "$2" 2>/dev/null | sed -n 's/.* line \([0-9]*\)$/\1/p')
    item=$(head -n "${line:-1}" "$1" | grep -c '^items {' || true)
    echo "parity $s (seed $seed): $3: text differs in item $((item - 1)) (line $line); diff -u $1 $2:" >&2
    diff -u "$1" "$2" | head -40 >&2
    exit 1
}

# 1. canonical messages
$gen $inc ${PARITY_GEN_FLAGS:-} "$dir/$s.proto" "$batch" canonical "$count" "$seed" "$out/can"
decode < "$out/can.bin" > "$out/can.protoc.txt" || fail "protoc cannot decode the generator's bytes"
# (a) pbj's encode of pbj's decode is the input (in the driver; also equality of items)
$drv roundtrip "$out/can.bin" "$out/can.pbj.txt" || fail "(a) decode+encode round trip ($out/can.bin)"
# (b) pbj's print is protoc --decode's
same_text "$out/can.protoc.txt" "$out/can.pbj.txt" "(b) pbj print vs protoc --decode"
# (c) protoc --encode of pbj's text gives pbj's bytes. As pbj's text is protoc's (b),
#     this also proves the generator's bytes canonical: protoc writes them back unchanged.
encode < "$out/can.pbj.txt" > "$out/can.pbj.protoc.bin" || fail "(c) protoc cannot parse pbj's text"
cmp -s "$out/can.bin" "$out/can.pbj.protoc.bin" ||
    fail "(c) protoc --encode of the text differs from the input: a generator bug (its bytes are not canonical), see $out"
# (d) protoc's bytes decode to a batch equal to pbj's
$drv equal "$out/can.bin" "$out/can.pbj.protoc.bin" || fail "(d) equality of protoc's bytes decoded"

# 2. unknown fields of every wire type in any message: kept, written back, printed as protoc prints them
#    (protoc cannot parse unknown fields from text, so there is no (c)/(d) here).
$gen $inc ${PARITY_GEN_FLAGS:-} "$dir/$s.proto" "$batch" unknown "$count" "$((seed + 1))" "$out/unk"
decode < "$out/unk.bin" > "$out/unk.protoc.txt" || fail "protoc cannot decode the unknown-field batch"
$drv roundtrip "$out/unk.bin" "$out/unk.pbj.txt" || fail "(a) round trip with unknown fields ($out/unk.bin)"
same_text "$out/unk.protoc.txt" "$out/unk.pbj.txt" "print with unknown fields"
$drv dropped "$out/unk.bin" "$out/unk.known.bin" || fail "unknown fields dropped or rejected ($out/unk.bin)"

# 3. non-canonical input: pbj re-encodes it as protoc does (protoc --decode | protoc --encode
#    --deterministic_output of the known fields, then each item's unknown fields in the order read).
$gen $inc ${PARITY_GEN_FLAGS:-} "$dir/$s.proto" "$batch" noncanonical "$count" "$((seed + 2))" "$out/nc"
decode < "$out/nc.known.bin" | encode > "$out/nc.known.canon.bin" || fail "protoc rejects the non-canonical batch"
$gen splice "$out/nc.known.canon.bin" "$out/nc.unk.bin" "$out/nc.want.bin"
decode < "$out/nc.bin" > "$out/nc.protoc.txt" || fail "protoc cannot decode the non-canonical batch"
decode < "$out/nc.want.bin" > "$out/nc.want.txt"
cmp -s "$out/nc.protoc.txt" "$out/nc.want.txt" || fail "test bug: the expected canonical bytes do not mean what the input means"
$drv reencode "$out/nc.bin" "$out/nc.want.bin" "$out/nc.pbj.txt" || fail "non-canonical input re-encoded ($out/nc.bin)"
same_text "$out/nc.protoc.txt" "$out/nc.pbj.txt" "print of non-canonical input"

# 5. (PARITY_REAL=item.gz) a real message: decoded, encoded back to the same bytes, printed as protoc prints it
if [ -n "${PARITY_REAL:-}" ]; then
    gzip -dc "$PARITY_REAL" > "$out/real.item"
    $gen wrap "$out/real.item" "$out/real.bin"
    decode < "$out/real.bin" > "$out/real.protoc.txt" || fail "protoc cannot decode $PARITY_REAL"
    $drv roundtrip "$out/real.bin" "$out/real.pbj.txt" || fail "(a) round trip of $PARITY_REAL"
    same_text "$out/real.protoc.txt" "$out/real.pbj.txt" "print of $PARITY_REAL"
fi

# 4. malformed input: truncations and mutations of valid items return a status (driver built with ASan+UBSan)
$drv malformed "$out/can.bin" 40 "$seed" "$out/accepted.bin" > "$out/malformed.log" || fail "malformed input (canonical items)"
# (PARITY_ACCEPTED=1) what pbj accepts of those mutations, protoc reads the same way. Only for
# schemas without maps and wrappers: a mutation easily makes a repeated map key or an unknown
# field inside a map entry or wrapper, where pbj departs from protoc by design (README).
if [ -n "${PARITY_ACCEPTED:-}" ]; then
    decode < "$out/accepted.bin" > "$out/accepted.protoc.txt" || fail "protoc rejects mutated input that pbj accepts ($out/accepted.bin)"
    $drv print "$out/accepted.bin" "$out/accepted.pbj.txt" || fail "accepted mutations do not decode as a batch"
    same_text "$out/accepted.protoc.txt" "$out/accepted.pbj.txt" "print of mutated input pbj accepts"
fi
$drv malformed "$out/nc.bin" 20 "$((seed + 3))" >> "$out/malformed.log" || fail "malformed input (non-canonical items)"
# (PARITY_TWIN: another build of the schema, the default tier's) every malformed input gets the same status from
# both, and what decodes encodes to the same bytes
if [ -n "${PARITY_TWIN:-}" ]; then
    for b in can nc; do
        n=40 k=$seed; [ $b = nc ] && n=20 k=$((seed + 3))
        PARITY_STATUS_LOG="$out/$b.status" $drv malformed "$out/$b.bin" $n $k > /dev/null || fail "malformed input ($b)"
        PARITY_STATUS_LOG="$out/$b.twin.status" "$PARITY_TWIN" malformed "$out/$b.bin" $n $k > /dev/null || fail "malformed input ($b, twin)"
        cmp -s "$out/$b.status" "$out/$b.twin.status" ||
            fail "malformed input ($b): statuses or encodings differ from $PARITY_TWIN's: diff $out/$b.status $out/$b.twin.status"
    done
fi
echo "parity $s: $count messages x 3 batches equal to protoc; $(awk '{n += $2} END {print n}' "$out/malformed.log") malformed inputs survived"
rm -rf "$out"                      # kept only when a check fails
