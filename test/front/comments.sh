#!/bin/sh
# comments.sh: the comments the parser attaches (leading, trailing, detached) equal
# protoc's SourceCodeInfo for every declaration, on the well-known types, hapi and
# test/front/cases.  usage: test/front/comments.sh COMMENT_DUMP   (from the repository top;
# hapi comes from $CORPUS, ../shared/corpus unless set, and is left out when CORPUS is empty)
set -u
DUMP=${1:?usage: comments.sh COMMENT_DUMP}
CORPUS=${CORPUS-../shared/corpus}
HAPI=$CORPUS/hapi-v0.59.0
tmp=${TMPDIR:-/tmp}/pbjc-comments.$$
trap 'rm -rf "$tmp".*' EXIT
files=0 failures=0

# check FILE ROOT...: protoc's comments for FILE (found on the roots) against ours.
check() {
    file=$1; shift
    roots=""
    for r in "$@"; do roots="$roots -I$r"; done
    if ! protoc $roots -I/usr/include --include_source_info --descriptor_set_out="$tmp.pb" "$file" 2>"$tmp.err"; then
        echo "comments: $file: protoc failed:"; cat "$tmp.err"; failures=$((failures + 1)); return
    fi
    protoc -I/usr/include --decode=google.protobuf.FileDescriptorSet google/protobuf/descriptor.proto <"$tmp.pb" |
        awk -f test/front/protoc_comments.awk | sort >"$tmp.protoc"
    "$DUMP" "$file" | sort >"$tmp.pbjc"
    files=$((files + 1))
    if ! cmp -s "$tmp.protoc" "$tmp.pbjc"; then
        echo "comments: $file: FAIL (protoc -, pbjc +):"
        diff -u "$tmp.protoc" "$tmp.pbjc" | head -40
        failures=$((failures + 1))
    fi
}

for f in $(find /usr/include/google/protobuf -name '*.proto' | LC_ALL=C sort); do check "$f" /usr/include; done
if [ -n "$CORPUS" ]; then
    for f in $(find $HAPI/services $HAPI/block $HAPI/platform $HAPI/streams -name '*.proto' | LC_ALL=C sort); do
        check "$f" $HAPI/services $HAPI/block $HAPI/platform $HAPI/streams
    done
    for f in $(find $HAPI/mirror -name '*.proto' | LC_ALL=C sort); do check "$f" $HAPI/mirror $HAPI/services; done
    for f in $(find $HAPI/sdk -name '*.proto' | LC_ALL=C sort); do check "$f" $HAPI/sdk $HAPI/services $HAPI/platform; done
fi
for f in test/front/cases/*.proto; do check "$f" test/front/cases; done
# the same cases with CRLF line ends and a UTF-8 byte order mark
mkdir -p "$tmp.crlf"
for f in test/front/cases/*.proto; do
    { printf '\357\273\277'; sed 's/$/\r/' "$f"; } >"$tmp.crlf/$(basename "$f")"
    check "$tmp.crlf/$(basename "$f")" "$tmp.crlf"
done

if [ "$failures" -ne 0 ]; then echo "comments: $failures of $files files differ from protoc"; exit 1; fi
echo "comments: ok ($files files, comments identical to protoc's SourceCodeInfo)"
