#!/bin/sh
# run.sh NAME PROTO ITEM COUNT SEED CFLAGS ROOT...: one schema's writers against its structs' encoder.
# PROTO and every file it imports are generated with --writers (one run, so the closure reaches no file
# left out), replay_gen writes the call sequences of every message, the parity generator (gen, with
# $GEN_FLAGS) COUNT random items of the schema's batch parity.NAME.Batch (w3.Batch for w3) and the driver
# (CFLAGS: sanitizers or not) checks them. Needs $B/writers/replay_gen and $B/parity/gen; run from the top.
# PB_DIR and PB_OBJS (hapi: test/hapi.mk's shared build): the generated code and its objects, already built
# with --writers: they are used instead of generating and compiling the schema here.
set -eu
name=$1 proto=$2 item=$3 count=$4 seed=$5 cflags=$6
shift 6
B=${B:-build}
out=$B/writers/$name
inc=""
for r in "$@"; do inc="$inc -I $r"; done
rm -rf "$out"
mkdir -p "$out/pb"
pb=${PB_DIR:-$out/pb}
inputs=$(./pbjc -M $inc -I /usr/include -o "$pb" "$proto" | tr -d '\\' | tr ' ' '\n' | grep '\.proto$')
if [ -z "${PB_DIR:-}" ]; then
    ./pbjc --writers $inc -I /usr/include -o "$pb" $inputs 2>"$out/pbjc.err" || { cat "$out/pbjc.err"; exit 1; }
fi
"$B/writers/replay_gen" $inc -I /usr/include "$out/replay.c" $inputs
package=$(sed -n 's/^package \([a-z0-9_.]*\);/\1/p' "$proto" | tr . _)
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror $cflags -Irt -I"$pb" -Itest/writers -include test/writers/count.h \
    -DREPLAY_C="\"$PWD/$out/replay.c\"" -DBATCH="${package}_Batch" -DITEM="$item" \
    -o "$out/driver" test/writers/driver.c ${PB_OBJS:-$(find "$pb" -name '*.pb.c')}
"$B/parity/gen" $inc ${GEN_FLAGS:-} "$proto" "$(echo "$package" | tr _ .).Batch" canonical "$count" "$seed" "$out/can"
"$out/driver" "$out/can.bin" "$seed"
