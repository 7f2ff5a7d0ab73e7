#!/bin/sh
# test/errors/run.sh: each broken .proto with a .expected file must make `pbjc --check` and `pbjc -o`
# both exit 1 with exactly that first line of stderr (-o writing nothing): --check reports every error -o
# would. Those in test/errors/ protoc must reject too; those in test/errors/pbjc/ it accepts (C names that
# clash, pbj options that cannot be met: pbjc's own errors). Files they import live in lib/ beside them.
# A .stderr file beside a case holds the whole of --check's stderr (notes included), compared with diff -u; and
# every "Suggested field numbers" hint protoc prints must be among pbjc's notes.
# Usage: test/errors/run.sh [PBJC] (from the repository top)
PBJC=${1:-./pbjc}
dir=test/errors
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for proto in "$dir"/*.proto "$dir"/pbjc/*.proto; do    # helpers live in lib/, tests need an .expected
    [ -f "${proto%.proto}.expected" ] || { echo "FAIL $proto: no .expected file"; fail=$((fail + 1)); }
done

# pbjc MODE...: run on $proto under $root; "" when it exits 1 with the expected first line, else why not
pbjc_says() {
    "$PBJC" "$@" -I "$root" "$proto" >/dev/null 2>"$tmp/stderr"
    status=$?
    first=$(head -n 1 "$tmp/stderr")
    if [ "$status" -ne 1 ]; then echo "pbjc $1 exited $status, want 1"
    elif [ "$first" != "$(cat "$expected")" ]; then
        printf 'pbjc %s: first line of stderr differs\n  want: %s\n  got:  %s\n' "$1" "$(cat "$expected")" "$first"
    fi
}

for expected in "$dir"/*.expected "$dir"/pbjc/*.expected; do
    proto=${expected%.expected}.proto
    root=$(dirname "$proto")
    rm -rf "$tmp/out"
    why=$(pbjc_says --check)
    [ -z "$why" ] && why=$(pbjc_says -o "$tmp/out")
    [ -z "$why" ] && [ -e "$tmp/out" ] && why="pbjc -o wrote $(ls -R "$tmp/out" | tr '\n' ' ')"
    if [ -n "$why" ]; then echo "FAIL $proto: $why"; fail=$((fail + 1)); continue; fi
    if [ -f "${proto%.proto}.stderr" ]; then
        "$PBJC" --check -I "$root" "$proto" 2>"$tmp/stderr" >/dev/null
        if ! diff -u "${proto%.proto}.stderr" "$tmp/stderr"; then echo "FAIL $proto: stderr differs"; fail=$((fail + 1)); continue; fi
    fi
    protoc -I "$root" -o "$tmp/out.pb" "$proto" >/dev/null 2>"$tmp/protoc.stderr"
    protoc_status=$?
    "$PBJC" --check -I "$root" "$proto" 2>"$tmp/stderr" >/dev/null
    grep -o 'Suggested field numbers.*' "$tmp/protoc.stderr" | while read -r hint; do
        grep -qF "note: $hint" "$tmp/stderr" || echo "$hint"
    done >"$tmp/missing"
    if [ -s "$tmp/missing" ]; then echo "FAIL $proto: protoc's hints missing: $(cat "$tmp/missing")"; fail=$((fail + 1)); continue; fi
    if [ "$root" = "$dir" ] && [ "$protoc_status" -eq 0 ]; then
        echo "FAIL $proto: protoc accepts it, so it is no error test (pbjc's own errors go in $dir/pbjc/)"
        fail=$((fail + 1)); continue
    fi
    if [ "$root" != "$dir" ] && [ "$protoc_status" -ne 0 ]; then
        echo "FAIL $proto: protoc rejects it, so it belongs in $dir"; fail=$((fail + 1)); continue
    fi
    pass=$((pass + 1))
done
echo "errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
