#!/bin/sh
# extwire.sh DIR: records of test/encode/extwire.proto's extensions, of the declared wire type and of others, packed
# and not, whole and cut (issue 14 item 2), decoded then encoded by pbj's code (DIR/unit --ext, which also reads every
# extension through its accessors): accepted or rejected ("error") and written back as protobuf's C++ runtime does
# (test/encode/oracle.py). A record of the wrong wire type is an unknown field, written back last, as C++ does.
# Inputs only where pbj and C++ agree on the bytes (see test/parity/README.md's departures: pbj keeps extension
# records as they came, C++ writes its parsed values again).
set -e
dir=$1
protoc -Itest/encode --descriptor_set_out="$dir/extwire.desc" extwire.proto
fixed64_2044=$(printf '52fc0f%04088d' 0)                         # fixed64 10 as a 2,044-byte length-delimited record
cases="$fixed64_2044 88808080800005 5101000000000000a0 52080100000000000000 5a0401000000 5a0401000000 f20106010000000200
  f201080100000002000000
  fa010c010000000000000002000000 f9010300000000000000 8202020180
  82020c01ffffffffffffffffffff01 820203018001 82020401020304 6007 620107 6580808080 687f 6a0101 8001ffffffffffffffffff01
  8a0103616263 8a0103616263 8d0101000000 900101 9a0100 9b0108010c9c01 9b01 9b0108 9b01080a9c01
  920102080a a00101 a2010101 b2010161 b5016161ffff aa0400 a8020108 ad0200000000
  aa0203000080 0800 0a00 a0060a
  a00105a00601 a00101a00105 a00201a00205a00200 a002ffffffffffffffffff01"
# accepted alike, but C++ writes its parsed values again: packs or unpacks repeated numbers, merges message records
verdicts="f50105000000 f50105000000f2010402000000 fa011001000000000000000200000000000000 800201 92010208019201020802
  aa02080000803f0000803f 9201020801 a2020208 a202020801a202020802 a20203010500 a2020105"
/usr/bin/python3 test/encode/oracle.py "$dir/extwire.desc" encx.Host -e $cases > "$dir/protobuf-ext.txt"
"$dir/unit" --ext $cases > "$dir/pbj-ext.txt"
verdict() { sed 's/-> [0-9a-f]*$/-> accepted/'; }
/usr/bin/python3 test/encode/oracle.py "$dir/extwire.desc" encx.Host -e $verdicts | verdict >> "$dir/protobuf-ext.txt"
"$dir/unit" --ext $verdicts | verdict >> "$dir/pbj-ext.txt"
diff -u "$dir/protobuf-ext.txt" "$dir/pbj-ext.txt" || { echo "extwire.sh: pbj's verdict or bytes differ from protobuf's"; exit 1; }
echo "extwire.sh: $(echo $cases $verdicts | wc -w) extension records decoded (or rejected) as protobuf's, $(echo $cases | wc -w) re-encoded to its bytes"
