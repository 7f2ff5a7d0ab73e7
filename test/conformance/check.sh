#!/bin/sh
# test/conformance/check.sh RUNNER TESTEE FAILURES DIR: runs Google's conformance suite on the testee
# (Required and Recommended tests enforced) and fails when a test fails that FAILURES does not list
# (the tests protobuf C++ 3.21 itself fails, each with its reason), when the runner stops early, or
# when a test of the binary format is skipped. Its log is DIR/conformance.log.
runner=$1 testee=$2 list=$3 dir=$4
log=$dir/conformance.log
failed() { grep -o '^ERROR, test=[^:]*' "$log" | sed 's/^ERROR, test=//'; }
"$runner" --enforce_recommended --verbose --output_dir "$dir" "$testee" >"$log" 2>&1
failed | sort -u >"$dir/failed.txt"
sed 's/#.*//; s/[[:space:]]*$//; /^$/d' "$list" | sort -u >"$dir/expected.txt"
# the runner runs its second suite (text format) only when the first passed: when only listed tests
# failed there, run again with those as the first suite's failure list, so that the text suite runs too
if [ "$(grep -c '^CONFORMANCE SUITE' "$log")" -lt 2 ] && [ -s "$dir/failed.txt" ] &&
   [ -z "$(comm -23 "$dir/failed.txt" "$dir/expected.txt")" ]; then
  cp "$dir/failed.txt" "$dir/known.txt"
  "$runner" --enforce_recommended --verbose --output_dir "$dir" --failure_list "$dir/known.txt" "$testee" >"$log" 2>&1
  { cat "$dir/known.txt"; failed; } | sort -u >"$dir/failed.txt"
fi
grep -o '^SKIPPED, test=[^ ]*' "$log" | sed 's/^SKIPPED, test=//' | sort -u >"$dir/skipped.txt"
status=0
unexpected=$(comm -23 "$dir/failed.txt" "$dir/expected.txt")
if [ -n "$unexpected" ]; then
  echo "check-conformance: FAIL: tests failing that $list does not list (see $log):"
  echo "$unexpected" | sed 's/^/  /'
  status=1
fi
binary_skipped=$(grep -v 'Json\|TextFormat' "$dir/skipped.txt")
if [ -n "$binary_skipped" ]; then
  echo "check-conformance: FAIL: binary tests skipped:"
  echo "$binary_skipped" | sed 's/^/  /'
  status=1
fi
# the runner runs its second suite (text format) only when the first passed: two summaries or a failure
summaries=$(grep -c '^CONFORMANCE SUITE' "$log")
if [ "$summaries" -lt 2 ] && [ $status -eq 0 ]; then
  echo "check-conformance: FAIL: the runner stopped early (see $log):"; tail -5 "$log"; status=1
fi
fixed=$(comm -13 "$dir/failed.txt" "$dir/expected.txt" | comm -23 - "$dir/skipped.txt")
[ -z "$fixed" ] || [ "$summaries" -lt 2 ] || echo "check-conformance: note: $(echo "$fixed" | wc -l) listed tests pass (C++ fails them)"
grep '^CONFORMANCE SUITE' "$log" | sed 's/^/check-conformance: /'
echo "check-conformance: $(wc -l <"$dir/failed.txt") failed, $(wc -l <"$dir/skipped.txt") skipped"
exit $status
