#!/bin/sh
# test/gen/run.sh: generated code against protoc, one section at a time (make check-gen runs them all):
#   kinds       every proto3 field kind round-trips and prints as protoc --decode does; limits, malformed input
#   proto2      proto2 in full: defaults, required, groups, extensions, message sets
#   descriptor  descriptor.proto and plugin.proto: protoc's own descriptor sets round-trip
#   header      the resolved options listed in the header; C name collisions
#   corpus      the well-known types and hapi generated into one unit, all_generated.c (make compiles it)
#   sdk mirror  hapi's sdk/ and mirror/, which name files as services/ does, compile with gcc and clang
#   block       the real block decodes, encodes back and prints identically (after corpus's all_gcc.o)
# The last four need the corpus in $CORPUS (../shared/corpus unless set); descriptor skips its hapi set
# when CORPUS is empty.
# Usage: test/gen/run.sh PBJC BUILD_DIR SECTION  (from the repo top; CC, SAN, CORPUS from the environment)
set -eu
PBJC=${1:?usage: run.sh PBJC BUILD_DIR SECTION}
SECTION=${3:?usage: run.sh PBJC BUILD_DIR SECTION}
B=${2}/gen/$SECTION
G=${2}/gen/corpus
CC=${CC:-cc}
SAN=${SAN:-}
SAN_OPT=${SAN_OPT:--O1}   # the sanitizer builds' optimisation (the Makefile passes -O0)
CORPUS=${CORPUS-../shared/corpus}
HAPI=$CORPUS/hapi-v0.59.0
HAPI_ROOTS="-I $HAPI/services -I $HAPI/block -I $HAPI/platform -I $HAPI/streams"
RT=$(pwd)/rt
STRICT="-std=c11 -Wall -Wextra -Wpedantic -Werror"
fail=0
rm -rf "$B"
mkdir -p "$B/out"

ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fail=1; }

proto() { protoc -Itest/gen/proto -I/usr/include "$@"; }

