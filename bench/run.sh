#!/bin/sh
# run.sh: runs every contender's benchmark binary, writes results.csv (with
# ratios) and prints the tables. usage: bench/run.sh BUILD_DIR [harness args]
set -u
dir=$1; shift
raw=$dir/results.raw
csv=$dir/results.csv
: > "$raw"

# Rows that wait on pbjc work not done yet: contender,workload,op,reason.
WAIT_GEN="waiting on issue 3 (pbjc code generation)"
WAIT_REVERSE="waiting on issue 4 + the fast_write issue"

run() { # run NAME BINARY [ARGS]: its rows, or one failure row
  name=$1; bin=$2; shift 2
  if [ -x "$bin" ]; then
    echo "bench: $name ..." >&2
    if ! "$bin" --dir "$dir" "$@" >> "$raw.one" 2>"$dir/$name.err"; then
      echo "bench: $name FAILED:" >&2; cat "$dir/$name.err" >&2
      echo "$name,synthetic,decode,,,,FAILED: $(tail -1 "$dir/$name.err")" >> "$raw.one"
    fi
    cat "$raw.one" >> "$raw"; rm -f "$raw.one"
    return 0
  fi
  return 1
}
extra="$*"
set --
for c in ref protobuf-c nanopb cpp; do run "$c" "$dir/bench-$c" $extra || echo "$c,synthetic,decode,,,,not built" >> "$raw"; done
if ! run pbjc "$dir/bench-pbjc" $extra; then
  for w in synthetic real; do for op in decode encode scan_structs; do echo "pbjc,$w,$op,,,,$WAIT_GEN" >> "$raw"; done; done
fi
run pbjc-max "$dir/bench-pbjc-max" $extra || echo "pbjc-max,synthetic,decode,,,,not built (bench-pbjc-max)" >> "$raw"
for w in synthetic real; do
  grep -q "^pbjc,$w,encode_reverse,[0-9]" "$raw" || echo "pbjc,$w,encode_reverse,,,,$WAIT_REVERSE" >> "$raw"
done

# Ratios: to the reference (synthetic, small); on the real block, which the
# reference does not cover, to the fastest peer (pbjc excluded) for that op.
awk -F, -v OFS=, '
  { row[NR] = $0; c[NR] = $1; w[NR] = $2; o[NR] = $3; ns[NR] = $4
    if ($4 != "") {
      if ($1 == "ref") base[$2 "," $3] = $4
      else if ($2 == "real" && $1 !~ /^pbjc/ && (!(($2 "," $3) in best) || $4 + 0 < best[$2 "," $3])) best[$2 "," $3] = $4 + 0
    } }
  END {
    print "contender,workload,op,ns_per_unit,bytes_per_unit,ratio,sum,note"
    for (i = 1; i <= NR; i++) {
      split(row[i], f, ",")
      note = f[7]; for (k = 8; k in f; k++) note = note "," f[k]
      b = (w[i] == "real") ? best[w[i] "," o[i]] : base[w[i] "," o[i]]
      r = (ns[i] != "" && b != "" && b > 0) ? sprintf("%.2f", ns[i] / b) : ""
      print f[1], f[2], f[3], f[4], f[5], r, f[6], "\"" note "\""
    }
  }' "$raw" > "$csv"

# Input bytes per transaction, for the arena bytes each contender allocates per input byte.
per_tx() { [ -f "$dir/$1.blk" ] && [ -f "$dir/$1.tx" ] && echo $(( $(wc -c < "$dir/$1.blk") / $(cat "$dir/$1.tx") )) || echo 0; }

# The tables: one per workload, a column per contender.
awk -F, -v in_synthetic="$(per_tx synthetic)" -v in_real="$(per_tx real)" '
  NR == 1 { next }
  { gsub(/"/, "", $8); for (k = 9; k <= NF; k++) $8 = $8 "," $k
    key = $2 SUBSEP $3 SUBSEP $1
    if ($4 != "") { cell[key] = sprintf("%.0f", $4) ($6 != "" ? sprintf(" (%s)", $6) : "")
                    alloc[key] = ($5 + 0 > 0) ? sprintf("%.0f", $5) : "0" }
    else { cell[key] = "- " ; why[$1 ": " $8] = 1; alloc[key] = "" ; cell[key] = "-" ; reason[key] = $8 }
    if (!($2 SUBSEP $3 in seen)) { seen[$2 SUBSEP $3] = 1; ops[$2] = ops[$2] " " $3 }
    if (!($1 in cseen)) { cseen[$1] = 1; cons[++nc] = $1 } }
  function table(wl, title, unit,   n, list, i, j, line, k) {
    n = split(ops[wl], list, " ")
    if (!n) return
    print ""; print "### " title; print ""
    line = "| " unit " |"; for (j = 1; j <= nc; j++) line = line " " cons[j] " |"; print line
    line = "|---|"; for (j = 1; j <= nc; j++) line = line "---:|"; print line
    for (i = 1; i <= n; i++) {
      line = "| " list[i] " |"
      for (j = 1; j <= nc; j++) { k = wl SUBSEP list[i] SUBSEP cons[j]; line = line " " ((k in cell) ? cell[k] : "") " |" }
      print line
    }
    line = "| bytes allocated |"
    for (j = 1; j <= nc; j++) { k = wl SUBSEP "decode" SUBSEP cons[j]; line = line " " ((k in alloc) ? alloc[k] : "") " |" }
    if (wl != "small") print line
    in_bytes = (wl == "synthetic") ? in_synthetic : in_real
    line = "| bytes allocated per input byte |"
    for (j = 1; j <= nc; j++) { k = wl SUBSEP "decode" SUBSEP cons[j]; line = line " " ((k in alloc) && in_bytes > 0 ? sprintf("%.2f", alloc[k] / in_bytes) : "") " |" }
    if (wl != "small") print line
  }
  END {
    table("synthetic", "Synthetic block: ns per transaction (ratio to ref)", "op")
    table("real", "Real block 497558: ns per transaction (ratio to the fastest peer)", "op")
    table("small", "Small messages: ns per message (ratio to ref)", "op")
    print ""; print "Dashes and notes:"
    for (k in reason) { split(k, p, SUBSEP); if (p[2] == "decode" || p[3] == "pbjc") r[p[3] ": " reason[k]] = 1 }
    for (k in r) print "- " k
  }' "$csv" | awk '!seen[$0]++ || $0 == "" || /^\|/'
echo ""
echo "CSV: $csv"
