#!/bin/sh
# test/errors/run.sh: each broken .proto with a .expected file must make `pbjc --check`
# exit 1 with exactly that first line of stderr, and protoc must reject it too.
# Files they import live in test/errors/lib/. Usage: test/errors/run.sh [PBJC] (from the repository top)
PBJC=${1:-./pbjc}
dir=test/errors
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for proto in "$dir"/*.proto; do                     # helpers live in lib/, tests need an .expected
    [ -f "${proto%.proto}.expected" ] || { echo "FAIL $proto: no .expected file"; fail=$((fail + 1)); }
done
for expected in "$dir"/*.expected; do
    proto=${expected%.expected}.proto
    "$PBJC" --check -I "$dir" "$proto" >/dev/null 2>"$tmp/stderr"
    status=$?
    first=$(head -n 1 "$tmp/stderr")
    if [ "$status" -ne 1 ]; then
        echo "FAIL $proto: pbjc exited $status, want 1"; fail=$((fail + 1)); continue
    fi
    if [ "$first" != "$(cat "$expected")" ]; then
        echo "FAIL $proto: first line of stderr differs"
        echo "  want: $(cat "$expected")"
        echo "  got:  $first"
        fail=$((fail + 1)); continue
    fi
    if protoc -I "$dir" -o "$tmp/out.pb" "$proto" >/dev/null 2>&1; then
        echo "FAIL $proto: protoc accepts it, so it is no error test"; fail=$((fail + 1)); continue
    fi
    pass=$((pass + 1))
done
echo "errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
