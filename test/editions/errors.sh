#!/bin/sh
# errors.sh PBJC BUF OUT [DIR]: each broken editions schema test/editions/errors/X.proto must make
# `pbjc --check` exit 1 with X.expected as the first line of stderr, and buf must reject it at
# the same line and column (buf's first error; where buf reports another column, the
# .expected file's second line says "buf: LINE:COL" and why; where pbjc follows protoc in rejecting what
# buf accepts, it says "buf: accepts" and why, and buf must accept it). pbjc finds the language features'
# files in test/editions/features (their descriptor.proto in src/proto), buf has its own. DIR (default
# test/editions/errors) holds the cases. Run from the repository top.
set -u
top=$(pwd)
pbjc=$top/$1 buf=$top/$2 out=$top/$3
rm -rf "$out" && mkdir -p "$out"
pass=0 fail=0
features=$top/test/editions/features
cd "${4:-test/editions/errors}" || exit 2
for proto in *.proto; do
    x=${proto%.proto}
    [ -f "$x.expected" ] || { echo "FAIL $proto: no .expected file"; fail=$((fail + 1)); continue; }
    "$pbjc" --check -I . -I "$features" -I "$top/src/proto" "$proto" >/dev/null 2>"$out/$x.pbjc.err"
    status=$?
    want=$(head -n 1 "$x.expected")
    got=$(head -n 1 "$out/$x.pbjc.err")
    if [ "$status" -ne 1 ] || [ "$got" != "$want" ]; then
        echo "FAIL $proto: pbjc exited $status"; echo "  want: $want"; echo "  got:  $got"
        fail=$((fail + 1)); continue
    fi
    if grep -q '^buf: accepts' "$x.expected"; then
        if ! "$buf" build "$proto" -o /dev/null >/dev/null 2>"$out/$x.buf.err"; then
            echo "FAIL $proto: buf rejects it now: $(head -n 1 "$out/$x.buf.err")"; fail=$((fail + 1)); continue
        fi
        pass=$((pass + 1)); continue
    fi
    if "$buf" build "$proto" -o /dev/null >/dev/null 2>"$out/$x.buf.err"; then
        echo "FAIL $proto: buf accepts it, so it is no error test"; fail=$((fail + 1)); continue
    fi
    at=$(sed -n 's/^buf: \([0-9]*:[0-9]*\).*/\1/p' "$x.expected")
    [ -n "$at" ] || at=$(printf '%s\n' "$got" | cut -d: -f2,3)
    buf_at=$(head -n 1 "$out/$x.buf.err" | cut -d: -f2,3)
    if [ "$buf_at" != "$at" ]; then
        echo "FAIL $proto: buf reports at $buf_at, want $at: $(head -n 1 "$out/$x.buf.err")"
        fail=$((fail + 1)); continue
    fi
    pass=$((pass + 1))
done
echo "editions errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
