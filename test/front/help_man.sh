#!/bin/sh
# help_man.sh: every flag `pbjc --help` lists is in man/pbjc.1's OPTIONS, and every
# flag there is in --help.  usage: test/front/help_man.sh PBJC
set -eu
PBJC=${1:?usage: help_man.sh PBJC}
tmp=${TMPDIR:-/tmp}/pbjc-help-man.$$
trap 'rm -f "$tmp".*' EXIT
# --help: option lines start with "  -"; the flags end where the description column starts.
"$PBJC" --help | grep -E '^  -' | sed -E 's/^  //; s/   .*//; s/  [a-z].*//' | tr ',' '\n' |
    sed -E 's/^ +//; s/[ =].*//; s/^-IDIR$/-I/' | grep -E '^-' | sort -u >"$tmp.help"
# man: the tagged paragraphs (.TP) of the OPTIONS section.
sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' man/pbjc.1 | awk 'prev == ".TP" { print } { prev = $0 }' |
    sed 's/\\-/-/g; s/\\f[BIRP]//g' | grep -oE -- '--?[A-Za-z][A-Za-z_-]*' | sort -u >"$tmp.man"
[ -s "$tmp.help" ] && [ -s "$tmp.man" ] || { echo "help_man: no flags found"; exit 1; }
if ! diff -u "$tmp.help" "$tmp.man"; then
    echo "help_man: FAIL: --help (-) and man/pbjc.1 (+) list different flags"
    exit 1
fi
echo "help_man: ok ($(wc -l <"$tmp.help") flags in both --help and man/pbjc.1)"
