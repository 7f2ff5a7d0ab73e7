#!/bin/sh
# protobuf_src.sh: descriptor parity on protobuf 3.21.12's own test schemas (src/google/protobuf, every
# file protoc accepts), each alone, plain and with --include_imports, each also with --include_source_info:
# the sets' bytes must be equal (cmp); a difference in the source info shows its first differing location.
# usage: test/descriptor/protobuf_src.sh PBJC SRC OUTDIR   (SRC: the sources' src/ directory; `make protobuf-src`)
set -u
PBJC=$(cd "$(dirname "${1:?usage}")" && pwd)/$(basename "$1")
TOP=$(pwd)
SRC=${2:?usage}
OUT=$(mkdir -p "${3:?usage}" && cd "$3" && pwd)
cd "$SRC" || exit 2
pass=0 fail=0 skip=0
for f in $(find google -name '*.proto' | LC_ALL=C sort); do
    n=$(echo "$f" | tr / _)
    if ! protoc -I. -o "$OUT/$n.protoc" "$f" 2>/dev/null; then skip=$((skip + 1)); continue; fi   # protoc rejects it
    for flags in "" --include_imports --include_source_info "--include_imports --include_source_info"; do
        protoc -I. $flags --descriptor_set_out="$OUT/$n.protoc" "$f" 2>/dev/null
        if "$PBJC" -I. $flags --descriptor_set_out="$OUT/$n.pbjc" "$f" 2>"$OUT/$n.err" &&
           cmp -s "$OUT/$n.protoc" "$OUT/$n.pbjc"; then
            pass=$((pass + 1))
        else
            echo "protobuf-src: FAIL: $f $flags"; head -3 "$OUT/$n.err"; fail=$((fail + 1))
            "$TOP/test/descriptor/first_location_diff.sh" "$OUT/$n.protoc" "$OUT/$n.pbjc"
        fi
    done
done
echo "protobuf-src: $pass sets identical, $fail differ, $skip files protoc rejects"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