# roundtrip NAME FILE.proto [ENC_TYPE/]TYPE C_TYPE TEXT [roundtrip options]: protoc encodes TEXT
# (as ENC_TYPE when given); we decode as TYPE, encode (same bytes), print (same text as protoc --decode).
roundtrip() {
    name=$1 file=$2 type=${3#*/} enctype=${3%/*} ctype=$4 text=$5
    shift 5
    proto --deterministic_output --encode="$enctype" "$file" < "$text" > "$B/out/$name.bin"
    proto --decode="$type" "$file" < "$B/out/$name.bin" > "$B/out/$name.want.txt" 2>/dev/null
    if ! "$B/rt_$ctype" "$@" "$B/out/$name.bin" "$B/out/$name.got.bin" "$B/out/$name.got.txt"; then bad "$name: decode/encode"; return; fi
    if cmp -s "$B/out/$name.bin" "$B/out/$name.got.bin"; then ok "$name: bytes equal protoc's"; else bad "$name: bytes differ from protoc's"; fi
    if diff -u "$B/out/$name.want.txt" "$B/out/$name.got.txt"; then ok "$name: text equals protoc --decode"; else bad "$name: text differs"; fi
}
# reencode NAME FILE.proto TYPE C_TYPE BYTES WHAT: non-canonical BYTES (printf escapes) decode, encode and
# print as protoc's decode and re-encode of them do.
reencode() {
    name=$1 file=$2 type=$3 ctype=$4
    printf "$5" > "$B/out/$name.bin"
    proto --decode="$type" "$file" < "$B/out/$name.bin" > "$B/out/$name.want.txt"
    proto --encode="$type" "$file" < "$B/out/$name.want.txt" > "$B/out/$name.want.bin"
    same "$name" "$ctype" "$6"
}
# same NAME C_TYPE WHAT: $B/out/NAME.bin decodes, encodes to NAME.want.bin and prints NAME.want.txt
same() {
    if "$B/rt_$2" "$B/out/$1.bin" "$B/out/$1.got.bin" "$B/out/$1.got.txt" &&
       cmp -s "$B/out/$1.want.bin" "$B/out/$1.got.bin" &&
       diff -u "$B/out/$1.want.txt" "$B/out/$1.got.txt"; then ok "$3"; else bad "$3"; fi
}
# expect WHAT C_TYPE STATUS BYTES [options]: BYTES (printf escapes) decode to STATUS
expect() {
    what=$1 ctype=$2 status=$3 bytes=$4
    shift 4
    printf "$bytes" > "$B/out/bad.bin"
    if "$B/rt_$ctype" "$@" --expect "$status" "$B/out/bad.bin"; then ok "$what: $status"; else bad "$what"; fi
}

# the schemas of every field kind
kinds() {
    $PBJC -o "$B/kinds" -I test/gen/proto -I /usr/include test/gen/proto/kinds.proto \
        test/gen/proto/kinds2.proto /usr/include/google/protobuf/wrappers.proto
    KOBJ=
    for f in kinds kinds2 google/protobuf/wrappers; do
        $CC $STRICT $SAN_OPT -g $SAN -Irt -I"$B/kinds" -c "$B/kinds/$f.pb.c" -o "$B/kinds/$f.o"
        KOBJ="$KOBJ $B/kinds/$f.o"
    done
    for m in pbjtest_Kinds:kinds pbjtest_KindsLite:kinds pbjtest_Tree:kinds pbjtest2_Item:kinds2; do
        msg=${m%%:*} hdr=${m#*:}
        $CC $STRICT $SAN_OPT -g $SAN -Irt -I"$B/kinds" -DMSG="$msg" -DHEADER="\"$hdr.pb.h\"" \
            -o "$B/rt_$msg" test/gen/roundtrip.c $KOBJ
    done
    roundtrip kinds test/gen/proto/kinds.proto pbjtest.Kinds pbjtest_Kinds test/gen/data/kinds.txt
    roundtrip kinds_alias test/gen/proto/kinds.proto pbjtest.Kinds pbjtest_Kinds test/gen/data/kinds.txt --alias
    roundtrip kinds_min test/gen/proto/kinds.proto pbjtest.Kinds pbjtest_Kinds test/gen/data/kinds_min.txt
    roundtrip kinds_unknown test/gen/proto/kinds.proto pbjtest.Kinds/pbjtest.KindsLite pbjtest_KindsLite test/gen/data/kinds_lite.txt
    roundtrip kinds2_plain test/gen/proto/kinds2.proto pbjtest2.Item pbjtest2_Item test/gen/data/kinds2_plain.txt

    roundtrip kinds2 test/gen/proto/kinds2.proto pbjtest2.Item pbjtest2_Item test/gen/data/kinds2.txt

    # a closed (proto2) enum's unknown value moves to the unknown fields, as protobuf does:
    #   level 77 (unknown), id 1, level 1, level 99 (unknown), level 2 (the last known one wins)
    printf '\040\115\010\001\040\001\040\143\040\002' > "$B/out/closed.bin"
    printf '\010\001\040\002\040\115\040\143' > "$B/out/closed.want.bin"
    proto --decode=pbjtest2.Item test/gen/proto/kinds2.proto < "$B/out/closed.bin" > "$B/out/closed.want.txt"
    same closed pbjtest2_Item "closed enum: unknown values kept as unknown fields"

    # unknown fields dropped: the bytes of the known fields alone; rejected in strict mode
    proto --encode=pbjtest.KindsLite test/gen/proto/kinds.proto < test/gen/data/kinds_lite_known.txt > "$B/out/lite_known.bin"
    if "$B/rt_pbjtest_KindsLite" --drop "$B/out/kinds_unknown.bin" "$B/out/drop.bin" "$B/out/drop.txt" &&
       cmp -s "$B/out/lite_known.bin" "$B/out/drop.bin"; then ok "unknown fields dropped"; else bad "unknown fields dropped"; fi
    if "$B/rt_pbjtest_KindsLite" --strict --expect "unknown field rejected" "$B/out/kinds_unknown.bin"; then ok "strict rejects unknown fields"; else bad "strict"; fi

    # non-canonical input: out of order, packed and unpacked mixed, a singular field twice, a message merged
    #   f_int32=1, r_int32 packed [1,2], f_int32=5 (wins), r_int32 unpacked 3, f_leaf{id:1}, f_leaf{label:"x"} (merged),
    #   f_double before them all at the end, r_unpacked packed [7]
    reencode noncanon test/gen/proto/kinds.proto pbjtest.Kinds pbjtest_Kinds \
        '\050\001\312\001\002\001\002\050\005\310\001\003\212\001\002\010\001\212\001\003\022\001x\011\000\000\000\000\000\000\360\077\262\002\001\007' \
        "non-canonical input re-encodes as protoc does"

    # limits and malformed input, each with its own status
    # (max_depth counts the messages inside the top-level one, as protoc does)
    expect "depth limit" pbjtest_Tree "nested past max_depth" '\032\004\032\002\032\000' --max-depth 2
    expect "depth within limit" pbjtest_Tree "ok" '\032\004\032\002\032\000' --max-depth 3
    expect "length limit" pbjtest_Kinds "length past max_length" '\112\005hello' --max-length 4
    expect "invalid UTF-8" pbjtest_Kinds "invalid UTF-8" '\112\002\300\200'
    expect "bytes need no UTF-8" pbjtest_Kinds "ok" '\122\002\300\200'
    expect "wrong wire type: an unknown field" pbjtest_Kinds "ok" '\051\001\000\000\000\000\000\000\000'
    expect "wrong wire type: strict rejects it" pbjtest_Kinds "unknown field rejected" '\051\001\000\000\000\000\000\000\000' --strict
    expect "field number 0" pbjtest_Kinds "field number 0" '\000\001'
    expect "truncated varint" pbjtest_Kinds "input ends" '\050\200'
    expect "truncated length" pbjtest_Kinds "input ends" '\112\005hell'
    expect "varint of 11 bytes" pbjtest_Kinds "malformed varint" '\050\377\377\377\377\377\377\377\377\377\377\001'
    expect "10th varint byte above 1: bits past 64 dropped, as C++" pbjtest_Kinds "ok" '\050\377\377\377\377\377\377\377\377\377\177'
    expect "tag wire type 7" pbjtest_Kinds "malformed tag" '\057'
    expect "lone end group" pbjtest_Kinds "group" '\234\001'
    expect "proto2 string no UTF-8 check" pbjtest2_Item "ok" '\010\001\022\001\377'
    if "$B/rt_pbjtest_Kinds" --abuse "$B/out/kinds.bin"; then ok "truncations and mutations"; else bad "truncations and mutations"; fi
}

# proto2 in full (p2.proto): defaults, required, groups, extensions
proto2() {
    mkdir -p "$B/p2"
    $PBJC -o "$B/p2" -I test/gen/proto test/gen/proto/p2.proto
    for cc in gcc clang; do
        $cc $STRICT -O1 -g -Irt -I"$B/p2" -c "$B/p2/p2.pb.c" -o /dev/null || bad "$cc: p2.pb.c"
    done
    $CC $STRICT $SAN_OPT -g $SAN -Irt -I"$B/p2" -c "$B/p2/p2.pb.c" -o "$B/p2/p2.o"
    for m in p2_Root p2_Defaults p2_Need p2_HasSet; do
        $CC $STRICT $SAN_OPT -g $SAN -Irt -I"$B/p2" -DMSG="$m" -DHEADER='"p2.pb.h"' -o "$B/rt_$m" test/gen/roundtrip.c "$B/p2/p2.o"
    done
    # groups (singular, repeated, nested), extensions of every kind by name, present defaults
    roundtrip p2_root test/gen/proto/p2.proto p2.Root p2_Root test/gen/data/p2_root.txt
    roundtrip p2_root_alias test/gen/proto/p2.proto p2.Root p2_Root test/gen/data/p2_root.txt --alias
    roundtrip p2_defaults test/gen/proto/p2.proto p2.Defaults p2_Defaults test/gen/data/p2_defaults.txt
    roundtrip p2_need test/gen/proto/p2.proto p2.Need p2_Need test/gen/data/p2_need.txt
    roundtrip p2_set test/gen/proto/p2.proto p2.HasSet p2_HasSet test/gen/data/p2_set.txt
    if "$B/rt_p2_Root" --abuse "$B/out/p2_root.bin"; then ok "p2: truncations and mutations"; else bad "p2: truncations and mutations"; fi
    # the API: defaults when absent, has/clear, required names, typed extension setters = protoc's bytes
    $CC $STRICT $SAN_OPT -g $SAN -Irt -I"$B/p2" -o "$B/p2_api" test/gen/p2_api.c "$B/p2/p2.o" -lcmocka
    proto --deterministic_output --encode=p2.Root test/gen/proto/p2.proto < test/gen/data/p2_setters.txt > "$B/out/p2_setters.want.bin"
    proto --deterministic_output --encode=p2.Set test/gen/proto/p2.proto < test/gen/data/p2_set_setters.txt > "$B/out/p2_set_setters.want.bin"
    if "$B/p2_api" "$B/out/p2_setters.bin" "$B/out/p2_set_setters.bin" &&
       cmp -s "$B/out/p2_setters.want.bin" "$B/out/p2_setters.bin" && cmp -s "$B/out/p2_set_setters.want.bin" "$B/out/p2_set_setters.bin"; then
        ok "p2: API units; extensions (message-set items too) set in any order encode as protoc does"; else bad "p2: API"; fi
    # required: missing in a nested message (child {}), and accepted with --partial
    printf '\010\001\022\000' > "$B/out/need_missing.bin"
    if "$B/rt_p2_Need" --expect "required field missing" "$B/out/need_missing.bin"; then ok "p2: missing required field reported"; else bad "p2: required"; fi
    # a map entry with an unknown closed enum value goes, whole, to the unknown fields, as protobuf's
    # generated code (C++, upb) does (protoc --decode's dynamic messages keep it as an entry instead)
    printf '\132\004\010\001\020\007\132\004\010\002\020\001' > "$B/out/shade.bin"
    printf '\132\004\010\002\020\001\132\004\010\001\020\007' > "$B/out/shade.want.bin"
    printf 'shades {\n  key: 2\n  value: DARK\n}\n11 {\n  1: 1\n  2: 7\n}\n' > "$B/out/shade.want.txt"
    same shade p2_Root "p2: closed enum map value: the entry kept as an unknown field"

    # a closed enum extension's values outside the enum are unknown fields, as protobuf's (C++ 3.21 writes
    # these bytes): e_color: 99, e_colors: [99, GREEN], e_colors_packed: [RED, 99, GREEN]
    printf '\330\006\143\220\007\143\220\007\004\232\007\003\003\143\004' > "$B/out/enum_ext.bin"
    printf '\220\007\004\232\007\002\003\004\330\006\143\220\007\143\230\007\143' > "$B/out/enum_ext.want.bin"
    proto --decode=p2.Root test/gen/proto/p2.proto < "$B/out/enum_ext.bin" > "$B/out/enum_ext.want.txt"
    same enum_ext p2_Root "p2: closed enum extensions: values outside the enum kept as unknown fields"

    # an extension this run does not know (150, at the end as its producer wrote it) stays an unknown field
    printf '\010\001\342\022\001z\260\011\005' > "$B/out/unknown_ext.bin"
    if "$B/rt_p2_Root" "$B/out/unknown_ext.bin" "$B/out/unknown_ext.got.bin" "$B/out/unknown_ext.got.txt" &&
       cmp -s "$B/out/unknown_ext.bin" "$B/out/unknown_ext.got.bin"; then ok "p2: unknown extension round-trips unchanged"; else bad "p2: unknown extension"; fi
    # a singular extension twice: the last wins (written once), as protoc; a repeated one keeps both
    reencode ext_twice test/gen/proto/p2.proto p2.Root p2_Root '\240\006\001\340\006\003\240\006\002\340\006\004' \
        "p2: a singular extension read twice keeps the last"
    # extensions from another file compiled in the same run: known to p2.Root (number order, scalars by name)
    mkdir -p "$B/p2x"
    $PBJC -o "$B/p2x" -I test/gen/proto test/gen/proto/p2.proto test/gen/proto/p2ext.proto
    $CC $STRICT $SAN_OPT -g $SAN -Irt -I"$B/p2x" -DMSG=p2_Root -DHEADER='"p2.pb.h"' -o "$B/rt_p2x_Root" test/gen/roundtrip.c \
        "$B/p2x/p2.pb.c" "$B/p2x/p2ext.pb.c"
    roundtrip p2x_root test/gen/proto/p2ext.proto p2.Root p2x_Root test/gen/data/p2x_root.txt
    # an open enum's extensions (edition 2023) keep values outside the enum as values, not unknown fields
    mkdir -p "$B/openx"
    $PBJC -o "$B/openx" -I test/gen/proto test/gen/proto/open_ext.proto
    $CC $STRICT $SAN_OPT -g $SAN -Irt -I"$B/openx" -o "$B/open_ext" test/gen/open_ext.c "$B/openx/open_ext.pb.c"
    if "$B/open_ext"; then ok "open enum extensions: every value kept"; else bad "open enum extensions"; fi
}

# descriptor.proto and plugin.proto: protoc's own descriptor sets round-trip
descriptor() {
    mkdir -p "$B/desc"
    $PBJC -o "$B/desc" -I /usr/include /usr/include/google/protobuf/descriptor.proto /usr/include/google/protobuf/compiler/plugin.proto
    for f in descriptor compiler/plugin; do
        for cc in gcc clang; do
            $cc $STRICT -O1 -Irt -I"$B/desc" -c "$B/desc/google/protobuf/$f.pb.c" -o /dev/null || bad "$cc: $f.pb.c"
        done
    done
    $CC $STRICT $SAN_OPT -g $SAN -Irt -I"$B/desc" -DMSG=google_protobuf_FileDescriptorSet -DHEADER='"google/protobuf/descriptor.pb.h"' \
        -o "$B/rt_fds" test/gen/roundtrip.c "$B/desc/google/protobuf/descriptor.pb.c"
    protoc -I/usr/include --include_imports --descriptor_set_out="$B/out/fds_desc.bin" google/protobuf/descriptor.proto google/protobuf/compiler/plugin.proto
    protoc -I/usr/include --include_imports --include_source_info --descriptor_set_out="$B/out/fds_desc_si.bin" google/protobuf/descriptor.proto
    BA=$(cd "$B/out" && pwd)
    sets="fds_desc fds_desc_si"
    if [ -n "$CORPUS" ]; then
        HAPI_REL=$(cd $HAPI && find services block platform streams -name '*.proto' | sort | sed 's|^[^/]*/||')
        (cd $HAPI && protoc -Iservices -Iblock -Iplatform -Istreams --include_imports --include_source_info \
            --descriptor_set_out="$BA/fds_hapi.bin" $HAPI_REL 2>/dev/null)
        sets="$sets fds_hapi"
    fi
    for f in $sets; do
        protoc -I/usr/include --decode=google.protobuf.FileDescriptorSet google/protobuf/descriptor.proto < "$B/out/$f.bin" > "$B/out/$f.want.txt"
        if "$B/rt_fds" "$B/out/$f.bin" "$B/out/$f.got.bin" "$B/out/$f.got.txt" && cmp -s "$B/out/$f.bin" "$B/out/$f.got.bin"; then
            ok "$f: protoc's descriptor set decodes and encodes back to the same bytes"; else bad "$f: round-trip"; fi
        if cmp -s "$B/out/$f.want.txt" "$B/out/$f.got.txt"; then ok "$f: text equals protoc --decode ($(wc -l < "$B/out/$f.want.txt") lines)"
        else bad "$f: text differs"; fi
    done

    # plugin.proto: the CodeGeneratorRequest protoc hands a plugin (p2.proto's), dumped by a one-line plugin
    mkdir -p "$B/plug"
    printf '#!/bin/sh\ncat > "$PBJ_DUMP"\n' > "$B/plug/protoc-gen-dump"
    chmod +x "$B/plug/protoc-gen-dump"
    PBJ_DUMP="$BA/request.bin" proto --plugin=protoc-gen-dump="$B/plug/protoc-gen-dump" --dump_out="$B/plug" test/gen/proto/p2.proto
    $CC $STRICT $SAN_OPT -g $SAN -Irt -I"$B/desc" -DMSG=google_protobuf_compiler_CodeGeneratorRequest \
        -DHEADER='"google/protobuf/compiler/plugin.pb.h"' -o "$B/rt_request" test/gen/roundtrip.c \
        "$B/desc/google/protobuf/descriptor.pb.c" "$B/desc/google/protobuf/compiler/plugin.pb.c"
    protoc -I/usr/include --decode=google.protobuf.compiler.CodeGeneratorRequest google/protobuf/compiler/plugin.proto \
        < "$B/out/request.bin" > "$B/out/request.want.txt"
    if "$B/rt_request" "$B/out/request.bin" "$B/out/request.got.bin" "$B/out/request.got.txt" &&
       cmp -s "$B/out/request.bin" "$B/out/request.got.bin" && cmp -s "$B/out/request.want.txt" "$B/out/request.got.txt"; then
        ok "plugin: a CodeGeneratorRequest round-trips and prints as protoc --decode does"; else bad "plugin: CodeGeneratorRequest"; fi
}

# resolved pbj options listed above each struct; C name collisions: an error, nothing written
header() {
    mkdir -p "$B/opts"
    $PBJC --writers -o "$B/opts" -I test/gen/proto test/gen/proto/opts.proto
    grep -A1 '^/\* pbjopts\.[A-Za-z.]*$' "$B/opts/opts.pb.h" | grep -v '^--' > "$B/out/opts.txt" || true
    if diff -u test/gen/expected/opts.txt "$B/out/opts.txt"; then ok "header: each struct lists its resolved options"; else bad "header option comments"; fi

    # each X.proto with an X.err gives exactly that first line of stderr and exit 1; near.proto (names
    # that only look close) generates and compiles
    for p in test/gen/collisions/*.proto; do
        n=$(basename "$p" .proto)
        rm -rf "$B/clash_$n"
        st=0
        $PBJC -o "$B/clash_$n" -I test/gen/collisions "$p" 2>"$B/out/clash_$n.stderr" || st=$?
        if [ -f "test/gen/collisions/$n.err" ]; then
            head -n 1 "$B/out/clash_$n.stderr" > "$B/out/clash_$n.got"
            if [ $st = 1 ] && [ ! -e "$B/clash_$n" ] && diff -u "test/gen/collisions/$n.err" "$B/out/clash_$n.got"; then
                ok "collision $n: reported, nothing written"; else bad "collision $n"; fi
        else
            cok=$st
            for cc in gcc clang; do
                [ $cok = 0 ] && $cc $STRICT -Irt -I"$B/clash_$n" -c "$B/clash_$n/$n.pb.c" -o /dev/null || cok=1
            done
            if [ $cok = 0 ] && [ ! -s "$B/out/clash_$n.stderr" ]; then ok "no collision $n: generates and compiles"; else bad "no collision $n"; fi
        fi
    done
    # an output that cannot be written (a directory stands at its path): an error naming it, exit 1,
    # no temporary file left beside it, the other outputs complete
    rm -rf "$B/wfail"
    mkdir -p "$B/wfail/shop/common.pb.h"
    st=0
    $PBJC -I samples/proto -o "$B/wfail" samples/proto/shop/common.proto 2>"$B/out/wfail.stderr" || st=$?
    left=$(ls "$B/wfail/shop" | grep -v '^common\.pb\.[ch]$' || true)
    if [ $st = 1 ] && grep -q "cannot write $B/wfail/shop/common.pb.h" "$B/out/wfail.stderr" && [ -z "$left" ] &&
       grep -q 'shop_Money__write' "$B/wfail/shop/common.pb.c"; then
        ok "outputs: a failed write is reported and leaves no temporary file"; else bad "outputs: failed write ($left)"; fi
    # a write cut short (files limited to 1 KiB, SIGXFSZ ignored so write fails with EFBIG) leaves the
    # previous output whole (the header, whose options comment changes): new bytes go to a temporary file
    # renamed over the target only when complete
    rm -rf "$B/wcut"
    $PBJC -I samples/proto -o "$B/wcut" samples/proto/shop/common.proto
    cp "$B/wcut/shop/common.pb.h" "$B/out/wcut.before.h"
    st=0
    (ulimit -f 1; trap '' XFSZ; exec $PBJC --performance=max -I samples/proto -o "$B/wcut" samples/proto/shop/common.proto) \
        2>"$B/out/wcut.stderr" || st=$?
    left=$(ls "$B/wcut/shop" | grep -v '^common\.pb\.[ch]$' || true)
    if [ $st = 1 ] && grep -q 'cannot write' "$B/out/wcut.stderr" && cmp -s "$B/out/wcut.before.h" "$B/wcut/shop/common.pb.h" &&
       [ -z "$left" ]; then ok "outputs: a write cut short leaves the previous file whole"; else bad "outputs: write cut short ($st $left)"; fi
}

# the well-known types and the hapi corpus, generated into one unit
corpus() {
    WKT=$(ls /usr/include/google/protobuf/*.proto)
    FILES=$(cd $HAPI && find services block platform streams -name '*.proto' | sort | sed "s|^|$HAPI/|")
    $PBJC -o "$B" -I /usr/include $WKT
    $PBJC -o "$B" $HAPI_ROOTS $FILES 2>"$B/out/hapi.stderr" || { cat "$B/out/hapi.stderr"; bad "pbjc on the hapi corpus"; }
    SRCS=$(cd "$B" && find . -name '*.pb.c' | sort | sed 's|^\./||')
    # one translation unit including every generated file, each header parsed once (make compiles it)
    printf '#include "%s"\n' $SRCS > "$B/all_generated.c"
    ok "$(printf '%s\n' $SRCS | wc -l) files generated into $B/all_generated.c"
}

# sdk/ or mirror/ (names as services/'s, so each gets its own output), on top of corpus's
sdk_or_mirror() {
    $PBJC -o "$B/gen" -I $HAPI/$SECTION $HAPI_ROOTS $HAPI/$SECTION/*.proto 2>"$B/out/pbjc.stderr" ||
        { cat "$B/out/pbjc.stderr"; bad "pbjc on $HAPI/$SECTION"; }
    for f in "$B/gen"/*.pb.c; do
        for cc in gcc clang; do
            $cc $STRICT -I"$RT" -I"$B/gen" -I"$G" -c "$f" -o /dev/null || bad "$cc: $f"
        done
    done
    ok "$SECTION: $(ls "$B/gen"/*.pb.c | wc -l) generated files compile with gcc and clang"
}

# the real block, through the corpus code compiled by gcc
block() {
    $CC -std=c11 -O1 -g -Irt -I"$G" -o "$B/block_roundtrip" test/gen/block_roundtrip.c "$G/all_gcc.o"
    zcat $CORPUS/blocks/000000000000000000000000000000497558.blk.gz > "$B/out/block.bin"
    protoc $HAPI_ROOTS \
        --decode=com.hedera.hapi.block.stream.Block stream/block.proto < "$B/out/block.bin" > "$B/out/block.want.txt"
    if "$B/block_roundtrip" "$B/out/block.got.txt" < "$B/out/block.bin"; then ok "block: decodes and encodes back to the same bytes"; else bad "block round-trip"; fi
    if cmp -s "$B/out/block.want.txt" "$B/out/block.got.txt"; then ok "block: text equals protoc --decode ($(wc -l < "$B/out/block.want.txt") lines)"; else bad "block: text differs from protoc --decode"; fi
}

case $SECTION in
kinds | proto2 | descriptor | header) "$SECTION" ;;
corpus | sdk | mirror | block)
    [ -n "$CORPUS" ] || { echo "run.sh: section $SECTION needs the corpus (CORPUS is empty)" >&2; exit 2; }
    case $SECTION in sdk | mirror) sdk_or_mirror ;; *) "$SECTION" ;; esac ;;
*) echo "run.sh: unknown section $SECTION" >&2; exit 2 ;;
esac
[ $fail = 0 ] && echo "test/gen $SECTION: all passed" || { echo "test/gen $SECTION: FAILED"; exit 1; }
