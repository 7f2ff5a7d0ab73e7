#!/bin/sh
# test/single/run.sh: where the runtime's out-of-line functions (PBJ_OUTLINE in rt/*.h) are compiled. The shop
# sample's generated code (views, writers, JSON) and test/single/main.c:
# - as generated in one pbjc run (the default): common.pb.c, which order.pb.c imports, holds the run's copy
#   of each (weak), order.o none, nor leaf.o (test/single/leaf.proto, which imports nothing of the run: it shares
#   the copy too, and links only beside common.o or with PBJ__RUN_SHARED 0); the size tier's the same (order.o
#   compiles no table walker);
# - generated one file a run (no views, writers): static copies (local symbols), several in both objects;
# - with PBJ_SINGLE_DEFINITION and runtime.c (PBJ_IMPLEMENTATION), by gcc, by clang, and with main.c and
#   runtime.c as C++: each defined once, in runtime.o.
# Each program prints what the default build prints.
# Usage (from the repo top): test/single/run.sh OUT   (pbjc's output for samples/proto/shop: OUT/gen in one
# run with test/single/leaf.proto, OUT/gen1 a run per file, OUT/gensize the size tier in one run)
# Environment: CFLAGS_C (warning flags for C; the Makefile passes its WARN -Werror).
set -u
OUT=$1
CFLAGS_C=${CFLAGS_C:--std=c11 -Wall -Wextra -Wpedantic -Werror}
CFLAGS_CXX="-std=c++11 -Wall -Wextra -Wpedantic -Werror -x c++"
GEN=gen   # which of pbjc's outputs compile builds
failed=0
fail() { echo "FAIL single: $*"; failed=$((failed + 1)); }

