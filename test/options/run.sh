#!/bin/sh
# run.sh: golden tests of `pbjc --explain-options`. Each directory under
# test/options/cases holds .proto files, "args" (pbjc's arguments, run inside
# that directory), and either "expected" (the whole stdout; exit 0) or
# "expected.err" (the first diagnostic lines of stderr; exit 1, or the code in
# "expected.rc"). Usage: test/options/run.sh ./pbjc [case...]
set -u
pbjc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
cases=${*:-$(ls test/options/cases)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
for name in $cases; do
    dir=test/options/cases/$name
    (cd "$dir" && eval "\"$pbjc\" --explain-options $(cat args)") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ -f "$dir/expected" ]; then
        want_rc=0
        diff -u "$dir/expected" "$tmp/out" >"$tmp/diff" || { echo "FAIL $name: stdout differs"; cat "$tmp/diff"; failed=$((failed + 1)); continue; }
    else
        want_rc=$(cat "$dir/expected.rc" 2>/dev/null || echo 1)
        grep -E '^[^ ].*: (error|note): ' "$tmp/err" | head -n "$(wc -l <"$dir/expected.err")" >"$tmp/first"
        diff -u "$dir/expected.err" "$tmp/first" >"$tmp/diff" || { echo "FAIL $name: stderr differs"; cat "$tmp/diff"; failed=$((failed + 1)); continue; }
    fi
    if [ "$rc" != "$want_rc" ]; then
        echo "FAIL $name: exit $rc, expected $want_rc"; cat "$tmp/err"; failed=$((failed + 1)); continue
    fi
done
total=$(echo $cases | wc -w)
echo "options golden: $((total - failed))/$total passed"
[ "$failed" = 0 ]
