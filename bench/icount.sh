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
for c in ref pbjc pbjc-max protobuf-c nanopb cpp; do
  bin=$dir/bench-$c
  [ -x "$bin" ] || { echo "icount: $c not built, skipped" >&2; continue; }
  echo "icount: $c ..." >&2
  valgrind --tool=callgrind --instr-atstart=yes --dump-instr=no --dump-line=no \
    --callgrind-out-file="$out/callgrind.$c" "$bin" --dir "$out" --icount > "$out/$c.rows" 2> "$out/$c.valgrind.log" ||
    { echo "icount: $c FAILED (see $out/$c.valgrind.log)" >&2; continue; }
done
tx=$(cat "$out/synthetic.tx"); real_tx=$(cat "$out/real.tx"); reps=1000
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
done | sort | awk '{ split($1, p, "/"); printf "%-28s %-20s %14.0f %14.0f\n", p[1], p[2], $2, $2 / $3 }' > "$out/icount.txt"

# (Counts are printed with %.0f: mawk's %d stops at 2^31-1, a double is exact to 2^53.)

# The same as a table: instructions per transaction or message (ratio to ref;
# on the real block, to the fastest peer).
awk '{ split($2, w, "_"); key = $2; per[$1, key] = $4
       if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
       if (!($1 in cs)) { cs[$1] = 1; cons[++nc] = $1 }
       if ($1 == "ref") base[key] = $4
       else if (w[1] == "real" && $1 !~ /^pbjc/ && (!(key in best) || $4 < best[key])) best[key] = $4 }
  END {
    order = "ref pbjc pbjc-max protobuf-c nanopb c++arena c++reuse"; n = split(order, o, " "); m = 0
    for (i = 1; i <= n; i++) if (o[i] in cs) col[++m] = o[i]
    print ""; line = "| instructions |"; for (j = 1; j <= m; j++) line = line " " col[j] " |"; print line
    line = "|---|"; for (j = 1; j <= m; j++) line = line "---:|"; print line
    for (pass = 1; pass <= 3; pass++) for (i = 1; i <= nk; i++) {
      k = keys[i]
      if ((pass == 1) != (k ~ /^synthetic_/) || (pass == 2) != (k ~ /^real_/)) continue
      b = (k ~ /^real_/) ? best[k] : base[k]; line = "| " k " |"
      for (j = 1; j <= m; j++) {
        v = per[col[j], k]
        line = line " " (v == "" ? "-" : (b ? sprintf("%.0f (%.2f)", v, v / b) : sprintf("%.0f", v))) " |"
      }
      print line
    }
  }' "$out/icount.txt" | tee "$out/icount.md"

# Arena (allocator) bytes per input byte of one decode, per contender (from the rows each binary printed).
syn_in=$(( $(wc -c < "$out/synthetic.blk") / tx )); real_in=$(( $(wc -c < "$out/real.blk") / real_tx ))
echo ""
echo "| bytes allocated per input byte | synthetic decode | real decode |"
echo "|---|---:|---:|"
for c in ref pbjc pbjc-max protobuf-c nanopb cpp; do
  [ -f "$out/$c.rows" ] || continue
  awk -F, -v s="$syn_in" -v r="$real_in" '
    $3 == "decode" && $2 == "synthetic" { sy[$1] = sprintf("%.2f", $5 / s) }
    $3 == "decode" && $2 == "real" { re[$1] = sprintf("%.2f", $5 / r) }
    END { for (k in sy) print "| " k " | " sy[k] " | " ((k in re) ? re[k] : "-") " |" }' "$out/$c.rows"
done | sort | tee -a "$out/icount.md"
