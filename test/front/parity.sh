#!/bin/sh
# parity.sh: for each of test/front/cases/*.proto (the language's corners), pbjc and
# protoc write byte-identical FileDescriptorSets (--include_imports, then also
# --include_source_info): what the parser builds, desugars, names and where it found it
# is what protoc's parser records.  usage: test/front/parity.sh PBJC
set -u
PBJC=${1:?usage: parity.sh PBJC}
tmp=${TMPDIR:-/tmp}/pbjc-front-parity.$$
trap 'rm -f "$tmp".*' EXIT
failures=0 n=0
for f in test/front/cases/*.proto; do
  for info in "" --include_source_info; do
    n=$((n + 1))
    protoc -Itest/front/cases -I/usr/include --include_imports $info --descriptor_set_out="$tmp.protoc" "$f" ||
        { echo "parity: $f: protoc failed"; failures=$((failures + 1)); continue; }
    "$PBJC" -Itest/front/cases -I/usr/include --include_imports $info --descriptor_set_out="$tmp.pbjc" "$f" ||
        { echo "parity: $f: pbjc failed"; failures=$((failures + 1)); continue; }
    if ! cmp -s "$tmp.protoc" "$tmp.pbjc"; then
        echo "parity: $f $info: FAIL, the sets differ (protoc -, pbjc +):"
        test/descriptor/first_location_diff.sh "$tmp.protoc" "$tmp.pbjc"
        for c in protoc pbjc; do
            protoc -I/usr/include --decode=google.protobuf.FileDescriptorSet google/protobuf/descriptor.proto \
                <"$tmp.$c" >"$tmp.$c.txt" 2>&1
        done
        diff -u "$tmp.protoc.txt" "$tmp.pbjc.txt" | head -60
        failures=$((failures + 1))
    fi
  done
done
if [ "$failures" -ne 0 ]; then echo "parity: $failures of $n cases differ"; exit 1; fi
echo "parity: ok ($n sets, byte-identical to protoc's)"
