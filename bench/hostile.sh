#!/bin/sh
# bench/hostile.sh PBJC OUTDIR: pbjc -o beside protoc -o (a descriptor set) on hostile schemas, one message
# of 100,000 int64 fields and one enum of 50,000 values: CPU seconds and peak RSS of each (GNU time), and pbjc's
# ratio to protoc (the target: within 2x of both); then a oneof of 1,250 to 5,000 members and 1,250 to 5,000
# enums of 10 values, doubling (issue 28: linear, 5,000 under a second). Not a timed test: `make bench-hostile`
# prints the figures.
set -eu
PBJC=${1:?usage: hostile.sh PBJC OUTDIR}
OUT=${2:?usage: hostile.sh PBJC OUTDIR}
FIELDS=${FIELDS:-100000}
VALUES=${VALUES:-50000}
rm -rf "$OUT" && mkdir -p "$OUT/gen"

# (field numbers 19000 to 19999 are the protobuf library's: skipped)
awk -v n="$FIELDS" 'BEGIN { print "syntax = \"proto3\";\npackage hostile;\nmessage Wide {";
    for (i = 1; i <= n; i++) printf "  int64 f%d = %d;\n", i, i < 19000 ? i : i + 1000; print "}" }' > "$OUT/fields.proto"
awk -v n="$VALUES" 'BEGIN { print "syntax = \"proto3\";\npackage hostile;\nenum Many {";
    for (i = 0; i < n; i++) printf "  MANY_%d = %d;\n", i, i; print "}" }' > "$OUT/values.proto"

# measure NAME CMD...: "user+sys seconds, peak KB" of CMD into $OUT/NAME.time
measure() {
    name=$1
    shift
    /usr/bin/time -f '%U %S %M' -o "$OUT/$name.time" "$@" >/dev/null
}

# row LABEL PBJC_TIME PROTOC_TIME: one line of the table
row() {
    awk -v l="$1" '
        NR == FNR { ps = $1 + $2; pm = $3; next }
        { qs = $1 + $2; qm = $3 }
        END { printf "%-26s %10.2f %10.2f %10.0f %10.0f %7.2fx %7.2fx\n", l, ps, qs, pm / 1024, qm / 1024,
                     ps / (qs > 0.01 ? qs : 0.01), pm / qm }' "$2" "$3"
}

printf '%-26s %10s %10s %10s %10s %8s %8s\n' "schema (pbjc beside protoc -o)" pbjc_s protoc_s pbjc_MB protoc_MB time_x rss_x
for schema in fields values; do
    n=$(grep -c '^  ' "$OUT/$schema.proto")
    measure "$schema.protoc" protoc -I "$OUT" -o "$OUT/$schema.pb" "$OUT/$schema.proto"
    measure "$schema.pbjc" "$PBJC" -I "$OUT" -o "$OUT/gen" "$OUT/$schema.proto"
    row "$schema $n: -o" "$OUT/$schema.pbjc.time" "$OUT/$schema.protoc.time"
    measure "$schema.check" "$PBJC" --check -I "$OUT" "$OUT/$schema.proto"
    row "$schema $n: --check" "$OUT/$schema.check.time" "$OUT/$schema.protoc.time"
done

# the curves: each size twice the last, so linear shows as time doubling
awk_oneof() { awk -v n="$1" 'BEGIN { print "syntax = \"proto3\";\npackage hostile;\nmessage Pick {\n  oneof o {";
    for (i = 1; i <= n; i++) printf "    int32 f%d = %d;\n", i, i; print "  }\n}" }'; }
awk_enums() { awk -v n="$1" 'BEGIN { print "syntax = \"proto3\";\npackage hostile;";
    for (e = 0; e < n; e++) { printf "enum E%d {", e; for (v = 0; v < 10; v++) printf " E%d_V%d = %d;", e, v, v; print " }" } }'; }
for n in 1250 2500 5000; do
    awk_oneof "$n" > "$OUT/oneof$n.proto"
    awk_enums "$n" > "$OUT/enums$n.proto"
    for schema in oneof enums; do
        measure "$schema$n.protoc" protoc -I "$OUT" -o "$OUT/$schema$n.pb" "$OUT/$schema$n.proto"
        measure "$schema$n.pbjc" "$PBJC" -I "$OUT" -o "$OUT/gen" "$OUT/$schema$n.proto"
        row "$schema $n: -o" "$OUT/$schema$n.pbjc.time" "$OUT/$schema$n.protoc.time"
    done
done
