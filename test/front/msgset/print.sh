#!/bin/sh
# print.sh: M_print of a message set whose items another file declares prints "[pkg.Ext] { ... }", as protoc
# --decode does. usage: test/front/msgset/print.sh PBJC OUTDIR   (from the repository top)
set -eu
PBJC=$1 OUT=$2 dir=test/front/msgset
mkdir -p "$OUT"
"$PBJC" -I $dir -o "$OUT/gen" $dir/set.proto $dir/elem.proto
${CC:-cc} -std=c11 -Wall -Wextra -Werror -Irt -I"$OUT/gen" -o "$OUT/print" $dir/main.c "$OUT/gen/set.pb.c" "$OUT/gen/elem.pb.c"
protoc -I $dir --encode=ms.Holder set.proto elem.proto <$dir/holder.txt >"$OUT/holder.bin"
protoc -I $dir --decode=ms.Holder set.proto elem.proto <"$OUT/holder.bin" >"$OUT/protoc.txt"
"$OUT/print" <"$OUT/holder.bin" >"$OUT/pbjc.txt"
diff -u "$OUT/protoc.txt" "$OUT/pbjc.txt"
echo "msgset print: as protoc prints it"
