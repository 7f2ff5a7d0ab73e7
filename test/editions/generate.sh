#!/bin/sh
# generate.sh PBJC BUF OUT: `buf generate` with pbjc as a local plugin (protoc-gen-pbj) on every editions schema of
# test/editions/schemas writes what `pbjc -o` writes, byte for byte: the plugin announces editions 2023 to 2026
# (CodeGeneratorResponse's supported_features, minimum_edition, maximum_edition), which buf requires first.
# Run from the repository top.
set -eu
top=$(pwd)
pbjc=$top/$1 buf=$top/$2 out=$top/$3
rm -rf "$out" && mkdir -p "$out/bin" "$out/src"
ln -s "$pbjc" "$out/bin/protoc-gen-pbj"
cp test/editions/schemas/*.proto "$out/src/"        # the languages' features files: buf's own, pbjc's test/editions/features
cd "$out/src"
printf 'version: v2\n' >buf.yaml
printf 'version: v2\nplugins:\n  - local: %s\n    out: %s\n' "$out/bin/protoc-gen-pbj" "$out/buf" >buf.gen.yaml
fail=0
for s in "$top"/test/editions/schemas/*.proto; do
    name=$(basename "$s")
    "$buf" generate --path "$name" >"$out/$name.buf.err" 2>&1 || { echo "FAIL $name: buf generate:"; cat "$out/$name.buf.err"; fail=1; continue; }
    "$pbjc" -I . -I "$top/test/editions/features" -I "$top/src/proto" -o "$out/direct" "$name" || { echo "FAIL $name: pbjc -o"; fail=1; continue; }
done
[ "$fail" -eq 0 ] && diff -r "$out/direct" "$out/buf" && echo "editions generate: buf generate with protoc-gen-pbj writes what pbjc -o writes"
