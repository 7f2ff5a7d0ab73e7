#!/bin/sh
# test/single/run.sh: the runtime's single-definition mode. The shop sample's generated code (views,
# writers, JSON) and test/single/main.c, built with PBJ_SINGLE_DEFINITION and runtime.c (PBJ_IMPLEMENTATION)
# by gcc, by clang, and with main.c and runtime.c as C++: each out-of-line runtime function (PBJ_OUTLINE in
# rt/*.h) is defined once, in runtime.o, and the program prints what the default build prints; in the
# default build the same functions are static copies (local symbols), several in more than one object.
# Usage (from the repo top): test/single/run.sh OUT   (OUT/gen: pbjc's output for samples/proto/shop)
# Environment: CFLAGS_C (warning flags for C; the Makefile passes its WARN -Werror).
set -u
OUT=$1
CFLAGS_C=${CFLAGS_C:--std=c11 -Wall -Wextra -Wpedantic -Werror}
CFLAGS_CXX="-std=c++11 -Wall -Wextra -Wpedantic -Werror -x c++"
INC="-Irt -I$OUT/gen"
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

# compile DIR CC FLAGS: the generated code and main.c into DIR (and runtime.c, when FLAGS name the mode).
compile() {
    c_dir=$OUT/$1 c_cc=$2
    shift 2
    mkdir -p "$c_dir"
    for f in order common; do $c_cc $CFLAGS_C "$@" $INC -c -o "$c_dir/$f.o" "$OUT/gen/shop/$f.pb.c" || fail "$c_dir: $f.pb.c"; done
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

compile default gcc -O1
run default gcc "$OUT"/default/*.o
global=$(for f in order common main; do defined "$OUT/default/$f.o"; done | grep -c '^T ')
shared=$(for f in order common main; do defined "$OUT/default/$f.o" | awk '{ print $2 }' | sort -u; done | sort | uniq -d | wc -l)
[ "$global" = 0 ] || fail "default: $global outline functions have external linkage"
[ "$shared" -ge 5 ] || fail "default: only $shared outline functions copied into more than one object"
[ $failed = 0 ] && echo "single: default: outline functions static, $shared of them copied into 2 or 3 of the objects"

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
