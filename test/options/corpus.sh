#!/bin/sh
# corpus.sh: the real hapi schemas (which carry the Java PBJ compiler's
# <<<pbj.java_package = "...">>> comments everywhere) give no option error, and
# every message takes the project's settings. Usage: test/options/corpus.sh ./pbjc
# (hapi from $CORPUS, ../shared/corpus unless set)
set -u
hapi=${CORPUS:-../shared/corpus}/hapi-v0.59.0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$1" --explain-options --views --performance=max -I $hapi/services -I $hapi/block -I $hapi/platform -I $hapi/streams \
    $(find $hapi/services $hapi/block $hapi/platform $hapi/streams -name '*.proto' | sort) >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc != 0 ] || grep -q ': error:' "$tmp/err"; then cat "$tmp/err"; echo "FAIL options corpus: exit $rc"; exit 1; fi
want='^[A-Za-z0-9_.]+( \[imported\])?: performance=max\(project\) fast_write=true\(tier max\) drop_unknown=false\(tier max\) by_value=false\(tier max\) writers=false\(default\) views=true\(project\) json=true\(default\) text_read=true\(default\)( decode=inline\(tier max: a leaf\))?( [a-z_]+=[^ ]*\([a-z]+; ignored\))*$'
if grep -Evq "$want" "$tmp/out" || ! grep -q 'proto\.TransactionBody: ' "$tmp/out"; then
    grep -Ev "$want" "$tmp/out" | head; echo "FAIL options corpus: unexpected --explain-options lines"; exit 1
fi
echo "options corpus: $(wc -l <"$tmp/out") messages of hapi resolve with no error ($(grep -c 'decode=inline' "$tmp/out") decoded inline)"
