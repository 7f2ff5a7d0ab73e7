#!/bin/sh
# test/docs/macros.sh: every PBJ_ macro a user may define before including the runtime (each name that
# rt/*.h tests with #ifdef, #ifndef or defined(), but the include guards and the private PBJ__ ones)
# is documented in README.md and in man/pbjc.1.
set -eu
fail=0
macros=$(grep -ohE '(#ifn?def|defined\() *PBJ_[A-Z0-9_]+' rt/*.h | grep -oE 'PBJ_[A-Z0-9_]+' \
         | grep -vE '^PBJ__|^PBJ_H$|_H$' | sort -u)
[ -n "$macros" ] || { echo "FAIL docs: no PBJ_ macros found in rt/*.h"; exit 1; }
for doc in README.md man/pbjc.1; do
    for m in $macros; do
        grep -q "$m\b" "$doc" || { echo "FAIL docs: $doc does not document $m"; fail=1; }
    done
done
[ $fail = 0 ] && echo "docs: ok ($(echo $macros | wc -w) runtime macros in README.md and man/pbjc.1: $(echo $macros))"
exit $fail
