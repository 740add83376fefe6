# events-compiled: functions=all makes events of the functions as compiled
# (docs/contract.md §4.1), functions=source of every function of the source.
# compiled.c at -O2, where GCC 12 inlines sq into scale, clones scale
# (scale.constprop.0), splits lookup's large part from its inlined head
# (lookup.part.0; lookup's own copy, called through a pointer, is the head,
# which jumps to the part) and keeps a tail call in tailer:
#  - every build prints what the plain build prints;
#  - functions=all leaves the program's functions as the plain build has them
#    (the same function symbols: none made a call that the plain build
#    inlines), and its events are those functions: no sq; scale's clone and
#    lookup's part record under their function's name (scale 6 times, lookup 9:
#    the calls that ran the part, 3 by the inlined heads and 6 by the head's own
#    copy, which records none of its own); callee inside tailer (Finish after what was
#    a tail call); rec 7 deep; deep and thrower, left by longjmp, complete=false;
#    with counters=off, the plain build's functions again, and GCC's inlining
#    of rec's recursion, which the counters' increments prevent, in rec's count;
#  - functions=source, -O0 and -flto: every function of the source an event,
#    each call (sq 6 times, lookup 24);
#  - verbose says which functions get their hooks where compiled;
#  - the counts of lines are the same whichever functions= (and with events
#    off, no record).
. "$(dirname "$0")/../../lib.sh"

cp "$CASE/compiled.c" .
N=6
gcc -O2 -o plain compiled.c || fail "compiled.c does not build"
./plain $N >plain.out || fail "the plain build: exit status $?"

# The functions compiled.c defines in program P, sorted (nm).
FUNCS='sq|scale|callee|tailer|lookup|rec|thrower|deep|main'
syms () {
  nm --defined-only "$1" | awk '$2 ~ /^[tT]$/ { print $3 }' | grep -E "^($FUNCS)(\..*)?\$" | sort
}
# build NAME FLAGS...: NAME built with the plugin and FLAGS and run (NAME.data);
# NAME.counts has "NAME COUNT COMPLETE" per function and completeness.
build () {
  local name=$1
  shift
  dscc "$@" -o "$name" compiled.c 2>"$name.err" || fail "$name: does not build with $*: $(cat "$name.err")"
  [ ! -s "$name.err" ] || fail "$name: diagnostics: $(cat "$name.err")"
  DSPROF_OUT=$name.data "./$name" $N >"$name.out" || fail "$name: exit status $?"
  expect_same plain.out "$name.out"
  run_dsprof report name complete --format csv "$name.data" |
    awk -F, 'NR > 1 && $1 == 2 { print $2, $(NF - 1), $3 }' | sort >"$name.counts" ||
    fail "$name: dsprof report failed"
}
# counts_are NAME LINE...: NAME.counts is the LINEs ("FUNCTION COUNT COMPLETE").
counts_are () {
  local name=$1
  shift
  printf '%s\n' "$@" | sort >"$name.want"
  diff -u "$name.want" "$name.counts" >&2 ||
    fail "$name: not the expected events (symbols: $(syms "$name" | tr '\n' ' '))"
}

build all -O2 -fplugin-arg-dsprof-functions=all
syms plain >plain.syms
syms all >all.syms
diff -u plain.syms all.syms >&2 || fail "functions=all changed which functions the program has"
for s in scale.constprop.0 lookup.part.0 tailer; do
  grep -qx "$s" all.syms || fail "GCC did not make $s here, which this test is about: $(cat all.syms)"
done
grep -q '^sq' all.syms && fail "GCC did not inline sq, which this test is about"
counts_are all "main 1 true" "scale 6 true" "tailer 6 true" "callee 6 true" "lookup 9 true" \
  "rec 7 true" "deep 1 false" "thrower 1 false"
# The same with counters=off, a unit whose only sites get their hooks late: the
# plain build's functions, and the same events but rec's, whose recursion GCC
# inlines two levels deep here as in the plain build, not with the counters'
# increments in its body (as gcov's change what it inlines).
build allnc -O2 -fplugin-arg-dsprof-functions=all -fplugin-arg-dsprof-counters=off
syms allnc >allnc.syms
diff -u plain.syms allnc.syms >&2 || fail "functions=all counters=off changed which functions the program has"
expect_same <(grep -v '^rec ' all.counts) <(grep -v '^rec ' allnc.counts)
rec=$(awk '$1 == "rec" { print $2 }' allnc.counts)
[ "${rec:-0}" -ge 1 ] && [ "$rec" -lt 7 ] ||
  fail "counters=off: $rec records of rec, not between 1 and 6 (its recursion inlined)"
run_dsprof report name parent --format csv all.data | awk -F, '$1 == 2 { print $2, $3, $(NF - 1) }' >all.parents
grep -qx 'callee tailer 6' all.parents || fail "callee not inside tailer: $(cat all.parents)"
grep -qx 'rec rec 6' all.parents || fail "rec not inside rec: $(cat all.parents)"
grep -q '^lookup lookup ' all.parents && fail "lookup's head records its part inside itself: $(cat all.parents)"

EVERY=("main 1 true" "sq 6 true" "scale 6 true" "tailer 6 true" "callee 6 true" "lookup 24 true"
       "rec 7 true" "deep 1 false" "thrower 1 false")
build source -O2 -fplugin-arg-dsprof-functions=source
counts_are source "${EVERY[@]}"
build all0 -O0 -fplugin-arg-dsprof-functions=all
counts_are all0 "${EVERY[@]}"
build source0 -O0 -fplugin-arg-dsprof-functions=source
counts_are source0 "${EVERY[@]}"
build lto -O2 -flto -fplugin-arg-dsprof-functions=all
counts_are lto "${EVERY[@]}"

# verbose says where each function's hooks go.
for m in all source; do
  gcc -O2 -fplugin="$PLUGIN" -fplugin-arg-dsprof-functions=$m -fplugin-arg-dsprof-verbose \
    -I"$TOP/runtime" -c compiled.c -o /dev/null 2>verbose.$m || fail "verbose $m: gcc failed"
done
grep -q ': sq: .*, event hooks where compiled$' verbose.all || fail "verbose, all: sq's line: $(cat verbose.all)"
grep -q ': sq: .*, event hooks$' verbose.source || fail "verbose, source: sq's line: $(cat verbose.source)"

# Where the events are does not change the counts of lines.
build annotated -O2
for b in all source; do
  run_dsprof lines $b.data >$b.lines || fail "dsprof lines $b.data failed"
done
run_dsprof lines annotated.data >annotated.lines || fail "dsprof lines annotated.data failed"
expect_same annotated.lines all.lines
expect_same annotated.lines source.lines

# Events off: the same output, no record.
DSPROF_EVENTS=0 DSPROF_OUT=off.data ./all $N >off.out || fail "events off: exit status $?"
expect_same plain.out off.out
[ -z "$(run_dsprof records off.data)" ] || fail "events off: records: $(run_dsprof records off.data | head)"