# Every PBJ_OUTLINE function of the runtime, by name (a prototype ahead of a recursive one's body, `...);`, aside).
grep -hv ');' rt/*.h | sed -n 's/^\(PBJ_MUST_USE \)\{0,1\}PBJ_OUTLINE [^(]*[ *]\([a-z_0-9]*\)(.*/\2/p' | sort >"$OUT/outline"
[ "$(wc -l <"$OUT/outline")" -ge 80 ] || fail "only $(wc -l <"$OUT/outline") PBJ_OUTLINE functions found in rt/*.h"
# Each is written `PBJ_OUTLINE T f(...) PBJ__PROTO`, its body under `#if PBJ__BODIES` on the next line.
unwrapped=$(awk '/^(PBJ_MUST_USE )?PBJ_OUTLINE / && !/\);/ { head = FILENAME ":" FNR; open = 1 }
                 open && /PBJ__PROTO$/ { open = 0; want = 1; next }
                 open && /^[{#]/ { print head; open = 0 }
                 want { if ($0 != "#if PBJ__BODIES") print head; want = 0 }' rt/*.h)
[ -z "$unwrapped" ] || fail "PBJ_OUTLINE functions not written as 'T f(...) PBJ__PROTO' + '#if PBJ__BODIES': $(echo $unwrapped)"

# compile DIR CC FLAGS: the generated code ($OUT/$GEN) and main.c into DIR (and runtime.c, when FLAGS name the mode).
compile() {
    c_dir=$OUT/$1 c_cc=$2 INC="-Irt -I$OUT/$GEN"
    shift 2
    mkdir -p "$c_dir"
    for f in order common; do $c_cc $CFLAGS_C "$@" $INC -c -o "$c_dir/$f.o" "$OUT/$GEN/shop/$f.pb.c" || fail "$c_dir: $f.pb.c"; done
    $c_cc $CFLAGS_C "$@" $INC -c -o "$c_dir/main.o" test/single/main.c || fail "$c_dir: main.c"
    case "$*" in *PBJ_SINGLE_DEFINITION*) $c_cc $CFLAGS_C "$@" $INC -c -o "$c_dir/runtime.o" test/single/runtime.c || fail "$c_dir: runtime.c";; esac
}

# run NAME LINKER OBJECTS...: link and run; its output is what the default build printed.
run() {
    r_name=$1 r_ld=$2
    shift 2
    $r_ld -o "$OUT/$r_name.prog" "$@" -lm || { fail "$r_name: link"; return; }
    "$OUT/$r_name.prog" >"$OUT/$r_name.out" || fail "$r_name: the program failed: $(grep FAIL "$OUT/$r_name.out")"
    [ "$r_name" = default ] || cmp -s "$OUT/default.out" "$OUT/$r_name.out" || fail "$r_name: prints otherwise than the default build"
}

# defined OBJECT: the outline functions OBJECT defines, as "T name" (global) or "t name" (local).
defined() { nm "$1" | awk 'NF == 3 && ($2 == "T" || $2 == "t") { print $2, $3 }' | sort -k2 | join -1 2 -2 1 -o 1.1,1.2 - "$OUT/outline"; }

# once NAME DIR: runtime.o defines every outline function, globally; the other objects none, and they call
# some; the program holds exactly one copy of each.
once() {
    o_name=$1 o_dir=$OUT/$2
    n=$(defined "$o_dir/runtime.o" | grep -c '^T ')
    [ "$n" = "$(wc -l <"$OUT/outline")" ] || fail "$o_name: runtime.o defines $n of the $(wc -l <"$OUT/outline") outline functions globally"
    for f in order common main; do
        d=$(defined "$o_dir/$f.o" | tr '\n' ' ')
        [ -z "$d" ] || fail "$o_name: $f.o defines outline functions: $d"
    done
    used=$(nm -u "$o_dir/order.o" "$o_dir/common.o" "$o_dir/main.o" | awk '{ print $2 }' | sort -u | join - "$OUT/outline" | wc -l)
    [ "$used" -ge 10 ] || fail "$o_name: the objects call only $used outline functions"
    copies=$(nm "$OUT/$o_name.prog" | awk 'NF == 3 && ($2 == "T" || $2 == "t") { print $3 }' | sort | join - "$OUT/outline" | uniq -d)
    [ -z "$copies" ] || fail "$o_name: more than one copy of $(echo $copies)"
    [ $failed = 0 ] && echo "single: $o_name: each of the $(wc -l <"$OUT/outline") outline functions defined once (runtime.o), $used called from the other objects; prints as the default build"
}

# weak OBJECT: the outline functions OBJECT defines weak (a run's copy).
weak() { nm "$1" | awk 'NF == 3 && $2 == "W" { print $3 }' | sort | join - "$OUT/outline"; }
# calls OBJECT: how many outline functions OBJECT calls.
calls() { nm -u "$1" | awk '{ print $2 }' | sort -u | join - "$OUT/outline" | wc -l; }

# The default, one run: common.o holds the run's copy of every outline function of pbj.h, pbj_view.h and
# pbj_writer.h (weak), order.o defines none and calls them, main.o (not generated) has static copies.
compile default gcc -O1
run default gcc "$OUT"/default/*.o
home=$(weak "$OUT/default/common.o" | wc -l)
[ "$home" -ge 60 ] || fail "default: common.o (the run's home) defines $home outline functions weak"
d=$(defined "$OUT/default/order.o"; weak "$OUT/default/order.o")
[ -z "$d" ] || fail "default: order.o defines outline functions: $(echo $d)"
[ "$(calls "$OUT/default/order.o")" -ge 10 ] || fail "default: order.o calls only $(calls "$OUT/default/order.o") outline functions"
[ "$(defined "$OUT/default/main.o" | grep -c '^T ')" = 0 ] || fail "default: main.o has outline functions with external linkage"
[ $failed = 0 ] && echo "single: default (one run): $home outline functions in common.o (weak), none in order.o (calls $(calls "$OUT/default/order.o"))"

# A program linking order.o without common.o fails at the link, naming the file to add.
if gcc -o "$OUT/nohome.prog" "$OUT"/default/order.o "$OUT"/default/main.o -lm 2>"$OUT/nohome.err"; then
    fail "without common.o (the run's home) the program links"
elif grep -q 'undefined reference to .pbj_runtime_of_this_run_is_in_shop_common_pb_c' "$OUT/nohome.err"; then
    echo "single: without common.o: the link names pbj_runtime_of_this_run_is_in_shop_common_pb_c"
else
    fail "without common.o: the link does not name the run's home:"; head -5 "$OUT/nohome.err"
fi

# leaf.proto, in the run but importing nothing of it, shares common.o's copy: leaf.o defines no outline function;
# a program using it links beside common.o, not alone (the link names the home), and alone with PBJ__RUN_SHARED 0.
printf '#include "leaf.pb.h"\nint main(void)\n{\n    single_Leaf m;\n    single_Leaf_init(&m);\n    m.count = 300;\n    uint8_t b[32];\n    size_t n;\n    return single_Leaf_encode(&m, b, sizeof b, &n) != PBJ_OK || n != 3;\n}\n' >"$OUT/leaf_main.c"
mkdir -p "$OUT/leaf"
gcc $CFLAGS_C -O1 -Irt -I"$OUT/gen" -c -o "$OUT/leaf/leaf.o" "$OUT/gen/leaf.pb.c" || fail "leaf: leaf.pb.c"
gcc $CFLAGS_C -O1 -DPBJ__RUN_SHARED=0 -Irt -I"$OUT/gen" -c -o "$OUT/leaf/alone.o" "$OUT/gen/leaf.pb.c" || fail "leaf: leaf.pb.c, PBJ__RUN_SHARED 0"
gcc $CFLAGS_C -O1 -Irt -I"$OUT/gen" -c -o "$OUT/leaf/main.o" "$OUT/leaf_main.c" || fail "leaf: leaf_main.c"
d=$(defined "$OUT/leaf/leaf.o"; weak "$OUT/leaf/leaf.o")
[ -z "$d" ] || fail "leaf: leaf.o (importing nothing of the run) defines outline functions: $(echo $d)"
[ "$(calls "$OUT/leaf/leaf.o")" -ge 1 ] || fail "leaf: leaf.o calls no outline function"
gcc -o "$OUT/leaf.prog" "$OUT/leaf/main.o" "$OUT/leaf/leaf.o" "$OUT/default/common.o" -lm && "$OUT/leaf.prog" ||
    fail "leaf: leaf.o beside common.o does not link or run"
if gcc -o "$OUT/leaf_nohome.prog" "$OUT/leaf/main.o" "$OUT/leaf/leaf.o" -lm 2>"$OUT/leaf_nohome.err"; then
    fail "leaf: leaf.o links without common.o (the run's home)"
elif ! grep -q 'undefined reference to .pbj_runtime_of_this_run_is_in_shop_common_pb_c' "$OUT/leaf_nohome.err"; then
    fail "leaf: without common.o the link does not name the run's home:"; head -5 "$OUT/leaf_nohome.err"
fi
gcc -o "$OUT/leaf_alone.prog" "$OUT/leaf/main.o" "$OUT/leaf/alone.o" -lm && "$OUT/leaf_alone.prog" ||
    fail "leaf: leaf.pb.c with PBJ__RUN_SHARED 0 does not link or run alone"
[ $failed = 0 ] && echo "single: leaf.proto (imports nothing of the run): shares common.o's copy; links beside it, not alone; alone with PBJ__RUN_SHARED 0"

# A unity build (one translation unit including both sources) takes the first one's mode: with the run's home
# first it holds the copy and links on its own; with PBJ__RUN_SHARED 0 first it keeps static copies and links on
# its own; with the home after a sharing source the compile stops, naming the home to put first.
printf '#define PBJ__RUN_SHARED 0\n#include "shop/order.pb.c"\n#include "shop/common.pb.c"\n' >"$OUT/unity.c"
printf '#include "shop/common.pb.c"\n#include "shop/order.pb.c"\n' >"$OUT/unity_home.c"
sed 1d "$OUT/unity.c" >"$OUT/unity_late.c"
gcc $CFLAGS_C -O1 -Irt -I"$OUT/gen" -c -o "$OUT/unity_home.o" "$OUT/unity_home.c" || fail "unity: the home first does not compile"
run unity_home gcc "$OUT/unity_home.o" "$OUT/default/main.o"
if gcc $CFLAGS_C -O1 -Irt -I"$OUT/gen" -c -o "$OUT/unity_late.o" "$OUT/unity_late.c" 2>"$OUT/unity_late.err"; then
    fail "unity: the home after a sharing source compiles (its copy of the runtime would be missing)"
elif grep -q 'shop/common.pb.c holds this pbjc run.s copy of the runtime' "$OUT/unity_late.err"; then
    echo "single: unity: the home after a sharing source stops the compile, naming shop/common.pb.c"
else
    fail "unity: the home after a sharing source fails without naming it:"; head -5 "$OUT/unity_late.err"
fi
gcc $CFLAGS_C -O1 -Irt -I"$OUT/gen" -c -o "$OUT/unity.o" "$OUT/unity.c" || fail "unity: PBJ__RUN_SHARED 0 does not compile"
run unity gcc "$OUT/unity.o" "$OUT/default/main.o"

# The size tier, one run: order.o compiles none of the table walker (size, encode, decode), it calls it.
GEN=gensize
compile size gcc -O1
run size gcc "$OUT"/size/*.o
walker=$(nm "$OUT/size/order.o" | awk 'NF == 3 && $2 ~ /[TtWw]/ && $3 ~ /^pbj(_table_decode|_table_write|_table_size_depth|__tw_)/ { print $3 }')
[ -z "$walker" ] || fail "size: order.o compiles the table walker: $(echo $walker)"
nm -u "$OUT/size/order.o" | grep -q ' pbj_table_decode$' || fail "size: order.o does not call pbj_table_decode"
[ $failed = 0 ] && echo "single: size tier (one run): order.o calls the walker in common.o, compiles none of it; prints as the default"

# One file a run (no views, writers: those need the files they reach in their run): each object its own static copies.
mkdir -p "$OUT/perfile"
for f in order common; do gcc $CFLAGS_C -O1 -Irt -I"$OUT/gen1" -c -o "$OUT/perfile/$f.o" "$OUT/gen1/shop/$f.pb.c" || fail "perfile: $f.pb.c"; done
global=$(for f in order common; do defined "$OUT/perfile/$f.o"; weak "$OUT/perfile/$f.o"; done | grep -vc '^t ')
shared=$(for f in order common; do defined "$OUT/perfile/$f.o" | awk '{ print $2 }' | sort -u; done | sort | uniq -d | wc -l)
[ "$global" = 0 ] || fail "a run per file: $global outline functions have external linkage"
[ "$shared" -ge 5 ] || fail "a run per file: only $shared outline functions copied into both objects"
[ $failed = 0 ] && echo "single: a run per file: outline functions static, $shared of them copied into both objects"
GEN=gen

compile gcc gcc -O1 -DPBJ_SINGLE_DEFINITION
run gcc gcc "$OUT"/gcc/*.o
once gcc gcc

compile clang clang -O0 -DPBJ_SINGLE_DEFINITION
run clang clang "$OUT"/clang/*.o
once clang clang

# C++: main.c and runtime.c as C++ (g++ with gcc's objects, clang++ with clang's): extern "C" throughout.
for cxx in g++:gcc clang++:clang; do
    c=${cxx%%:*} objs=$OUT/${cxx#*:}
    mkdir -p "$OUT/$c"
    $c $CFLAGS_CXX -O0 -DPBJ_SINGLE_DEFINITION $INC -c -o "$OUT/$c/main.o" test/single/main.c || fail "$c: main.c"
    $c $CFLAGS_CXX -O0 -DPBJ_SINGLE_DEFINITION $INC -c -o "$OUT/$c/runtime.o" test/single/runtime.c || fail "$c: runtime.c"
    cp "$objs/order.o" "$objs/common.o" "$OUT/$c/"
    run "$c" "$c" "$OUT/$c"/*.o
    once "$c" "$c"
done

# Forgetting the implementation file fails at the link, naming a runtime function.
if gcc -o "$OUT/none.prog" "$OUT"/gcc/order.o "$OUT"/gcc/common.o "$OUT"/gcc/main.o -lm 2>"$OUT/none.err"; then
    fail "without runtime.o the program links"
elif grep -q 'undefined reference to .pbj_' "$OUT/none.err"; then
    echo "single: without runtime.o: $(grep -c 'undefined reference to .pbj_' "$OUT/none.err") undefined references to pbj_ functions"
else
    fail "without runtime.o: no undefined pbj_ function named:"; head -5 "$OUT/none.err"
fi

[ $failed = 0 ] || { echo "check-single: $failed failures"; exit 1; }
echo "check-single: ok"
