#!/bin/sh
# test/plugin/run.sh: pbjc as protoc's plugin. For each schema set, one protoc run with pbjc as
# protoc-gen-pbj writes byte for byte the files `pbjc -o` writes, the options given on protoc's
# command line (--pbj_out=OPTIONS:DIR, --pbj_opt) and in comments; pbjc's errors come back as
# protoc's, and bad parameters and requests (empty, garbage, cut short, flipped, inconsistent)
# give an error response, never a crash (the sanitized pbjc runs those and some of the sets).
# Usage (from the repo top): test/plugin/run.sh PLUGIN PLUGIN_SAN PBJC OUT [CORPUS]
#   PLUGIN, PLUGIN_SAN: protoc-gen-pbj (an installed one, and a link to an ASan+UBSan pbjc)
set -u
PLUGIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SAN=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
PBJC=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
mkdir -p "$4"
OUT=$(cd "$4" && pwd)
CORPUS=${5:-}
TOP=$(pwd)
failed=0
fail() { echo "FAIL plugin: $*"; failed=$((failed + 1)); }

# same NAME DIR PLUGIN PARAM FLAGS ARGS...: in DIR, `protoc --pbj_out=PARAM:A ARGS` with PLUGIN and
# `pbjc FLAGS -o B ARGS` write the same files (ARGS: -I roots and .proto files; PARAM may be followed by
# --pbj_opt=... words in FLAGS' place: PROTOC_EXTRA)
same() {
    s_name=$1 s_dir=$2 s_plugin=$3 s_param=$4 s_flags=$5
    shift 5
    s_a=$OUT/$s_name/plugin s_b=$OUT/$s_name/pbjc
    rm -rf "${OUT:?}/$s_name"
    mkdir -p "$s_a" "$s_b"
    (cd "$s_dir" && protoc --plugin=protoc-gen-pbj="$s_plugin" --pbj_out="${s_param:+$s_param:}$s_a" ${PROTOC_EXTRA:-} "$@") \
        2>"$OUT/$s_name/protoc.err" || { fail "$s_name: protoc with the plugin failed:"; cat "$OUT/$s_name/protoc.err"; return; }
    (cd "$s_dir" && "$PBJC" $s_flags -o "$s_b" "$@") 2>"$OUT/$s_name/pbjc.err" || { fail "$s_name: pbjc failed:"; cat "$OUT/$s_name/pbjc.err"; return; }
    s_n=$(find "$s_a" -type f | wc -l)
    if [ "$s_n" = 0 ]; then fail "$s_name: the plugin wrote nothing"; return; fi
    if diff -r "$s_b" "$s_a" >"$OUT/$s_name/diff"; then
        echo "plugin: $s_name: $s_n files, byte for byte pbjc -o's"
    else
        fail "$s_name: the plugin's files differ from pbjc -o's (- pbjc, + plugin):"
        head -40 "$OUT/$s_name/diff"
    fi
}

# protoc_error NAME WANT PARAM DIR FILES...: protoc fails, its stderr saying "--pbj_out: " and WANT.
protoc_error() {
    e_name=$1 e_want=$2 e_param=$3 e_dir=$4
    shift 4
    mkdir -p "$OUT/errors"
    if (cd "$e_dir" && protoc --plugin=protoc-gen-pbj="$SAN" --pbj_out="${e_param:+$e_param:}$OUT/errors" "$@") 2>"$OUT/errors/$e_name.err"; then
        fail "error $e_name: protoc succeeded"
    elif grep -qF -- "--pbj_out: $e_want" "$OUT/errors/$e_name.err"; then
        echo "plugin: error $e_name: --pbj_out: $e_want"
    else
        fail "error $e_name: wanted '--pbj_out: $e_want' from protoc, got:"
        cat "$OUT/errors/$e_name.err"
    fi
}

protos_in() { (cd "$1" && find . -name '*.proto' -not -path '*/expected/*' | sed 's|^\./||' | LC_ALL=C sort); }

