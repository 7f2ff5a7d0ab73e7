#!/bin/sh
# first_location_diff.sh: the first SourceCodeInfo location where two descriptor sets differ,
# decoded (file, index, path, span, comments), so a parity failure explains itself.
# usage: test/descriptor/first_location_diff.sh EXPECTED.pb GOT.pb
set -u
for f in "$1" "$2"; do
    [ -f "$f" ] || { echo "  ($f was not written)"; exit 0; }
done
decode() {
    protoc -I/usr/include --decode=google.protobuf.FileDescriptorSet google/protobuf/descriptor.proto <"$1" 2>&1
}
# One line per location: "file NAME #INDEX: path [..] span [..] ..." (comments escaped as decoded).
flatten() {
    awk '
        /^file \{/ { file = ""; n = 0 }
        /^  name: / && file == "" { file = $2 }
        /^    location \{/ { inloc = 1; n++; path = ""; span = ""; rest = ""; next }
        inloc && /^    \}/ { printf "file %s #%d: path [%s] span [%s]%s\n", file, n - 1, path, span, rest; inloc = 0; next }
        inloc && /^ *path: / { path = path (path == "" ? "" : " ") $2; next }
        inloc && /^ *span: / { span = span (span == "" ? "" : " ") $2; next }
        inloc { sub(/^ +/, " "); rest = rest $0 }
    '
}
decode "$1" | flatten >"$2.want.loc"
decode "$2" | flatten >"$2.got.loc"
if cmp -s "$2.want.loc" "$2.got.loc"; then
    echo "  (the locations are equal; the difference is elsewhere)"
    exit 0
fi
awk 'NR == FNR { want[FNR] = $0; n = FNR; next }
     want[FNR] != $0 { print "  first differing location:"; print "    protoc: " (FNR in want ? want[FNR] : "(none)"); print "    pbjc:   " $0; found = 1; exit }
     END { if (!found && FNR < n) { print "  first differing location:"; print "    protoc: " want[FNR + 1]; print "    pbjc:   (none)" } }' \
    "$2.want.loc" "$2.got.loc"
