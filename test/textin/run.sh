#!/bin/sh
# run.sh CORPUS_DRIVER OUT_DIR: test/textin's hand-written inputs against protoc --encode (run from the repo top).
#   corpus/*.txt   each reads to the bytes protoc --encode --deterministic_output writes for it;
#   errors/*.txt   each fails: the "LINE:COL: error: MESSAGE" lines, one per case, must equal errors.golden
#                  (diff -u); protoc rejects each with the same line, column and message, except the
#                  pbj_* cases, which protoc accepts (pbj's depth limit and UTF-8 check of proto3 strings).
set -eu
drv=$1 out=$2
dir=test/textin
mkdir -p "$out"
fail=0
protoc_encode() { protoc -I "$dir" --encode=textin.Corpus --deterministic_output corpus.proto; }

n=0
for f in "$dir"/corpus/*.txt; do
    name=$(basename "$f" .txt)
    protoc_encode < "$f" > "$out/$name.protoc.bin" 2>"$out/$name.protoc.err" || { echo "textin corpus: protoc rejects $f"; cat "$out/$name.protoc.err"; fail=1; continue; }
    "$drv" encode "$f" > "$out/$name.pbj.bin" || { echo "textin corpus: $f: M_from_text fails"; fail=1; continue; }
    cmp -s "$out/$name.protoc.bin" "$out/$name.pbj.bin" || { echo "textin corpus: $f: bytes differ from protoc's ($out/$name.*.bin)"; fail=1; }
    n=$((n + 1))
done

: > "$out/errors.txt"
for f in "$dir"/errors/*.txt; do
    name=$(basename "$f" .txt)
    got=$("$drv" error "$f") || { echo "textin errors: $f reads without an error"; fail=1; continue; }
    echo "$name: $got" >> "$out/errors.txt"
    if protoc_encode < "$f" > /dev/null 2>"$out/protoc.err"; then
        case $name in pbj_*) ;; *) echo "textin errors: protoc accepts $f"; fail=1 ;; esac
        continue
    fi
    case $name in pbj_*) echo "textin errors: protoc rejects $f, a pbj_ case"; fail=1; continue ;; esac
    theirs=$(head -1 "$out/protoc.err" | sed 's/^input:\([0-9]*:[0-9]*\): /\1: error: /')
    [ "$theirs" = "$got" ] || { printf 'textin errors: %s: protoc says\n  %s\nand pbj says\n  %s\n' "$f" "$theirs" "$got"; fail=1; }
done
diff -u "$dir/errors.golden" "$out/errors.txt" || { echo "textin errors: differ from $dir/errors.golden (above)"; fail=1; }
[ $fail = 0 ] && echo "textin: $n corpus inputs read to protoc's bytes; $(wc -l < "$out/errors.txt") malformed inputs fail as errors.golden says (protoc's messages)"
exit $fail
