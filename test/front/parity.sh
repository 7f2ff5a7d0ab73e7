#!/bin/sh
# parity.sh: for each of test/front/cases/*.proto (the language's corners), pbjc and
# protoc write byte-identical FileDescriptorSets (--include_imports): what the parser
# builds, desugars and names is what protoc builds.  usage: test/front/parity.sh PBJC
set -u
PBJC=${1:?usage: parity.sh PBJC}
tmp=${TMPDIR:-/tmp}/pbjc-front-parity.$$
trap 'rm -f "$tmp".*' EXIT
failures=0 n=0
for f in test/front/cases/*.proto; do
    n=$((n + 1))
    protoc -Itest/front/cases -I/usr/include --include_imports --descriptor_set_out="$tmp.protoc" "$f" ||
        { echo "parity: $f: protoc failed"; failures=$((failures + 1)); continue; }
    "$PBJC" -Itest/front/cases --include_imports --descriptor_set_out="$tmp.pbjc" "$f" ||
        { echo "parity: $f: pbjc failed"; failures=$((failures + 1)); continue; }
    if ! cmp -s "$tmp.protoc" "$tmp.pbjc"; then
        echo "parity: $f: FAIL, the sets differ (protoc -, pbjc +):"
        for c in protoc pbjc; do
            protoc -I/usr/include --decode=google.protobuf.FileDescriptorSet google/protobuf/descriptor.proto \
                <"$tmp.$c" >"$tmp.$c.txt" 2>&1
        done
        diff -u "$tmp.protoc.txt" "$tmp.pbjc.txt" | head -60
        failures=$((failures + 1))
    fi
done
if [ "$failures" -ne 0 ]; then echo "parity: $failures of $n cases differ"; exit 1; fi
echo "parity: ok ($n cases, descriptor sets byte-identical to protoc's)"
