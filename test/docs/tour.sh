#!/bin/sh
# test/docs/tour.sh: README.md's five-minute tour, built and run as written. The blocks marked
# <!-- tour: NAME --> are saved as NAME in a scratch directory holding ./pbjc and rt/; run.sh runs there
# and must print the block marked expected. The program is also built with the project's warnings
# (WARN), -Werror and ASan+UBSan (SAN), and must print the same.
set -eu
readme=${README:-README.md}
dir=${1:-build/docs/tour}
rm -rf "$dir" && mkdir -p "$dir"
awk -v dir="$dir" '
    /^<!-- tour: [^ ]+ -->$/ { name = $3; next }
    /^```/ { if (out != "") { close(out); out = "" } else if (name != "") { out = dir "/" name; name = "" } next }
    out != "" { print > out }' "$readme"
for f in hello.proto hello.c run.sh expected; do
    [ -f "$dir/$f" ] || { echo "FAIL docs: $readme has no tour block $f"; exit 1; }
done
ln -s "$PWD/pbjc" "$dir/pbjc"
ln -s "$PWD/rt" "$dir/rt"
(cd "$dir" && sh -e run.sh) >"$dir/out" || { echo "FAIL docs: the tour's run.sh failed"; exit 1; }
diff -u "$dir/expected" "$dir/out" || { echo "FAIL docs: the tour prints other than $readme says"; exit 1; }
(cd "$dir" && ${CC:-cc} -std=c11 ${WARN:-} -Werror -O0 -g ${SAN:-} -I rt -I gen -o hello_strict hello.c gen/hello.pb.c \
    && ./hello_strict) >"$dir/out_strict" || { echo "FAIL docs: the tour's program under the project's flags"; exit 1; }
diff -u "$dir/expected" "$dir/out_strict" || { echo "FAIL docs: the strict build prints otherwise"; exit 1; }
echo "docs: ok (the tour of $readme builds and prints what it says, also with -Werror under ASan+UBSan)"