# The golden cases and the parity schemas (descriptor.proto and the parity schemas through the sanitized pbjc).
for d in test/golden/*/; do
    c=$(basename "$d")
    root=$d
    [ "$c" = sample ] && root=samples/proto
    p=$PLUGIN
    [ "$c" = descriptor ] && p=$SAN
    shared=""   # the inputs the case takes from /usr/include (test/golden/run.sh)
    [ -f "$d/include.protos" ] && shared="-I . -I /usr/include $(cat "$d/include.protos")"
    same "golden-$c" "$root" "$p" "" "" $shared $(protos_in "$root")
done
same parity test/parity/schemas "$SAN" "" "" $(protos_in test/parity/schemas)

# Options in comments (the --explain-options cases that succeed), and on protoc's command line:
# each case's flags as the parameter ("--pbj NAME=V" -> "pbj.NAME=V"); level_project also through --pbj_opt.
for d in test/options/cases/*/; do
    c=$(basename "$d")
    [ -f "$d/expected" ] || continue
    if [ "$c" = editions ]; then echo "plugin: options-$c: skipped (protoc 3.21 reads no editions)"; continue; fi
    set -- $(cat "$d/args")
    flags="" param="" args=""
    while [ $# -gt 0 ]; do
        case $1 in
        -I) args="$args -I $2"; shift ;;
        --pbj) flags="$flags --pbj $2"; param="$param,$2"; shift ;;
        --*) flags="$flags $1"; param="$param,${1#--}" ;;
        *) args="$args $1" ;;
        esac
        shift
    done
    param=${param#,}
    if ! (cd "$d" && "$PBJC" $flags -o "$OUT/errors" $args) 2>"$OUT/pbjc-$c.err"; then   # an error pbjc -o gives too
        want=$(grep -m1 ': error: ' "$OUT/pbjc-$c.err" | sed 's/^[^ ]*: error: //')
        protoc_error "options-$c" "$(grep -m1 ': error: ' "$OUT/pbjc-$c.err" | sed 's/:.*//'):" "$param" "$d" $args
        grep -qF -- "error: $want" "$OUT/errors/options-$c.err" || fail "error options-$c: wanted 'error: $want'"
        continue
    fi
    if [ "$c" = level_project ]; then
        PROTOC_EXTRA="--pbj_opt=${param#*,}" same "options-$c-opt" "$d" "$PLUGIN" "${param%%,*}" "$flags" $args
    fi
    same "options-$c" "$d" "$PLUGIN" "$param" "$flags" $args
done

# The hapi corpus in one protoc run.
if [ -n "$CORPUS" ] && [ -d "$CORPUS/hapi-v0.59.0" ]; then
    h=$CORPUS/hapi-v0.59.0
    same hapi "$TOP" "$PLUGIN" "" "" -I "$h/services" -I "$h/block" -I "$h/platform" -I "$h/streams" \
        $(find "$h/services" "$h/block" "$h/platform" "$h/streams" -name '*.proto' | LC_ALL=C sort)
else
    echo "check-plugin: the hapi corpus: skipped: ${CORPUS:-../shared/corpus} not found"
fi
echo "plugin: the editions schemas: skipped (protoc 3.21 reads no editions)"

# ---- errors --------------------------------------------------------------------------------------

protoc_error bad-parameter "pbjc: error: unknown option 'turbo' in the plugin parameter \"views,turbo\"" \
    views,turbo test/golden/scalars scalars.proto
protoc_error misspelt "pbjc: error: unknown option 'vews' in the plugin parameter \"vews\"; did you mean views? (" \
    vews test/golden/scalars scalars.proto
protoc_error misspelt-no "pbjc: error: unknown option 'no-jsn' in the plugin parameter \"no-jsn\"; did you mean no-json? (" \
    no-jsn test/golden/scalars scalars.proto
protoc_error bad-value "pbjc: error: bad value 'fast' for pbj.performance in --performance=fast (expected default, max or size)" \
    performance=fast test/golden/scalars scalars.proto
protoc_error bad-pbj "pbjc: error: unknown pbj option pbj.view" pbj.view=true test/golden/scalars scalars.proto

# The options cases that fail: their first error, here at the declaration the comment belongs to.
for d in test/options/cases/*/; do
    c=$(basename "$d")
    [ -f "$d/expected.err" ] && [ ! -f "$d/expected.rc" ] || continue
    want=$(head -1 "$d/expected.err" | sed 's/^[^ ]*: error: //')
    file=$(head -1 "$d/expected.err" | sed 's/:.*//')
    protoc_error "options-$c" "$file:" "" "$d" $(cat "$d/args")
    grep -qF -- "error: $want" "$OUT/errors/options-$c.err" || fail "error options-$c: wanted 'error: $want'"
done

# response NAME WANT [ARGS]: the sanitized pbjc in plugin mode on $OUT/requests/NAME exits 0 and its
# response's error holds WANT (a fixed string; "" for any error).
# (src/proto's plugin.proto: the response's newer fields, which say the editions pbjc generates)
DECODE="protoc -I src/proto -I /usr/include --decode=google.protobuf.compiler.CodeGeneratorResponse google/protobuf/compiler/plugin.proto"
response() {
    r_name=$1 r_want=$2
    r_req=$OUT/requests/$r_name
    if ! "$SAN" --plugin-mode <"$r_req" >"$r_req.out" 2>"$r_req.err"; then
        fail "request $r_name: pbjc --plugin-mode failed:"; head -20 "$r_req.err"; return
    fi
    $DECODE <"$r_req.out" >"$r_req.txt" 2>&1 || { fail "request $r_name: the response does not decode"; return; }
    if ! grep -q '^error: ' "$r_req.txt"; then fail "request $r_name: no error in the response:"; head -5 "$r_req.txt"; return; fi
    grep -q '^supported_features: 3$' "$r_req.txt" || fail "request $r_name: no supported_features (proto3 optional, editions)"
    grep -q '^minimum_edition: 1000$' "$r_req.txt" && grep -q '^maximum_edition: 1002$' "$r_req.txt" ||
        fail "request $r_name: no editions 2023 (1000) to 2026 (1002)"
    grep '^error: ' "$r_req.txt" | grep -qF -- "$r_want" || { fail "request $r_name: wanted an error with '$r_want':"; cat "$r_req.txt"; return; }
    if [ -n "$r_want" ]; then echo "plugin: request $r_name: $r_want"; fi
}

mkdir -p "$OUT/requests"
: >"$OUT/requests/empty"
response empty "the CodeGeneratorRequest names no file to generate"
printf '\377\377\377\377' >"$OUT/requests/garbage"
response garbage "standard input holds no CodeGeneratorRequest (4 bytes"

# requests written as text: inconsistent ones protoc would never send
REQ_ENCODE="protoc -I /usr/include --encode=google.protobuf.compiler.CodeGeneratorRequest google/protobuf/compiler/plugin.proto"
text_request() {
    printf '%s\n' "$2" | $REQ_ENCODE >"$OUT/requests/$1" || fail "request $1: protoc --encode failed"
    response "$1" "$3"
}
text_request not-described 'file_to_generate: "x.proto"' \
    'file_to_generate names x.proto, which no proto_file of the request describes'
text_request import-after 'file_to_generate: "a.proto" proto_file { name: "a.proto" dependency: "b.proto" } proto_file { name: "b.proto" }' \
    'Import \"b.proto\" was not given before the file that imports it.'
text_request no-type 'file_to_generate: "a.proto" proto_file { name: "a.proto" message_type { name: "M" field { name: "f" number: 1 label: LABEL_OPTIONAL } } }' \
    'field \"f\" has no type'
text_request bad-oneof 'file_to_generate: "a.proto" proto_file { name: "a.proto" syntax: "proto3" message_type { name: "M" field { name: "f" number: 1 type: TYPE_INT32 oneof_index: 3 } } }' \
    'field \"f\" names oneof 3, which \"M\" does not have'
text_request bad-syntax 'file_to_generate: "a.proto" proto_file { name: "a.proto" syntax: "proto4" }' \
    'unrecognized syntax \"proto4\"'
text_request unresolved 'file_to_generate: "a.proto" proto_file { name: "a.proto" message_type { name: "M" field { name: "f" number: 1 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".N" } } }' \
    'is not defined'
text_request bad-parameter 'file_to_generate: "a.proto" parameter: "views,,--writers,no-such" proto_file { name: "a.proto" }' \
    "unknown option \\'no-such\\' in the plugin parameter"

# A real request (the parity schemas', with comments), cut short at 12 places and with a byte flipped at
# 12 places: each gives a response, never a crash (a flipped byte may still be a valid request).
capture=$OUT/requests/capture.sh
printf '#!/bin/sh\ncat >"%s"\nprintf "\\020\\001"\n' "$OUT/requests/real" >"$capture"
chmod +x "$capture"
(cd test/parity/schemas && protoc --plugin=protoc-gen-pbj="$capture" --pbj_out="$OUT/errors" $(protos_in .)) \
    || fail "capturing a request failed"
size=$(wc -c <"$OUT/requests/real")
i=1
while [ $i -le 12 ]; do
    cut=$((size * i / 13))
    head -c "$cut" "$OUT/requests/real" >"$OUT/requests/cut-$cut"
    response "cut-$cut" ""
    at=$((size * i / 13 + 7 * i))
    { head -c "$at" "$OUT/requests/real"; printf '\245'; tail -c +"$((at + 2))" "$OUT/requests/real"; } >"$OUT/requests/flip-$at"
    "$SAN" --plugin-mode <"$OUT/requests/flip-$at" >"$OUT/requests/flip-$at.out" 2>"$OUT/requests/flip-$at.err" &&
        $DECODE <"$OUT/requests/flip-$at.out" >/dev/null 2>&1 || { fail "request flip-$at: no response"; head -20 "$OUT/requests/flip-$at.err"; }
    i=$((i + 1))
done
echo "plugin: a request of $size bytes cut short at 12 places: 12 error responses; a byte flipped at 12 places: 12 responses"

if "$SAN" --plugin-mode extra </dev/null >/dev/null 2>"$OUT/requests/extra.err"; then fail "--plugin-mode with an argument succeeded"
elif [ $? = 2 ] && grep -q 'plugin mode takes no other argument' "$OUT/requests/extra.err"; then echo "plugin: --plugin-mode with an argument: usage error"
else fail "--plugin-mode with an argument: wanted exit 2 and a usage error"
fi

[ $failed = 0 ] || { echo "check-plugin: $failed failed"; exit 1; }
echo "check-plugin: ok"
