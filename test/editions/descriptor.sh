#!/bin/sh
# descriptor.sh PBJC BUF OUT: each editions schema's --descriptor_set_out must be buf's
# `buf build --as-file-descriptor-set` byte for byte (imports excluded, no source info).
# Schemas: test/editions/schemas/*.proto and the parity schemas rewritten as edition 2023
# (test/editions/to2023.py); then with source info, the same locations (in the form buf writes them:
# test/editions/sorted_locations.py says how buf's differ from protoc's). pbjc finds the language features'
# files (cpp_features.proto, ...) in test/editions/features and a descriptor.proto with FeatureSet in src/proto,
# buf has its own; test/editions/builtin's schemas are compiled with no -I but their own directory, so their
# import of descriptor.proto is pbjc's compiled-in copy (protobuf 3.21's), and the standard options newer than it
# are read against pbjc's options schema. Run from the repository top.
set -eu
top=$(pwd)
pbjc=$top/$1 buf=$top/$2 out=$top/$3
rm -rf "$out" && mkdir -p "$out/2023"
for s in test/parity/schemas/*.proto; do test/editions/to2023.py "$s" > "$out/2023/$(basename "$s")"; done
pass=0 fail=0
# The set protoc's text prints, its locations sorted: decoded with protoc 3.21's descriptor.proto (libprotobuf-dev)
as_text() { protoc -I /usr/include --decode=google.protobuf.FileDescriptorSet google/protobuf/descriptor.proto <"$1" |
    "$top/test/editions/sorted_locations.py"; }
# language2023 sets an option to an aggregate value ({ ... }): buf records a location for each member inside
# it, protoc (3.21, and main's parser) and pbjc one for the whole option: its source info is not compared.
same_source_info() {   # dir file: both with --include_source_info, the same locations
    [ "$2" = language2023.proto ] && return 0
    (cd "$1" && "$buf" build "$2" --as-file-descriptor-set --exclude-imports -o "$stem.buf.src.binpb" &&
        "$pbjc" -I . $roots --include_source_info --descriptor_set_out="$stem.pbjc.src.binpb" -o "$stem.gen" "$2") ||
        { echo "FAIL $1/$2: with source info, buf or pbjc failed"; fail=$((fail + 1)); return 1; }
    as_text "$stem.buf.src.binpb" >"$stem.buf.src.txt" && as_text "$stem.pbjc.src.binpb" >"$stem.pbjc.src.txt" || return 1
    diff -u "$stem.buf.src.txt" "$stem.pbjc.src.txt" >"$stem.src.diff" && return 0
    echo "FAIL $1/$2: source info differs (diff -u buf pbjc, locations sorted):"; head -30 "$stem.src.diff"
    fail=$((fail + 1)); return 1
}
check() {   # dir file
    name=$(basename "$2" .proto)
    stem=$out/$(basename "$1").$name
    (cd "$1" && "$buf" build "$2" --as-file-descriptor-set --exclude-imports --exclude-source-info -o "$stem.buf.binpb") \
        2>"$stem.buf.err" || { echo "FAIL $1/$2: buf rejects it:"; cat "$stem.buf.err"; fail=$((fail + 1)); return; }
    (cd "$1" && "$pbjc" -I . $roots --descriptor_set_out="$stem.pbjc.binpb" -o "$stem.gen" "$2") 2>"$stem.pbjc.err" ||
        { echo "FAIL $1/$2: pbjc rejects it:"; cat "$stem.pbjc.err"; fail=$((fail + 1)); return; }
    if cmp -s "$stem.buf.binpb" "$stem.pbjc.binpb"; then same_source_info "$1" "$2" && pass=$((pass + 1)); return; fi
    echo "FAIL $1/$2: descriptor sets differ (protoc --decode_raw of each, diff -u buf pbjc):"
    protoc --decode_raw <"$stem.buf.binpb" >"$stem.buf.txt"
    protoc --decode_raw <"$stem.pbjc.binpb" >"$stem.pbjc.txt"
    diff -u "$stem.buf.txt" "$stem.pbjc.txt" | head -30
    fail=$((fail + 1))
}
roots="-I $top/test/editions/features -I $top/src/proto"
for s in test/editions/schemas/*.proto; do [ -f "$s" ] || continue; check test/editions/schemas "$(basename "$s")"; done
for s in "$out"/2023/*.proto; do check "$out/2023" "$(basename "$s")"; done
roots=
for s in test/editions/builtin/*.proto; do check test/editions/builtin "$(basename "$s")"; done
echo "editions descriptor: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
