#!/bin/sh
# icount.sh: instruction counts of the hot operations under callgrind (stable
# on a noisy machine). Each binary runs once per operation on a small
# synthetic block (DIR/icount) and the real block; the harness zeroes the
# counters before an operation and dumps them after it, named contender/op.
# usage: bench/icount.sh BUILD_DIR
set -eu
dir=$1
out=$dir/icount
rm -f "$out"/callgrind.*
for c in ref pbjc protobuf-c nanopb cpp; do
  bin=$dir/bench-$c
  [ -x "$bin" ] || { echo "icount: $c not built, skipped" >&2; continue; }
  echo "icount: $c ..." >&2
  valgrind --tool=callgrind --instr-atstart=yes --dump-instr=no --dump-line=no \
    --callgrind-out-file="$out/callgrind.$c" "$bin" --dir "$out" --icount > /dev/null 2> "$out/$c.valgrind.log" ||
    { echo "icount: $c FAILED (see $out/$c.valgrind.log)" >&2; continue; }
done
tx=$(cat "$out/synthetic.tx"); real_tx=$(cat "$out/real.tx"); reps=1000
printf '%-28s %-20s %14s %14s\n' contender operation instructions "per tx/msg"
for f in "$out"/callgrind.*.*; do
  [ -f "$f" ] || continue
  name=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
  ir=$(sed -n 's/^summary: //p; s/^totals: //p' "$f" | head -1)
  [ -n "$name" ] && [ -n "$ir" ] || continue
  case $name in
    */synthetic_*) per=$tx ;;
    */real_*) per=$real_tx ;;
    *) per=$reps ;;
  esac
  echo "$name $ir $per"
done | sort | awk '{ split($1, p, "/"); printf "%-28s %-20s %14d %14.0f\n", p[1], p[2], $2, $2 / $3 }' | tee "$out/icount.txt"
