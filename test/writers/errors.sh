#!/bin/sh
# errors.sh DIR: pbjc refuses writers it cannot generate, with the error a user needs.
set -eu
dir=$1/errors
mkdir -p "$dir"
expect() {   # what args...: pbjc exits 1 and says what
    what=$1
    shift
    if ./pbjc "$@" -o "$dir" 2>"$dir/err"; then echo "FAIL writers: pbjc accepted $*"; exit 1; fi
    grep -q "$what" "$dir/err" || { echo "FAIL writers: pbjc $* did not say: $what"; cat "$dir/err"; exit 1; }
}
# the closure reaches w2.Old, whose file is not generated in this run
expect "pbj.writers is on for w2.Old (set for the project) in w2.proto, which this run does not generate" --writers -I test/writers -I /usr/include test/writers/w3.proto
# repeated x gives M_writer_add_x, which field add_x also names
printf 'syntax = "proto3";\nmessage M {\n  repeated int32 x = 1;\n  int32 add_x = 2;\n}\n' > "$dir/clash.proto"
expect 'C name "M_writer_add_x"' --writers -I "$dir" "$dir/clash.proto"
# without writers the same file is fine
./pbjc -I "$dir" -o "$dir" "$dir/clash.proto"
echo "writers errors: ok"
