#!/bin/sh
# cache.sh: the hot operations out of cache, two ways, beside the reference and C++ (issue 30 item 4).
#  (a) simulated: callgrind's cache simulation on COPIES_SIM copies of the small (1,000-transaction) block,
#      with a scaled-down last-level cache (SIM_LL bytes) the copies outgrow several times over: D1 and
#      last-level misses per transaction, deterministic whatever the machine's load;
#  (b) timed: thread CPU time per transaction, in cache (one copy of the small block, which fits the
#      machine's last-level cache) and out of cache (copies of the 20,000-transaction block adding up to
#      at least 4x the last-level cache), each call on its own copy once per round, the contenders'
#      processes interleaved round by round; medians of ROUNDS processes, each the median of 3 rounds.
# usage: bench/cache.sh BUILD_DIR (after `make bench-icount`'s build: the bench-* binaries and both blocks)
set -eu
dir=$1
out=$dir/cache
mkdir -p "$out"
rm -f "$out"/callgrind.* "$out"/*.rows
contenders="ref pbjc pbjc-max cpp"
SIM_LL=${SIM_LL:-2097152}
COPIES_SIM=${COPIES_SIM:-4}
ROUNDS=${ROUNDS:-3}

# The last-level cache one core can use, in bytes: LLC if set, else getconf's. Under KVM on a chiplet CPU
# getconf adds up every chiplet's L3 (508 MiB on this machine's EPYC); a core sees its own chiplet's
# (32 MiB), so a figure past 64 MiB is taken as that sum and 32 MiB used instead.
llc=${LLC:-$(getconf LEVEL3_CACHE_SIZE 2>/dev/null || echo 0)}
[ "${llc:-0}" -gt 0 ] 2>/dev/null || llc=33554432
if [ -z "${LLC:-}" ] && [ "$llc" -gt 67108864 ]; then
  echo "cache: getconf says $llc bytes of L3, taken as the sum over chiplets: 32 MiB used (set LLC= to choose)" >&2
  llc=33554432
fi
blk=$(wc -c < "$dir/synthetic.blk")
copies=$(( (4 * llc + blk - 1) / blk ))
echo "cache: last-level cache $llc bytes; out of cache: $copies copies of the $blk-byte block" >&2

# (a) callgrind with the cache simulation: events Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw per dump.
for c in $contenders; do
  bin=$dir/bench-$c
  [ -x "$bin" ] || { echo "cache: $c not built, skipped" >&2; continue; }
  echo "cache: simulating $c ..." >&2
  valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL="$SIM_LL",16,64 \
    --dump-instr=no --dump-line=no --callgrind-out-file="$out/callgrind.$c" \
    "$bin" --dir "$dir/icount" --icount --cache "$COPIES_SIM" > /dev/null 2> "$out/$c.valgrind.log" ||
    { echo "cache: $c FAILED under callgrind (see $out/$c.valgrind.log)" >&2; continue; }
done
sim_tx=$(( $(cat "$dir/icount/synthetic.tx") * COPIES_SIM ))
for f in "$out"/callgrind.*.*; do
  [ -f "$f" ] || continue
  awk -v tx="$sim_tx" '
    /^desc: Trigger: Client Request: / { name = $NF }
    /^events: / { for (i = 2; i <= NF; i++) ev[$i] = i - 1 }
    /^(summary|totals): / && !done { for (i = 2; i <= NF; i++) v[i - 1] = $i; done = 1 }
    END { if (name == "") exit
          split(name, p, "/"); sub(/^cache_/, "", p[2])
          printf "%s %s %.0f %.1f %.2f\n", p[1], p[2], v[ev["Ir"]] / tx,
                 (v[ev["D1mr"]] + v[ev["D1mw"]]) / tx, (v[ev["DLmr"]] + v[ev["DLmw"]]) / tx }' "$f"
done | sort > "$out/sim.txt"

# (b) thread CPU time: in cache (1 copy of the small block), out of cache ($copies of the large one).
r=1
while [ "$r" -le "$ROUNDS" ]; do
  for c in $contenders; do
    bin=$dir/bench-$c
    [ -x "$bin" ] || continue
    echo "cache: round $r of $ROUNDS: $c ..." >&2
    "$bin" --dir "$dir/icount" --cache 1 --runs 3 | sed 's/^\([^,]*\),cache,/\1,warm,/' >> "$out/$c.rows"
    "$bin" --dir "$dir" --cache "$copies" --runs 3 | sed 's/^\([^,]*\),cache,/\1,cold,/' >> "$out/$c.rows"
  done
  r=$((r + 1))
done

# The medians: contender op warm cold (ns per transaction).
cat "$out"/*.rows | awk -F, '
  { k = $1 " " $3; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
    n[k, $2]++; v[k, $2, n[k, $2]] = $4 }
  function median(k, w,    m, i, j, t, a) {
    m = n[k, w]; for (i = 1; i <= m; i++) a[i] = v[k, w, i]
    for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return m ? a[int((m + 1) / 2)] : 0 }
  END { for (i = 1; i <= nk; i++) print keys[i], median(keys[i], "warm"), median(keys[i], "cold") }' |
  sort > "$out/timed.txt"

# One table: per operation and contender, the simulated misses and the timed rows, ratios to ref.
awk '{ print $1 "/" $2, $3, $4, $5 }' "$out/sim.txt" | sort > "$out/sim.keyed"
awk '{ print $1 "/" $2, $3, $4 }' "$out/timed.txt" | sort > "$out/timed.keyed"
join -a1 -a2 -e - -o 0,1.2,1.3,1.4,2.2,2.3 "$out/sim.keyed" "$out/timed.keyed" > "$out/joined.txt"
awk '
  { split($1, p, "/"); c = p[1]; op = p[2]
    ir[c, op] = $2; d1[c, op] = $3; ll[c, op] = $4; warm[c, op] = $5; cold[c, op] = $6
    if (!(op in so)) { so[op] = 1; ops[++no] = op } if (!(c in sc)) { sc[c] = 1 } }
  function ratio(x, b) { return (x != "-" && b != "-" && b + 0 > 0) ? sprintf(" (%.2f)", x / b) : "" }
  END {
    print ""
    print "| op | contender | instructions | D1 misses | LL misses (sim) | ns warm | ns cold | cold / warm |"
    print "|---|---|---:|---:|---:|---:|---:|---:|"
    split("ref pbjc pbjc-max c++arena", order, " ")
    for (i = 1; i <= no; i++) for (j = 1; j <= 4; j++) {
      c = order[j]; op = ops[i]; if (!((c, op) in ir)) continue
      cw = (warm[c, op] != "-" && warm[c, op] > 0 && cold[c, op] != "-") ? sprintf("%.2f", cold[c, op] / warm[c, op]) : "-"
      printf "| %s | %s | %s%s | %s%s | %s%s | %s%s | %s%s | %s |\n", op, c,
        ir[c, op], ratio(ir[c, op], ir["ref", op]), d1[c, op], ratio(d1[c, op], d1["ref", op]),
        ll[c, op], ratio(ll[c, op], ll["ref", op]), warm[c, op], ratio(warm[c, op], warm["ref", op]),
        cold[c, op], ratio(cold[c, op], cold["ref", op]), cw
    }
  }' "$out/joined.txt" | tee "$out/cache.md"
echo "" | tee -a "$out/cache.md"
echo "simulated: I1/D1 32 KiB 8-way, last level $SIM_LL bytes 16-way, 64-byte lines; $COPIES_SIM copies of the $(cat "$dir/icount/synthetic.tx")-transaction block" | tee -a "$out/cache.md"
echo "timed: thread CPU ns per transaction, medians of $ROUNDS interleaved processes (3 rounds each); warm: 1 copy of the small block; cold: $copies copies of the $blk-byte block (last-level cache $llc bytes)" | tee -a "$out/cache.md"
