#!/bin/sh
# driver.sh: pbjc's command line: roots, exit codes, make dependencies, --version.
# usage: test/front/driver.sh PBJC   (from the repository top)
set -u
PBJC=$(cd "$(dirname "${1:?usage: driver.sh PBJC}")" && pwd)/$(basename "$1")
top=$(pwd)
dir=${TMPDIR:-/tmp}/pbjc-driver.$$
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/proto/sub" && cd "$dir" || exit 1
failures=0
fail() { echo "driver: FAIL: $*"; failures=$((failures + 1)); }

# expect CODE CMD...: run CMD (stdout to out, stderr to err) and check its exit status.
expect() {
    want=$1; shift
    "$@" >out 2>err
    got=$?
    [ "$got" = "$want" ] || { fail "'$*' exited $got, not $want"; sed 's/^/  | /' err | head -5; }
}
same() {   # same FILE TEXT: FILE holds exactly TEXT
    printf '%s\n' "$2" >want
    cmp -s "$1" want || { fail "$1 differs:"; diff -u want "$1" | head -20; }
}

cat >proto/sub/b.proto <<'P'
syntax = "proto3";
package s;
import "google/protobuf/timestamp.proto";
message B { google.protobuf.Timestamp t = 1; }
P
cat >proto/a.proto <<'P'
syntax = "proto3";
import "sub/b.proto";
message A { s.B b = 1; }
P
printf 'syntax = "proto3";\nmessage Broken {\n  int32 x = \n}\n' >proto/broken.proto

# bad usage: exit 2
expect 2 "$PBJC"
expect 2 "$PBJC" --check
expect 2 "$PBJC" --check proto/a.proto -I
expect 2 "$PBJC" proto/a.proto
expect 2 "$PBJC" -M --check proto/a.proto
expect 2 "$PBJC" --no-such-flag --check proto/a.proto
grep -q "^pbjc: error: unknown option '--no-such-flag'" err || fail "unknown flag message: $(head -1 err)"
expect 2 "$PBJC" --writer --check proto/a.proto
grep -q "^pbjc: error: unknown option '--writer'; did you mean --writers?" err || fail "misspelt flag: $(head -1 err)"
expect 2 "$PBJC" --performnce=max --check proto/a.proto
grep -q "^pbjc: error: unknown option '--performnce=max'; did you mean --performance?" err || fail "misspelt flag: $(head -1 err)"
expect 2 "$PBJC" --include_source_info -o out proto/a.proto       # only with a descriptor set
grep -q "^pbjc: error: --include_source_info needs --descriptor_set_out" err || fail "source info usage: $(head -1 err)"
# an empty value is no value (-o "" would write at the file system's root); -MT names the target of rules only
for flag in --out= -o\  --descriptor_set_out= --proto_path= -I\  -MF\  -MT\ ; do
    expect 2 sh -c "\"\$@\" $flag'' --check proto/a.proto" - "$PBJC"
    grep -q "^pbjc: error: ${flag%%[= ]*} needs a value" err || fail "$flag'': $(head -1 err)"
done
expect 2 "$PBJC" -I proto -MT x -o gen proto/a.proto
grep -q "^pbjc: error: -MT needs -M, -MD or -MF" err || fail "-MT alone: $(head -1 err)"

# roots in every spelling; the well-known types come from the system include directory
expect 0 "$PBJC" -I proto --check proto/a.proto
expect 0 "$PBJC" -Iproto --check proto/a.proto
expect 0 "$PBJC" --proto_path=proto --check proto/a.proto
expect 1 "$PBJC" --check proto/a.proto            # root ".": "sub/b.proto" is not found
cd proto; expect 0 "$PBJC" --check a.proto; cd ..   # no root given: "." is the root

# errors in the input: exit 1, file:line:col: error: first
expect 1 "$PBJC" -I proto --check proto/broken.proto
same err "proto/broken.proto:4:1: error: expected an integer, found '}'
}
^"

# -M: the rule for the outputs, to stdout, nothing written
expect 0 "$PBJC" -I proto -M -o gen proto/a.proto
same out "gen/a.pb.h gen/a.pb.c: \\
  proto/a.proto \\
  proto/sub/b.proto"
[ ! -e gen ] || fail "-M wrote outputs"
expect 0 "$PBJC" -I proto -M --descriptor_set_out=set.pb proto/sub/b.proto -MT 'all sets'
same out "all\\ sets: \\
  proto/sub/b.proto"
[ ! -e set.pb ] || fail "-M wrote the descriptor set"

# -MD beside the output; -MF elsewhere
expect 0 "$PBJC" -I proto -MD --descriptor_set_out=set.pb proto/sub/b.proto
[ -s set.pb ] || fail "-MD did not write the descriptor set"
same set.pb.d "set.pb: \\
  proto/sub/b.proto"
expect 0 "$PBJC" -I proto -MF deps.mk -MT x --descriptor_set_out=set.pb proto/a.proto
same deps.mk "x: \\
  proto/a.proto \\
  proto/sub/b.proto"

# --check writes nothing, even with outputs named
expect 0 "$PBJC" -I proto --check -o gen2 --descriptor_set_out=set2.pb proto/a.proto
[ ! -e gen2 ] && [ ! -e set2.pb ] || fail "--check wrote outputs"

# An aggregate option value nested 100 messages deep is written as protoc writes it; one
# level more (or 30,000) is an error at the value, not a recursion as deep as the input.
deep() {   # deep N: deep.proto with (o) = { r { r { ... } } } nesting N messages inside the value
    awk -v n="$1" 'BEGIN {
        print "syntax = \"proto2\";\nimport \"google/protobuf/descriptor.proto\";"
        print "message R { optional R r = 1; }\nextend google.protobuf.FileOptions { optional R o = 50000; }"
        printf "option (o) = {"; for (i = 0; i < n; i++) printf " r {"; for (i = 0; i < n; i++) printf " }"; print " };"
    }' >proto/deep.proto
}
deep 100
expect 0 "$PBJC" -I proto --descriptor_set_out=deep.pb proto/deep.proto
protoc -I proto --descriptor_set_out=deep.protoc.pb proto/deep.proto && cmp -s deep.pb deep.protoc.pb ||
    fail "an option value 100 messages deep: the set differs from protoc's"
for n in 101 30000; do
    deep $n
    expect 1 "$PBJC" -I proto --check proto/deep.proto
    head -1 err >first.err
    same first.err "proto/deep.proto:5:14: error: Error while parsing option value for \"o\": Message is too deep, the parser exceeded the configured recursion limit of 100."
done

# a -I root that does not exist: protoc's warning, and the run goes on
expect 0 "$PBJC" -I no/such/dir -I proto --check proto/a.proto
same err "no/such/dir: warning: directory does not exist."

# an editions file: one error, nothing read as proto2 after it
printf 'edition = "2023";\nmessage M {\n  int32 a = 1 [features.field_presence = EXPLICIT];\n  required int32 b = 2;\n}\n' >proto/ed.proto
expect 1 "$PBJC" -I proto --check proto/ed.proto
[ "$(grep -c ': error: ' err)" = 1 ] || { fail "editions: not exactly one error:"; cat err; }

# --version and --help
expect 0 "$PBJC" --version
grep -Eq '^pbjc [0-9]+\.[0-9]+\.[0-9]+$' out || fail "--version printed: $(cat out)"
expect 0 "$PBJC" --help
grep -q '^usage: pbjc \[OPTIONS\] FILE.proto' out || fail "--help printed no usage line"

cd "$top"
if [ "$failures" -ne 0 ]; then echo "driver: $failures failures"; exit 1; fi
echo "driver: ok"
