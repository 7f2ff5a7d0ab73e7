#!/bin/sh
# test/docs/statuses.sh: every status of rt/pbj_core.h's PBJ_STATUSES list is
# documented in README.md and man/pbjc.1, and the docs name no status that
# does not exist.
set -eu
fail=0
codes=$(sed -n 's/^ *X(\([A-Z_0-9]*\),.*/PBJ_\1/p' rt/pbj_core.h)
[ -n "$codes" ] || { echo "FAIL docs: no PBJ_STATUSES found in rt/pbj_core.h"; exit 1; }
for doc in README.md man/pbjc.1; do
    for c in $codes; do
        grep -q "$c\b" "$doc" || { echo "FAIL docs: $doc does not document $c"; fail=1; }
    done
    for c in $(grep -o 'PBJ_ERR_[A-Z_0-9]*' "$doc" | sort -u); do
        echo "$codes" | grep -qx "$c" || { echo "FAIL docs: $doc names $c, which rt/pbj_core.h does not define"; fail=1; }
    done
done
[ $fail = 0 ] && echo "docs: ok ($(echo "$codes" | wc -l) statuses in README.md and man/pbjc.1)"
exit $fail
