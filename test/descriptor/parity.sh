#!/bin/sh
# parity.sh: pbjc --descriptor_set_out must write the same FileDescriptorSet as protoc.
# usage: test/descriptor/parity.sh PBJC OUTDIR   (run from the repository top; the hapi sets come
# from $CORPUS, ../shared/corpus unless set, and are left out when CORPUS is empty)
#
# Every case compares the BYTES (cmp), once as asked and once more with
# --include_source_info (protoc's SourceCodeInfo). pbjc orders the set as protoc
# does (each input after its imports, depth first in import order; see
# descriptor_write_set), so no case needs the decoded-text comparison. On a
# mismatch the first differing location is shown decoded, then the decoded sets
# as a diff -u.
set -u
PBJC=${1:?usage: parity.sh PBJC OUTDIR}
OUT=${2:?usage: parity.sh PBJC OUTDIR}
CORPUS=${CORPUS-../shared/corpus}
HAPI=$CORPUS/hapi-v0.59.0
CASES=test/descriptor/cases
mkdir -p "$OUT"
failures=0

decode() {   # decoded text of a set, or the raw decode when it is not a valid set
    protoc -I/usr/include --decode=google.protobuf.FileDescriptorSet \
        google/protobuf/descriptor.proto <"$1" 2>/dev/null ||
        protoc --decode_raw <"$1" 2>&1
}

# compare_once NAME FLAGS...: run both compilers with the same flags and files.
compare_once() {
    name=$1; shift
    if ! protoc --descriptor_set_out="$OUT/$name.protoc.pb" "$@" 2>"$OUT/$name.protoc.err"; then
        echo "descriptor parity: $name: protoc failed:"; cat "$OUT/$name.protoc.err"
        failures=$((failures + 1)); return
    fi
    if ! "$PBJC" --descriptor_set_out="$OUT/$name.pbjc.pb" "$@" 2>"$OUT/$name.pbjc.err"; then
        echo "descriptor parity: $name: pbjc failed:"; head -20 "$OUT/$name.pbjc.err"
        failures=$((failures + 1)); return
    fi
    if cmp -s "$OUT/$name.protoc.pb" "$OUT/$name.pbjc.pb"; then
        echo "descriptor parity: $name: ok ($(wc -c <"$OUT/$name.protoc.pb") bytes identical)"
        return
    fi
    echo "descriptor parity: $name: FAIL, sets differ (protoc vs pbjc):"
    test/descriptor/first_location_diff.sh "$OUT/$name.protoc.pb" "$OUT/$name.pbjc.pb"
    decode "$OUT/$name.protoc.pb" >"$OUT/$name.protoc.txt"
    decode "$OUT/$name.pbjc.pb" >"$OUT/$name.pbjc.txt"
    if cmp -s "$OUT/$name.protoc.txt" "$OUT/$name.pbjc.txt"; then
        echo "  (decoded texts are equal: the bytes differ in encoding or order only)"
    else
        diff -u "$OUT/$name.protoc.txt" "$OUT/$name.pbjc.txt" | head -200
    fi
    failures=$((failures + 1))
}

# compare NAME FLAGS...: as asked, and with the source info.
compare() {
    name=$1; shift
    compare_once "$name" "$@"
    compare_once "$name-srcinfo" --include_source_info "$@" -I/usr/include   # imported well-known types: protobuf's text
}

# The well-known types and the plugin protocol, root /usr/include.
compare wkt --include_imports -I/usr/include $(find /usr/include/google/protobuf -name '*.proto' | LC_ALL=C sort)

# hapi: services, block, platform and streams share their roots; mirror and sdk
# each need their own root plus the ones holding what they import.
if [ -n "$CORPUS" ]; then
    compare hapi --include_imports -I$HAPI/services -I$HAPI/block -I$HAPI/platform -I$HAPI/streams \
        $(find $HAPI/services $HAPI/block $HAPI/platform $HAPI/streams -name '*.proto' | LC_ALL=C sort)
    compare hapi-mirror --include_imports -I$HAPI/mirror -I$HAPI/services $(find $HAPI/mirror -name '*.proto' | LC_ALL=C sort)
    compare hapi-sdk --include_imports -I$HAPI/sdk -I$HAPI/services -I$HAPI/platform $(find $HAPI/sdk -name '*.proto' | LC_ALL=C sort)
    compare hapi-no-imports -I$HAPI/services -I$HAPI/block -I$HAPI/platform -I$HAPI/streams \
        $(find $HAPI/services $HAPI/block $HAPI/platform $HAPI/streams -name '*.proto' | LC_ALL=C sort)
fi

# A newer google/protobuf/descriptor.proto on the -I path: its standard options are known. It is
# protoc's own (the copy every case here reads) with the options protobuf 22 and 24 added.
NEWER=$OUT/newer
mkdir -p "$NEWER/google/protobuf"
awk '{ print }
/^message MessageOptions \{$/ {
    print "  // Newer than 3.21 (protobuf 22)."
    print "  optional bool deprecated_legacy_json_field_conflicts = 11 [deprecated = true];"
}
/^message FieldOptions \{$/ {
    print "  // Newer than 3.21 (protobuf 24): these options are known only from this copy."
    print "  optional bool debug_redact = 16 [default = false];"
    print "  enum OptionRetention {"
    print "    RETENTION_UNKNOWN = 0;"
    print "    RETENTION_RUNTIME = 1;"
    print "    RETENTION_SOURCE = 2;"
    print "  }"
    print "  optional OptionRetention retention = 17;"
}' /usr/include/google/protobuf/descriptor.proto >"$NEWER/google/protobuf/descriptor.proto"
compare newer-descriptor --include_imports -I"$NEWER" -Itest/descriptor/newer test/descriptor/newer/uses_newer.proto
compare newer-descriptor-plain -I"$NEWER" -Itest/descriptor/newer test/descriptor/newer/uses_newer.proto

# Our own cases, each on its own, then all together, then without imports.
for f in $CASES/*.proto; do
    compare "case-$(basename "$f" .proto)" --include_imports -I$CASES -I/usr/include "$f"
done
compare cases-all --include_imports -I$CASES -I/usr/include $CASES/*.proto $CASES/sub/*.proto
compare cases-order --include_imports -I$CASES $CASES/sub/order_c.proto $CASES/order_a.proto
compare cases-no-imports -I$CASES -I/usr/include $CASES/*.proto $CASES/sub/optdefs.proto

if [ "$failures" -ne 0 ]; then
    echo "descriptor parity: $failures case(s) FAILED"
    exit 1
fi
echo "descriptor parity: all cases passed"
